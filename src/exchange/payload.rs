//! What goes in the bodies: the report (checked and encoded for upload, decoded from the
//! download) and the attachment encoding decision.
//!
//! The report rules live in [`crate::report`]: a report to send is checked with
//! [`report::validate_json`] (the rules `validateReport` applies) and its JSON encoded with
//! [`report::encode_valid_json`] (JSON, Brotli quality 9, as `encodeReport`); bytes are read with
//! [`report::read_json`] (as `decodeReport`: the one rule for Brotli-or-JSON bytes). Nothing here re-states a rule of the format.

use std::borrow::Cow;
use std::fmt;
use std::rc::Rc;

use crate::codec::{DecompressOptions, HeldBytes, Input};
use crate::exchange::HostBody;
use crate::error::{Error, ErrorCode};
use crate::report::{self, ReportBytes};

/// A report document as JSON, as the exchanges return it (the annotated test list is passed
/// through as the service sent it, unknown fields included).
pub type ReportDocument = serde_json::Value;

/// A report to send: a document (its JSON text), or bytes already encoded (Brotli) or plain JSON,
/// here or held by the host.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportInput {
    Document(String),
    Bytes(Vec<u8>),
    /// The caller's bytes where they are (in wasm: their `Uint8Array`): read in steps for the
    /// check, sent by handle.
    Held(HeldReport),
}

/// Report bytes the host holds: read through `bytes`, sent as `body`.
#[derive(Clone)]
pub struct HeldReport {
    pub bytes: Rc<dyn HeldBytes>,
    pub body: HostBody,
}

impl fmt::Debug for HeldReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeldReport").field("body", &self.body).finish_non_exhaustive()
    }
}

impl PartialEq for HeldReport {
    fn eq(&self, other: &Self) -> bool {
        self.body == other.body
    }
}

/// Checks a report against the report format and returns the Brotli (quality 9) JSON bytes to
/// upload. An invalid report is `INVALID_INPUT` naming the first problems by path. Brotli bytes
/// that decode to a valid report are sent as they are.
pub fn encode_upload_body(report: &ReportInput) -> Result<Vec<u8>, Error> {
    Ok(match check_report(report)? {
        CheckedReport::Encoded(b) => b.into_owned(),
        CheckedReport::Held(h) => h.bytes.to_vec(),
        CheckedReport::Json(json) => report::encode_json(&json),
    })
}

