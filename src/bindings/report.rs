//! `ReportBuilder`, `encodeReport`, `decodeReport`, `validateReport`, `normalizeReport`.
//! Reports cross the boundary as JSON text (the engine's JSON.stringify/JSON.parse are much
//! faster than walking a 100,000-test object field by field).

use wasm_bindgen::prelude::*;

use super::{bytes_from_js, js_error, to_js, JsResult};
use crate::error::Error;
use crate::report::{self, AttachmentInput, Report, ReportInit, RunAttempt, TestInput, TestStatus};

/// JSON text of a JS value.
pub(crate) fn stringify(value: &JsValue, what: &str) -> JsResult<String> {
    if !value.is_object() {
        return Err(Error::invalid_input(format!("{what} must be an object")).into());
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::invalid_input(format!("{what} cannot be converted to JSON (a cycle or a BigInt?)")).into())
}

/// A JS object from JSON text.
pub(crate) fn parse(json: &str) -> JsResult<JsValue> {
    js_sys::JSON::parse(json).map_err(|_| js_error(Error::invalid_input("internal: invalid JSON produced")))
}

/// A report given as a JS object: its JSON text, and that text read as a document.
fn document_from_js(value: &JsValue) -> JsResult<(String, serde_json::Value)> {
    let json = stringify(value, "report")?;
    let doc = crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("report: {e}")))?;
    Ok((json, doc))
}

/// A report given as a JS object, as typed Rust, after validation.
pub(super) fn report_from_js(value: &JsValue) -> JsResult<Report> {
    let (json, doc) = document_from_js(value)?;
    report::ensure_valid(&doc)?;
    drop(doc);
    // Read again from the text rather than `serde_json::from_value(doc)`: one reader (see
    // `crate::from_json`), and no slower.
    crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("report: {e}")).into())
}

fn report_to_js(report: &Report) -> JsResult<JsValue> {
    parse(&super::text_of(&report::to_json(report)))
}

/// Builds a report step by step; see `ReportBuilder` in pkg-template/types/report.d.ts.
#[wasm_bindgen]
pub struct ReportBuilder(report::ReportBuilder);

