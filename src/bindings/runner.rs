//! Bindings the runner integrations use (not part of the public API, pkg-template/index.d.ts): the
//! Jest and Vitest sequencers' test list ([`crate::discover`]) and every runner's reading of
//! durations out of a report ([`crate::plan::from_report::test_durations`]), so the JavaScript glue
//! re-implements neither.

use wasm_bindgen::prelude::*;

use super::report::stringify;
use super::{to_js, JsResult};
use crate::error::Error;
use crate::plan::from_report::{test_durations, ReportView};

/// `__discoverTests(source)` -> `{ tests: string[][], unnamed: number }`: the title paths of the
/// tests a Jest/Vitest file declares, and how many test calls have titles known only at run time.
#[wasm_bindgen(js_name = "__discoverTests")]
pub fn discover_tests(source: &str) -> JsResult<JsValue> {
    to_js(&crate::discover::discover_tests(source))
}

/// `__testDurations(report)` -> `[{ environment, file?, titlePath, durationMs }]`: each test's
/// summed attempt durations per environment (a timings file, or `fetchDurations`' result).
#[wasm_bindgen(js_name = "__testDurations")]
pub fn test_durations_of(report: JsValue) -> JsResult<JsValue> {
    let json = stringify(&report, "the timings report")?;
    let view: ReportView = crate::from_json(json.as_bytes())
        .map_err(|e| Error::invalid_input(format!("the timings report is not a report document: {e}")))?;
    to_js(&test_durations(&view))
}
