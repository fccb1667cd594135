//! The one rule for "Brotli or JSON" bytes ([`super::read_json`]), at the sizes real suites have,
//! and report bytes checked by that rule as their stream decodes ([`super::ensure_valid_bytes`]).

use proptest::prelude::*;

use super::*;
use crate::codec::{compress, CompressOptions, MAX_LGWIN, MAX_QUALITY, MIN_LGWIN, MIN_QUALITY};

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

/// A valid report of `n` tests in files of 25, with attempts, about 190 bytes of JSON per test.
pub(crate) fn report_json(n: usize) -> Vec<u8> {
    let mut b = ReportBuilder::new(ReportInit { category: "playwright".into(), commit_id: SHA.into(), ..Default::default() }).unwrap();
    let env = b.add_environment(Environment { name: "chromium".into(), ..Default::default() }).unwrap();
    for i in 0..n {
        let file = format!("tests/area-{}/feature-{}.spec.ts", i / 500, i / 25);
        let h = b
            .add_test(TestInput {
                title_path: vec![format!("suite {}", i % 7), format!("test {i} does thing {}", i % 13)],
                file: Some(file),
                line: Some((i % 400 + 1) as u32),
                ..Default::default()
            })
            .unwrap();
        let attempt = RunAttempt {
            environment_idx: Some(env as u32),
            start_timestamp: 1_700_000_000_000 + i as u64 * 37,
            duration: Some((i as u64 * 7919) % 30_000),
            ..Default::default()
        };
        b.add_attempt(h, attempt).unwrap();
    }
    b.to_json()
}

fn read(bytes: &[u8]) -> Result<JsonInput> {
    read_json(bytes, DecompressOptions::default())
}

/// The smallest report (by test count, from `from`) whose Brotli stream at `opts` begins with `byte`.
fn first_with_leading_byte(byte: u8, opts: CompressOptions, from: usize) -> (Vec<u8>, Vec<u8>) {
    for n in from..from + 4000 {
        let json = report_json(n);
        let br = compress(&json, opts).unwrap();
        if br[0] == byte {
            return (json, br);
        }
    }
    panic!("no report from {from} tests on compresses to a stream beginning with {:?}", byte as char);
}

#[test]
fn brotli_streams_that_begin_with_a_bracket_or_a_brace_are_read_as_brotli() {
    // 343 tests (65,641 bytes of JSON) was the first size whose stream began with `[`.
    let (json, br) = first_with_leading_byte(b'[', CompressOptions::default(), 300);
    assert!(json.len() > 64 * 1024);
    let got = read(&br).unwrap();
    assert!(got.compressed);
    assert_eq!(got.json, json);
    assert_eq!(decode_json(&br).unwrap(), json);
}

#[test]
fn the_first_byte_of_a_stream_is_whatever_its_header_bits_make_it() {
    // Every first byte the encoder gives over qualities, windows and sizes: `[` among them (the
    // last meta-block first, with 5 length nibbles: a single meta-block of 64 KiB to 1 MiB at
    // lgwin 22), so no first-byte test can tell Brotli from JSON.
    let mut firsts = std::collections::BTreeSet::new();
    for quality in [0, 5, 9, 11] {
        for lgwin in MIN_LGWIN..=MAX_LGWIN {
            for n in [0, 1, 40, 400] {
                let json = report_json(n);
                let br = compress(&json, CompressOptions { quality, lgwin }).unwrap();
                firsts.insert(br[0]);
                assert_eq!(read(&br).unwrap().json, json, "quality {quality}, lgwin {lgwin}, {n} tests");
            }
        }
    }
    assert!(firsts.contains(&b'['), "{firsts:?}");
    // `{` (0x7b) is a header that says "window 22, last meta-block, empty" followed by non-zero
    // padding: no valid stream begins with it, and bytes that do are read as JSON or refused.
    for rest in [&b""[..], b"}", b"\"a\": 1}", &[0u8, 0, 0]] {
        let bytes = [&b"{"[..], rest].concat();
        assert!(crate::codec::decompress(&bytes, DecompressOptions::default()).is_err());
    }
    let json = report_json(400);
    assert_eq!(json[0], b'{');
    let got = read(&json).unwrap();
    assert!(!got.compressed && got.json == json);
}

