//! Reports: the model of the report document, a builder, validation, normalization and the
//! encoding the service reads (JSON, Brotli quality 9).

mod builder;
pub mod junit;
mod model;
mod normalize;
mod split;
mod validate;

pub use builder::{AttachmentInput, ReportBuilder, ReportInit, TestInput};
pub use model::*;
pub use normalize::normalize;
pub use validate::{ensure_valid, ensure_valid_json, issues, validate, validate_json, Issue, Rules};

use std::borrow::Cow;

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

/// Brotli-compresses JSON text at the service's setting (quality 9), in the smallest window that
/// holds it ([`codec::lgwin_for`]: the text is all there, so its size is known; a report streamed
/// into the encoder keeps the default window).
pub fn encode_json(json: &[u8]) -> Vec<u8> {
    // Quality 9 and a window from lgwin_for are valid, so this cannot fail.
    codec::compress(json, CompressOptions { lgwin: codec::lgwin_for(json.len()), ..CompressOptions::default() }).unwrap_or_default()
}

/// JSON text read from bytes that hold "Brotli-compressed JSON or plain JSON" (a report, a
/// timings file, a units list, a service's answer), with that text parsed, and whether it came
/// compressed. See [`read_json`].
#[derive(Debug)]
pub struct JsonInput {
    /// The JSON text, without a UTF-8 byte order mark.
    pub json: Vec<u8>,
    pub doc: serde_json::Value,
    /// True when the bytes were a Brotli stream.
    pub compressed: bool,
}

/// The one rule for bytes that may be Brotli-compressed JSON or plain JSON, used by every entry
/// point that reads a report or a durations file (`decodeReport`, `uploadReport`'s report bytes,
/// the durations download, the runners' timings files, the CLI, the preview).
///
/// The first byte cannot tell them apart: a Brotli stream at the service's window (lgwin 22)
/// begins with a byte `0x?b`, which is `[` when its first meta-block is its last with 5 length
/// nibbles (64 KiB to 1 MiB of JSON). So the bytes are Brotli-compressed JSON when they are one
/// complete Brotli stream, nothing after it, whose content parses as JSON; else plain JSON when
/// they parse as JSON (after an optional UTF-8 byte order mark); else neither, and the error says
/// what each reading found. Plain JSON fails as Brotli within its first bytes in practice (a `{`
/// first byte is an invalid stream header), and a trial decode stops as soon as its output does
/// not begin like JSON, so the rule costs one JSON parse, as before.
///
/// Errors (the same code and wording from every entry point): `BROTLI_CORRUPT` when the bytes
/// begin a Brotli stream of JSON that is damaged or truncated, `LIMIT_EXCEEDED` past
/// `opts.max_output_bytes`, otherwise `INVALID_INPUT`. No message holds the bytes themselves.
pub fn read_json(bytes: &[u8], opts: DecompressOptions) -> Result<JsonInput> {
    let ((json, doc), compressed) = read_json_with(bytes, opts, parse_text::<serde_json::Value>, |plain| {
        crate::from_json::<serde_json::Value>(plain).map(|doc| (plain.to_vec(), doc))
    })?;
    Ok(JsonInput { json, doc, compressed })
}

/// [`read_json`] without the document: the JSON text (checked to be JSON, without building it)
/// and whether the bytes were a Brotli stream.
pub fn read_json_text(bytes: &[u8], opts: DecompressOptions) -> Result<(Vec<u8>, bool)> {
    let ((json, _), compressed) = read_json_with(bytes, opts, parse_text::<serde::de::IgnoredAny>, |plain| {
        crate::from_json::<serde::de::IgnoredAny>(plain).map(|_| (plain.to_vec(), serde::de::IgnoredAny))
    })?;
    Ok((json, compressed))
}

/// What valid report bytes were found to be ([`ensure_valid_bytes`]).
#[derive(Debug, PartialEq, Eq)]
pub enum ReportBytes<'a> {
    /// A Brotli stream: sent as it is.
    Brotli,
    /// Plain JSON: its text (without a byte order mark), still to encode.
    Json(Cow<'a, [u8]>),
}

