//! Bindings the runner integrations use (not part of the public API, pkg-template/index.d.ts): the
//! Jest and Vitest sequencers' test list ([`crate::discover`]) and every runner's reading of
//! durations out of a report ([`crate::plan::from_report::test_durations`]), so the JavaScript glue
//! re-implements neither.

use wasm_bindgen::prelude::*;

use super::report::{parse, report_object, stringify, timings_json_from_js};
use super::{bytes_or_text_from_js, to_js, JsResult};
use crate::error::Error;
use crate::plan::from_report::{test_durations, ReportView};

/// `__discoverTests(source)` -> `{ tests: string[][], unnamed: number }`: the title paths of the
/// tests a Jest/Vitest file declares, and how many test calls have titles known only at run time.
/// `source`: the file's bytes as read (a `Uint8Array`: one copy into wasm, where a string is
/// carried across a character at a time, which cost a shard's plan 70 ms on 2 MB of sources
/// before the JIT warmed up; text that is not UTF-8 has its bytes replaced), or a string.
#[wasm_bindgen(js_name = "__discoverTests")]
pub fn discover_tests(source: JsValue) -> JsResult<JsValue> {
    let bytes = bytes_or_text_from_js(&source, "a source")?;
    to_js(&crate::discover::discover_tests(&super::text_of(&bytes)))
}