#[test]
fn the_first_json_byte_is_found_past_a_byte_order_mark_and_whitespace() {
    assert_eq!(first_json_byte(b"  {\"a\":1}"), Some(b'{'));
    assert_eq!(first_json_byte(b"\xEF\xBB\xBF\r\n["), Some(b'['));
    assert_eq!(first_json_byte(b" \t "), None);
    assert_ne!(first_json_byte(&compress(b"{}", CompressOptions::default()).unwrap()), Some(b'{'));
}

#[test]
fn plain_json_that_a_brotli_decoder_reads_for_a_while_is_plain_json() {
    // Whitespace first makes a valid stream header and an uncompressed meta-block: the decoder
    // copies JSON text out before it fails. The bytes are still plain JSON.
    for prefix in ["", " ", "  ", "\n", "\r\n", "\t\t\t\t", "\u{feff}", "\u{feff}  \n"] {
        let json = [prefix.as_bytes(), &report_json(50)].concat();
        let got = read(&json).unwrap_or_else(|e| panic!("{prefix:?}: {e}"));
        assert!(!got.compressed);
        assert_eq!(got.doc, crate::from_json::<serde_json::Value>(&report_json(50)).unwrap());
    }
}

#[test]
fn neither_brotli_nor_json_says_what_was_tried_and_never_prints_the_bytes() {
    let secret = "hunter2-do-not-print";
    for (bytes, code) in [
        (format!("not a report {secret}").into_bytes(), ErrorCode::InvalidInput),
        (format!("{{\"category\": \"{secret}").into_bytes(), ErrorCode::InvalidInput),
        (format!("[{secret}]").into_bytes(), ErrorCode::InvalidInput),
        (vec![0x1b, 0xff, 0x00, 0x10], ErrorCode::InvalidInput),
    ] {
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.code, code, "{}", e.message);
        assert!(e.message.starts_with("the bytes are neither Brotli-compressed JSON ("), "{}", e.message);
        assert!(e.message.contains("nor plain JSON ("), "{}", e.message);
        assert!(!e.message.contains(secret), "{}", e.message);
    }
    let e = read(b"").unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidInput, "the bytes are empty: neither Brotli-compressed JSON nor plain JSON"));
    // Brotli of something that is not JSON
    let e = read(&compress(format!("plain text {secret}").as_bytes(), CompressOptions::default()).unwrap()).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("not to text that begins like JSON"), "{}", e.message);
}

#[test]
fn damaged_brotli_json_is_brotli_corrupt_whatever_its_first_byte() {
    let (_, br) = first_with_leading_byte(b'[', CompressOptions::default(), 300);
    let small = compress(&report_json(20), CompressOptions::default()).unwrap();
    for damaged in [&br[..br.len() / 2], &br[..br.len() - 1], &small[..small.len() - 3]] {
        let e = read(damaged).unwrap_err();
        assert_eq!(e.code, ErrorCode::BrotliCorrupt, "{}", e.message);
        assert!(e.message.starts_with("the bytes are Brotli-compressed JSON, but the stream is damaged: "), "{}", e.message);
    }
    let mut trailing = small.clone();
    trailing.push(b'x');
    assert_eq!(read(&trailing).unwrap_err().code, ErrorCode::BrotliCorrupt);
    // past the output limit
    let e = read_json(&br, DecompressOptions { max_output_bytes: 1000 }).unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
}

