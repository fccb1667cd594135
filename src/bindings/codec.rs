//! `compress`, `decompress`, `Compressor`, `Decompressor`.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::{bytes_from_js, bytes_or_text_from_js, check_u32, from_js, JsResult};
use crate::codec::{self, CompressOptions, DecompressOptions, Pieces};
use js_sys::Uint8Array;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CompressOpts {
    quality: Option<f64>,
    lgwin: Option<f64>,
}

impl CompressOpts {
    fn read(value: JsValue) -> JsResult<CompressOptions> {
        let o: CompressOpts = from_js(value, "compress options")?;
        Ok(CompressOptions {
            quality: check_u32(o.quality, "quality", codec::DEFAULT_QUALITY, codec::MIN_QUALITY, codec::MAX_QUALITY)?,
            lgwin: check_u32(o.lgwin, "lgwin", codec::DEFAULT_LGWIN, codec::MIN_LGWIN, codec::MAX_LGWIN)?,
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DecompressOpts {
    max_output_bytes: Option<f64>,
}

impl DecompressOpts {
    fn read(value: JsValue) -> JsResult<DecompressOptions> {
        let o: DecompressOpts = from_js(value, "decompress options")?;
        let max_output_bytes = match o.max_output_bytes {
            None => codec::DEFAULT_MAX_OUTPUT_BYTES,
            Some(v) if v.fract() == 0.0 && v >= 0.0 => v.min(usize::MAX as f64) as usize,
            Some(v) => {
                return Err(crate::Error::invalid_input(format!(
                    "maxOutputBytes must be a non-negative integer, got {v}"
                ))
                .into())
            }
        };
        Ok(DecompressOptions { max_output_bytes })
    }
}

/// Brotli-compresses bytes or a string (UTF-8). Quality 0..11 (default 9), lgwin 10..24 (22).
#[wasm_bindgen]
pub fn compress(data: JsValue, opts: JsValue) -> JsResult<Vec<u8>> {
    let data = bytes_or_text_from_js(&data, "data")?;
    Ok(codec::compress(&data, CompressOpts::read(opts)?)?)
}

/// Decompresses a complete Brotli stream.
#[wasm_bindgen]
pub fn decompress(data: JsValue, opts: JsValue) -> JsResult<Uint8Array> {
    let data = bytes_from_js(&data, "data must be a Uint8Array of Brotli-compressed bytes")?;
    Ok(pieces_to_js(codec::decompress_pieces(&data, DecompressOpts::read(opts)?)?))
}

/// One JavaScript array holding the pieces' bytes: the only copy of the output after the decoder
/// wrote it (a `Vec<u8>` return would first grow one buffer in the wasm memory, then copy it).
fn pieces_to_js(out: Pieces) -> Uint8Array {
    let array = Uint8Array::new_with_length(out.len() as u32);
    let mut at = 0u32;
    for piece in out.pieces.iter().filter(|p| !p.is_empty()) {
        let end = at + piece.len() as u32;
        array.subarray(at, end).copy_from(piece);
        at = end;
    }
    array
}

/// A streaming Brotli encoder.
#[wasm_bindgen]
pub struct Compressor(codec::Compressor);

#[wasm_bindgen]
impl Compressor {
    #[wasm_bindgen(constructor)]
    pub fn new(opts: JsValue) -> JsResult<Compressor> {
        Ok(Compressor(codec::Compressor::new(CompressOpts::read(opts)?)?))
    }
    /// Feeds a chunk; returns the compressed bytes ready so far (possibly empty).
    pub fn push(&mut self, chunk: JsValue) -> JsResult<Vec<u8>> {
        let chunk = bytes_or_text_from_js(&chunk, "chunk")?;
        Ok(self.0.push(&chunk)?)
    }
    /// Ends the stream; returns the remaining compressed bytes.
    pub fn finish(&mut self) -> JsResult<Vec<u8>> {
        Ok(self.0.finish()?)
    }
}

/// A streaming Brotli decoder with an output limit.
#[wasm_bindgen]
pub struct Decompressor(codec::Decompressor);

#[wasm_bindgen]
impl Decompressor {
    #[wasm_bindgen(constructor)]
    pub fn new(opts: JsValue) -> JsResult<Decompressor> {
        Ok(Decompressor(codec::Decompressor::new(DecompressOpts::read(opts)?)))
    }
    /// Feeds compressed bytes; returns the bytes decoded from them.
    pub fn push(&mut self, chunk: JsValue) -> JsResult<Uint8Array> {
        let chunk = bytes_from_js(&chunk, "chunk must be a Uint8Array of Brotli-compressed bytes")?;
        let mut out = Pieces::default();
        self.0.push_into(&chunk, &mut out)?;
        Ok(pieces_to_js(out))
    }
    /// Checks the stream is complete (a truncated stream is `BROTLI_CORRUPT`).
    pub fn finish(&mut self) -> JsResult<Vec<u8>> {
        Ok(self.0.finish()?)
    }
}
