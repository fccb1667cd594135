//! shardwise: duration-balanced test sharding and test report upload.
//!
//! The crate is a pure Rust core, tested natively, with a thin wasm-bindgen layer
//! (`bindings`, compiled for wasm32 only) that owns every JavaScript <-> Rust conversion.
//!
//! - [`codec`]: Brotli, one-shot and streaming, with output limits.
//! - [`discover`]: the tests a Jest or Vitest file declares, read from its source.
//! - [`error`]: the one error type, with the codes and steps of the public API.

pub mod codec;
pub mod discover;
pub mod error;
pub mod exchange;
pub mod glob;
pub mod limits;
pub mod plan;
pub mod report;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)] // public only so tests/wasm.rs can call the bindings
pub mod bindings;

pub use error::{Error, ErrorCode, Result, Step};

#[cfg(test)]
mod test_alloc;

/// Reads JSON text. Every parse of the crate goes through this one reader (serde_json's for
/// byte slices): each reader type, and `serde_json::from_value`, instantiates every
/// `Deserialize` impl it reaches, and a second one added about 130 KB to the `.wasm` (a second
/// copy of the report model's parser). Text from a `&str` is passed as its bytes.
pub(crate) fn from_json<'a, T: serde::Deserialize<'a>>(json: &'a [u8]) -> serde_json::Result<T> {
    serde_json::from_slice(json)
}
