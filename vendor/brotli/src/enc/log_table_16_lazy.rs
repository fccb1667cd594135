//! log2 of every 16-bit value, computed on first use, in place of log_table_16.rs (shardwise's
//! copy of the crate): upstream stores this table as a 65,536-entry literal, 263 KB of the wasm
//! module's data. The values are the stored ones bit for bit (vendor/README.md): log2 in f64
//! rounded to f32, except one entry whose 12-digit decimal literal rounds to the f32 below.
#[cfg(not(feature = "std"))]
compile_error!("this copy of brotli computes logs_16 with std's OnceLock: enable the `std` feature");
#[cfg(feature = "float64")]
compile_error!("this copy of brotli computes logs_16 as upstream's f32 table: the `float64` feature is not supported");

use crate::enc::floatX;
use core::convert::TryInto;
use std::boxed::Box;
use std::sync::OnceLock;
use std::vec;

/// The entry whose stored literal (15.2661647281) is one f32 step below log2(39407) rounded.
const ROUNDED_DOWN_IN_UPSTREAM: usize = 39407;

/// log2(i) for i in 0..65536, with log2(0) taken as 0.
#[inline]
pub fn logs_16() -> &'static [floatX; 65536] {
    static TABLE: OnceLock<Box<[floatX; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Box<[floatX; 65536]> = vec![0.0; 65536].into_boxed_slice().try_into().unwrap();
        for (i, v) in table.iter_mut().enumerate().skip(1) {
            *v = (i as f64).log2() as floatX;
        }
        let v = &mut table[ROUNDED_DOWN_IN_UPSTREAM];
        *v = floatX::from_bits(v.to_bits() - 1);
        table
    })
}
