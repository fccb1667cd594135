//! Reports: the model of the report document, a builder, validation, normalization and the
//! encoding the service reads (JSON, Brotli quality 9).

mod builder;
mod model;
mod normalize;
mod validate;

pub use builder::{AttachmentInput, ReportBuilder, ReportInit, TestInput};
pub use model::*;
pub use normalize::normalize;
pub use validate::{ensure_valid, issues, validate, validate_json, Issue, Rules};

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
/// A UTF-8 byte order mark before the JSON is dropped.
pub fn json_bytes(bytes: &[u8], opts: DecompressOptions) -> Result<Vec<u8>> {
    let no_bom = |json: &[u8]| json.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(json).to_vec();
    if codec::looks_like_json(bytes) {
        return Ok(no_bom(bytes));
    }
    match codec::decompress(bytes, opts) {
        Ok(json) if codec::looks_like_json(&json) => Ok(no_bom(&json)),
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

/// The JSON text of a report read from Brotli-compressed or plain JSON bytes, as stored (no
/// field filled in or dropped), once it passes the published schema's rules ([`Rules::Schema`]:
/// what the service reads). The stricter rules are `validateReport`'s, not a reader's: a report
/// another tool wrote (a file suite at line 0, say) still reads.
pub fn decode_json(bytes: &[u8]) -> Result<Vec<u8>> {
    let json = json_bytes(bytes, DecompressOptions::default())?;
    let doc: serde_json::Value =
        crate::from_json(&json).map_err(|e| Error::invalid_input(format!("the report is not valid JSON: {e}")))?;
    validate::to_result("the report", &issues(&doc, Rules::Schema), " (the published report schema's rules)")?;
    Ok(json)
}

/// Reads a typed report from Brotli-compressed or plain JSON bytes ([`decode_json`], then the
/// model, which also wants integer times and positions).
pub fn decode_report(bytes: &[u8]) -> Result<Report> {
    let json = decode_json(bytes)?;
    crate::from_json(&json).map_err(|e| Error::invalid_input(format!("the report does not fit the report model: {e}")))
}

/// Checks a report's JSON text against the rules `validateReport` applies and encodes that text
/// as it is (JSON, Brotli quality 9): nothing in it is dropped or rewritten. `doc` is the same
/// text read as a document; it is dropped before the encoder starts.
pub fn encode_valid_json(json: &[u8], doc: serde_json::Value) -> Result<Vec<u8>> {
    ensure_valid(&doc)?;
    drop(doc);
    Ok(encode_json(json))
}

#[cfg(test)]
mod tests;
