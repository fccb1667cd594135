//! The wasm-bindgen layer: the one place where JavaScript values become Rust values and back.
//!
//! Conventions every binding follows:
//! - exported functions return `JsResult<T>`; a failure is always a `ShardwiseError` made by
//!   [`js_error`] (never a string, never a panic);
//! - option objects are read with [`from_js`] into `#[serde(rename_all = "camelCase",
//!   deny_unknown_fields)]` structs, so a typo in an option name is an `INVALID_INPUT` error;
//! - values returned to JS are made with [`to_js`] (plain objects and arrays, no `Map`s).

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::{Error, ErrorCode};

pub mod codec;
pub mod exchange;
pub mod plan;
pub mod report;
pub mod runner;

pub(crate) type JsResult<T> = Result<T, JsValue>;

thread_local! {
    static ERROR_CLASS: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// The size of the wasm memory in bytes (it grows, and never shrinks): internal, for
/// bench/upload.mjs.
#[wasm_bindgen(js_name = "__wasmMemoryBytes")]
pub fn wasm_memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// Called once by the package's entry points with the exported `ShardwiseError` class, so that
/// errors made in Rust are instances of it.
#[wasm_bindgen(js_name = "__registerErrorClass")]
pub fn register_error_class(class: js_sys::Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// The JavaScript `ShardwiseError` for `e`: `new ShardwiseError(message, {code, step, status,
/// attempts})`, or a plain `Error` with the same fields before the class is registered.
pub(crate) fn js_error(e: Error) -> JsValue {
    let props = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&props, &JsValue::from_str(k), &v);
    };
    set("code", JsValue::from_str(e.code.as_str()));
    if let Some(step) = e.step {
        set("step", JsValue::from_str(step.as_str()));
    }
    if let Some(status) = e.status {
        set("status", JsValue::from(status));
    }
    if let Some(attempts) = e.attempts {
        set("attempts", JsValue::from(attempts));
    }
    let message = JsValue::from_str(&e.message);
    let class = ERROR_CLASS.with(|c| c.borrow().clone());
    if let Some(class) = class {
        if let Ok(err) = js_sys::Reflect::construct(&class, &js_sys::Array::of2(&message, &props)) {
            return err;
        }
    }
    let err = js_sys::Error::new(&e.message);
    err.set_name("ShardwiseError");
    let _ = js_sys::Object::assign(&err, &props);
    err.into()
}

impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        js_error(e)
    }
}

/// Reads an options object (or `undefined`, giving the defaults) into `T`.
pub(crate) fn from_js<T: DeserializeOwned + Default>(value: JsValue, what: &str) -> JsResult<T> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    from_js_required(value, what)
}

/// Reads a required value into `T`. When `T` is a struct, keys it does not declare are an
/// `INVALID_INPUT` error naming the key and the accepted ones (serde-wasm-bindgen only reads the
/// declared fields, so `deny_unknown_fields` alone would let a misspelt option pass silently).
pub(crate) fn from_js_required<T: DeserializeOwned>(value: JsValue, what: &str) -> JsResult<T> {
    let invalid = |msg: String| js_error(Error::new(ErrorCode::InvalidInput, format!("{what}: {msg}")));
    if let Some(fields) = struct_fields::<T>() {
        if value.is_object() && !js_sys::Array::is_array(&value) {
            for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter().filter_map(|k| k.as_string()) {
                if !fields.contains(&key.as_str()) {
                    return Err(invalid(format!("unknown option `{key}` (expected one of: {})", fields.join(", "))));
                }
            }
        }
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| invalid(e.to_string()))
}

/// The field names of a struct `T` deserializes as, or `None` when `T` is not a plain struct:
/// a deserializer that only records what `deserialize_struct` is asked for.
fn struct_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    use serde::de::{self, Visitor};
    struct Probe(Option<&'static [&'static str]>);
    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("probe")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Stop
        }
    }
    impl<'de> de::Deserializer<'de> for &mut Probe {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0 = Some(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut probe = Probe(None);
    let _ = T::deserialize(&mut probe);
    probe.0
}

/// Turns a Rust value into plain JavaScript objects and arrays.
#[allow(dead_code)] // for the bindings that return objects
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(Error::new(ErrorCode::InvalidInput, format!("cannot convert a result: {e}"))))
}

/// `bytes` as text, invalid UTF-8 replaced (as `String::from_utf8_lossy`), borrowed when valid:
/// checked first the way `str::from_utf8` checks, many ASCII bytes at a time, where
/// `from_utf8_lossy` walks them one by one (a cold shard's plan reads megabytes of sources and
/// its timings' JSON through this).
pub(crate) fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Bytes from a `Uint8Array` (or any `ArrayBufferView`/`ArrayBuffer`) or a string (UTF-8).
pub(crate) fn bytes_or_text_from_js(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    match value.as_string() {
        Some(s) => Ok(s.into_bytes()),
        None => bytes_from_js(value, &format!("{what} must be a Uint8Array or a string")),
    }
}

/// Bytes from a `Uint8Array` (or any `ArrayBufferView`/`ArrayBuffer`); anything else is an
/// `INVALID_INPUT` error with the message `expected`.
pub(crate) fn bytes_from_js(value: &JsValue, expected: &str) -> JsResult<Vec<u8>> {
    match u8_view(value) {
        Some(a) => Ok(a.to_vec()),
        None => Err(js_error(Error::invalid_input(expected))),
    }
}

/// A `Uint8Array` over the bytes of a `Uint8Array`, `ArrayBuffer` or other view, not copied.
pub(crate) fn u8_view(value: &JsValue) -> Option<js_sys::Uint8Array> {
    if let Some(a) = value.dyn_ref::<js_sys::Uint8Array>() {
        return Some(a.clone());
    }
    if let Some(b) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        return Some(js_sys::Uint8Array::new(b));
    }
    if js_sys::ArrayBuffer::is_view(value) {
        let view: &js_sys::Object = value.unchecked_ref();
        let get = |k: &str| js_sys::Reflect::get(view, &JsValue::from_str(k)).ok().and_then(|v| v.as_f64());
        if let (Ok(buffer), Some(offset), Some(len)) = (
            js_sys::Reflect::get(view, &JsValue::from_str("buffer")),
            get("byteOffset"),
            get("byteLength"),
        ) {
            let buffer: js_sys::ArrayBuffer = buffer.unchecked_into();
            return Some(js_sys::Uint8Array::new_with_byte_offset_and_length(&buffer, offset as u32, len as u32));
        }
    }
    None
}

/// An optional whole number in `[min, max]` read from a JS number, for options such as quality.
pub(crate) fn check_u32(value: Option<f64>, name: &str, default: u32, min: u32, max: u32) -> Result<u32, Error> {
    match value {
        None => Ok(default),
        Some(v) if v.fract() == 0.0 && v >= min as f64 && v <= max as f64 => Ok(v as u32),
        Some(v) => Err(Error::invalid_input(format!("{name} must be an integer from {min} to {max}, got {v}"))),
    }
}
