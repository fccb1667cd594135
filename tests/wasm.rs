//! wasm-bindgen tests of the bindings, run in Node (or in Chromium with
//! WASM_BINDGEN_USE_BROWSER=1): what crosses the boundary, errors included.
#![cfg(target_arch = "wasm32")]

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(k)).unwrap()
}

fn opts(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

#[wasm_bindgen_test]
fn round_trip_through_the_bindings() {
    let data = JsValue::from_str(&"report ".repeat(1000));
    let c = shardwise::bindings::codec::compress(data, JsValue::UNDEFINED).unwrap();
    let back = shardwise::bindings::codec::decompress(Uint8Array::from(&c[..]).into(), JsValue::UNDEFINED).unwrap();
    assert_eq!(back.to_vec(), "report ".repeat(1000).into_bytes());
}

include!("support/brotli_tables.rs");

#[wasm_bindgen_test]
fn brotli_log2_table_is_upstream_bit_for_bit() {
    assert_brotli_log2_table_is_upstream();
}

#[wasm_bindgen_test]
fn brotli_dictionary_tables_are_upstream_bit_for_bit() {
    assert_brotli_dictionary_hash_is_upstream();
    assert_brotli_dictionary_lut_is_upstream();
}

#[wasm_bindgen_test]
fn errors_are_errors_with_a_code() {
    let e = shardwise::bindings::codec::decompress(Uint8Array::from(&b"not brotli at all"[..]).into(), JsValue::UNDEFINED)
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&e, "name"), "ShardwiseError");
    assert_eq!(get(&e, "code"), "BROTLI_CORRUPT");
}

#[wasm_bindgen_test]
fn misspelt_options_are_rejected() {
    let e = shardwise::bindings::codec::compress(JsValue::from_str("x"), opts(&[("qualty", 5.into())])).unwrap_err();
    assert_eq!(get(&e, "code"), "INVALID_INPUT");
    let message = get(&e, "message").as_string().unwrap();
    assert!(message.contains("qualty") && message.contains("quality"), "{message}");
}

#[wasm_bindgen_test]
fn non_integer_and_out_of_range_options_are_rejected() {
    for (k, v) in [("quality", 9.5), ("quality", -1.0), ("lgwin", 25.0)] {
        let e = shardwise::bindings::codec::compress(JsValue::from_str("x"), opts(&[(k, v.into())])).unwrap_err();
        assert_eq!(get(&e, "code"), "INVALID_INPUT", "{k}={v}");
    }
}

#[wasm_bindgen_test]
fn a_registered_class_is_used_for_errors() {
    let class: js_sys::Function = js_sys::eval("(class MyError extends Error {})").unwrap().unchecked_into();
    shardwise::bindings::register_error_class(class.clone());
    let e = shardwise::bindings::codec::decompress(Uint8Array::from(&b"xx"[..]).into(), JsValue::UNDEFINED).unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>());
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(JsValue::from(js_sys::Reflect::get_prototype_of(&e).unwrap()), get(&class, "prototype"));
}

/// Cross-host determinism: the golden plan's fingerprint computed in wasm equals the one native
/// Rust recorded (`src/plan/tests.rs` asserts the same fixture natively).
#[wasm_bindgen_test]
fn plan_fingerprint_matches_the_native_golden() {
    let golden = js_sys::JSON::parse(include_str!("fixtures/plan-golden.json")).unwrap();
    let plan = shardwise::bindings::plan::plan_shards(get(&golden, "input")).unwrap();
    assert_eq!(get(&plan, "fingerprint"), get(&golden, "fingerprint"));
    assert_eq!(get(&plan, "makespanMs"), get(&golden, "makespanMs"));
    let e = shardwise::bindings::plan::plan_shards(opts(&[("shardCount", 0.into())])).unwrap_err();
    assert_eq!(get(&e, "code"), "INVALID_INPUT");
}

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