#[wasm_bindgen]
impl ReportBuilder {
    #[wasm_bindgen(constructor)]
    pub fn new(init: JsValue) -> JsResult<ReportBuilder> {
        // through JSON: the one reader of the report model's types (see `crate::from_json`)
        let json = stringify(&init, "ReportBuilder init")?;
        let init: ReportInit =
            crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("ReportBuilder init: {e}")))?;
        Ok(ReportBuilder(report::ReportBuilder::new(init)?))
    }

    /// Adds an environment (or finds the equal one); returns its index.
    #[wasm_bindgen(js_name = addEnvironment)]
    pub fn add_environment(&mut self, env: JsValue) -> JsResult<u32> {
        Ok(self.0.add_environment_json(&stringify(&env, "environment")?)? as u32)
    }

    /// Adds a test (or finds the one with the same title path and file); returns its handle.
    #[wasm_bindgen(js_name = addTest)]
    pub fn add_test(&mut self, test: JsValue) -> JsResult<u32> {
        // One JSON.stringify and a serde_json parse cost a fraction of reading the object
        // property by property (this is called once per test).
        let json = stringify(&test, "test")?;
        let test: TestInput = crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("test: {e}")))?;
        Ok(self.0.add_test(test)? as u32)
    }

    /// `addTest` of a test the package glue read field by field (pkg-template/src/api.js): the
    /// same as [`Self::add_test`] of its JSON, without turning it into JSON and back. The title
    /// path comes as one text, the titles joined by NUL (the glue takes this way only for
    /// titles without one), and the glue comes here only with what JSON would say the same way
    /// (strings well-formed, line and column integers in range); anything else takes `addTest`.
    #[wasm_bindgen(js_name = "__addTestFields")]
    pub fn add_test_fields(
        &mut self,
        titles: &str,
        file: Option<String>,
        line: Option<u32>,
        column: Option<u32>,
        tags: Option<Vec<String>>,
    ) -> JsResult<u32> {
        let title_path: Vec<&str> = titles.split('\0').collect();
        Ok(self.0.add_test_parts(&title_path, file.as_deref(), line, column, tags)? as u32)
    }

    /// `addAttempt` of an attempt of only these fields, read by the package glue (safe
    /// non-negative integers for the times; statuses as [`test_status_code`] numbered them):
    /// the same as [`Self::add_attempt`] of its JSON.
    #[wasm_bindgen(js_name = "__addAttemptFields")]
    #[allow(clippy::too_many_arguments)]
    pub fn add_attempt_fields(
        &mut self,
        handle: u32,
        environment_idx: Option<u32>,
        status: Option<u32>,
        expected_status: Option<u32>,
        start_timestamp: Option<f64>,
        duration: Option<f64>,
        timeout: Option<f64>,
        parallel_index: Option<u32>,
    ) -> JsResult<()> {
        let status_of = |code: Option<u32>| match code {
            None => Ok(None),
            Some(c) => TestStatus::ALL.get(c as usize).copied().map(Some).ok_or_else(|| {
                js_error(Error::invalid_input(format!("internal: no status numbered {c}")))
            }),
        };
        let attempt = RunAttempt {
            environment_idx,
            status: status_of(status)?,
            expected_status: status_of(expected_status)?,
            start_timestamp: start_timestamp.unwrap_or(0.0) as u64,
            duration: duration.map(|d| d as u64),
            timeout: timeout.map(|t| t as u64),
            parallel_index,
            ..RunAttempt::default()
        };
        Ok(self.0.add_attempt(handle as usize, attempt)?)
    }

    /// Records one run of the test `handle`.
    #[wasm_bindgen(js_name = addAttempt)]
    pub fn add_attempt(&mut self, handle: u32, attempt: JsValue) -> JsResult<()> {
        let json = stringify(&attempt, "attempt")?;
        Ok(self.0.add_attempt_json(handle as usize, &json)?)
    }

    /// `addAttempt` for an attempt as a runner reported it (the runner integrations'
    /// `src/runner/record.mjs`): what the report rules refuse is left out where it stands and
    /// the rest is recorded (`report::ReportBuilder::add_attempt_mended`). Returns what was left
    /// out, `[{path, message}]` (empty for a valid attempt); throws only when nothing could be
    /// kept, with nothing added.
    #[wasm_bindgen(js_name = "__addAttemptMended")]
    pub fn add_attempt_mended(&mut self, handle: u32, attempt: JsValue) -> JsResult<JsValue> {
        let json = stringify(&attempt, "attempt")?;
        to_js(&self.0.add_attempt_mended(handle as usize, &json)?)
    }

    /// Registers `{name, contentType, data}`; returns `{name, contentType, id}` to put in an
    /// attempt's `attachments`. Equal content gives one id.
    #[wasm_bindgen(js_name = addAttachment)]
    pub fn add_attachment(&mut self, attachment: JsValue) -> JsResult<JsValue> {
        let get = |k: &str| js_sys::Reflect::get(&attachment, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
        let text = |k: &str| get(k).as_string().ok_or_else(|| js_error(Error::invalid_input(format!("attachment.{k} must be a string"))));
        let input = AttachmentInput {
            name: text("name")?,
            content_type: text("contentType")?,
            data: bytes_from_js(&get("data"), "attachment.data must be a Uint8Array")?,
        };
        to_js(&self.0.add_attachment(input)?)
    }

    /// The durations of the attempts added so far, summed, in ms: what a shard's end line
    /// compares with the tests' predicted time.
    #[wasm_bindgen(js_name = "__attemptsMs")]
    pub fn attempts_ms(&self) -> f64 {
        self.0.attempts_ms() as f64
    }

    /// The attachments' contents for `uploadReport`: `[{id, contentType, data}]`, one per id.
    pub fn attachments(&self) -> js_sys::Array {
        self.0
            .attachments()
            .map(|(a, data)| {
                let o = js_sys::Object::new();
                let set = |k: &str, v: JsValue| js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
                let _ = set("id", JsValue::from_str(&a.id));
                let _ = set("contentType", JsValue::from_str(&a.content_type));
                let _ = set("data", js_sys::Uint8Array::from(data).into());
                JsValue::from(o)
            })
            .collect()
    }

    /// The report document.
    pub fn build(&self) -> JsResult<JsValue> {
        parse(&super::text_of(&self.0.to_json()))
    }

    /// The report as the service stores it: JSON, Brotli quality 9.
    pub fn encode(&mut self) -> Vec<u8> {
        self.0.encode()
    }
}

/// The number the package glue sends for an attempt's status (its place in
/// [`TestStatus::ALL`]), or -1 for a name the JSON reader does not take (that attempt then goes
/// through JSON, for its error). The glue remembers the answers.
#[wasm_bindgen(js_name = "__testStatusCode")]
pub fn test_status_code(name: &str) -> i32 {
    // a status name is letters only, so it needs no escaping
    if !name.bytes().all(|b| b.is_ascii_alphabetic()) {
        return -1;
    }
    let status = crate::from_json::<TestStatus>(format!("\"{name}\"").as_bytes()).ok();
    status.and_then(|s| TestStatus::ALL.iter().position(|&a| a == s)).map_or(-1, |i| i as i32)
}

/// Validates then encodes a report (JSON, Brotli quality 9).
#[wasm_bindgen(js_name = encodeReport)]
pub fn encode_report(report: JsValue) -> JsResult<Vec<u8>> {
    let (json, doc) = document_from_js(&report)?;
    Ok(report::encode_valid_json(json.as_bytes(), doc)?)
}

/// A report's bytes given from JS (Brotli-compressed or plain JSON) as its JSON text, once it
/// passes the published schema's rules (`report::decode_json`): what every reader of report bytes
/// here starts from.
pub(super) fn report_json_from_js(bytes: &JsValue) -> JsResult<Vec<u8>> {
    let bytes = bytes_from_js(bytes, "decodeReport takes the report's bytes (a Uint8Array)")?;
    Ok(report::decode_json(&bytes)?)
}

