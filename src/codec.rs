//! Brotli, one-shot and streaming.
//!
//! The one-shot functions are the streaming ones fed a single chunk, so both give the same bytes.
//! Decoding is bounded: corrupt or truncated input is `BROTLI_CORRUPT`, output past
//! `max_output_bytes` is `LIMIT_EXCEEDED` (raised before the excess is allocated), and every
//! call returns after a number of steps proportional to its input and output.

use brotli::enc::backward_references::{AdvHasher, H6Sub, H9Opts, Struct1, UnionHasher};
use brotli::enc::encode::{BrotliEncoderOperation, BrotliEncoderParameter, BrotliEncoderStateStruct};
use brotli::enc::{Allocator, StandardAlloc};
use brotli::standard::{self as codec_fns, StandardDecoderState};
use brotli::BrotliResult;

use crate::error::{Error, ErrorCode, Result};

/// The service's stated setting (docs/service-contract.md §2.2).
pub const DEFAULT_QUALITY: u32 = 9;
pub const DEFAULT_LGWIN: u32 = 22;
pub const MIN_QUALITY: u32 = 0;
pub const MAX_QUALITY: u32 = 11;
pub const MIN_LGWIN: u32 = 10;
pub const MAX_LGWIN: u32 = 24;
/// Default cap on decoded output: large enough for any real report, small enough that a
/// decompression bomb fails instead of exhausting a 4 GiB wasm memory.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 1 << 30;

/// The input size the encoder plans for, whatever the real size (see [`Compressor::new`]).
const SIZE_HINT: u32 = 1 << 30;
/// Size of the scratch buffer the encoder writes into, and the least room the decoder makes.
const CHUNK: usize = 64 * 1024;
/// Input bytes after which the encoder is flushed, counted from the start of the stream (so the
/// output does not depend on chunking). Left alone, the encoder gathers up to 8 MB of input
/// (`1 << (lgwin + 1)`) into one meta-block before it writes anything, and holds, for that
/// meta-block, an output buffer of twice its input (16 MB) and a command array (~6.5 MB on
/// report JSON) that both grow in steps, each step a new allocation: on a 31 MB report the
/// encoder's live heap peaked at 68 MB, 26 MB of it for those two. Flushing every 1 MB bounds
/// them to ~2 MB and ~3 MB, for +0.05% to +0.11% of output (a meta-block header per MB; matches
/// still reach back the whole window across flushes). 2 MB saved 2 MB less for +0.04%.
/// Measured and not set: BROTLI_PARAM_LGBLOCK 16 (input blocks of 64 KB instead of 256 KB, so
/// the command array grows in smaller steps) saved 2.2 MB more of wasm memory on that report,
/// +0.05% output, but compress was 3-40% slower in alternating runs of bench/brotli.mjs.
const FLUSH_INTERVAL: u64 = 1 << 20;
/// The quality whose match finder [`install_match_finder`] replaces (the default, the service's).
const SMALL_HASHER_QUALITY: u32 = 9;
/// Entries per bucket of that match finder: the crate's own H9 has 256 too, and C brotli's
/// quality 9 hasher (H6) as well; 128 was measured +2% output.
const SMALL_HASHER_BLOCK_BITS: i32 = 8;
/// Bytes hashed per position, C brotli's H6 setting for quality 9 (4 bytes: +0.7% output).
const SMALL_HASHER_HASH_LEN: i32 = 5;
/// Recent distances tried first at every position, C brotli's setting for quality 9.
const SMALL_HASHER_LAST_DISTANCES: i32 = 16;
/// Bucket bits of the crate's H9 (and the most this match finder uses): 32 MB of table.
const MAX_HASHER_BUCKET_BITS: i32 = 15;
/// Fewest bucket bits for small windows (a 1 MB table).
const MIN_HASHER_BUCKET_BITS: i32 = 10;

/// Encoder settings, checked by [`CompressOptions::validate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompressOptions {
    pub quality: u32,
    pub lgwin: u32,
}

impl Default for CompressOptions {
    fn default() -> Self {
        CompressOptions { quality: DEFAULT_QUALITY, lgwin: DEFAULT_LGWIN }
    }
}

impl CompressOptions {
    pub fn validate(self) -> Result<Self> {
        if !(MIN_QUALITY..=MAX_QUALITY).contains(&self.quality) {
            return Err(Error::invalid_input(format!(
                "quality must be an integer from {MIN_QUALITY} to {MAX_QUALITY}, got {}",
                self.quality
            )));
        }
        if !(MIN_LGWIN..=MAX_LGWIN).contains(&self.lgwin) {
            return Err(Error::invalid_input(format!(
                "lgwin must be an integer from {MIN_LGWIN} to {MAX_LGWIN}, got {}",
                self.lgwin
            )));
        }
        Ok(self)
    }
}

/// Decoder settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecompressOptions {
    pub max_output_bytes: usize,
}

impl Default for DecompressOptions {
    fn default() -> Self {
        DecompressOptions { max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES }
    }
}

/// The smallest window (lgwin, from [`MIN_LGWIN`] to [`DEFAULT_LGWIN`]) that holds `len` bytes
/// (a window is `(1 << lgwin) - 16` bytes), as the brotli command-line tool picks it for a file of
/// known size: every match a wider window could find lies inside it, and the quality-9 match
/// finder's table, sized to the window ([`install_match_finder`]), shrinks with it. A 285 KB
/// shard report: lgwin 19, a 2 MB table in place of 16 MB, +0.04% output, its first compress in
/// a fresh process 25 ms in place of 37 (the table's pages no longer touched), wasm memory after
/// it 9 MB in place of 30.
pub fn lgwin_for(len: usize) -> u32 {
    (MIN_LGWIN..DEFAULT_LGWIN).find(|&w| (1usize << w) - 16 >= len).unwrap_or(DEFAULT_LGWIN)
}

/// Compresses `data` in one call.
pub fn compress(data: &[u8], opts: CompressOptions) -> Result<Vec<u8>> {
    let mut c = Compressor::new(opts)?;
    let mut out = c.push(data)?;
    out.extend_from_slice(&c.finish()?);
    Ok(out)
}

/// Decompresses a complete Brotli stream in one call.
pub fn decompress(data: &[u8], opts: DecompressOptions) -> Result<Vec<u8>> {
    let mut d = Decompressor::new(opts);
    let mut out = Vec::new();
    d.push_into(data, &mut out)?;
    d.finish()?;
    Ok(out)
}

/// [`decompress`] with the output in [`Pieces`], for a caller that copies it elsewhere anyway
/// (the wasm binding, into one JavaScript array).
pub fn decompress_pieces(data: &[u8], opts: DecompressOptions) -> Result<Pieces> {
    let mut d = Decompressor::new(opts);
    let mut out = Pieces::default();
    d.push_into(data, &mut out)?;
    d.finish()?;
    Ok(out)
}

