//! The static-dictionary lookup table of the quality 10-11 match finder, computed on first use,
//! in place of static_dict_lut.rs (shardwise's copy of the crate): upstream stores its two
//! arrays as literals, about 180 KB of the wasm module's data. The values are the stored ones
//! (vendor/README.md). The small items of static_dict_lut.rs are here unchanged.
#[cfg(not(feature = "std"))]
compile_error!("this copy of brotli computes the dictionary lookup table with std's OnceLock: enable the `std` feature");

use super::static_dict::{kBrotliEncDictionary, Hash};
use core::convert::TryInto;
use std::boxed::Box;
use std::sync::OnceLock;
use std::vec;
use std::vec::Vec;

pub static kInvalidMatch: u32 = 0x0fff_ffff;

pub static kDictNumBits: i32 = 15;

pub static kDictHashMul32: u32 = 0x1e35_a7bd;

#[derive(Clone, Copy)]
#[repr(C)]
pub struct DictWord {
    pub l: u8,
    pub t: u8,
    pub i: u16,
}
impl DictWord {
    #[inline(always)]
    pub fn len(self) -> u8 {
        self.l
    }
    #[inline(always)]
    pub fn transform(self) -> u8 {
        self.t
    }
    #[inline(always)]
    pub fn idx(self) -> u16 {
        self.i
    }
}

/// The transforms the table uses (RFC 7932, Appendix B).
const IDENTITY: u8 = 0;
const UPPERCASE_FIRST: u8 = 10;
const UPPERCASE_ALL: u8 = 11;

/// `kStaticDictionaryBuckets` and `kStaticDictionaryWords` as upstream stores them: for each
/// 15-bit hash of a word's first 4 bytes, the index in `words` of its bucket's first entry (0:
/// empty bucket; `words[0]` is unused), a bucket ending at the entry whose `l` has bit 7 set.
pub struct StaticDictionaryLut {
    pub buckets: Box<[u16; 32768]>,
    pub words: Vec<DictWord>,
}

/// The table holds every dictionary word as it is; its uppercase-first spelling when it starts
/// with a-z, unless a word of its length already spells that; its all-uppercase spelling when
/// it is ASCII with a lowercase letter after the first byte, unless an entry of its length
/// (as it is, uppercase-first or all-uppercase) already spells that. Each bucket lists its
/// entries as-is ones first, then by length, then by word index.
#[inline]
pub fn static_dictionary_lut() -> &'static StaticDictionaryLut {
    static TABLE: OnceLock<StaticDictionaryLut> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// An entry while the table is built.
#[derive(Clone, Copy)]
struct Entry {
    bucket: u16,
    len: u8,
    word: u16,
    transform: u8,
}

impl Entry {
    fn new(len: usize, word: usize, transform: u8) -> Entry {
        let mut e = Entry { bucket: 0, len: len as u8, word: word as u16, transform };
        e.bucket = Hash(spell(&e, &mut [0; 24])) as u16;
        e
    }
}

/// The entries so far, with each bucket's entries as a chain, newest first: `newest[bucket]`
/// and `older[entry]` are entry indices plus one (0 ends the chain).
struct Entries {
    list: Vec<Entry>,
    newest: Vec<u16>,
    older: Vec<u16>,
}

impl Entries {
    fn push(&mut self, e: Entry) {
        let head = &mut self.newest[usize::from(e.bucket)];
        self.older.push(*head);
        self.list.push(e);
        *head = self.list.len() as u16;
    }

    /// Whether an entry of `s`'s length spells `s`. Entries are added length by length, so a
    /// bucket's entries of the current length start its chain.
    fn spelled(&self, bucket: u16, s: &[u8]) -> bool {
        let mut at = self.newest[usize::from(bucket)];
        while at != 0 {
            let e = &self.list[usize::from(at - 1)];
            if usize::from(e.len) != s.len() {
                return false;
            }
            if spell(e, &mut [0; 24]) == s {
                return true;
            }
            at = self.older[usize::from(at - 1)];
        }
        false
    }
}

/// Dictionary word `i` of length `len`.
pub(super) fn word(len: usize, i: usize) -> &'static [u8] {
    let dict = &kBrotliEncDictionary;
    &dict.data[dict.offsets_by_length[len] as usize + len * i..][..len]
}

/// The bytes `e` spells, in `out`.
fn spell<'a>(e: &Entry, out: &'a mut [u8; 24]) -> &'a [u8] {
    let s = &mut out[..usize::from(e.len)];
    s.copy_from_slice(word(usize::from(e.len), usize::from(e.word)));
    match e.transform {
        UPPERCASE_FIRST => s[0] -= 32,
        UPPERCASE_ALL => s.make_ascii_uppercase(),
        _ => {}
    }
    s
}

fn build() -> StaticDictionaryLut {
    let mut entries = Entries { list: Vec::with_capacity(31704), newest: vec![0; 32768], older: Vec::with_capacity(31704) };
    for len in 4..=24usize {
        let count = 1usize << kBrotliEncDictionary.size_bits_by_length[len];
        // The words of one length are distinct.
        for i in 0..count {
            entries.push(Entry::new(len, i, IDENTITY));
        }
        for transform in [UPPERCASE_FIRST, UPPERCASE_ALL] {
            for i in 0..count {
                let w = word(len, i);
                let applies = match transform {
                    UPPERCASE_FIRST => w[0].is_ascii_lowercase(),
                    _ => w.is_ascii() && w[1..].iter().any(u8::is_ascii_lowercase),
                };
                if applies {
                    let e = Entry::new(len, i, transform);
                    if !entries.spelled(e.bucket, spell(&e, &mut [0; 24])) {
                        entries.push(e);
                    }
                }
            }
        }
    }
    let mut entries = entries.list;
    // An uppercase-first and an all-uppercase entry of one word keep the order they were pushed
    // in, which is the order of their transform ids: with the id last the key is unique, so an
    // unstable sort gives the stable order (and no stable sort is compiled in).
    entries.sort_unstable_by_key(|e| (e.bucket, e.transform != IDENTITY, e.len, e.word, e.transform));
    let mut buckets: Box<[u16; 32768]> = vec![0u16; 32768].into_boxed_slice().try_into().unwrap();
    let mut words = Vec::with_capacity(entries.len() + 1);
    words.push(DictWord { l: 0, t: 0, i: 0 });
    for (k, e) in entries.iter().enumerate() {
        if k == 0 || entries[k - 1].bucket != e.bucket {
            buckets[usize::from(e.bucket)] = words.len() as u16;
        }
        let last = entries.get(k + 1).map_or(true, |next| next.bucket != e.bucket);
        words.push(DictWord { l: e.len | if last { 0x80 } else { 0 }, t: e.transform, i: e.word });
    }
    StaticDictionaryLut { buckets, words }
}
