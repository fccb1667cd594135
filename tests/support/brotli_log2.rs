// Shared by the native unit tests (src/codec.rs) and the wasm tests (tests/wasm.rs), through
// `include!`: vendor/brotli computes its 16-bit log2 table at first use instead of storing it,
// and the values must be upstream's stored ones, bit for bit, on every target (wasm's log2 is
// Rust's libm, not the platform's). The fixture is the SHA-1 of the stored table's bits.

fn assert_brotli_log2_table_is_upstream() {
    let mut h = sha1_smol::Sha1::new();
    for v in 0..=u16::MAX {
        h.update(&brotli::enc::util::FastLog2u16(v).to_bits().to_le_bytes());
    }
    assert_eq!(h.digest().to_string(), include_str!("../fixtures/brotli-log2-table.sha1").trim());
}
