//! Incremental building of a report: environments, suites and tests are looked up in hash maps
//! and the suite tree grows as tests arrive, so adding 100,000 tests is linear.
//!
//! Storage is compact, because a report of 100,000 tests must fit next to the Brotli encoder in
//! a wasm memory that never shrinks: titles live in one byte arena, suites and tests are small
//! fixed-size records linked in first-seen order, and each attempt is checked as a typed
//! [`RunAttempt`] then kept as its compact JSON text. `encode` streams the JSON from these
//! records into the encoder; `build` reads the typed report back from them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};

use serde::Deserialize;

use super::model::*;
use super::validate::Issue;
use crate::error::{Error, Result};

/// What `new ReportBuilder(init)` takes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportInit {
    pub category: String,
    pub commit_id: String,
    #[serde(default)]
    pub start_timestamp: Option<u64>,
    #[serde(default)]
    pub duration: Option<u64>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub config_path: Option<String>,
    #[serde(default)]
    pub related_commit_ids: Option<Vec<String>>,
    #[serde(default)]
    pub flakiness_project: Option<String>,
    #[serde(default)]
    pub generated_by: Option<NameVersion>,
    #[serde(default)]
    pub test_runner: Option<NameVersion>,
    #[serde(default)]
    pub runtime: Option<NameVersion>,
    #[serde(default)]
    pub cpu_count: Option<u64>,
    #[serde(default)]
    pub ram_bytes: Option<u64>,
}

/// What `addTest` takes: the suite titles then the test title, and where it is.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestInput {
    pub title_path: Vec<String>,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub column: Option<u32>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
}

/// What `addAttachment` takes.
#[derive(Debug, Clone, Default)]
pub struct AttachmentInput {
    pub name: String,
    pub content_type: String,
    pub data: Vec<u8>,
}

/// "No record": the end of a linked list, or no tags.
const NONE: u32 = u32::MAX;
/// The root of the suite tree: its children are the top-level suites, its tests the tests
/// outside any suite.
const ROOT: u32 = 0;
/// Most suites a test sits in (below its file suite). The report is read back with serde_json,
/// whose limit is 128 levels of nesting: a test's attempt object sits at `2 * suites + 6`
/// (report, the file suite, each suite and its `suites` array, `tests`, the test, `attempts`),
/// so suites and attempt depth share that budget. Deeper title paths keep their first
/// `MAX_SUITE_DEPTH - 1` suites and join the rest into the last one (` › `): a test nested 61
/// describes deep made the whole report unreadable, and the reporter lost it at the end.
const MAX_SUITE_DEPTH: usize = 24;
/// Deepest JSON nesting an attempt may have (the attempt object is level 1): with
/// [`MAX_SUITE_DEPTH`] suites, `2 * 24 + 5 + 74` = 127 levels, within serde_json's 128. Room for
/// 32 levels of nested steps with an error located in each.
const MAX_ATTEMPT_DEPTH: usize = 74;

/// Where bytes are in an [`Arena`]: the chunk and the offset in it packed in one word (chunks
/// hold at most [`ARENA_MAX_CHUNK`] bytes), so a record's span is 8 bytes, not 12 (with 100,000
/// tests and ~170,000 suites that is ~1.5 MB of records).
#[derive(Clone, Copy, Debug)]
struct Span {
    /// `chunk << ARENA_CHUNK_BITS | start`.
    at: u32,
    len: u32,
}

/// Append-only bytes in chunks that are never reallocated (no transient copy of the whole
/// storage while it grows); chunks double from 4 KB to 1 MB.
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<u8>>,
}

const ARENA_FIRST_CHUNK: usize = 4 << 10;
const ARENA_CHUNK_BITS: u32 = 20;
const ARENA_MAX_CHUNK: usize = 1 << ARENA_CHUNK_BITS;

impl Arena {
    fn push(&mut self, bytes: &[u8]) -> Result<Span> {
        // A value longer than a chunk gets a chunk of its own, which nothing else joins: every
        // start stays below `ARENA_MAX_CHUNK`.
        let fits = self.chunks.last().is_some_and(|c| {
            c.capacity() - c.len() >= bytes.len() && c.len() + bytes.len() <= ARENA_MAX_CHUNK
        });
        if !fits {
            let next = self.chunks.last().map_or(ARENA_FIRST_CHUNK, |c| (c.capacity() * 2).min(ARENA_MAX_CHUNK));
            self.chunks.push(Vec::with_capacity(next.max(bytes.len())));
        }
        let chunk = self.chunks.len() - 1;
        let c = &mut self.chunks[chunk];
        let start = c.len();
        c.extend_from_slice(bytes);
        let too_big = || Error::invalid_input("the report is too large (over 4 GB of text)");
        let chunk = u32::try_from(chunk).ok().filter(|&c| c < 1 << (32 - ARENA_CHUNK_BITS)).ok_or_else(too_big)?;
        Ok(Span {
            at: chunk << ARENA_CHUNK_BITS | start as u32,
            len: u32::try_from(bytes.len()).map_err(|_| too_big())?,
        })
    }

    fn get(&self, s: Span) -> &[u8] {
        let start = (s.at & ((1 << ARENA_CHUNK_BITS) - 1)) as usize;
        self.chunks
            .get((s.at >> ARENA_CHUNK_BITS) as usize)
            .and_then(|c| c.get(start..start + s.len as usize))
            .unwrap_or(&[])
    }