/// A report found valid: Brotli bytes to send as they are (here, or the host's), or JSON text
/// still to encode.
#[derive(Debug)]
pub enum CheckedReport<'a> {
    Encoded(Cow<'a, [u8]>),
    Held(&'a HeldReport),
    Json(Cow<'a, [u8]>),
}

/// Checks a report against the report format (as [`encode_upload_body`], without encoding it).
pub fn check_report(report: &ReportInput) -> Result<CheckedReport<'_>, Error> {
    let opts = DecompressOptions::default();
    match report {
        ReportInput::Document(json) => {
            report::ensure_valid_json(json.as_bytes())?;
            Ok(CheckedReport::Json(Cow::Borrowed(json.as_bytes())))
        }
        ReportInput::Bytes(b) => Ok(match report::ensure_valid_bytes(Input::Bytes(b), opts)? {
            ReportBytes::Brotli => CheckedReport::Encoded(Cow::Borrowed(b)),
            ReportBytes::Json(json) => CheckedReport::Json(json),
        }),
        ReportInput::Held(h) => Ok(match report::ensure_valid_bytes(Input::Held(&*h.bytes), opts)? {
            ReportBytes::Brotli => CheckedReport::Held(h),
            ReportBytes::Json(json) => CheckedReport::Json(json),
        }),
    }
}

/// A downloaded report: plain JSON or Brotli-compressed JSON. `content_encoding` is the
/// response's header: a `fetch` undoes `Content-Encoding: br` itself and (Node's, for one)
/// hands over whatever prefix a truncated stream decodes to, so JSON that ends early under
/// `Content-Encoding: br` is a truncated Brotli body. Corrupt or truncated Brotli is
/// `BROTLI_CORRUPT`; anything else that is not a JSON object is `INVALID_RESPONSE`.
pub fn decode_download_body(body: &[u8], content_encoding: Option<&str>) -> Result<ReportDocument, Error> {
    let declared_br = content_encoding.is_some_and(|e| e.trim().eq_ignore_ascii_case("br"));
    let truncated = |detail: &str| {
        Error::new(
            ErrorCode::BrotliCorrupt,
            format!("the annotated report (Content-Encoding: br) is truncated or corrupt Brotli: {detail}"),
        )
    };
    if declared_br && body.is_empty() {
        return Err(truncated("the body decodes to nothing"));
    }
    let doc = match report::read_json(body, DecompressOptions::default()) {
        Ok(input) => input.doc,
        // what a `fetch` that undid `Content-Encoding: br` hands over for a truncated body: the
        // JSON's beginning
        Err(_) if declared_br && crate::from_json::<serde_json::Value>(body).is_err_and(|e| e.is_eof()) => {
            return Err(truncated("the decoded JSON ends early"))
        }
        Err(e) => {
            let code = match e.code {
                ErrorCode::BrotliCorrupt | ErrorCode::LimitExceeded => e.code,
                _ => ErrorCode::InvalidResponse,
            };
            return Err(Error::new(code, format!("the annotated report: {}", e.message)));
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
    use crate::codec;
    use serde_json::json;

    fn doc() -> ReportDocument {
        json!({
            "category": "playwright",
            "commitId": "0123456789abcdef0123456789abcdef01234567",
            "environments": [{"name": "chromium"}],
            "startTimestamp": 1,
            "duration": 2,
            "tests": [{"title": "a", "attempts": []}],
        })
    }

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
        let br = encode_upload_body(&ReportInput::Document(doc().to_string())).unwrap();
        // the document's own JSON text, encoded (as encodeReport does): nothing rewritten
        assert_eq!(br, report::encode_json(doc().to_string().as_bytes()));
        assert_eq!(decode_download_body(&br, Some("br")).unwrap(), doc());
        assert_eq!(decode_download_body(&br, None).unwrap(), doc());
        let pretty = serde_json::to_string_pretty(&doc()).unwrap();
        assert_eq!(decode_download_body(pretty.as_bytes(), None).unwrap(), doc());
        // a fetch that already undid Content-Encoding: br
        assert_eq!(decode_download_body(pretty.as_bytes(), Some("br")).unwrap(), doc());
        assert_eq!(encode_upload_body(&ReportInput::Bytes(br.clone())).unwrap(), br);
        assert_eq!(encode_upload_body(&ReportInput::Bytes(serde_json::to_vec(&doc()).unwrap())).unwrap(), br);
    }

    #[test]
    fn invalid_reports_are_invalid_input_with_paths() {
        let mut bad = doc();
        bad["commitId"] = json!("HEAD");
        bad["tests"][0]["attempts"] = json!([{"startTimestamp": 0, "environmentIdx": 3}]);
        for input in [
            ReportInput::Document(bad.to_string()),
            ReportInput::Bytes(serde_json::to_vec(&bad).unwrap()),
            ReportInput::Bytes(codec::compress(&serde_json::to_vec(&bad).unwrap(), Default::default()).unwrap()),
        ] {
            let e = encode_upload_body(&input).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidInput);
            assert!(e.message.contains("commitId") && e.message.contains("tests[0].attempts[0].environmentIdx"), "{}", e.message);
            assert!(e.message.contains("validateReport"), "{}", e.message);
        }
        let e = encode_upload_body(&ReportInput::Document(json!([]).to_string())).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidInput);
        let e = encode_upload_body(&ReportInput::Document(json!({"tests": []}).to_string())).unwrap_err();
        assert!(e.message.contains("category: is required"), "{}", e.message);
    }

    #[test]
    fn bad_bodies_are_errors() {
        // cut where the stream has begun to give JSON
        let tests: Vec<_> = (0..200).map(|i| json!({"title": format!("t{i}"), "attempts": []})).collect();
        let br = codec::compress(&serde_json::to_vec(&json!({"tests": tests})).unwrap(), Default::default()).unwrap();
        assert_eq!(decode_download_body(&br[..br.len() / 2], None).unwrap_err().code, ErrorCode::BrotliCorrupt);
        assert_eq!(decode_download_body(&br[..br.len() / 2], Some("br")).unwrap_err().code, ErrorCode::BrotliCorrupt);
        assert_eq!(decode_download_body(b"{\"tests\": [", None).unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(decode_download_body(b"{\"not json", None).unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(decode_download_body(b"[1]", None).unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(decode_download_body(b"", None).unwrap_err().code, ErrorCode::InvalidResponse);
        assert_eq!(decode_download_body(b"{\"a\": }", Some("br")).unwrap_err().code, ErrorCode::InvalidResponse);
        // what Node's fetch hands over for a truncated Brotli body: a prefix of the JSON, or nothing
        assert_eq!(decode_download_body(b"{\"tests\": [", Some("br")).unwrap_err().code, ErrorCode::BrotliCorrupt);
        assert_eq!(decode_download_body(b"", Some("br")).unwrap_err().code, ErrorCode::BrotliCorrupt);
        assert_eq!(encode_upload_body(&ReportInput::Bytes(vec![1, 2, 3])).unwrap_err().code, ErrorCode::InvalidInput);
    }
}