/// A streaming encoder: `push` chunks, then `finish` once. Output does not depend on how the
/// input was chunked.
pub struct Compressor {
    state: BrotliEncoderStateStruct<StandardAlloc>,
    scratch: Vec<u8>,
    /// Input bytes taken so far (for [`FLUSH_INTERVAL`]).
    total_in: u64,
    finished: bool,
}

impl Compressor {
    pub fn new(opts: CompressOptions) -> Result<Self> {
        let opts = opts.validate()?;
        let mut state = codec_fns::new_encoder_state();
        state.set_parameter(BrotliEncoderParameter::BROTLI_PARAM_QUALITY, opts.quality);
        state.set_parameter(BrotliEncoderParameter::BROTLI_PARAM_LGWIN, opts.lgwin);
        // Left unset, the encoder guesses the input size from the first block it sees, which
        // depends on how the input was chunked. A fixed hint makes the output independent of
        // chunking; "large" is what a one-shot encoder picks for a report of a few MB.
        state.set_parameter(BrotliEncoderParameter::BROTLI_PARAM_SIZE_HINT, SIZE_HINT);
        if opts.quality == SMALL_HASHER_QUALITY {
            install_match_finder(&mut state, opts.lgwin);
        }
        // Every other parameter is the crate's default. At quality 9 the time goes to the match
        // finder (about 80%), which the rust-brotli-only parameters do not touch: they only act
        // with BROTLI_METABLOCK_CALLBACK. Measured and not kept (bench/brotli.mjs input, wasm):
        // AVOID_DISTANCE_PREFIX_SEARCH, same size, no faster;
        // DISABLE_LITERAL_CONTEXT_MODELING, +0.26% size, no faster; H6 with 128 entries per
        // bucket ~25% faster but +2.0% size (over the 1% budget). What made it faster is the
        // patched crate in vendor/brotli (its match finder's loop and match-length helper,
        // same output byte for byte): 0.83x the time, see vendor/README.md.
        Ok(Compressor { state, scratch: vec![0; CHUNK], total_in: 0, finished: false })
    }

    /// Feeds a chunk and returns the compressed bytes ready so far (often none).
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut rest = chunk;
        while !rest.is_empty() {
            let room = (FLUSH_INTERVAL - self.total_in % FLUSH_INTERVAL) as usize;
            let (now, later) = rest.split_at(room.min(rest.len()));
            self.run(BrotliEncoderOperation::BROTLI_OPERATION_PROCESS, now, &mut out)?;
            self.total_in += now.len() as u64;
            if now.len() == room {
                self.run(BrotliEncoderOperation::BROTLI_OPERATION_FLUSH, &[], &mut out)?;
            }
            rest = later;
        }
        Ok(out)
    }

    /// Ends the stream and returns the remaining bytes. The compressor cannot be used after.
    pub fn finish(&mut self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.run(BrotliEncoderOperation::BROTLI_OPERATION_FINISH, &[], &mut out)?;
        self.finished = true;
        Ok(out)
    }

    /// Runs the encoder until it took all of `input` and gave all its output (for FINISH: until
    /// the stream ended), appending the output to `out`.
    fn run(&mut self, op: BrotliEncoderOperation, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        if self.finished {
            return Err(Error::invalid_input("this Compressor is finished: create a new one"));
        }
        let mut avail_in = input.len();
        let mut in_offset = 0usize;
        loop {
            let mut avail_out = self.scratch.len();
            let mut out_offset = 0usize;
            let ok = codec_fns::compress_stream(
                &mut self.state,
                op,
                &mut avail_in,
                input,
                &mut in_offset,
                &mut avail_out,
                &mut self.scratch,
                &mut out_offset,
                &mut None,
            );
            out.extend_from_slice(&self.scratch[..out_offset]);
            if !ok {
                self.finished = true;
                return Err(Error::new(ErrorCode::InvalidInput, "the Brotli encoder rejected its input"));
            }
            let done = match op {
                BrotliEncoderOperation::BROTLI_OPERATION_FINISH => self.state.is_finished(),
                _ => avail_in == 0 && !self.state.has_more_output(),
            };
            if done {
                return Ok(());
            }
        }
    }
}

/// Gives the encoder, before its first input, C brotli's quality-9 match finder (H6: 5-byte hash,
/// 256 entries per bucket) with a table of one entry per window position, instead of the crate's
/// H9, whose fixed 32 MB table (2^15 buckets of 256) was the largest part of the encoder's memory.
/// At lgwin 22 the table is 16 MB; the output is smaller than with H9 (without the flushes:
/// bench/brotli.mjs input +0.09% vs native instead of +0.62%, a 31 MB report +0.23% instead of
/// +0.86%; with them +0.13% and +0.33%) at the same or better speed. Half that table (8 MB,
/// bucket bits lgwin - 9) was measured, with the flushes, +0.36% and +0.50% vs native: 8 MB
/// less memory, not taken while the 16 MB table keeps bench/report.mjs under its goal.
fn install_match_finder(state: &mut BrotliEncoderStateStruct<StandardAlloc>, lgwin: u32) {
    let bucket_bits = (lgwin as i32 - SMALL_HASHER_BLOCK_BITS).clamp(MIN_HASHER_BUCKET_BITS, MAX_HASHER_BUCKET_BITS);
    let block_bits = SMALL_HASHER_BLOCK_BITS;
    let p = &mut state.params.hasher;
    p.type_ = 6;
    p.bucket_bits = bucket_bits;
    p.block_bits = block_bits;
    p.hash_len = SMALL_HASHER_HASH_LEN;
    p.num_last_distances_to_check = SMALL_HASHER_LAST_DISTANCES;
    let params = *p;
    // What the crate's own H6 set-up does (encode.rs, InitializeH6), with these sizes.
    let buckets = <StandardAlloc as Allocator<u32>>::alloc_cell(&mut state.m8, 1 << (bucket_bits + block_bits));
    let num = <StandardAlloc as Allocator<u16>>::alloc_cell(&mut state.m8, 1 << bucket_bits);
    state.hasher_ = UnionHasher::H6(AdvHasher {
        buckets,
        num,
        h9_opts: H9Opts::new(&params),
        GetHasherCommon: Struct1 { params, is_prepared_: 1, dict_num_lookups: 0, dict_num_matches: 0 },
        specialization: H6Sub {
            bucket_size_: 1 << bucket_bits,
            block_bits_: block_bits,
            block_mask_: (1 << block_bits) - 1,
            hash_mask: u64::MAX >> (64 - 8 * SMALL_HASHER_HASH_LEN),
            hash_shift_: 64 - bucket_bits,
        },
    });
}