    /// The text at `s` (always UTF-8: only `&str`s and serde_json output are pushed).
    fn str(&self, s: Span) -> &str {
        std::str::from_utf8(self.get(s)).unwrap_or_default()
    }

    fn bytes(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum()
    }
}

/// Fragments frequent in attempts' JSON, kept as one byte each (`0x01` for the first): serde_json
/// never writes a byte below `0x20` (control characters in strings are escaped), so the
/// substitution is exactly reversible whatever an attempt holds. A fragment that starts like a
/// later one comes first.
const TOKENS: [&[u8]; 31] = [
    b"{\"environmentIdx\":",
    b",\"status\":\"passed\"",
    b",\"status\":\"failed\"",
    b"\"status\":",
    b"\"expectedStatus\":",
    b"\"startTimestamp\":",
    b",\"duration\":",
    b",\"timeout\":",
    b",\"annotations\":[{\"type\":",
    b",\"errors\":[{\"message\":",
    b"\"message\":",
    b"\"stack\":",
    b"\"snippet\":",
    b"\"location\":{\"file\":",
    b",\"line\":",
    b",\"column\":",
    b",\"parallelIndex\":",
    b",\"steps\":[{\"title\":",
    b"{\"title\":",
    b",\"stdio\":[{",
    b"\"text\":",
    b"\"dts\":",
    b",\"attachments\":[{\"name\":",
    b"{\"name\":",
    b",\"contentType\":",
    b",\"id\":\"",
    b"\"description\":",
    b"\"skipped\"",
    b"\"timedOut\"",
    b"\"passed\"",
    b"\"failed\"",
];

/// `json` with the [`TOKENS`] replaced by their bytes.
fn pack(json: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    'next: while i < json.len() {
        let b = json[i];
        if matches!(b, b'{' | b',' | b'"') {
            let rest = &json[i..];
            let second = rest.get(1).copied();
            for (k, t) in TOKENS.iter().enumerate() {
                // Most candidates differ at the second byte: skip the comparison call.
                if t.get(1).copied() == second && rest.starts_with(t) {
                    out.push(k as u8 + 1);
                    i += t.len();
                    continue 'next;
                }
            }
        }
        out.push(b);
        i += 1;
    }
}

/// Writes `text` (UTF-8) as a JSON string, byte for byte as serde_json does: it escapes `"`, `\\`
/// and the bytes below 0x20, so text without them is written as it is (most titles and paths),
/// and other text goes through serde_json.
fn write_json_str<W: Write>(w: &mut W, text: &[u8]) -> io::Result<()> {
    if !needs_json_escape(text) {
        w.write_all(b"\"")?;
        w.write_all(text)?;
        w.write_all(b"\"")
    } else {
        Ok(serde_json::to_writer(w, std::str::from_utf8(text).unwrap_or_default())?)
    }
}

/// Whether `text` holds a byte that a JSON string escapes (`"`, `\\`, below 0x20), eight bytes
/// at a time.
fn needs_json_escape(text: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // a byte of `x` is 0 / below `n` (n <= 128): the classic bit tricks, exact as a whole
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH != 0;
    let mut chunks = text.chunks_exact(8);
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        if below(x, 0x20) || zero(x ^ (ONES * u64::from(b'"'))) || zero(x ^ (ONES * u64::from(b'\\'))) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Writes the JSON that [`pack`] packed.
fn unpack<W: Write>(packed: &[u8], w: &mut W) -> io::Result<()> {
    let mut start = 0;
    for (i, &b) in packed.iter().enumerate() {
        if b < 0x20 {
            w.write_all(&packed[start..i])?;
            w.write_all(TOKENS.get(usize::from(b).wrapping_sub(1)).copied().unwrap_or_default())?;
            start = i + 1;
        }
    }
    w.write_all(&packed[start..])
}

/// The report writer's output: the JSON is written a few bytes at a time, into `buf`, which
/// goes to `out` when it holds [`CHUNK`] bytes, between tests. One writer type: the writer's
/// code is compiled once, whatever `out` is (the `.wasm` had it twice, for `to_json` and for
/// `encode`). Measured and not kept: a fixed buffer with the copy inlined at every write took
/// the writer from 80 to 51 ms per 100,000 tests in wasm, but 5 KB more of `.wasm`, which the
/// 1.1 MB budget does not have.
struct Chunked<'a> {
    buf: Vec<u8>,
    out: &'a mut dyn Write,
}

const CHUNK: usize = 1 << 16;

impl Chunked<'_> {
    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }
}

impl Write for Chunked<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    #[inline]
    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(data);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

/// Records in fixed-size pages: growing never copies (or transiently doubles) the storage, and
/// at most one page is unused.
struct Paged<T> {
    pages: Vec<Vec<T>>,
    len: usize,
}

const PAGE: usize = 1024;

impl<T> Default for Paged<T> {
    fn default() -> Self {
        Paged { pages: Vec::new(), len: 0 }
    }
}

