// Shared by the native unit tests (src/codec.rs) and the wasm tests (tests/wasm.rs), through
// `include!`: vendor/brotli computes at first use the tables upstream stores as literals (the
// 16-bit log2 table, the static-dictionary hash of the quality 2-9 hashers, the dictionary
// lookup table of qualities 10-11), and their values must be upstream's, bit for bit, on every
// target (wasm's log2 is Rust's libm, not the platform's). Each fixture is the SHA-1 of a stored
// table, taken from upstream's literals: u16 and f32 values little-endian, a dictionary entry as
// its bytes `l`, `t` and then `i` little-endian.

fn sha1_of(bytes: impl IntoIterator<Item = u8>) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(&bytes.into_iter().collect::<Vec<u8>>());
    h.digest().to_string()
}

fn assert_brotli_log2_table_is_upstream() {
    let bits = (0..=u16::MAX).flat_map(|v| brotli::enc::util::FastLog2u16(v).to_bits().to_le_bytes());
    assert_eq!(sha1_of(bits), include_str!("../fixtures/brotli-log2-table.sha1").trim());
}

fn assert_brotli_dictionary_hash_is_upstream() {
    let table = brotli::enc::dictionary_hash_lazy::static_dictionary_hash();
    assert_eq!(sha1_of(table.iter().flat_map(|v| v.to_le_bytes())), include_str!("../fixtures/brotli-dict-hash.sha1").trim());
}

fn assert_brotli_dictionary_lut_is_upstream() {
    let lut = brotli::enc::static_dict_lut_lazy::static_dictionary_lut();
    assert_eq!(lut.words.len(), 31705);
    assert_eq!(sha1_of(lut.buckets.iter().flat_map(|v| v.to_le_bytes())), include_str!("../fixtures/brotli-dict-lut-buckets.sha1").trim());
    let words = lut.words.iter().flat_map(|w| [w.l, w.t, w.i.to_le_bytes()[0], w.i.to_le_bytes()[1]]);
    assert_eq!(sha1_of(words), include_str!("../fixtures/brotli-dict-lut-words.sha1").trim());
}