/// A [`Compressor`] behind `std::io::Write`, for serializers that write many small pieces:
/// input is gathered into blocks before it reaches the encoder, and the output equals
/// [`compress`] of everything written (the encoder's output does not depend on chunking).
pub struct CompressWriter {
    compressor: Compressor,
    pending: Vec<u8>,
    /// The output so far, as the encoder gave it: one Vec growing by doubling would hold up to
    /// twice the output, and a transient copy of it, next to the live encoder.
    pieces: Vec<Vec<u8>>,
}

/// How much input [`CompressWriter`] gathers before it runs the encoder.
const WRITER_BLOCK: usize = 1 << 18;

impl CompressWriter {
    pub fn new(opts: CompressOptions) -> Result<Self> {
        Ok(CompressWriter { compressor: Compressor::new(opts)?, pending: Vec::with_capacity(WRITER_BLOCK), pieces: Vec::new() })
    }

    fn drain(&mut self) -> Result<()> {
        let mut compressed = self.compressor.push(&self.pending)?;
        if !compressed.is_empty() {
            // It grew by doubling: up to half of it is spare room, kept until `finish`.
            compressed.shrink_to_fit();
            self.pieces.push(compressed);
        }
        self.pending.clear();
        Ok(())
    }

    /// Ends the stream and returns all the compressed bytes.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        self.drain()?;
        let tail = self.compressor.finish()?;
        let CompressWriter { compressor, pending, mut pieces } = self;
        // The output is put together once the encoder's memory is freed, so it can take that
        // room instead of growing the (never shrinking) wasm memory.
        drop((compressor, pending));
        pieces.push(tail);
        let mut out = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
        for piece in pieces {
            out.extend_from_slice(&piece);
        }
        Ok(out)
    }
}

impl std::io::Write for CompressWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    /// Takes all of `data` at once (the default would loop over `write`): serde_json
    /// (`report::encode_report`) calls this for every few bytes of JSON.
    fn write_all(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.pending.extend_from_slice(data);
        if self.pending.len() >= WRITER_BLOCK {
            self.drain().map_err(|e| std::io::Error::other(e.message))?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How many times its compressed size a decoder given its whole input expects the output to be
/// ([`Decompressor::expect_input`]): below what Brotli quality 9 makes of report JSON (about 20).
pub const EXPECTED_RATIO: usize = 8;

/// A streaming decoder: `push` compressed chunks, then `finish` to check the stream is complete.
pub struct Decompressor {
    state: StandardDecoderState,
    max_output_bytes: usize,
    total_out: usize,
    status: DecodeStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DecodeStatus {
    NeedsInput,
    Done,
    Failed,
}

impl Decompressor {
    pub fn new(opts: DecompressOptions) -> Self {
        Decompressor {
            state: codec_fns::new_decoder_state(),
            max_output_bytes: opts.max_output_bytes,
            total_out: 0,
            status: DecodeStatus::NeedsInput,
        }
    }

    /// Sizes the decoder's ring buffer for `compressed` bytes of input: at first
    /// [`EXPECTED_RATIO`] times their size (up to the stream's window), rather than from 32 KiB
    /// doubled as the output grows, each time holding the old buffer and the new one (1.5 times
    /// the window at the peak: 6 MB at lgwin 22, against 4 MB). For a decoder given the whole
    /// input; before the first push.
    pub fn expect_input(&mut self, compressed: usize) {
        let size = compressed.saturating_mul(EXPECTED_RATIO).min(u32::MAX as usize) as u32;
        self.state.set_initial_ring_buffer_size(size);
    }

    /// Total bytes decoded so far.
    pub fn total_out(&self) -> usize {
        self.total_out
    }

    /// Feeds a chunk and returns the bytes decoded from it.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.push_into(chunk, &mut out)?;
        Ok(out)
    }

    /// Feeds a chunk and appends the bytes decoded from it to `out` (a `Vec<u8>` or
    /// [`Pieces`]), decoding in place (no intermediate copy). Never makes room for more than one
    /// byte past the output limit.
    pub fn push_into(&mut self, chunk: &[u8], out: &mut impl DecodeInto) -> Result<()> {
        self.check_usable(!chunk.is_empty())?;
        let mut avail_in = chunk.len();
        let mut in_offset = 0usize;
        loop {
            // Room for typical report ratios, capped one byte past the limit so a bomb is
            // caught before its output is allocated.
            let wanted = chunk.len().saturating_mul(8);
            let (out, start) = out.room(wanted, self.room_left());
            let mut avail_out = out.len() - start;
            let mut out_offset = start;
            let mut total = 0usize;
            let result = codec_fns::decompress_stream(
                &mut avail_in,
                &mut in_offset,
                chunk,
                &mut avail_out,
                &mut out_offset,
                out,
                &mut total,
                &mut self.state,
            );
            out.truncate(out_offset);
            if !self.settle(out_offset - start, result, avail_in)? {
                return Ok(());
            }
        }
    }

    /// Decodes from `input[*pos..]` into `out` until `out` is full, the input is used up or
    /// the stream ends; advances `*pos` past the input used. Returns the bytes written, and the
    /// failure found after them (bytes written before a failure are still output, as
    /// [`Decompressor::push_into`] keeps them). What [`DecodeReader`] reads with: the output
    /// held is `out`, whatever the stream's ratio.
    pub fn decode_some(&mut self, input: &[u8], pos: &mut usize, out: &mut [u8]) -> (usize, Result<()>) {
        if let Err(e) = self.check_usable(*pos < input.len()) {
            return (0, Err(e));
        }
        if self.status == DecodeStatus::Done {
            return (0, Ok(()));
        }
        let room = out.len().min(self.room_left());
        let mut avail_in = input.len() - *pos;
        let mut avail_out = room;
        let mut written = 0usize;
        let mut total = 0usize;
        let result = codec_fns::decompress_stream(
            &mut avail_in,
            pos,
            input,
            &mut avail_out,
            &mut written,
            &mut out[..room],
            &mut total,
            &mut self.state,
        );
        (written, self.settle(written, result, avail_in).map(drop))
    }

    /// Fails a decoder that failed before, or that ended and is given more input.
    fn check_usable(&mut self, more_input: bool) -> Result<()> {
        match self.status {
            DecodeStatus::Failed => Err(Error::invalid_input("this Decompressor failed earlier: create a new one")),
            DecodeStatus::Done if more_input => {
                self.status = DecodeStatus::Failed;
                Err(corrupt("there are bytes after the end of the Brotli stream"))
            }
            _ => Ok(()),
        }
    }

    /// Room the output may take: one byte past the limit, so a bomb is caught before its
    /// output is allocated.
    fn room_left(&self) -> usize {
        (self.max_output_bytes - self.total_out).saturating_add(1)
    }

    /// Counts `written` bytes of output and reads the decoder's `result` (`avail_in`: input
    /// left unread). True when the decoder wants more room for output.
    fn settle(&mut self, written: usize, result: BrotliResult, avail_in: usize) -> Result<bool> {
        self.total_out += written;
        if self.total_out > self.max_output_bytes {
            self.status = DecodeStatus::Failed;
            return Err(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "decoded output exceeds maxOutputBytes ({} bytes); raise the limit if this input is trusted",
                    self.max_output_bytes
                ),
            ));
        }
        match result {
            BrotliResult::NeedsMoreOutput => Ok(true),
            BrotliResult::NeedsMoreInput => Ok(false),
            BrotliResult::ResultSuccess => {
                self.status = DecodeStatus::Done;
                if avail_in != 0 {
                    self.status = DecodeStatus::Failed;
                    return Err(corrupt("there are bytes after the end of the Brotli stream"));
                }
                Ok(false)
            }
            BrotliResult::ResultFailure => {
                self.status = DecodeStatus::Failed;
                Err(corrupt("the input is not valid Brotli data"))
            }
        }
    }

    /// Checks the stream ended; returns any remaining output (always empty today, kept so the
    /// streaming API is symmetric with [`Compressor::finish`]).
    pub fn finish(&mut self) -> Result<Vec<u8>> {
        match self.status {
            DecodeStatus::Done => Ok(Vec::new()),
            DecodeStatus::Failed => Err(Error::invalid_input("this Decompressor failed earlier: create a new one")),
            DecodeStatus::NeedsInput => {
                self.status = DecodeStatus::Failed;
                Err(corrupt("the Brotli stream is truncated: it ended before its last block"))
            }
        }
    }
}

