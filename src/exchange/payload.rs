//! What goes in the bodies: the report (encode for upload, decode from download) and the
//! attachment encoding decision.
//!
//! The report is a `serde_json::Value` here; this is the one place to switch to the report
//! module's type and its validate/encode/decode.

use crate::codec::{self, CompressOptions, DecompressOptions};
use crate::error::{Error, ErrorCode};

/// The report document as the exchanges see it.
pub type Report = serde_json::Value;

/// A report to upload: a document, or bytes already encoded (Brotli) or plain JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportInput {
    Document(Report),
    Bytes(Vec<u8>),
}

/// The Brotli (quality 9) JSON bytes of a report to upload.
pub fn encode_report(report: &ReportInput) -> Result<Vec<u8>, Error> {
    match report {
        ReportInput::Document(doc) => {
            if !doc.is_object() {
                return Err(Error::invalid_input("report must be a JSON object (a report document)"));
            }
            let json = serde_json::to_vec(doc)
                .map_err(|e| Error::invalid_input(format!("report cannot be serialised: {e}")))?;
            codec::compress(&json, CompressOptions::default())
        }
        ReportInput::Bytes(b) if b.is_empty() => Err(Error::invalid_input("report bytes are empty")),
        ReportInput::Bytes(b) if codec::looks_like_json(b) => codec::compress(b, CompressOptions::default()),
        ReportInput::Bytes(b) => {
            // Already Brotli: check it decodes to JSON rather than upload garbage.
            let json = codec::decompress(b, DecompressOptions::default())
                .map_err(|e| Error::invalid_input(format!("report bytes are neither JSON nor valid Brotli: {}", e.message)))?;
            if !codec::looks_like_json(&json) {
                return Err(Error::invalid_input("report bytes decode to something that is not JSON"));
            }
            Ok(b.clone())
        }
    }
}

/// A downloaded report: plain JSON (a `fetch` may already have undone `Content-Encoding: br`)
/// or Brotli-compressed JSON. Corrupt Brotli is `BROTLI_CORRUPT`; anything but a JSON object is
/// `INVALID_RESPONSE`.
pub fn decode_report(body: &[u8]) -> Result<Report, Error> {
    let parsed = if codec::looks_like_json(body) {
        serde_json::from_slice::<Report>(body).ok()
    } else {
        None
    };
    let doc = match parsed {
        Some(doc) => doc,
        None => {
            let json = codec::decompress(body, DecompressOptions::default()).map_err(|e| {
                if codec::looks_like_json(body) {
                    let why = serde_json::from_slice::<Report>(body).err().map(|e| e.to_string()).unwrap_or_default();
                    Error::new(ErrorCode::InvalidResponse, format!("the annotated report is malformed JSON: {why}"))
                } else {
                    Error::new(e.code, format!("the annotated report is corrupt or truncated Brotli: {}", e.message))
                }
            })?;
            serde_json::from_slice::<Report>(&json).map_err(|e| {
                Error::new(ErrorCode::InvalidResponse, format!("the annotated report is not valid JSON: {e}"))
            })?
        }
    };
    if !doc.is_object() {
        return Err(Error::new(ErrorCode::InvalidResponse, "the annotated report is not a JSON object"));
    }
    Ok(doc)
}

/// True when an attachment of this content type is worth Brotli-compressing: text, JSON, XML,
/// JavaScript, logs. Images, videos, archives and unknown binary types are sent as they are.
pub fn is_text_like(content_type: &str) -> bool {
    let t = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    t.starts_with("text/")
        || t.ends_with("+json")
        || t.ends_with("+xml")
        || matches!(
            t.as_str(),
            "application/json"
                | "application/x-ndjson"
                | "application/xml"
                | "application/javascript"
                | "application/x-javascript"
                | "application/ecmascript"
                | "application/yaml"
                | "application/x-yaml"
                | "application/x-log"
                | "application/x-sh"
                | "application/sql"
                | "image/svg+xml"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_like_types() {
        for t in ["text/plain", "text/html; charset=utf-8", "application/json", "application/vnd.x+json",
                  "application/atom+xml", "application/javascript", "application/x-log", "TEXT/CSS"] {
            assert!(is_text_like(t), "{t}");
        }
        for t in ["image/png", "video/webm", "application/zip", "application/gzip", "application/octet-stream", ""] {
            assert!(!is_text_like(t), "{t}");
        }
    }

    #[test]
    fn reports_round_trip_and_plain_json_is_accepted() {
        let doc = serde_json::json!({"tests": [{"attempts": []}]});
        let br = encode_report(&ReportInput::Document(doc.clone())).unwrap();
        assert_eq!(decode_report(&br).unwrap(), doc);
        assert_eq!(decode_report(br#" { "tests": [{"attempts": []}] }"#.as_ref()).unwrap(), doc);
        assert_eq!(encode_report(&ReportInput::Bytes(br.clone())).unwrap(), br);
        assert_eq!(encode_report(&ReportInput::Bytes(serde_json::to_vec(&doc).unwrap())).unwrap(), br);
    }

    #[test]
    fn bad_bodies_are_errors() {
        let br = encode_report(&ReportInput::Document(serde_json::json!({"a": "b".repeat(1000)}))).unwrap();
        assert_eq!(decode_report(&br[..br.len() / 2]).unwrap_err().code, ErrorCode::BrotliCorrupt);
        assert_eq!(decode_report(b"{\"tests\": [").unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(decode_report(b"[1]").unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(encode_report(&ReportInput::Bytes(vec![1, 2, 3])).unwrap_err().code, ErrorCode::InvalidInput);
    }
}