/// [`ensure_valid_json`] of report bytes (here or held by the host) read by [`read_json`]'s
/// rule, without holding a Brotli report's text: the stream is decoded as it is checked, twice
/// ([`validate::report_issues_split`]), so a 100,000-test report costs the decoder's window and
/// one top-level suite or test at a time, not its 39 MB of text (and held bytes are copied in 64
/// KiB at a time). Bytes that are not a Brotli stream of a report object (plain JSON, a damaged
/// stream, text that is not JSON) are read whole (held bytes copied here once), as
/// [`read_json`] reads them, for its errors; then those of [`ensure_valid_json`].
pub fn ensure_valid_bytes(input: codec::Input<'_>, opts: DecompressOptions) -> Result<ReportBytes<'_>> {
    use serde::de::IgnoredAny;
    let streamed = validate::report_issues_split(
        |text| {
            let mut r = codec::DecodeReader::new(input, opts);
            let mut buf = vec![0u8; STEP];
            loop {
                match std::io::Read::read(&mut r, &mut buf) {
                    Ok(0) => return true,
                    Ok(n) if text(&buf[..n]) => {}
                    _ => return false,
                }
            }
        },
        Rules::Strict,
    );
    if let Some(issues) = streamed {
        validate::to_result("report", &issues, "; validateReport(report) lists every problem")?;
        return Ok(ReportBytes::Brotli);
    }
    let mut held = Vec::new();
    let bytes = match input {
        codec::Input::Bytes(b) => b,
        codec::Input::Held(h) => {
            held = h.to_vec();
            &held[..]
        }
    };
    let (checked, compressed) = read_json_with(
        bytes,
        opts,
        |b, o| parse_text::<IgnoredAny>(b, o).map(|(json, _)| ensure_valid_json(&json)),
        |text| crate::from_json::<IgnoredAny>(text).map(|_| ensure_valid_json(text)),
    )?;
    checked?;
    if compressed {
        return Ok(ReportBytes::Brotli);
    }
    Ok(ReportBytes::Json(match input {
        codec::Input::Bytes(b) => Cow::Borrowed(strip_bom(b)),
        codec::Input::Held(_) => {
            held.drain(..held.len() - strip_bom(&held).len());
            Cow::Owned(held)
        }
    }))
}

/// Decodes `bytes` as a Brotli stream of JSON and parses its text.
fn parse_text<T: serde::de::DeserializeOwned>(bytes: &[u8], opts: DecompressOptions) -> Result<(Vec<u8>, T), BrotliMiss> {
    let mut json = decompress_json(bytes, opts)?;
    if json.starts_with(BOM) {
        json.drain(..BOM.len());
    }
    match crate::from_json::<T>(&json) {
        Ok(doc) => Ok((json, doc)),
        Err(e) => Err(BrotliMiss::Other(format!("it is a Brotli stream, but what it holds is not JSON: {e}"))),
    }
}

/// The rule of [`read_json`]: `brotli` reads the bytes as a Brotli stream of JSON, else `plain`
/// reads them (without a byte order mark) as JSON when they begin like it; else the error says
/// what each reading found.
fn read_json_with<T>(
    bytes: &[u8],
    opts: DecompressOptions,
    brotli: impl FnOnce(&[u8], DecompressOptions) -> Result<T, BrotliMiss>,
    plain: impl FnOnce(&[u8]) -> serde_json::Result<T>,
) -> Result<(T, bool)> {
    if bytes.is_empty() {
        return Err(Error::invalid_input("the bytes are empty: neither Brotli-compressed JSON nor plain JSON"));
    }
    let brotli_why = match brotli(bytes, opts) {
        Ok(read) => return Ok((read, true)),
        Err(miss) => miss,
    };
    let text = strip_bom(bytes);
    let json_why = if matches!(first_json_byte(text), Some(b'{' | b'[')) {
        match plain(text) {
            Ok(read) => return Ok((read, false)),
            Err(e) => format!("not JSON: {e}"),
        }
    } else {
        "it does not begin with `{` or `[`".to_string()
    };
    Err(match brotli_why {
        BrotliMiss::Limit(e) => e,
        BrotliMiss::Damaged(e) => Error::new(
            ErrorCode::BrotliCorrupt,
            format!("the bytes are Brotli-compressed JSON, but the stream is damaged: {}; re-create the file (or check proxies that re-encode bodies)", e.message),
        ),
        BrotliMiss::Other(why) => Error::invalid_input(format!(
            "the bytes are neither Brotli-compressed JSON ({why}) nor plain JSON ({json_why})"
        )),
    })
}

/// Input fed to a Brotli decoder per step, so a stream whose output is not JSON stops after
/// one step; also the buffer a streamed text is read through.
const STEP: usize = 64 * 1024;

/// Why bytes are not a Brotli stream of JSON.
enum BrotliMiss {
    /// The stream's output began like JSON, then the stream broke (or ended early): damaged
    /// Brotli JSON. (A stream cut short before its first output is not told from other bytes:
    /// a few bytes of anything are often a valid beginning of some stream.)
    Damaged(Error),
    /// The output passed `maxOutputBytes`.
    Limit(Error),
    Other(String),
}

/// Decodes `bytes` as one complete Brotli stream whose output begins like JSON. Stops early when
/// the output begins otherwise (so plain JSON or other bytes cost little).
fn decompress_json(bytes: &[u8], opts: DecompressOptions) -> Result<Vec<u8>, BrotliMiss> {
    // Decoded twice: first to learn the text's size (and whether it is JSON) into a buffer
    // reused chunk after chunk, then into a buffer of exactly that size. A large report's text
    // is then held once, not in a buffer doubled as it grew (up to twice its size, plus the old
    // one during each copy) in wasm memory, which never shrinks: 100,000 tests, 39 MB of JSON,
    // 64 MB held and 96 MB at the peak, against a second decode of about 0.1 s.
    let len = decode_json_stream(bytes, opts, None)?;
    let mut out = Vec::with_capacity(len.saturating_add(1));
    decode_json_stream(bytes, opts, Some(&mut out))?;
    Ok(out)
}

/// Room in a buffer sized for the whole output (one spare byte, so the decoder's request for
/// room after the last byte needs no growth): never grown while the output fits.
struct Exact<'a>(&'a mut Vec<u8>);