/// Bytes held outside this memory (the host's: a caller's `Uint8Array` in wasm), read in steps
/// by a [`DecodeReader`], so they are never copied in whole.
pub trait HeldBytes {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copies the bytes from `offset` into all of `buf` (`offset + buf.len() <= len()`).
    fn copy_to(&self, offset: usize, buf: &mut [u8]);
    /// All of the bytes, copied here.
    fn to_vec(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.len()];
        self.copy_to(0, &mut v);
        v
    }
}

/// Compressed bytes to read: here, or held by the host.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    Bytes(&'a [u8]),
    Held(&'a dyn HeldBytes),
}

impl Input<'_> {
    pub fn len(&self) -> usize {
        match self {
            Input::Bytes(b) => b.len(),
            Input::Held(h) => h.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How much of held bytes a [`DecodeReader`] copies in per step.
const HELD_STEP: usize = 64 * 1024;

/// A Brotli stream read as it decodes (`std::io::Read`): each `read` decodes into the caller's
/// buffer, so neither the output nor more than the decoder's window is ever held, and held
/// input is copied in 64 KiB at a time. The stream must be whole: its end is checked when the
/// reader reaches it (a truncated stream, or bytes after its end, fail there). A failure is kept
/// in [`DecodeReader::failure`] with its code; the `io::Error` a `read` returns carries only its
/// message.
pub struct DecodeReader<'a> {
    d: Decompressor,
    input: Input<'a>,
    /// Held input: the step copied in, and where the next step starts.
    step: Vec<u8>,
    next: usize,
    /// Where the decoder is in the input (a slice) or in the step (held input).
    pos: usize,
    failure: Option<Error>,
}

impl<'a> DecodeReader<'a> {
    pub fn new(input: Input<'a>, opts: DecompressOptions) -> Self {
        let mut d = Decompressor::new(opts);
        d.expect_input(input.len());
        DecodeReader { d, input, step: Vec::new(), next: 0, pos: 0, failure: None }
    }

    /// The decoder's failure, when a `read` failed.
    pub fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// Held input not yet copied in.
    fn held_left(&self) -> bool {
        matches!(self.input, Input::Held(h) if self.next < h.len())
    }

    fn decode(&mut self, buf: &mut [u8]) -> (usize, Result<()>) {
        loop {
            let input = match self.input {
                Input::Bytes(b) => b,
                Input::Held(h) => {
                    if self.pos == self.step.len() && self.next < h.len() {
                        let n = HELD_STEP.min(h.len() - self.next);
                        self.step.resize(n, 0);
                        h.copy_to(self.next, &mut self.step);
                        self.next += n;
                        self.pos = 0;
                    }
                    &self.step[..]
                }
            };
            return match self.d.decode_some(input, &mut self.pos, buf) {
                (0, Ok(())) if self.d.status == DecodeStatus::NeedsInput && self.held_left() => continue,
                // the input used up before the stream's end: `finish` names the truncation
                (0, Ok(())) if self.d.status == DecodeStatus::NeedsInput => (0, self.d.finish().map(drop)),
                // ended, with held input left: as input given after the end
                (n, Ok(())) if self.d.status == DecodeStatus::Done && self.held_left() => (n, self.d.check_usable(true)),
                step => step,
            };
        }
    }
}

impl std::io::Read for DecodeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(e) = &self.failure {
            return Err(std::io::Error::other(e.message.clone()));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let (n, step) = self.decode(buf);
        match step {
            Ok(()) => Ok(n),
            Err(e) => {
                let io = std::io::Error::other(e.message.clone());
                self.failure = Some(e);
                // what was decoded before the failure is read first; the next read fails
                if n > 0 { Ok(n) } else { Err(io) }
            }
        }
    }
}

/// Where a [`Decompressor`] writes: a buffer with zeroed room at its end, which the decoder
/// fills and the caller truncates to what was written.
pub trait DecodeInto {
    /// Makes room for at least 1 and at most `limit` bytes (about `wanted` when that fits) at the
    /// end of some buffer; returns the buffer, whose new length takes that room in, and where
    /// the room starts.
    fn room(&mut self, wanted: usize, limit: usize) -> (&mut Vec<u8>, usize);
}

/// One contiguous buffer, grown as the output grows (each growth copies what it holds).
impl DecodeInto for Vec<u8> {
    fn room(&mut self, wanted: usize, limit: usize) -> (&mut Vec<u8>, usize) {
        let start = self.len();
        let room = wanted.max(CHUNK).max(self.capacity() - start).min(limit);
        self.resize(start + room, 0);
        (self, start)
    }
}

/// Decoded output as a list of buffers, never copied to grow: each is allocated once, twice the
/// size of the one before (the first sized for the input, at least [`MIN_PIECE`]) up to
/// [`MAX_PIECE`] bytes, and only the last may have unused room. Measured on bench/brotli.mjs
/// input in wasm (5.2 MB out): the contiguous buffer's growth cost 1.6–2 ms of a 14 ms decode.
#[derive(Debug, Default)]
pub struct Pieces {
    pub pieces: Vec<Vec<u8>>,
}