impl<T> Paged<T> {
    fn push(&mut self, value: T) {
        match self.pages.last_mut() {
            Some(page) if page.len() < PAGE => page.push(value),
            _ => {
                let mut page = Vec::with_capacity(PAGE);
                page.push(value);
                self.pages.push(page);
            }
        }
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn capacity(&self) -> usize {
        self.pages.len() * PAGE
    }
}

impl<T> std::ops::Index<usize> for Paged<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.pages[i / PAGE][i % PAGE]
    }
}

impl<T> std::ops::IndexMut<usize> for Paged<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.pages[i / PAGE][i % PAGE]
    }
}

/// A suite (or the root): its title, and its children and tests as linked lists.
struct Node {
    kind: SuiteType,
    title: Span,
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    first_test: u32,
    last_test: u32,
    /// The next node whose key has the same hash.
    same_hash: u32,
}

struct TestRec {
    title: Span,
    node: u32,
    /// The next test of the same node.
    next: u32,
    /// 0 when the test has no location (no file, or no line).
    line: u32,
    column: u32,
    /// Index into `ReportBuilder::tags`, or `NONE`.
    tags: u32,
    first_attempt: u32,
    last_attempt: u32,
    same_hash: u32,
}

struct AttemptRec {
    /// The attempt's compact JSON, packed (see [`pack`]).
    json: Span,
    next: u32,
}

/// Hash-map keys are already (well-mixed, 32-bit) hashes: the table's bucket bits and its
/// control bits (the top ones) are taken from them as they are.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (u64::from(n) << 32) | u64::from(n);
    }
}

/// Hash -> first record with that hash (the rest follow `same_hash`). 32-bit hashes keep an
/// entry at 8 bytes; a collision only costs a comparison.
type HashIndex = HashMap<u32, u32, BuildHasherDefault<IdentityHasher>>;

/// A fast non-cryptographic hash of a suite or test key (a multiply-rotate over 8-byte words,
/// then a final mix so every bit depends on every input bit); deterministic across runs.
/// Collisions only cost a comparison: lookups compare the keys themselves.
fn key_hash(parent: u32, kind: u8, title: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (u64::from(parent) << 8 | u64::from(kind)) ^ (title.len() as u64).wrapping_mul(K);
    let mut words = title.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
    }
    let mut b = [0u8; 8];
    b[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
    // fmix64 (MurmurHash3)
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    (h ^ (h >> 32)) as u32
}

/// Builds a valid report step by step (see the module documentation for the storage).
pub struct ReportBuilder {
    init: ReportInit,
    environments: Vec<Environment>,
    env_index: HashMap<String, usize>,
    /// Titles of suites and tests.
    text: Arena,
    /// Attempts' JSON.
    attempt_json: Arena,
    /// `nodes[ROOT]` is the root; the others are suites, in creation order (a child always
    /// comes after its parent).
    nodes: Paged<Node>,
    /// The lookup indexes of suites and tests. `encode` drops them (the Brotli encoder needs
    /// the room, and wasm memory never shrinks) and the next `add_test` rebuilds them.
    node_index: HashIndex,
    tests: Paged<TestRec>,
    test_index: HashIndex,
    indexed: bool,
    attempts: Paged<AttemptRec>,
    tags: Vec<Vec<String>>,
    /// Reused buffers for serializing and packing one attempt.
    scratch: Vec<u8>,
    packed: Vec<u8>,
    /// Smallest attempt start and largest attempt end, for the report's own timing.
    first_start: Option<u64>,
    last_end: Option<u64>,
    /// The attempts' durations added so far, summed: the time the tests themselves took.
    attempts_ms: u64,
    attachments: Vec<(Attachment, Vec<u8>)>,
    attachment_index: HashMap<String, usize>,
}

impl ReportBuilder {
    pub fn new(init: ReportInit) -> Result<Self> {
        let root = Node {
            kind: SuiteType::Suite,
            title: Span { at: 0, len: 0 },
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            first_test: NONE,
            last_test: NONE,
            same_hash: NONE,
        };
        let mut nodes = Paged::default();
        nodes.push(root);
        let builder = ReportBuilder {
            init,
            environments: Vec::new(),
            env_index: HashMap::new(),
            text: Arena::default(),
            attempt_json: Arena::default(),
            nodes,
            node_index: HashIndex::default(),
            tests: Paged::default(),
            test_index: HashIndex::default(),
            indexed: true,
            attempts: Paged::default(),
            tags: Vec::new(),
            scratch: Vec::new(),
            packed: Vec::new(),
            first_start: None,
            last_end: None,
            attempts_ms: 0,
            attachments: Vec::new(),
            attachment_index: HashMap::new(),
        };
        // The init is the report's head: checked by the rules the whole report must pass.
        super::validate::to_result("ReportBuilder init", &super::validate(&builder.head()), "")?;
        Ok(builder)
    }

    /// Adds an environment, or finds the equal one already added; returns its index.
    pub fn add_environment(&mut self, env: Environment) -> Result<usize> {
        self.add_environment_json(&serde_json::to_string(&env).unwrap_or_default())
    }

