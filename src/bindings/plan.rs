//! `planShards`.

use wasm_bindgen::prelude::*;

use super::report::stringify;
use super::{to_js, JsResult};
use crate::plan::{self, PlanInput};

/// Splits units (or an annotated report's tests) into shards of equal predicted time. Pure and
/// deterministic: the same input gives a bit-identical plan on every host.
#[wasm_bindgen(js_name = planShards)]
pub fn plan_shards(opts: JsValue) -> JsResult<JsValue> {
    // Options are plain data (a report or units): JSON text is the fast way across.
    let json = stringify(&opts, "planShards options")?;
    let input = PlanInput::from_json(&json)?;
    to_js(&plan::plan_shards(input)?)
}