#[test]
fn every_quality_and_window_reads_back_at_a_large_size() {
    // 3,000 tests (about 570 KB of JSON): several meta-blocks at every setting.
    let json = report_json(3000);
    for quality in MIN_QUALITY..=MAX_QUALITY {
        for lgwin in [MIN_LGWIN, 16, 22, MAX_LGWIN] {
            let br = compress(&json, CompressOptions { quality, lgwin }).unwrap();
            let got = read(&br).unwrap_or_else(|e| panic!("quality {quality}, lgwin {lgwin}: {e}"));
            assert!(got.compressed && got.json == json, "quality {quality}, lgwin {lgwin}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Reports from 0 to 20,000 tests, at every quality and window, compressed or plain: read
    /// back as they were, through `read_json`, `decode_json` and the upload's report bytes.
    #[test]
    fn reports_of_any_size_read_back(
        n in prop_oneof![0usize..=400, 300usize..=3000, 3000usize..=20_000],
        quality in MIN_QUALITY..=MAX_QUALITY,
        lgwin in MIN_LGWIN..=MAX_LGWIN,
        plain in any::<bool>(),
    ) {
        // the slowest settings on the largest sizes would take minutes: 11 and 10 up to 3,000 tests
        let n = if quality >= 10 { n.min(3000) } else { n };
        let json = report_json(n);
        let bytes = if plain { json.clone() } else { compress(&json, CompressOptions { quality, lgwin }).unwrap() };
        let got = read(&bytes).unwrap();
        prop_assert_eq!(got.compressed, !plain);
        prop_assert!(got.json == json);
        prop_assert!(decode_json(&bytes).unwrap() == json);
        let sent = crate::exchange::encode_upload_body(&crate::exchange::ReportInput::Bytes(bytes.clone())).unwrap();
        prop_assert!(decode_json(&sent).unwrap() == json);
        prop_assert!(crate::exchange::decode_download_body(&bytes, None).is_ok());
    }
}

/// A large report's text is held once, in a buffer of its size: not one grown by doubling
/// (up to twice the text, in wasm memory that never shrinks).
#[test]
fn brotli_json_is_decoded_into_a_buffer_of_its_size() {
    // titles of random hex: the Brotli stream spans many of the reader's input steps
    let noise = crate::codec::tests::noise(30 * 60_000, 5);
    let mut text = String::from("{\"tests\":[");
    for (i, r) in noise.chunks(30).enumerate() {
        let hex: String = r.iter().map(|b| format!("{b:02x}")).collect();
        text.push_str(&format!("{{\"title\":\"{i} {hex}\",\"attempts\":[]}},"));
    }
    text.push_str("{}]}");
    let bytes = crate::codec::compress(text.as_bytes(), crate::codec::CompressOptions::default()).unwrap();
    let (json, compressed) = read_json_text(&bytes, DecompressOptions::default()).unwrap();
    assert!(compressed);
    assert!(bytes.len() > 10 * 64 * 1024, "{} bytes of Brotli", bytes.len());
    assert_eq!(json, text.as_bytes());
    assert!(json.capacity() <= json.len() + 1, "capacity {} for {} bytes", json.capacity(), json.len());
    // and the document reader gives the same text
    assert_eq!(read_json(&bytes, DecompressOptions::default()).unwrap().json, json);
}


/// What the upload checked before report bytes were read as a stream: the text decoded whole
/// ([`read_json_text`]), then checked ([`ensure_valid_json`]).
fn checked_whole(bytes: &[u8], opts: DecompressOptions) -> Result<ReportBytes<'static>> {
    let (json, compressed) = read_json_text(bytes, opts)?;
    ensure_valid_json(&json)?;
    Ok(if compressed { ReportBytes::Brotli } else { ReportBytes::Json(Cow::Owned(json)) })
}

/// An error message without the line and column serde_json gives.
fn without_place(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find(" at line ") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + " at line ".len()..];
        let skip = tail.find(" column ").map(|c| c + " column ".len()).unwrap_or(0);
        let digits = tail[skip..].find(|ch: char| !ch.is_ascii_digit()).unwrap_or(tail.len() - skip);
        out.push_str(" at (place)");
        rest = &tail[skip + digits..];
    }
    out.push_str(rest);
    out
}

