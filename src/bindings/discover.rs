//! Binding of [`crate::discover`]: not part of api.md, used by the Jest and Vitest sequencers.

use wasm_bindgen::prelude::*;

use super::{to_js, JsResult};

/// `__discoverTests(source)` -> `{ tests: string[][], unnamed: number }`: the title paths of the
/// tests a Jest/Vitest file declares, and how many test calls have titles known only at run time.
#[wasm_bindgen(js_name = "__discoverTests")]
pub fn discover_tests(source: &str) -> JsResult<JsValue> {
    to_js(&crate::discover::discover_tests(source))
}
