pub mod alloc_util;
pub mod broccoli;
pub mod compressor;
pub mod decompressor;
pub mod multicompress;