    /// [`Self::add_environment`] of an environment given as JSON text: checked by the rules an
    /// environment of a valid report follows (unknown keys included), then read.
    pub fn add_environment_json(&mut self, json: &str) -> Result<usize> {
        let doc: serde_json::Value =
            crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("environment: {e}")))?;
        super::validate::to_result("environment", &super::validate::environment_issues(&doc), "")?;
        let env: Environment =
            crate::from_json(json.as_bytes()).map_err(|e| Error::invalid_input(format!("environment: {e}")))?;
        // Equal content, equal text: the typed environment's JSON is its identity.
        let key = serde_json::to_string(&env).unwrap_or_default();
        if let Some(&i) = self.env_index.get(&key) {
            return Ok(i);
        }
        self.environments.push(env);
        self.env_index.insert(key, self.environments.len() - 1);
        Ok(self.environments.len() - 1)
    }

    /// Adds a test, or finds the one with the same title path and file; returns its handle.
    pub fn add_test(&mut self, input: TestInput) -> Result<usize> {
        let TestInput { title_path, file, line, column, tags } = input;
        let title_path: Vec<&str> = title_path.iter().map(String::as_str).collect();
        self.add_test_parts(&title_path, file.as_deref(), line, column, tags)
    }

    /// [`Self::add_test`] of a test given by its parts, borrowed.
    pub fn add_test_parts(
        &mut self,
        title_path: &[&str],
        file: Option<&str>,
        line: Option<u32>,
        column: Option<u32>,
        tags: Option<Vec<String>>,
    ) -> Result<usize> {
        let Some((title, suites)) = title_path.split_last() else {
            return Err(Error::invalid_input("titlePath must hold at least the test's title"));
        };
        let joined: String;
        let collapsed: Vec<&str>;
        let suites = if suites.len() > MAX_SUITE_DEPTH {
            joined = suites[MAX_SUITE_DEPTH - 1..].join(" \u{203a} ");
            collapsed = suites[..MAX_SUITE_DEPTH - 1].iter().copied().chain([joined.as_str()]).collect();
            &collapsed[..]
        } else {
            suites
        };
        if let Some(file) = file {
            super::validate::check_path(file).map_err(|m| Error::invalid_input(format!("file: {m}")))?;
        }
        self.ensure_indexed();
        let mut node = ROOT;
        if let Some(file) = file {
            node = self.child(node, SuiteType::File, file)?;
        }
        for suite in suites {
            node = self.child(node, SuiteType::Suite, suite)?;
        }
        let hash = key_hash(node, 0, title.as_bytes());
        let first = self.test_index.get(&hash).copied().unwrap_or(NONE);
        let mut i = first;
        while i != NONE {
            let t = &self.tests[i as usize];
            if t.node == node && self.text.get(t.title) == title.as_bytes() {
                return Ok(i as usize);
            }
            i = t.same_hash;
        }
        let index = self.tests.len();
        let id = u32::try_from(index).ok().filter(|&i| i != NONE).ok_or_else(|| Error::invalid_input("too many tests"))?;
        let (line, column) = match (file, line) {
            (Some(_), Some(line)) if line >= 1 => (line, column.unwrap_or(1).max(1)),
            _ => (0, 0),
        };
        let tags = match tags.filter(|t| !t.is_empty()) {
            Some(t) => {
                self.tags.push(t);
                (self.tags.len() - 1) as u32
            }
            None => NONE,
        };
        let title = self.text.push(title.as_bytes())?;
        self.tests.push(TestRec {
            title,
            node,
            next: NONE,
            line,
            column,
            tags,
            first_attempt: NONE,
            last_attempt: NONE,
            same_hash: first,
        });
        self.test_index.insert(hash, id);
        let n = &mut self.nodes[node as usize];
        match n.last_test {
            NONE => n.first_test = id,
            last => self.tests[last as usize].next = id,
        }
        self.nodes[node as usize].last_test = id;
        Ok(index)
    }

    /// The node of the suite `kind`/`title` under `parent`, created (last) when missing.
    fn child(&mut self, parent: u32, kind: SuiteType, title: &str) -> Result<u32> {
        let hash = key_hash(parent, kind as u8 + 1, title.as_bytes());
        let first = self.node_index.get(&hash).copied().unwrap_or(NONE);
        let mut i = first;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if n.parent == parent && n.kind == kind && self.text.get(n.title) == title.as_bytes() {
                return Ok(i);
            }
            i = n.same_hash;
        }
        let id = u32::try_from(self.nodes.len()).ok().filter(|&i| i != NONE).ok_or_else(|| Error::invalid_input("too many suites"))?;
        let title = self.text.push(title.as_bytes())?;
        self.nodes.push(Node {
            kind,
            title,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            first_test: NONE,
            last_test: NONE,
            same_hash: first,
        });
        self.node_index.insert(hash, id);
        match self.nodes[parent as usize].last_child {
            NONE => self.nodes[parent as usize].first_child = id,
            last => self.nodes[last as usize].next_sibling = id,
        }
        self.nodes[parent as usize].last_child = id;
        Ok(id)
    }

    /// Records one run of a test.
    pub fn add_attempt(&mut self, handle: usize, attempt: RunAttempt) -> Result<()> {
        self.check_handle(handle)?;
        // An attempt of plain fields in range needs no more checks (the common case, kept
        // fast); anything else is checked as the JSON path checks it, for the same errors.
        let plain = !attempt.has_details()
            && attempt.env() < self.environments.len()
            && [Some(attempt.start_timestamp), attempt.duration, attempt.timeout]
                .into_iter()
                .all(|n| n.unwrap_or(0) <= crate::limits::MAX_SAFE_INTEGER);
        self.store_attempt(handle, &attempt, !plain)
    }

    /// Records one run of a test given as JSON text: checked by the rules an attempt of a valid
    /// report follows (so an invalid attempt is an error here, not at `encode`), then read into
    /// a [`RunAttempt`] and kept as compact JSON.
    pub fn add_attempt_json(&mut self, handle: usize, json: &str) -> Result<()> {
        self.add_attempt_text(handle, json, false).map(drop)
    }

    /// [`Self::add_attempt_json`] for an attempt as a runner reported it: what the report rules
    /// refuse is left out where it stands ([`super::validate::mend_attempt`]: a (0, 0) location,
    /// a negative number, a field of the wrong type) and every other part is recorded. Returns
    /// what was left out (empty for a valid attempt); an error only when nothing can be kept
    /// (see `mend_attempt`), with nothing added.
    pub fn add_attempt_mended(&mut self, handle: usize, json: &str) -> Result<Vec<Issue>> {
        self.add_attempt_text(handle, json, true)
    }

    fn add_attempt_text(&mut self, handle: usize, json: &str, mend: bool) -> Result<Vec<Issue>> {
        self.check_handle(handle)?;
        let (mut doc, null_start) = attempt_document(json.as_bytes())?;
        let mended = if mend {
            super::validate::mend_attempt(&mut doc, self.environments.len())?
        } else {
            self.check_document(&doc)?;
            Vec::new()
        };
        let text;
        let json = if mended.is_empty() && !null_start {
            json.as_bytes()
        } else {
            // `Display`: the one serializer of documents in the .wasm (see `crate::from_json`)
            text = doc.to_string().into_bytes();
            &text
        };
        let attempt: RunAttempt = crate::from_json(json).map_err(|e| Error::invalid_input(format!("attempt: {e}")))?;
        self.store_attempt(handle, &attempt, false)?;
        Ok(mended)
    }

    fn check_handle(&self, handle: usize) -> Result<()> {
        if handle >= self.tests.len() {
            return Err(Error::invalid_input(format!("unknown test handle {handle}: use the value addTest returned")));
        }
        Ok(())
    }

    /// The rules of docs/report-format.md (§3.5, §5) for one attempt given as JSON, with this report's
    /// environments (an attempt names one by `environmentIdx`, 0 when absent).
    fn check_attempt(&self, json: &[u8]) -> Result<()> {
        self.check_document(&attempt_document(json)?.0)
    }

    /// [`Self::check_attempt`] of the attempt read as a document.
    fn check_document(&self, doc: &serde_json::Value) -> Result<()> {
        let issues = super::validate::attempt_issues(doc, self.environments.len());
        let hint = if self.environments.is_empty() { "; add the environments first (addEnvironment)" } else { "" };
        super::validate::to_result("attempt", &issues, hint)
    }

    /// Keeps `attempt` as its compact JSON (written into the reused scratch buffer), checked
    /// first by [`Self::check_attempt`] when `check`.
    fn store_attempt(&mut self, handle: usize, attempt: &RunAttempt, check: bool) -> Result<()> {
        let mut json = std::mem::take(&mut self.scratch);
        json.clear();
        // Serializing plain data to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut json, attempt);
        let stored = if check { self.check_attempt(&json) } else { Ok(()) }.and_then(|()| self.store_attempt_json(handle, attempt, &json));
        self.scratch = json;
        stored
    }

    fn store_attempt_json(&mut self, handle: usize, attempt: &RunAttempt, json: &[u8]) -> Result<()> {
        if json_depth(json) > MAX_ATTEMPT_DEPTH {
            return Err(Error::invalid_input(format!("attempt: nested more than {MAX_ATTEMPT_DEPTH} levels deep")));
        }
        let id = u32::try_from(self.attempts.len()).ok().filter(|&i| i != NONE).ok_or_else(|| Error::invalid_input("too many attempts"))?;
        let mut packed = std::mem::take(&mut self.packed);
        packed.clear();
        pack(json, &mut packed);
        let span = self.attempt_json.push(&packed);
        self.packed = packed;
        let span = span?;
        if attempt.start_timestamp > 0 {
            self.first_start = Some(self.first_start.map_or(attempt.start_timestamp, |s| s.min(attempt.start_timestamp)));
        }
        let end = attempt.start_timestamp + attempt.duration.unwrap_or(0);
        self.last_end = Some(self.last_end.map_or(end, |e| e.max(end)));
        self.attempts_ms = self.attempts_ms.saturating_add(attempt.duration.unwrap_or(0));
        self.attempts.push(AttemptRec { json: span, next: NONE });
        let test = &mut self.tests[handle];
        match test.last_attempt {
            NONE => test.first_attempt = id,
            last => self.attempts[last as usize].next = id,
        }
        self.tests[handle].last_attempt = id;
        Ok(())
    }

    /// The durations of the attempts added so far, summed, in ms: what the tests' bodies took
    /// (a shard's end compares it with what its plan predicted for them).
    pub fn attempts_ms(&self) -> u64 {
        self.attempts_ms
    }

    /// Registers an attachment's content; equal content gives one id (lowercase hex SHA-1).
    pub fn add_attachment(&mut self, input: AttachmentInput) -> Result<Attachment> {
        if input.name.is_empty() || input.content_type.is_empty() {
            return Err(Error::invalid_input("an attachment needs a name and a contentType"));
        }
        let id = sha1_smol::Sha1::from(&input.data).digest().to_string();
        let attachment = Attachment { name: input.name, content_type: input.content_type, id: id.clone() };
        if !self.attachment_index.contains_key(&id) {
            self.attachment_index.insert(id, self.attachments.len());
            self.attachments.push((attachment.clone(), input.data));
        }
        Ok(attachment)
    }

    /// The attachments' contents, one per id, in the order they were first added.
    pub fn attachments(&self) -> impl Iterator<Item = (&Attachment, &[u8])> {
        self.attachments.iter().map(|(a, d)| (a, d.as_slice()))
    }

    /// The report: tests grouped into a `file` suite per file and a `suite` per title level.
    pub fn build(&self) -> Report {
        // Children come after their parents, so building from the last node back finds every
        // child suite already built (no recursion, however deep the title paths).
        let mut built: Vec<Option<Suite>> = Vec::new();
        built.resize_with(self.nodes.len(), || None);
        for i in (1..self.nodes.len()).rev() {
            let n = &self.nodes[i];
            let suites: Vec<Suite> = self.children(n).filter_map(|c| built[c as usize].take()).collect();
            let tests = self.tests_of(n);
            built[i] = Some(Suite {
                kind: n.kind,
                title: self.text.str(n.title).to_string(),
                location: None,
                suites: (!suites.is_empty()).then_some(suites),
                tests: (!tests.is_empty()).then_some(tests),
            });
        }
        let root = &self.nodes[ROOT as usize];
        let suites: Vec<Suite> = self.children(root).filter_map(|c| built[c as usize].take()).collect();
        let tests = self.tests_of(root);
        Report { suites: (!suites.is_empty()).then_some(suites), tests: (!tests.is_empty()).then_some(tests), ..self.head() }
    }

    fn children<'a>(&'a self, n: &Node) -> impl Iterator<Item = u32> + 'a {
        std::iter::successors(Some(n.first_child).filter(|&c| c != NONE), |&c| {
            Some(self.nodes[c as usize].next_sibling).filter(|&s| s != NONE)
        })
    }

    fn test_ids<'a>(&'a self, n: &Node) -> impl Iterator<Item = u32> + 'a {
        std::iter::successors(Some(n.first_test).filter(|&t| t != NONE), |&t| {
            Some(self.tests[t as usize].next).filter(|&s| s != NONE)
        })
    }

    fn attempt_ids<'a>(&'a self, t: &TestRec) -> impl Iterator<Item = u32> + 'a {
        std::iter::successors(Some(t.first_attempt).filter(|&a| a != NONE), |&a| {
            Some(self.attempts[a as usize].next).filter(|&s| s != NONE)
        })
    }

    fn tests_of(&self, n: &Node) -> Vec<Test> {
        self.test_ids(n)
            .map(|t| {
                let t = &self.tests[t as usize];
                Test {
                    title: self.text.str(t.title).to_string(),
                    location: self.location(t).map(|(file, line, column)| Location { file: file.to_string(), line, column }),
                    tags: self.tags.get(t.tags as usize).cloned(),
                    attempts: self
                        .attempt_ids(t)
                        // Stored attempts were serialized from a `RunAttempt` and are not too deep.
                        .map(|a| {
                            let mut json = Vec::new();
                            let _ = unpack(self.attempt_json.get(self.attempts[a as usize].json), &mut json);
                            crate::from_json(&json).unwrap_or_default()
                        })
                        .collect(),
                }
            })
            .collect()
    }

    /// `(file, line, column)` of a test: its file is the title of the `file` suite at the top
    /// of its node's path.
    fn location(&self, t: &TestRec) -> Option<(&str, u32, u32)> {
        if t.line == 0 {
            return None;
        }
        let mut n = t.node;
        while self.nodes[n as usize].parent != ROOT {
            n = self.nodes[n as usize].parent;
        }
        let top = &self.nodes[n as usize];
        (top.kind == SuiteType::File).then(|| (self.text.str(top.title), t.line, t.column))
    }

    /// Everything but the suites and tests.
    fn head(&self) -> Report {
        let start = self.init.start_timestamp.unwrap_or(self.first_start.unwrap_or(0));
        let end = self.last_end.unwrap_or(start);
        let i = &self.init;
        Report {
            category: i.category.clone(),
            commit_id: i.commit_id.clone(),
            environments: self.environments.clone(),
            start_timestamp: start,
            // at most the largest exact number: one attempt of a huge duration must not make
            // the report unsendable
            duration: i.duration.unwrap_or(end.saturating_sub(start).min(crate::limits::MAX_SAFE_INTEGER)),
            title: i.title.clone(),
            url: i.url.clone(),
            config_path: i.config_path.clone(),
            related_commit_ids: i.related_commit_ids.clone(),
            flakiness_project: i.flakiness_project.clone(),
            generated_by: Some(i.generated_by.clone().unwrap_or(NameVersion {
                name: "shardwise".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            })),
            test_runner: i.test_runner.clone(),
            runtime: i.runtime.clone(),
            cpu_count: i.cpu_count,
            ram_bytes: i.ram_bytes,
            ..Report::default()
        }
    }

    /// Writes the report's JSON (the bytes `to_json(&self.build())` gives) from the records,
    /// without building it.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut w = Chunked { buf: Vec::with_capacity(CHUNK), out };
        self.write_json_chunked(&mut w)?;
        w.flush()
    }

    fn write_json_chunked(&self, w: &mut Chunked) -> io::Result<()> {
        // The head's fields in the model's order: everything up to `runtime`, then (after
        // `suites` and `tests`) `cpuCount` and `ramBytes`, the only later fields a builder sets.
        let mut head = self.head();
        let (cpu_count, ram_bytes) = (head.cpu_count.take(), head.ram_bytes.take());
        let head = serde_json::to_vec(&head).map_err(io::Error::other)?;
        w.write_all(&head[..head.len() - 1])?;
        let root = &self.nodes[ROOT as usize];
        if root.first_child != NONE {
            w.write_all(b",\"suites\":[")?;
            self.write_suites(w, root.first_child)?;
            w.write_all(b"]")?;
        }
        if root.first_test != NONE {
            w.write_all(b",\"tests\":")?;
            self.write_tests(w, root)?;
        }
        if let Some(n) = cpu_count {
            write!(w, ",\"cpuCount\":{n}")?;
        }
        if let Some(n) = ram_bytes {
            write!(w, ",\"ramBytes\":{n}")?;
        }
        w.write_all(b"}")
    }

    /// The suites from `first` and its next siblings, depth first with an explicit stack.
    fn write_suites(&self, w: &mut Chunked, first: u32) -> io::Result<()> {
        let mut open: Vec<u32> = Vec::new();
        // each type's JSON, as the model writes it, once rather than per suite
        let mut kinds: [Vec<u8>; 3] = Default::default();
        for k in [SuiteType::File, SuiteType::Suite, SuiteType::AnonymousSuite] {
            kinds[k as usize] = serde_json::to_vec(&k).map_err(io::Error::other)?;
        }
        let mut cur = first;
        loop {
            let n = &self.nodes[cur as usize];
            w.write_all(b"{\"type\":")?;
            w.write_all(&kinds[n.kind as usize])?;
            w.write_all(b",\"title\":")?;
            write_json_str(w, self.text.get(n.title))?;
            if n.first_child != NONE {
                w.write_all(b",\"suites\":[")?;
                open.push(cur);
                cur = n.first_child;
                continue;
            }
            self.end_suite(w, cur)?;
            loop {
                let next = self.nodes[cur as usize].next_sibling;
                if next != NONE {
                    w.write_all(b",")?;
                    cur = next;
                    break;
                }
                let Some(parent) = open.pop() else { return Ok(()) };
                w.write_all(b"]")?;
                self.end_suite(w, parent)?;
                cur = parent;
            }
        }
    }

    /// A suite's tests (if any) and its closing brace.
    fn end_suite(&self, w: &mut Chunked, node: u32) -> io::Result<()> {
        let n = &self.nodes[node as usize];
        if n.first_test != NONE {
            w.write_all(b",\"tests\":")?;
            self.write_tests(w, n)?;
        }
        w.write_all(b"}")
    }

    fn write_tests(&self, w: &mut Chunked, n: &Node) -> io::Result<()> {
        w.write_all(b"[")?;
        for (k, t) in self.test_ids(n).enumerate() {
            let t = &self.tests[t as usize];
            if k > 0 {
                w.write_all(b",")?;
            }
            w.write_all(b"{\"title\":")?;
            write_json_str(w, self.text.get(t.title))?;
            if let Some((file, line, column)) = self.location(t) {
                let mut number = itoa::Buffer::new();
                w.write_all(b",\"location\":{\"file\":")?;
                write_json_str(w, file.as_bytes())?;
                w.write_all(b",\"line\":")?;
                w.write_all(number.format(line).as_bytes())?;
                w.write_all(b",\"column\":")?;
                w.write_all(number.format(column).as_bytes())?;
                w.write_all(b"}")?;
            }
            if let Some(tags) = self.tags.get(t.tags as usize) {
                w.write_all(b",\"tags\":")?;
                serde_json::to_writer(&mut *w, tags)?;
            }
            w.write_all(b",\"attempts\":[")?;
            for (j, a) in self.attempt_ids(t).enumerate() {
                if j > 0 {
                    w.write_all(b",")?;
                }
                unpack(self.attempt_json.get(self.attempts[a as usize].json), w)?;
            }
            w.write_all(b"]}")?;
            w.spill()?;
        }
        w.write_all(b"]")
    }

    /// The report's JSON text.
    pub fn to_json(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_json(&mut out);
        out
    }

    /// Rebuilds the lookup indexes after `encode` dropped them.
    fn ensure_indexed(&mut self) {
        if self.indexed {
            return;
        }
        let (mut nodes, mut tests) = (HashIndex::default(), HashIndex::default());
        nodes.reserve(self.nodes.len());
        tests.reserve(self.tests.len());
        for i in 1..self.nodes.len() {
            let n = &self.nodes[i];
            let hash = key_hash(n.parent, n.kind as u8 + 1, self.text.get(n.title));
            let previous = nodes.insert(hash, i as u32).unwrap_or(NONE);
            self.nodes[i].same_hash = previous;
        }
        for i in 0..self.tests.len() {
            let t = &self.tests[i];
            let hash = key_hash(t.node, 0, self.text.get(t.title));
            let previous = tests.insert(hash, i as u32).unwrap_or(NONE);
            self.tests[i].same_hash = previous;
        }
        (self.node_index, self.test_index, self.indexed) = (nodes, tests, true);
    }

    /// The report encoded as the service stores it (JSON, Brotli quality 9), streamed from the
    /// records into the encoder. The lookup indexes are dropped first, so the encoder can reuse
    /// their memory; the next `add_test` rebuilds them.
    pub fn encode(&mut self) -> Vec<u8> {
        self.node_index = HashIndex::default();
        self.test_index = HashIndex::default();
        self.indexed = false;
        // The default options are valid and writing to the encoder cannot fail.
        let Ok(mut writer) = crate::codec::CompressWriter::new(crate::codec::CompressOptions::default()) else {
            return Vec::new();
        };
        if self.write_json(&mut writer).is_err() {
            return Vec::new();
        }
        writer.finish().unwrap_or_default()
    }

    /// Bytes held by the records and arenas (capacity), for tests and benchmarks.
    pub fn storage_bytes(&self) -> usize {
        use std::mem::size_of;
        self.text.bytes()
            + self.attempt_json.bytes()
            + self.nodes.capacity() * size_of::<Node>()
            + self.tests.capacity() * size_of::<TestRec>()
            + self.attempts.capacity() * size_of::<AttemptRec>()
            + (self.node_index.capacity() + self.test_index.capacity()) * (size_of::<(u32, u32)>() + 1)
    }
}