#[wasm_bindgen_test]
fn report_builder_reads_tests_and_attempts_as_json_and_rejects_bad_ones() {
    use shardwise::bindings::report::ReportBuilder;
    let mut b = ReportBuilder::new(js(r#"{"category":"jest","commitId":"0123456789abcdef0123456789abcdef01234567","startTimestamp":5}"#)).unwrap();
    assert_eq!(b.add_environment(js(r#"{"name":"node"}"#)).unwrap(), 0);
    let h = b.add_test(js(r#"{"titlePath":["suite","t"],"file":"a.test.js","line":3}"#)).unwrap();
    assert_eq!(b.add_test(js(r#"{"titlePath":["suite","t"],"file":"a.test.js"}"#)).unwrap(), h);
    b.add_attempt(h, js(r#"{"startTimestamp":6,"duration":7,"status":"failed","errors":[{"message":"no \"x\""}]}"#)).unwrap();
    for (bad, what) in [
        (b.add_test(js(r#"{"titlePath":["t"],"fiel":"a.js"}"#)).unwrap_err(), "fiel"),
        (b.add_test(JsValue::from_str("t")).unwrap_err(), "test must be an object"),
        (b.add_attempt(h, js(r#"{"status":"green"}"#)).unwrap_err(), "green"),
        (b.add_attempt(h, js(r#"{"environmentIdx":1}"#)).unwrap_err(), "attempt.environmentIdx: 1 is out of range (1 environments)"),
        (b.add_attempt(h + 1, js("{}")).unwrap_err(), "unknown test handle"),
    ] {
        assert_eq!(get(&bad, "code"), "INVALID_INPUT");
        let message = get(&bad, "message").as_string().unwrap();
        assert!(message.contains(what), "{message}");
    }
    let built = js_sys::JSON::stringify(&b.build().unwrap()).unwrap().as_string().unwrap();
    let decoded = shardwise::bindings::codec::decompress(Uint8Array::from(&b.encode()[..]).into(), JsValue::UNDEFINED)
        .unwrap()
        .to_vec();
    assert_eq!(built.as_bytes(), &decoded[..]);
    assert!(built.contains(r#""tests":[{"title":"t","location":{"file":"a.test.js","line":3,"column":1},"attempts":[{"status":"failed","startTimestamp":6,"duration":7,"errors":[{"message":"no \"x\""}]}]}]"#), "{built}");
}

#[wasm_bindgen_test]
fn discover_returns_title_paths_and_the_unnamed_count() {
    let source = "describe('a', () => { test('b', () => {}); test(x, () => {}); });";
    // the file's bytes (what the sequencers pass) and a string read the same
    for input in [JsValue::from_str(source), Uint8Array::from(source.as_bytes()).into()] {
        let v = shardwise::bindings::runner::discover_tests(input).unwrap();
        let tests: Vec<Vec<String>> = serde_wasm_bindgen::from_value(get(&v, "tests")).unwrap();
        assert_eq!(tests, vec![vec!["a".to_string(), "b".to_string()]]);
        assert_eq!(get(&v, "unnamed").as_f64(), Some(1.0));
    }
    // bytes that are not UTF-8 are replaced, as a string read of the file would have them
    let v = shardwise::bindings::runner::discover_tests(Uint8Array::from(&b"test('caf\xe9', () => {})"[..]).into()).unwrap();
    let tests: Vec<Vec<String>> = serde_wasm_bindgen::from_value(get(&v, "tests")).unwrap();
    assert_eq!(tests, vec![vec!["caf\u{fffd}".to_string()]]);
    let e = shardwise::bindings::runner::discover_tests(JsValue::from_f64(1.0)).unwrap_err();
    assert_eq!(get(&e, "code"), "INVALID_INPUT");
    assert!(get(&e, "message").as_string().unwrap().contains("a source must be a Uint8Array or a string"));
}

#[wasm_bindgen_test]
fn test_durations_reads_a_report_and_rejects_a_non_object() {
    let report = js(r#"{"environments":[{"name":"e"}],"suites":[{"type":"file","title":"f.js","tests":[{"title":"t","attempts":[{"duration":7}]}]}]}"#);
    let v = shardwise::bindings::runner::test_durations_of(report).unwrap();
    let got: serde_json::Value = serde_wasm_bindgen::from_value(v).unwrap();
    assert_eq!(got, serde_json::json!([{"environment": "e", "file": "f.js", "titlePath": ["t"], "durationMs": 7}]));
    let e = shardwise::bindings::runner::test_durations_of(JsValue::from_str("x")).unwrap_err();
    assert_eq!(get(&e, "code"), "INVALID_INPUT");
}