/// `__discoverImports(source)` -> `{ imports?: string[], bareImports?: string[] }`: the modules a
/// file loads, as `__discoverTests` lists them, without its tests ([`crate::discover::discover_imports`]).
/// `source` as `__discoverTests` takes it.
#[wasm_bindgen(js_name = "__discoverImports")]
pub fn discover_imports(source: JsValue) -> JsResult<JsValue> {
    let bytes = bytes_or_text_from_js(&source, "a source")?;
    to_js(&crate::discover::discover_imports(&super::text_of(&bytes)))
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

/// `__readTimings(bytes, byFile, withReport?)` -> `{ report?, durations | files, costs }`: a timings file read
/// once: the report as `decodeReport` reads it (without the schema's check:
/// [`timings_json_from_js`]), its tests' durations as `__testDurations` gives them (with `byFile`,
/// summed by file instead: [`crate::plan::from_report::file_durations`]) and its cost model as
/// `shardCosts` gives it, from one decoding (a shard's plan reads all three, and each call apart
/// would carry the whole report across again). `withReport: false` leaves the report out: a
/// file runner's plan reads only the files' figures and the costs (date-fns's 650 KB timings
/// report, parsed back to an object it never read, was 20-30 ms of a Vitest shard's start).
#[wasm_bindgen(js_name = "__readTimings")]
pub fn read_timings(bytes: JsValue, by_file: bool, with_report: Option<bool>) -> JsResult<JsValue> {
    let json = timings_json_from_js(&bytes, |e| e)?;
    let out = timings(&json, by_file)?;
    with_report_object(&out, &json, with_report)?;
    Ok(out)
}

/// The report object beside what [`read_timings`] and [`read_timings_runs`] worked out, unless
/// `with_report` is `Some(false)`.
fn with_report_object(out: &JsValue, json: &[u8], with_report: Option<bool>) -> JsResult<()> {
    if with_report != Some(false) {
        js_sys::Reflect::set(out, &JsValue::from_str("report"), &report_object(json)?)?;
    }
    Ok(())
}

/// `__readTimingsRuns(list, byFile, names?, withReport?)` -> `{ report?, durations | files, costs }`: several
/// saved reports' bytes (a sharded run's shards, or several runs') read as one timings document, as
/// `__mergeRuns` merges them (`plan::runs::merge_runs`), then as [`read_timings`] reads one: each
/// read by `decodeReport`'s Brotli-or-JSON rule into the report model (which refuses what it
/// cannot hold), without crossing to JavaScript and back between the steps (a shard read each
/// report to an object, then each back as text to merge, then the merged one again to read it).
/// `names`: each report's file, as the user knows it, for the error of one that cannot be read
/// (without them, its place in the list: `report 2 of 3`). `withReport` as [`read_timings`]'s.
#[wasm_bindgen(js_name = "__readTimingsRuns")]
pub fn read_timings_runs(list: JsValue, by_file: bool, names: Option<Vec<String>>, with_report: Option<bool>) -> JsResult<JsValue> {
    let bad = || Error::invalid_input("__readTimingsRuns takes a non-empty array of reports' bytes");
    if !js_sys::Array::is_array(&list) {
        return Err(bad().into());
    }
    let list = js_sys::Array::from(&list);
    let count = list.length() as usize;
    let mut all = Vec::new();
    for (i, bytes) in list.iter().enumerate() {
        let in_file = |mut e: Error| {
            let name = names.as_ref().and_then(|n| n.get(i).cloned()).unwrap_or_else(|| format!("report {} of {count}", i + 1));
            e.message = format!("{name}: {}", e.message);
            e
        };
        let json = timings_json_from_js(&bytes, in_file)?;
        all.push(
            crate::from_json(&json)
                .map_err(|e| in_file(Error::invalid_input(format!("a timings report does not fit the report model: {e}"))))?,
        );
    }
    let merged = crate::report::to_json(&crate::plan::runs::merge_runs(all).ok_or_else(bad)?);
    let out = timings(&merged, by_file)?;
    with_report_object(&out, &merged, with_report)?;
    Ok(out)
}

/// `__timingsOf(report)` -> `{ durations, costs }`: `__testDurations` and `shardCosts` of one
/// report object (the durations exchange's answer) from one reading of it.
#[wasm_bindgen(js_name = "__timingsOf")]
pub fn timings_of(report: JsValue) -> JsResult<JsValue> {
    timings(stringify(&report, "the timings report")?.as_bytes(), false)
}

/// A report's tests' durations and cost model, as one object; its JSON text crosses (one
/// serializer the crate has).
fn timings(json: &[u8], by_file: bool) -> JsResult<JsValue> {
    #[derive(serde::Serialize)]
    struct Timings {
        #[serde(skip_serializing_if = "Option::is_none")]
        durations: Option<Vec<crate::plan::from_report::TestDuration>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        files: Option<Vec<crate::plan::from_report::FileDuration>>,
        costs: crate::plan::cost::Learned,
    }
    let view: ReportView =
        crate::from_json(json).map_err(|e| Error::invalid_input(format!("the timings report is not a report document: {e}")))?;
    let (durations, files) =
        if by_file { (None, Some(crate::plan::from_report::file_durations(&view))) } else { (Some(test_durations(&view)), None) };
    let timings = Timings { durations, files, costs: crate::plan::cost::learn(&view) };
    parse(&serde_json::to_string(&timings).map_err(|e| Error::invalid_input(format!("cannot convert a result: {e}")))?)
}

/// `__importJunit(xml, name, paths, sources)` -> `{ tests, suites, otherOutput? }`: the tests of
/// a JUnit XML file ([`crate::report::junit`]); `name` names the file in errors; `paths` (relative
/// to the working directory) are the command's test files for the file rule, and `sources` their
/// texts where read (`""`: not read). Malformed XML: `INVALID_INPUT` naming the line and column.
/// The result crosses as JSON text (one serializer the crate has, not a second one).
#[wasm_bindgen(js_name = "__importJunit")]
pub fn import_junit(xml: JsValue, name: &str, paths: Vec<String>, sources: Vec<String>) -> JsResult<JsValue> {
    let bytes = super::bytes_or_text_from_js(&xml, "the JUnit XML")?;
    let mut sources = sources.into_iter();
    let known: Vec<crate::report::junit::KnownFile> = paths
        .into_iter()
        .map(|path| crate::report::junit::KnownFile { path, source: sources.next().filter(|s| !s.is_empty()) })
        .collect();
    let imported = crate::report::junit::import_junit(&bytes, name, &known)?;
    parse(&serde_json::to_string(&imported).unwrap_or_default())
}

/// `new __FilePatterns(patterns)`: which paths any of the globs matches ([`crate::glob`]), for
/// the walk of `shardwise run --files`.
#[wasm_bindgen(js_name = "__FilePatterns")]
pub struct FilePatterns(Vec<crate::glob::Glob>);

#[wasm_bindgen(js_class = "__FilePatterns")]
impl FilePatterns {
    #[wasm_bindgen(constructor)]
    pub fn new(patterns: Vec<String>) -> JsResult<FilePatterns> {
        Ok(FilePatterns(patterns.iter().map(|p| crate::glob::Glob::new(p)).collect::<Result<_, Error>>()?))
    }

    /// True when the file `path` (POSIX, relative) matches a pattern.
    pub fn matches(&self, path: &str) -> bool {
        self.0.iter().any(|g| g.matches(path))
    }

    /// True when files below the folder `dir` may match: the walk enters only those.
    #[wasm_bindgen(js_name = mayEnter)]
    pub fn may_enter(&self, dir: &str) -> bool {
        self.0.iter().any(|g| g.may_enter(dir))
    }
}