/// Report bytes as users hand them over, and as they break: Brotli at any setting or plain JSON
/// (a byte order mark, whitespace), a report with a problem, JSON that is not an object, text
/// that is not JSON, and the bytes cut short, with a byte changed or bytes after the end.
fn report_bytes() -> impl Strategy<Value = (Vec<u8>, DecompressOptions)> {
    (
        0usize..600,
        0u32..=9,
        MIN_LGWIN..=MAX_LGWIN,
        0u8..4,
        0u8..6,
        0u8..5,
        any::<prop::sample::Index>(),
        prop_oneof![Just(crate::codec::DEFAULT_MAX_OUTPUT_BYTES), 10usize..60_000],
    )
        .prop_map(|(n, quality, lgwin, form, content, damage, at, limit)| {
            let mut json = match content {
                0 => report_json(n),
                1 => String::from_utf8(report_json(n)).unwrap().replacen("\"playwright\"", "7", 1).into_bytes(),
                2 => String::from_utf8(report_json(n)).unwrap().replacen("\"duration\":", "\"duration\":-", 1).into_bytes(),
                3 => b"[1,2,3]".to_vec(),
                4 => b"not json at all".to_vec(),
                _ => {
                    let mut j = report_json(n);
                    j.truncate(at.index(j.len()));
                    j
                }
            };
            match form {
                1 => json.splice(0..0, BOM.iter().copied()).for_each(drop),
                2 => json.splice(0..0, *b" \n\t").for_each(drop),
                _ => {}
            }
            let mut bytes = if form == 3 { json } else { compress(&json, CompressOptions { quality, lgwin }).unwrap() };
            if !bytes.is_empty() {
                match damage {
                    1 => bytes.truncate(at.index(bytes.len())),
                    2 => bytes.push(at.index(256) as u8),
                    3 => {
                        let i = at.index(bytes.len());
                        bytes[i] ^= 1 << (at.index(8) as u32);
                    }
                    _ => {}
                }
            }
            (bytes, DecompressOptions { max_output_bytes: limit })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Report bytes checked as a stream ([`ensure_valid_bytes`], what `uploadReport` does) give
    /// exactly what decoding the whole text then checking it gives: the same reading (Brotli, or
    /// plain with the same text), or the same error code and message. One exception: a damaged stream whose output
    /// also passes `maxOutputBytes` may be found past the limit or damaged first, as the decoder
    /// is given room for its output (a whole buffer, or a reader's).
    #[test]
    fn report_bytes_checked_as_a_stream_as_when_decoded_whole((bytes, opts) in report_bytes()) {
        let whole = checked_whole(&bytes, opts);
        let kept = crate::codec::tests::Kept(bytes.clone());
        let streamed = ensure_valid_bytes(crate::codec::Input::Bytes(&bytes), opts);
        let held = ensure_valid_bytes(crate::codec::Input::Held(&kept), opts);
        prop_assert_eq!(&held, &streamed);
        let both = |a: ErrorCode, b: ErrorCode| [a, b].contains(&ErrorCode::LimitExceeded) && [a, b].contains(&ErrorCode::BrotliCorrupt);
        match (whole, streamed) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) if both(a.code, b.code) => {
                let limited = DecompressOptions { max_output_bytes: crate::codec::DEFAULT_MAX_OUTPUT_BYTES };
                prop_assert_eq!(checked_whole(&bytes, limited).map_err(|e| e.code), Err(ErrorCode::BrotliCorrupt));
            }
            // serde_json's stream reader places a control character that is a line break on
            // the next line, column 0 (its slice reader: the end of the line): the rest is the same
            (Err(a), Err(b)) => prop_assert_eq!((a.code, without_place(&a.message)), (b.code, without_place(&b.message))),
            (a, b) => prop_assert!(false, "decoded whole: {:?}; as a stream: {:?}", a, b),
        }
    }
}

/// A large report given as Brotli bytes is checked holding the decoder and one top-level suite
/// at a time, never its text: 20,000 tests (3.8 MB of JSON) at a 64 KiB window, checked holding
/// less than a tenth of the text, and a problem in its last test still found.
#[test]
fn report_bytes_are_checked_without_holding_their_text() {
    let json = report_json(20_000);
    assert!(json.len() > 3 << 20);
    let opts = CompressOptions { quality: 9, lgwin: 16 };
    let bytes = compress(&json, opts).unwrap();
    let (checked, held) = crate::test_alloc::peak_heap(|| ensure_valid_bytes(crate::codec::Input::Bytes(&bytes), DecompressOptions::default()));
    assert_eq!(checked, Ok(ReportBytes::Brotli));
    assert!(held < json.len() / 10, "{held} bytes held to check {} bytes of JSON", json.len());
    // the measure sees the text when it is held
    let (_, held) = crate::test_alloc::peak_heap(|| checked_whole(&bytes, DecompressOptions::default()));
    assert!(held >= json.len(), "{held}");

    let text = String::from_utf8(json).unwrap();
    let last = text.rfind("\"environmentIdx\":0").unwrap();
    let broken = format!("{}\"environmentIdx\":3{}", &text[..last], &text[last + "\"environmentIdx\":0".len()..]);
    let e = ensure_valid_bytes(crate::codec::Input::Bytes(&compress(broken.as_bytes(), opts).unwrap()), DecompressOptions::default()).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("environmentIdx"), "{}", e.message);
}
