//! Reports: the model of the report document, a builder, validation, normalization and the
//! encoding the service reads (JSON, Brotli quality 9).

mod builder;
mod model;
mod normalize;
mod validate;

pub use builder::{AttachmentInput, ReportBuilder, ReportInit, TestInput};
pub use model::*;
pub use normalize::normalize;
pub use validate::{ensure_valid, validate, validate_json, Issue};

use crate::codec::{self, CompressOptions, DecompressOptions};
use crate::error::{Error, ErrorCode, Result};

/// JSON text of a report.
pub fn to_json(report: &Report) -> Vec<u8> {
    // Serializing plain data to a Vec cannot fail.
    serde_json::to_vec(report).unwrap_or_default()
}

/// The bytes the service stores: JSON, Brotli quality 9. The JSON is streamed into the encoder,
/// so the whole text never sits in memory.
pub fn encode_report(report: &Report) -> Vec<u8> {
    // The default options are valid and serializing plain data cannot fail.
    let Ok(mut writer) = codec::CompressWriter::new(CompressOptions::default()) else { return Vec::new() };
    if serde_json::to_writer(&mut writer, report).is_err() {
        return Vec::new();
    }
    writer.finish().unwrap_or_default()
}

/// Brotli-compresses JSON text at the service's setting.
pub fn encode_json(json: &[u8]) -> Vec<u8> {
    // The default options are valid, so this cannot fail.
    codec::compress(json, CompressOptions::default()).unwrap_or_default()
}

/// The JSON text inside `bytes`: Brotli-compressed or plain JSON. Anything else is an error
/// (`BROTLI_CORRUPT` for damaged Brotli, `INVALID_INPUT` for neither).
pub fn json_bytes(bytes: &[u8], opts: DecompressOptions) -> Result<Vec<u8>> {
    if codec::looks_like_json(bytes) {
        return Ok(bytes.to_vec());
    }
    match codec::decompress(bytes, opts) {
        Ok(json) if codec::looks_like_json(&json) => Ok(json),
        Ok(_) => Err(Error::invalid_input("the bytes decode as Brotli but do not hold a JSON report")),
        Err(e) if e.code == ErrorCode::BrotliCorrupt && bytes.len() < 2 => Err(Error::invalid_input(
            "the bytes are neither a JSON report nor Brotli-compressed JSON",
        )),
        Err(e) => Err(Error::new(
            e.code,
            format!("the bytes are neither a JSON report nor valid Brotli-compressed JSON: {}", e.message),
        )),
    }
}

/// Reads a report from Brotli-compressed or plain JSON bytes.
pub fn decode_report(bytes: &[u8]) -> Result<Report> {
    let json = json_bytes(bytes, DecompressOptions::default())?;
    crate::from_json(&json).map_err(|e| Error::invalid_input(format!("not a valid report: {e}")))
}

#[cfg(test)]
mod tests;