/// The largest piece of [`Pieces`]: bounds the zeroed room allocated past the output's end.
pub const MAX_PIECE: usize = 2 << 20;
/// The smallest first piece: a stream pushed a few bytes at a time gets small pieces, not a
/// zeroed [`CHUNK`] per push.
pub const MIN_PIECE: usize = 256;

impl Pieces {
    /// Bytes held in all the pieces.
    pub fn len(&self) -> usize {
        self.pieces.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.iter().all(Vec::is_empty)
    }
}

impl DecodeInto for Pieces {
    fn room(&mut self, wanted: usize, limit: usize) -> (&mut Vec<u8>, usize) {
        let full = |p: &Vec<u8>| p.len() == p.capacity();
        if self.pieces.last().is_none_or(full) {
            let size = match self.pieces.last() {
                None => wanted.max(MIN_PIECE),
                Some(last) => last.capacity().saturating_mul(2),
            };
            self.pieces.push(Vec::with_capacity(size.clamp(1, MAX_PIECE).min(limit)));
        }
        let last = self.pieces.last_mut().expect("a piece was just ensured");
        let start = last.len();
        let room = (last.capacity() - start).min(limit);
        last.resize(start + room, 0);
        (last, start)
    }
}

fn corrupt(what: &str) -> Error {
    Error::new(ErrorCode::BrotliCorrupt, what.to_string())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    fn report_like(n: usize) -> Vec<u8> {
        let mut s = String::from("{\"tests\":[");
        for i in 0..n {
            s.push_str(&format!(
                "{{\"title\":\"test {i} does thing {}\",\"attempts\":[{{\"duration\":{}}}]}},",
                i % 17,
                (i * 7919) % 3000
            ));
        }
        s.push_str("{}]}");
        s.into_bytes()
    }

    /// Bytes that do not compress (xorshift64), the same for the same seed.
    pub(crate) fn noise(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn round_trips_empty_one_byte_and_large() {
        for data in [Vec::new(), vec![b'x'], report_like(60_000), noise(300_000, 7)] {
            let c = compress(&data, CompressOptions::default()).unwrap();
            assert_eq!(decompress(&c, DecompressOptions::default()).unwrap(), data);
        }
    }

    #[test]
    fn every_quality_round_trips() {
        let data = report_like(2000);
        for quality in MIN_QUALITY..=MAX_QUALITY {
            let c = compress(&data, CompressOptions { quality, lgwin: 22 }).unwrap();
            assert!(c.len() < data.len() / 3, "quality {quality} compressed poorly");
            assert_eq!(decompress(&c, DecompressOptions::default()).unwrap(), data);
        }
    }

    #[test]
    fn lgwin_for_is_the_smallest_window_that_holds_the_input() {
        assert_eq!(lgwin_for(0), MIN_LGWIN);
        assert_eq!(lgwin_for((1 << 10) - 16), 10);
        assert_eq!(lgwin_for((1 << 10) - 15), 11);
        assert_eq!(lgwin_for(285_000), 19);
        assert_eq!(lgwin_for((1 << 22) - 16), DEFAULT_LGWIN);
        assert_eq!(lgwin_for(1 << 30), DEFAULT_LGWIN, "never wider than the default");
        for len in [0, 1, 1_000, 70_000, 1 << 20, 3 << 20] {
            let w = lgwin_for(len);
            assert!((1usize << w) - 16 >= len && (w == MIN_LGWIN || (1usize << (w - 1)) - 16 < len), "{len}: {w}");
        }
    }

    #[test]
    fn every_lgwin_round_trips_at_quality_9() {
        // Quality 9 sizes its match finder from lgwin (install_match_finder), clamped both ways.
        let data = report_like(20_000);
        for lgwin in MIN_LGWIN..=MAX_LGWIN {
            let c = compress(&data, CompressOptions { quality: 9, lgwin }).unwrap();
            assert!(c.len() < data.len() / 3, "lgwin {lgwin} compressed poorly");
            assert_eq!(decompress(&c, DecompressOptions::default()).unwrap(), data, "lgwin {lgwin}");
        }
    }

    #[test]
    fn flushes_do_not_depend_on_chunking() {
        // Chunks that end just before, at and after the flush points, or span several of them.
        let data = report_like(45_000);
        assert!(data.len() as u64 > 2 * FLUSH_INTERVAL);
        let one_shot = compress(&data, CompressOptions::default()).unwrap();
        let interval = FLUSH_INTERVAL as usize;
        for chunk in [interval - 1, interval, interval + 1, 3 * interval] {
            assert_eq!(compress_in_chunks(&data, chunk), one_shot, "chunk size {chunk}");
        }
        assert_eq!(decompress(&one_shot, DecompressOptions::default()).unwrap(), data);
    }

    #[test]
    fn options_out_of_range_are_invalid_input() {
        for opts in [
            CompressOptions { quality: 12, lgwin: 22 },
            CompressOptions { quality: 9, lgwin: 9 },
            CompressOptions { quality: 9, lgwin: 25 },
        ] {
            let e = compress(b"x", opts).err().unwrap();
            assert_eq!(e.code, ErrorCode::InvalidInput, "{opts:?}");
        }
    }

    #[test]
    fn garbage_and_truncated_input_are_corrupt() {
        let c = compress(&report_like(5000), CompressOptions::default()).unwrap();
        let e = decompress(&c[..c.len() / 2], DecompressOptions::default()).err().unwrap();
        assert_eq!(e.code, ErrorCode::BrotliCorrupt);
        assert!(e.message.contains("truncated"), "{}", e.message);
        let e = decompress(b"{\"not\":\"brotli\"}", DecompressOptions::default()).err().unwrap();
        assert_eq!(e.code, ErrorCode::BrotliCorrupt);
        let mut trailing = compress(b"abc", CompressOptions::default()).unwrap();
        trailing.push(0);
        let e = decompress(&trailing, DecompressOptions::default()).err().unwrap();
        assert_eq!(e.code, ErrorCode::BrotliCorrupt);
    }

    #[test]
    fn a_bomb_stops_at_the_limit() {
        let zeros = vec![0u8; 64 << 20];
        let bomb = compress(&zeros, CompressOptions { quality: 5, lgwin: 24 }).unwrap();
        assert!(bomb.len() < 64 * 1024);
        let e = decompress(&bomb, DecompressOptions { max_output_bytes: 1 << 20 }).err().unwrap();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        assert_eq!(decompress(&bomb, DecompressOptions::default()).unwrap().len(), zeros.len());
    }

    fn joined(out: Pieces) -> Vec<u8> {
        out.pieces.concat()
    }

    #[test]
    fn pieces_hold_the_same_bytes_as_one_buffer() {
        // Outputs around the piece size, one-shot and fed in chunks, with and without a limit.
        let base = noise(MAX_PIECE + 10, 11);
        for len in [0, 1, MAX_PIECE - 1, MAX_PIECE, MAX_PIECE + 1, 2 * MAX_PIECE + 5] {
            let data: Vec<u8> = base.iter().cycle().take(len).copied().collect();
            let c = compress(&data, CompressOptions { quality: 1, lgwin: 22 }).unwrap();
            let out = decompress_pieces(&c, DecompressOptions::default()).unwrap();
            assert_eq!(out.len(), len);
            assert!(out.pieces.iter().all(|p| p.len() <= MAX_PIECE), "a piece over {MAX_PIECE} bytes");
            assert_eq!(joined(out), data, "one-shot, {len} bytes");
            let mut d = Decompressor::new(DecompressOptions::default());
            let mut streamed = Pieces::default();
            for chunk in c.chunks(777) {
                d.push_into(chunk, &mut streamed).unwrap();
            }
            d.finish().unwrap();
            assert_eq!(joined(streamed), data, "in chunks, {len} bytes");
            let limited = DecompressOptions { max_output_bytes: len };
            assert_eq!(decompress_pieces(&c, limited).unwrap().len(), len);
            if len > 0 {
                let e = decompress_pieces(&c, DecompressOptions { max_output_bytes: len - 1 }).err().unwrap();
                assert_eq!(e.code, ErrorCode::LimitExceeded, "{len} bytes");
            }
        }
    }

    #[test]
    fn exact_limit_is_allowed() {
        let data = report_like(100);
        let c = compress(&data, CompressOptions::default()).unwrap();
        let out = decompress(&c, DecompressOptions { max_output_bytes: data.len() }).unwrap();
        assert_eq!(out, data);
        let e = decompress(&c, DecompressOptions { max_output_bytes: data.len() - 1 }).err().unwrap();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
    }

    /// `data` through a [`Compressor`] (default options) in pieces of `chunk` bytes.
    fn compress_in_chunks(data: &[u8], chunk: usize) -> Vec<u8> {
        let mut c = Compressor::new(CompressOptions::default()).unwrap();
        let mut out = Vec::new();
        for piece in data.chunks(chunk) {
            out.extend(c.push(piece).unwrap());
        }
        out.extend(c.finish().unwrap());
        out
    }

    #[test]
    fn streaming_equals_one_shot() {
        let data = report_like(20_000);
        let one_shot = compress(&data, CompressOptions::default()).unwrap();
        for chunk in [1usize, 1000, 1 << 20] {
            assert_eq!(compress_in_chunks(&data, chunk), one_shot, "chunk size {chunk}");

            let mut d = Decompressor::new(DecompressOptions::default());
            let mut back = Vec::new();
            for piece in one_shot.chunks(chunk) {
                back.extend(d.push(piece).unwrap());
            }
            back.extend(d.finish().unwrap());
            assert_eq!(back, data, "chunk size {chunk}");
        }
    }

    #[test]
    fn finished_streams_refuse_more_work() {
        let mut c = Compressor::new(CompressOptions::default()).unwrap();
        c.finish().unwrap();
        assert_eq!(c.push(b"x").err().unwrap().code, ErrorCode::InvalidInput);
    }

    /// English-like text: the encoder's static-dictionary search, which report JSON rarely
    /// reaches, does real work on it.
    fn prose(n: usize, seed: u64) -> Vec<u8> {
        const WORDS: [&str; 24] = [
            "the", "report", "of", "tests", "which", "were", "running", "on", "a", "machine", "and", "their",
            "durations", "between", "shards", "should", "be", "equal", "time", "not", "count", "because", "slow",
            "files",
        ];
        let mut out = Vec::with_capacity(n + 16);
        for (i, r) in noise(n / 2 + 1, seed).into_iter().enumerate() {
            if out.len() >= n {
                break;
            }
            out.extend_from_slice(WORDS[r as usize % WORDS.len()].as_bytes());
            out.extend_from_slice(if i % 11 == 10 { b". " } else { b" " });
        }
        out.truncate(n);
        out
    }

    /// SHA-1 of what upstream brotli 9.1.1 (crates.io, unpatched) writes through [`compress`]:
    /// (input, quality, lgwin, digest). vendor/brotli's speed patch must not change one byte, at
    /// any quality (every match finder and the static-dictionary search use the patched
    /// match-length helper), at small and large windows, and across the 1 MB flushes ("large").
    const UPSTREAM_OUTPUT: &[(&str, u32, u32, &str)] = &[
        ("report", 0, 22, "17ec02ac7957324e7693efeae28d3aa418c9924d"),
        ("report", 1, 22, "e4972971111ae6a95c83fb5bb2251688629f87a4"),
        ("report", 2, 22, "c86be24459c5183898742ddf3aad7429b4aae3da"),
        ("report", 3, 22, "2b6301ddd6f3cd20564f7f4e419f94105b02d505"),
        ("report", 4, 22, "01596ceb4e17d34720859ddee6c03b042dc600ce"),
        ("report", 5, 22, "925539c0567ebe33f4516af516d857bd29eec4a1"),
        ("report", 6, 22, "8d7dc8e9bc8dc33f64d36815b5588f6bd23b0bcb"),
        ("report", 7, 22, "4305b4a5b46fb97cd5da5261703cce35ada6d3d5"),
        ("report", 8, 22, "8280ccdc2f3ae11bc3842f7b3c37a37d078802a5"),
        ("report", 9, 22, "8c6a8a44ce3db795e24bb1ddab23e0db6111a516"),
        ("report", 10, 22, "5003284b562e42a5ff621f1461bf1ee363f8a093"),
        ("report", 11, 22, "7e2af1f1f86683ca23eedb995f6118989ff25a5f"),
        ("prose", 0, 22, "d86972df922bf8ec585dba925e522879744c79ec"),
        ("prose", 1, 22, "c4e692ec31ef7a3bd9b7943bab9557f448355654"),
        ("prose", 2, 22, "b06eda05f722e34806acdc7886b835e0a668b3a6"),
        ("prose", 3, 22, "eee11360b4f0e70c655ba3fff9bf34fb323017dd"),
        ("prose", 4, 22, "2d1f3f2a239b3efe90f6b63dd8b47d8f888edd81"),
        ("prose", 5, 22, "76897972e53e3cf8fc6df28aeaa06a9c3184ed8b"),
        ("prose", 6, 22, "d93deceef25fa39a644353e1e36839645a36abcc"),
        ("prose", 7, 22, "353c7a3ee2f02a31d62026084374e7e4636d07e1"),
        ("prose", 8, 22, "7b393e698a2c6fd6c23ae4531f9009bb6f71110c"),
        ("prose", 9, 22, "a915542424c44308fb9813412ef210b5f139be45"),
        ("prose", 10, 22, "dcf4d446fb5553366cb7821f967ecb01f42fd320"),
        ("prose", 11, 22, "8e0b2aaf0b097a921638eaf07c0d8639f3d0aeff"),
        ("noise", 0, 22, "d6834966d70c6c546990b441d42ba5fe23aa33cf"),
        ("noise", 9, 22, "d6834966d70c6c546990b441d42ba5fe23aa33cf"),
        ("noise", 11, 22, "d6834966d70c6c546990b441d42ba5fe23aa33cf"),
        ("report", 5, 10, "3b16413bcfbdd2117e7b3862050a436d006344fc"),
        ("report", 6, 10, "3b16413bcfbdd2117e7b3862050a436d006344fc"),
        ("report", 7, 10, "3b16413bcfbdd2117e7b3862050a436d006344fc"),
        ("report", 8, 10, "3b16413bcfbdd2117e7b3862050a436d006344fc"),
        ("report", 9, 10, "3b16413bcfbdd2117e7b3862050a436d006344fc"),
        ("report", 5, 16, "a7c394fc48b42bca528a508c846e55ef40b7045d"),
        ("report", 6, 16, "a7c394fc48b42bca528a508c846e55ef40b7045d"),
        ("report", 7, 16, "a7c394fc48b42bca528a508c846e55ef40b7045d"),
        ("report", 8, 16, "a7c394fc48b42bca528a508c846e55ef40b7045d"),
        ("report", 9, 16, "a7c394fc48b42bca528a508c846e55ef40b7045d"),
        ("report", 5, 24, "553d7f9ef7e261bfd8116d9b7e58292246d58dd7"),
        ("report", 6, 24, "9fbd70d789f686174161981150c6cf16596430b1"),
        ("report", 7, 24, "c3ccc77262416064fbbf80eb17e15914e26e719f"),
        ("report", 8, 24, "51c9e546e6cf03f46a4ee06899a838cb9806e0d7"),
        ("report", 9, 24, "efb8c62fbc772702417bdbadaabfdcfd2c2a9723"),
        ("prose", 5, 10, "cdcd3cf2fbb9c752365d3bbf9dbc5587eef629e4"),
        ("prose", 6, 10, "cdcd3cf2fbb9c752365d3bbf9dbc5587eef629e4"),
        ("prose", 7, 10, "cdcd3cf2fbb9c752365d3bbf9dbc5587eef629e4"),
        ("prose", 8, 10, "cdcd3cf2fbb9c752365d3bbf9dbc5587eef629e4"),
        ("prose", 9, 10, "cdcd3cf2fbb9c752365d3bbf9dbc5587eef629e4"),
        ("prose", 5, 16, "3def647c54abc1f51dabee62039f36d7a9052d69"),
        ("prose", 6, 16, "3def647c54abc1f51dabee62039f36d7a9052d69"),
        ("prose", 7, 16, "3def647c54abc1f51dabee62039f36d7a9052d69"),
        ("prose", 8, 16, "3def647c54abc1f51dabee62039f36d7a9052d69"),
        ("prose", 9, 16, "c1ff1da1e9190b0287093a11dcca056b1f7875ec"),
        ("prose", 5, 24, "ced2cecd5941e0a0776b916ea61d8b543afc1344"),
        ("prose", 6, 24, "114948b60e4fd9239856895be7acdecc21a65b15"),
        ("prose", 7, 24, "e4a01e8b01a0b60f9d69f39661f977f30ff68054"),
        ("prose", 8, 24, "5f3c1635c918d441131fc32ee7e7417e6b31aa7f"),
        ("prose", 9, 24, "74800b08bf07900a4b9792632c4b989d4adbb1be"),
        ("large", 9, 22, "15f26f6c8d2736e34e61ac9f5e08f4816eb32178"),
    ];

    fn golden_input(name: &str) -> Vec<u8> {
        match name {
            "report" => report_like(1500),
            "prose" => prose(100_000, 3),
            "noise" => noise(20_000, 5),
            "large" => report_like(40_000),
            _ => unreachable!("unknown input {name}"),
        }
    }

    fn golden_cases() -> Vec<(&'static str, u32, u32)> {
        let mut cases = Vec::new();
        for name in ["report", "prose"] {
            cases.extend((MIN_QUALITY..=MAX_QUALITY).map(|q| (name, q, DEFAULT_LGWIN)));
        }
        // Stored uncompressed at every quality.
        cases.extend([MIN_QUALITY, DEFAULT_QUALITY, MAX_QUALITY].map(|q| ("noise", q, DEFAULT_LGWIN)));
        for name in ["report", "prose"] {
            for lgwin in [MIN_LGWIN, 16, MAX_LGWIN] {
                cases.extend((5..=9).map(|q| (name, q, lgwin)));
            }
        }
        cases.push(("large", DEFAULT_QUALITY, DEFAULT_LGWIN));
        cases
    }

    #[test]
    fn output_is_upstream_brotli_byte_for_byte() {
        let inputs: std::collections::HashMap<&str, Vec<u8>> =
            ["report", "prose", "noise", "large"].into_iter().map(|n| (n, golden_input(n))).collect();
        let got: Vec<(&str, u32, u32, String)> = golden_cases()
            .into_iter()
            .map(|(name, quality, lgwin)| {
                let c = compress(&inputs[name], CompressOptions { quality, lgwin }).unwrap();
                (name, quality, lgwin, sha1_smol::Sha1::from(&c).digest().to_string())
            })
            .collect();
        let table: String =
            got.iter().map(|(n, q, w, d)| format!("        (\"{n}\", {q}, {w}, \"{d}\"),\n")).collect();
        let expected: Vec<(&str, u32, u32, String)> =
            UPSTREAM_OUTPUT.iter().map(|&(n, q, w, d)| (n, q, w, d.to_string())).collect();
        assert!(got == expected, "output differs from upstream brotli; this run's table:\n{table}");
    }

    include!("../tests/support/brotli_tables.rs");

    #[test]
    fn log2_table_is_upstream_bit_for_bit() {
        assert_brotli_log2_table_is_upstream();
    }

    #[test]
    fn dictionary_tables_are_upstream_bit_for_bit() {
        assert_brotli_dictionary_hash_is_upstream();
        assert_brotli_dictionary_lut_is_upstream();
    }

    /// The common prefix length of `a` and `b`, at most `limit`, one byte at a time.
    fn common_prefix(a: &[u8], b: &[u8], limit: usize) -> usize {
        a[..limit].iter().zip(&b[..limit]).take_while(|(x, y)| x == y).count()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_bytes_round_trip(data in proptest::collection::vec(any::<u8>(), 0..4096), quality in 0u32..=11) {
            let c = compress(&data, CompressOptions { quality, lgwin: 22 }).unwrap();
            prop_assert_eq!(decompress(&c, DecompressOptions::default()).unwrap(), data);
        }

        /// vendor/brotli's 8-bytes-at-a-time match-length helpers equal the byte-by-byte
        /// definition (a shared prefix, then anything).
        #[test]
        fn match_length_helpers_equal_the_definition(
            prefix in proptest::collection::vec(any::<u8>(), 0..80),
            a in proptest::collection::vec(any::<u8>(), 5..40),
            b in proptest::collection::vec(any::<u8>(), 5..40),
            cut in 0usize..200,
        ) {
            use brotli::enc::static_dict::{FindMatchLengthWithLimit, FindMatchLengthWithLimitMin4};
            let (s1, s2) = ([&prefix[..], &a[..]].concat(), [&prefix[..], &b[..]].concat());
            let limit = cut.min(s1.len()).min(s2.len());
            let len = common_prefix(&s1, &s2, limit);
            prop_assert_eq!(FindMatchLengthWithLimit(&s1, &s2, limit), len);
            let min4 = if common_prefix(&s1, &s2, 4) < 4 { 0 } else if limit <= 4 || s1[4] != s2[4] { limit.min(4) } else { len };
            prop_assert_eq!(FindMatchLengthWithLimitMin4(&s1, &s2, limit), min4);
        }

        #[test]
        fn random_input_never_panics(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = decompress(&data, DecompressOptions { max_output_bytes: 1 << 20 });
        }

        /// A stream read as it decodes, in reads of any size, gives what `decompress` gives:
        /// the same bytes, or the same failure (cut short, bytes after its end, past the limit).
        #[test]
        fn a_stream_read_as_it_decodes_is_decompress(
            n in 0usize..30_000,
            quality in 0u32..=11,
            lgwin in MIN_LGWIN..=18u32,
            read in prop_oneof![1usize..16, 16usize..70_000],
            damage in prop_oneof![Just(0u8), 1u8..4],
            at in any::<prop::sample::Index>(),
            limit in prop_oneof![Just(DEFAULT_MAX_OUTPUT_BYTES), 0usize..200_000],
            held in any::<bool>(),
        ) {
            let data = report_like(n / 40);
            let mut c = compress(&data, CompressOptions { quality: quality.min(9), lgwin }).unwrap();
            match damage {
                1 => c.truncate(at.index(c.len())),
                2 => c.push(at.index(256) as u8),
                3 => { let i = at.index(c.len()); c[i] ^= 0x5a; }
                _ => {}
            }
            let opts = DecompressOptions { max_output_bytes: limit };
            let whole = decompress(&c, opts);
            let kept = Kept(c.clone());
            let mut r = DecodeReader::new(if held { Input::Held(&kept) } else { Input::Bytes(&c) }, opts);
            let mut got = Vec::new();
            let mut buf = vec![0u8; read];
            let streamed = loop {
                match std::io::Read::read(&mut r, &mut buf) {
                    Ok(0) => break Ok(got),
                    Ok(k) => got.extend_from_slice(&buf[..k]),
                    Err(_) => break Err(r.failure().cloned().expect("a failed read keeps its failure")),
                }
            };
            match (whole, streamed) {
                (Ok(a), Ok(b)) => prop_assert!(a == b, "{} bytes against {}", a.len(), b.len()),
                // a damaged stream whose output passes the limit too: which of its two faults is
                // met first depends on when the decoder flushes its window, which depends on how
                // its input arrives (whole, or as the host's pieces); either is the truth
                (Err(a), Err(b)) if damage != 0 && a.code != b.code
                    && [a.code, b.code].iter().all(|c| matches!(c, ErrorCode::LimitExceeded | ErrorCode::BrotliCorrupt)) => {}
                (Err(a), Err(b)) => prop_assert_eq!((a.code, a.message), (b.code, b.message)),
                (a, b) => prop_assert!(false, "decompress: {:?}; read: {:?}", a.map(|v| v.len()), b.map(|v| v.len())),
            }
        }
    }

    /// Bytes "held by the host" for tests: a vector read through [`HeldBytes`].
    pub(crate) struct Kept(pub(crate) Vec<u8>);

    impl HeldBytes for Kept {
        fn len(&self) -> usize {
            self.0.len()
        }
        fn copy_to(&self, offset: usize, buf: &mut [u8]) {
            buf.copy_from_slice(&self.0[offset..offset + buf.len()]);
        }
    }

    /// Held input is read in 64 KiB steps: a stream over many steps reads as the same bytes
    /// here do, and one that ends exactly at a step's end with bytes in the next step, or is cut
    /// at a step's end, fails as they do.
    #[test]
    fn held_input_read_in_steps_is_the_bytes_read_here() {
        let read = |input: Input| {
            let mut r = DecodeReader::new(input, DecompressOptions::default());
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut r, &mut out).map(|_| out).map_err(|_| r.failure().cloned().unwrap())
        };
        let data = noise(300_000, 3);
        let c = compress(&data, CompressOptions { quality: 0, lgwin: 22 }).unwrap();
        assert!(c.len() > 4 * HELD_STEP);
        assert_eq!(read(Input::Held(&Kept(c.clone()))).unwrap(), data);
        assert_eq!(read(Input::Held(&Kept(c[..2 * HELD_STEP].to_vec()))).unwrap_err().code, ErrorCode::BrotliCorrupt);
        // a stream of exactly one step, then one byte more
        let exact = (HELD_STEP - 64..HELD_STEP)
            .map(|n| compress(&noise(n, 9), CompressOptions { quality: 0, lgwin: 22 }).unwrap())
            .find(|c| c.len() == HELD_STEP)
            .expect("a stream of exactly one step");
        assert!(read(Input::Held(&Kept(exact.clone()))).is_ok());
        let mut longer = exact;
        longer.push(0);
        let here = read(Input::Bytes(&longer)).unwrap_err();
        assert_eq!(here.code, ErrorCode::BrotliCorrupt);
        assert_eq!(read(Input::Held(&Kept(longer))).unwrap_err(), here);
    }

    /// What a reader holds is the decoder's window and tables, not the output: 6 MB of output
    /// at a 64 KiB window is read holding less than a tenth of it.
    #[test]
    fn a_stream_read_as_it_decodes_holds_its_window_not_its_output() {
        let data = report_like(100_000);
        assert!(data.len() > 6 << 20);
        let c = compress(&data, CompressOptions { quality: 9, lgwin: 16 }).unwrap();
        let (read, held) = crate::test_alloc::peak_heap(|| {
            let mut r = DecodeReader::new(Input::Bytes(&c), DecompressOptions::default());
            std::io::copy(&mut r, &mut std::io::sink()).unwrap()
        });
        assert_eq!(read, data.len() as u64);
        assert!(held < data.len() / 10, "{held} bytes held to read {} bytes", data.len());
        // the measure sees a whole output when there is one
        let (_, held) = crate::test_alloc::peak_heap(|| decompress(&c, DecompressOptions::default()).unwrap());
        assert!(held >= data.len(), "{held}");
    }
}
