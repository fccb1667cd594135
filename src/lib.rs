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
pub mod limits;
pub mod plan;
pub mod report;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)] // public only so tests/wasm.rs can call the bindings
pub mod bindings;

pub use error::{Error, ErrorCode, Result, Step};