/// The deepest nesting of arrays and objects in JSON text.
/// An attempt given as JSON text, as a document for the rules: without a start, the attempt
/// starts at 0 (the default of `RunAttempt`; the report schema wants every attempt to say it).
/// True when the text had `"startTimestamp": null` (which the typed reader refuses: the caller
/// reads the document's text instead).
fn attempt_document(json: &[u8]) -> Result<(serde_json::Value, bool)> {
    let mut doc: serde_json::Value = crate::from_json(json).map_err(|e| Error::invalid_input(format!("attempt: {e}")))?;
    let mut null_start = false;
    if let Some(o) = doc.as_object_mut().filter(|o| o.get("startTimestamp").is_none_or(|t| t.is_null())) {
        null_start = o.insert("startTimestamp".into(), 0.into()).is_some();
    }
    Ok((doc, null_start))
}

fn json_depth(json: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in json {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pack_then_unpack_is_identity(texts in prop::collection::vec(
            prop::sample::select(vec!["passed", "\"status\":\"passed\"", ",\"duration\":", "\\", "\u{1}\n\t", "é", "{\"title\":", "x"]), 0..8)
        ) {
            let text = texts.concat();
            let json = serde_json::to_vec(&serde_json::json!({"environmentIdx": 1, "status": text, "errors": [{"message": text}], "k": [text, "failed"]})).unwrap();
            let mut packed = Vec::new();
            pack(&json, &mut packed);
            let mut back = Vec::new();
            unpack(&packed, &mut back).unwrap();
            prop_assert_eq!(back, json);
        }
    }

    proptest! {
        /// The fast path writes text as it is: it must be exactly what serde_json writes, for
        /// text with and without quotes, backslashes, control bytes and non-ASCII, at every
        /// offset of the eight-byte scan.
        #[test]
        fn titles_are_written_as_serde_json_writes_them(pieces in prop::collection::vec(
            prop_oneof![
                "[a-z ]{0,9}",
                prop::sample::select(vec!["\"", "\\", "\u{0}", "\u{1f}", "\u{7f}", " ", "é", "\u{1F600}", "\n"]).prop_map(String::from),
            ], 0..12)
        ) {
            let text = pieces.concat();
            let mut ours = Vec::new();
            write_json_str(&mut ours, text.as_bytes()).unwrap();
            prop_assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&text).unwrap());
            prop_assert_eq!(needs_json_escape(text.as_bytes()), text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
        }
    }

    #[test]
    fn arena_spans_across_chunks_and_oversized_values() {
        let mut arena = Arena::default();
        let values: Vec<Vec<u8>> = (0..3000usize)
            .map(|i| match i {
                7 => vec![b'x'; ARENA_MAX_CHUNK + 3],
                1500 => vec![b'y'; ARENA_MAX_CHUNK],
                _ => format!("value {i} {}", "z".repeat(i % 700)).into_bytes(),
            })
            .collect();
        let spans: Vec<Span> = values.iter().map(|v| arena.push(v).unwrap()).collect();
        for (v, s) in values.iter().zip(spans) {
            assert_eq!(arena.get(s), v.as_slice());
        }
    }

    #[test]
    fn records_stay_small() {
        // 100,000 tests make ~170,000 suites in bench/report.mjs: every 4 bytes is ~1 MB.
        assert_eq!(std::mem::size_of::<Node>(), 40);
        assert_eq!(std::mem::size_of::<TestRec>(), 40);
        assert_eq!(std::mem::size_of::<AttemptRec>(), 12);
    }

    #[test]
    fn a_typical_attempt_packs_to_a_third() {
        let json = br#"{"environmentIdx":1,"status":"passed","startTimestamp":1760000013700,"duration":12345}"#;
        let mut packed = Vec::new();
        pack(json, &mut packed);
        assert_eq!(packed.len(), 25, "from {}", json.len());
    }
}