/// A timings file's bytes given from JS as its JSON text, read by the same rule for Brotli or
/// plain JSON (`report::read_json_text`: the same errors for bytes that are neither) but not held
/// to the schema's rules: a plan reads only the fields `plan::from_report::ReportView` takes, and
/// that reading refuses a document that is not a report. The schema's check was half of a
/// shard's read of its timings (16 of 34 ms natively for 3,535 tests, 596 KB; several times that
/// in a .wasm on its first call, before V8 has optimised its code).
/// `in_file` names the file in the error of bytes that are neither.
pub(super) fn timings_json_from_js(bytes: &JsValue, in_file: impl FnOnce(Error) -> Error) -> JsResult<Vec<u8>> {
    let bytes = bytes_from_js(bytes, "a timings file is read from its bytes (a Uint8Array)")?;
    Ok(report::read_json_text(&bytes, crate::codec::DecompressOptions::default()).map_err(in_file)?.0)
}

/// The JS object of JSON text that was read as JSON (by `decode_json` or `read_json_text`; text
/// that is not UTF-8 in a string no reader built has its bytes replaced, as `TextDecoder` does).
pub(super) fn report_object(json: &[u8]) -> JsResult<JsValue> {
    parse(&super::text_of(json))
}

/// Reads a report from Brotli-compressed or plain JSON bytes: the document as stored, once it
/// passes the published schema's rules.
#[wasm_bindgen(js_name = decodeReport)]
pub fn decode_report(bytes: JsValue) -> JsResult<JsValue> {
    report_object(&report_json_from_js(&bytes)?)
}

/// `__decodeReportTests(bytes)`: [`decode_report`], and every test's planner unit id, file, own
/// title and place in the document (`plan::from_report::listed_tests`), `{report, ids: string[],
/// files: (string | undefined)[], titles: string[], places: Uint32Array}` (`places`: each test's
/// place in turn, its length then its indexes: suite indexes from `report.suites` down, then the
/// test's index; a top-level test's index in `report.tests` alone): the report preview names and
/// links tests by the planner's ids without re-implementing its rule, and finds each test in
/// `report` by its place, checking its title. Not public.
#[wasm_bindgen(js_name = "__decodeReportTests")]
pub fn decode_report_tests(bytes: JsValue) -> JsResult<JsValue> {
    let json = report_json_from_js(&bytes)?;
    let view: crate::plan::from_report::ReportView =
        crate::from_json(&json).map_err(|e| Error::invalid_input(format!("report: {e}")))?;
    let listed = crate::plan::from_report::listed_tests(&view);
    let (ids, files, titles) = (js_sys::Array::new(), js_sys::Array::new(), js_sys::Array::new());
    for ((id, file), title) in listed.ids.iter().zip(&listed.files).zip(&listed.titles) {
        ids.push(&JsValue::from_str(id));
        files.push(&file.map_or(JsValue::UNDEFINED, JsValue::from_str));
        titles.push(&JsValue::from_str(title));
    }
    let places = js_sys::Uint32Array::from(&listed.places[..]);
    drop(listed);
    drop(view);
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v);
    let _ = set("report", &report_object(&json)?);
    let _ = set("ids", &ids);
    let _ = set("files", &files);
    let _ = set("titles", &titles);
    let _ = set("places", &places);
    Ok(out.into())
}

/// `__readJson(bytes)`: the JSON value in Brotli-compressed or plain JSON bytes, by the one rule
/// every reader of reports and durations files follows (`report::read_json`), for a reader that
/// takes more than reports (`shardwise plan`: a report or a units list). Not public.
#[wasm_bindgen(js_name = "__readJson")]
pub fn read_json(bytes: JsValue) -> JsResult<JsValue> {
    let bytes = bytes_from_js(&bytes, "__readJson takes bytes (a Uint8Array)")?;
    let input = report::read_json(&bytes, crate::codec::DecompressOptions::default())?;
    drop(input.doc);
    parse(std::str::from_utf8(&input.json).unwrap_or_default())
}

/// Every problem of a report, `[{path, message}]`; empty when valid.
#[wasm_bindgen(js_name = validateReport)]
pub fn validate_report(report: JsValue) -> JsResult<JsValue> {
    // Anything else is one issue at the root, naming its JSON type (undefined reads as null).
    let doc = if report.is_object() {
        document_from_js(&report)?.1
    } else {
        let json = js_sys::JSON::stringify(&report).ok().and_then(|s| s.as_string());
        json.and_then(|j| crate::from_json(j.as_bytes()).ok()).unwrap_or(serde_json::Value::Null)
    };
    to_js(&report::validate_json(&doc))
}

/// Merges equal environments and duplicate tests, drops default-valued fields.
#[wasm_bindgen(js_name = normalizeReport)]
pub fn normalize_report(report: JsValue) -> JsResult<JsValue> {
    report_to_js(&report::normalize(report_from_js(&report)?))
}