impl codec::DecodeInto for Exact<'_> {
    fn room(&mut self, _wanted: usize, limit: usize) -> (&mut Vec<u8>, usize) {
        let start = self.0.len();
        let room = (self.0.capacity() - start).max(1).min(limit);
        self.0.resize(start + room, 0);
        (self.0, start)
    }
}

/// One decode of `bytes`: into `keep` when given, else counted (the output dropped chunk by
/// chunk once it began like JSON). Returns the output's length.
fn decode_json_stream(bytes: &[u8], opts: DecompressOptions, keep: Option<&mut Vec<u8>>) -> Result<usize, BrotliMiss> {
    let mut d = codec::Decompressor::new(opts);
    d.expect_input(bytes.len());
    let mut scratch = Vec::new();
    let counting = keep.is_none();
    let out = keep.unwrap_or(&mut scratch);
    let mut dropped = 0usize;
    let mut began_json = false;
    for chunk in bytes.chunks(STEP) {
        let pushed = if counting { d.push_into(chunk, out) } else { d.push_into(chunk, &mut Exact(out)) };
        if !began_json {
            match first_json_byte(out) {
                Some(b'{' | b'[') => began_json = true,
                Some(_) => return Err(BrotliMiss::Other("it decodes, but not to text that begins like JSON".into())),
                None => {}
            }
        }
        if let Err(e) = pushed {
            return Err(classify(e, began_json));
        }
        if counting && began_json {
            dropped += out.len();
            out.clear();
        }
    }
    if let Err(e) = d.finish() {
        return Err(classify(e, began_json));
    }
    if !began_json {
        return Err(BrotliMiss::Other("it decodes, but to no JSON".into()));
    }
    Ok(dropped + out.len())
}

fn classify(e: Error, began_json: bool) -> BrotliMiss {
    match e.code {
        ErrorCode::LimitExceeded => BrotliMiss::Limit(e),
        _ if began_json => BrotliMiss::Damaged(e),
        _ => BrotliMiss::Other(e.message),
    }
}

/// The first byte after an optional UTF-8 byte order mark and JSON whitespace.
fn first_json_byte(data: &[u8]) -> Option<u8> {
    strip_bom(data).iter().copied().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// The UTF-8 byte order mark, which some editors put before JSON: not part of the document.
const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

fn strip_bom(data: &[u8]) -> &[u8] {
    data.strip_prefix(BOM).unwrap_or(data)
}

/// The JSON text of a report read from Brotli-compressed or plain JSON bytes, as stored (no
/// field filled in or dropped), once it passes the published schema's rules ([`Rules::Schema`]:
/// what the service reads). The stricter rules are `validateReport`'s, not a reader's: a report
/// another tool wrote (a file suite at line 0, say) still reads.
pub fn decode_json(bytes: &[u8]) -> Result<Vec<u8>> {
    let (json, _) = read_json_text(bytes, DecompressOptions::default())?;
    validate::to_result("the report", &validate::report_issues_json(&json, Rules::Schema)?, " (the published report schema's rules)")?;
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
#[cfg(test)]
mod read_json_tests;
#[cfg(test)]
mod junit_tests;
