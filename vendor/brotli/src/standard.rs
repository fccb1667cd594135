//! Non-generic entry points over `StandardAlloc` (a shardwise addition, see vendor/README.md).
//!
//! The encoder and decoder are generic over their allocators (and the encoder over a metablock
//! callback), so a caller that uses them directly compiles them in its own crate, with its own
//! optimisation level. Called through these functions they are compiled here, with this crate's:
//! a caller can build its own code for size and the codec for speed
//! (`[profile.release.package.brotli] opt-level = 3`).

use crate::enc::encode::{BrotliEncoderOperation, BrotliEncoderStateStruct};
use crate::enc::StandardAlloc;
use crate::{BrotliResult, BrotliState};

/// A decoder state over the standard allocator.
pub type StandardDecoderState = BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>;

/// [`BrotliEncoderStateStruct::compress_stream`] without a metablock callback.
#[allow(clippy::too_many_arguments)]
pub fn compress_stream(
    state: &mut BrotliEncoderStateStruct<StandardAlloc>,
    op: BrotliEncoderOperation,
    available_in: &mut usize,
    next_in_array: &[u8],
    next_in_offset: &mut usize,
    available_out: &mut usize,
    next_out_array: &mut [u8],
    next_out_offset: &mut usize,
    total_out: &mut Option<usize>,
) -> bool {
    let mut nop = |_: &mut crate::enc::interface::PredictionModeContextMap<crate::InputReferenceMut>,
                   _: &mut [crate::enc::interface::StaticCommand],
                   _: crate::InputPair,
                   _: &mut StandardAlloc| ();
    state.compress_stream(
        op,
        available_in,
        next_in_array,
        next_in_offset,
        available_out,
        next_out_array,
        next_out_offset,
        total_out,
        &mut nop,
    )
}

/// [`crate::BrotliDecompressStream`] over the standard allocator.
#[allow(clippy::too_many_arguments)]
pub fn decompress_stream(
    available_in: &mut usize,
    input_offset: &mut usize,
    input: &[u8],
    available_out: &mut usize,
    output_offset: &mut usize,
    output: &mut [u8],
    total_out: &mut usize,
    state: &mut StandardDecoderState,
) -> BrotliResult {
    crate::BrotliDecompressStream(available_in, input_offset, input, available_out, output_offset, output, total_out, state)
}

/// A new decoder state that rejects what the reference decoder rejects
/// ([`BrotliState::new_strict`]).
pub fn new_decoder_state() -> StandardDecoderState {
    BrotliState::new_strict(StandardAlloc::default(), StandardAlloc::default(), StandardAlloc::default())
}

/// A new encoder state with the default parameters.
pub fn new_encoder_state() -> BrotliEncoderStateStruct<StandardAlloc> {
    BrotliEncoderStateStruct::new(StandardAlloc::default())
}
