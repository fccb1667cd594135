//! A report's JSON text split as it is read, chunk by chunk: its top level, with each element of
//! its `suites` and `tests` lists replaced by `0` (the skeleton), and those elements one by one.
//! So a report is checked holding its top level and one top-level suite or test at a time,
//! whether its text is one slice or a Brotli stream decoded as it goes
//! ([`super::validate::report_issues_split`]).
//!
//! The splitter follows strings (with their escapes) and brackets, and nothing more: the skeleton
//! and each element are then read by serde_json, which checks them. A text it cannot split (not
//! an object, brackets that do not match, cut short) is [`Unsplit`]: the caller then reads the text
//! whole, which names the problem exactly.

use super::BOM;

/// The top-level lists read element by element, by their key.
pub(super) fn list(key: &str) -> Option<&'static str> {
    match key {
        "suites" => Some("suites"),
        "tests" => Some("tests"),
        _ => None,
    }
}

/// The text could not be split (see the module's documentation), or a reader of an element
/// stopped the split.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unsplit;

/// What is called with each element: its list, its index, its bytes, and whether its list is
/// the last of its key; returns false to stop.
pub(super) type Element<'a> = dyn FnMut(&'static str, usize, &[u8], bool) -> bool + 'a;

pub(super) struct Splitter {
    /// The skeleton, when it is kept.
    skeleton: Option<Vec<u8>>,
    /// Open brackets, outermost first.
    open: Vec<u8>,
    /// Bytes of the byte order mark matched so far at the start; 3 once past it (or none).
    bom: usize,
    started: bool,
    in_str: bool,
    escaped: bool,
    /// At the top level: after a key's `:`, before its value.
    at_value: bool,
    /// At the top level: the key being read (its raw bytes), and whether it has escapes.
    in_key: bool,
    key: Vec<u8>,
    key_escaped: bool,
    /// The list being split (the top-level key of the array we are in) and its next index.
    list: Option<&'static str>,
    index: usize,
    /// How many times each list's key (`suites`, `tests`) came at the top level so far, and in
    /// all (once known: the second read). A key given twice is the last one's, as a JSON parser
    /// reads it: only its elements are checked.
    seen: [usize; 2],
    total: Option<[usize; 2]>,
    /// Whether the list being split is the last of its key.
    last: bool,
    /// Inside an element; its bytes from earlier chunks (kept only when elements are read).
    in_elem: bool,
    elem: Vec<u8>,
}

impl Splitter {
    /// A splitter that keeps the skeleton (the first read), or one that hands on elements, given
    /// how many times each list's key came (what the first read's [`Splitter::finish`] found).
    pub(super) fn new(total: Option<[usize; 2]>) -> Self {
        Splitter {
            skeleton: total.is_none().then(Vec::new),
            seen: [0; 2],
            total,
            last: true,
            open: Vec::new(),
            bom: 0,
            started: false,
            in_str: false,
            escaped: false,
            at_value: false,
            in_key: false,
            key: Vec::new(),
            key_escaped: false,
            list: None,
            index: 0,
            in_elem: false,
            elem: Vec::new(),
        }
    }

    /// Splits the next chunk of the text: `element(list, index, bytes, last)` is called with
    /// each element that ends in it (`last`: of the last list of its key), and returns false to
    /// stop.
    pub(super) fn feed(&mut self, chunk: &[u8], element: &mut Element<'_>) -> Result<(), Unsplit> {
        let n = chunk.len();
        let mut i = 0;
        // where this chunk's bytes of the skeleton, or of the element, begin
        let mut from = 0;
        while i < n {
            let b = chunk[i];
            if self.bom < BOM.len() {
                if b == BOM[self.bom] {
                    self.bom += 1;
                    i += 1;
                    from = i;
                    continue;
                }
                if self.bom > 0 {
                    return Err(Unsplit);
                }
                self.bom = BOM.len();
            }
            if self.in_str {
                let mut run = 1;
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                    self.key_escaped |= self.in_key;
                } else if b == b'"' {
                    self.in_str = false;
                } else {
                    // the run of plain string bytes up to the next quote or backslash
                    run = chunk[i..].iter().position(|&c| c == b'"' || c == b'\\').unwrap_or(n - i);
                }
                if self.in_key {
                    self.key.extend_from_slice(&chunk[i..i + run]);
                    self.in_key = self.in_str;
                }
                i += run;
                continue;
            }
            let depth = self.open.len();
            let at_list_level = self.list.is_some() && depth == 2;
            // the end of an element: after it, at the list's level
            if self.in_elem && at_list_level && matches!(b, b',' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                if !self.end_element(&chunk[from..i], element) {
                    return Err(Unsplit);
                }
                from = i;
            }
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
                continue;
            }
            if !self.started {
                if b != b'{' {
                    return Err(Unsplit);
                }
                self.started = true;
            }
            // the start of an element
            if at_list_level && !self.in_elem && !matches!(b, b',' | b']') {
                if let Some(s) = &mut self.skeleton {
                    s.extend_from_slice(&chunk[from..i]);
                    s.push(b'0');
                }
                self.in_elem = true;
                from = i;
            }
            match b {
                b'"' => {
                    self.in_str = true;
                    if depth == 1 {
                        if self.at_value {
                            self.at_value = false;
                        } else {
                            self.in_key = true;
                            self.key_escaped = false;
                            self.key.clear();
                            self.key.push(b);
                        }
                    }
                }
                b'{' | b'[' => {
                    if depth == 1 && self.at_value {
                        self.at_value = false;
                        let name = self.key_name().and_then(|k| list(&k));
                        if let Some(name) = name {
                            let k = usize::from(name == "tests");
                            self.seen[k] += 1;
                            self.last = self.total.is_none_or(|t| t[k] == self.seen[k]);
                        }
                        if b == b'[' {
                            self.list = name;
                            self.index = 0;
                        }
                    }
                    self.open.push(b);
                }
                b'}' | b']' => {
                    let opener = if b == b'}' { b'{' } else { b'[' };
                    if self.open.pop() != Some(opener) {
                        return Err(Unsplit);
                    }
                    if self.open.len() == 1 {
                        self.list = None;
                    }
                }
                b':' if depth == 1 => self.at_value = true,
                b',' if depth == 1 => self.at_value = false,
                _ if depth == 1 => self.at_value = false,
                _ => {}
            }
            i += 1;
        }
        if self.in_elem {
            if self.skeleton.is_none() {
                self.elem.extend_from_slice(&chunk[from..]);
            }
        } else if let Some(s) = &mut self.skeleton {
            s.extend_from_slice(&chunk[from..]);
        }
        Ok(())
    }

    /// The end of the text: the skeleton, when it was kept (empty when not), and how many times
    /// each list's key came.
    pub(super) fn finish(self) -> Result<(Vec<u8>, [usize; 2]), Unsplit> {
        if !self.started || self.in_str || self.in_elem || !self.open.is_empty() {
            return Err(Unsplit);
        }
        Ok((self.skeleton.unwrap_or_default(), self.seen))
    }

    /// Hands on the element that ends with `tail`.
    fn end_element(&mut self, tail: &[u8], element: &mut Element<'_>) -> bool {
        self.in_elem = false;
        let Some(name) = self.list else { return false };
        let index = self.index;
        self.index += 1;
        if self.skeleton.is_some() {
            return true;
        }
        let go_on = if self.elem.is_empty() {
            element(name, index, tail, self.last)
        } else {
            self.elem.extend_from_slice(tail);
            element(name, index, &self.elem, self.last)
        };
        self.elem.clear();
        go_on
    }

    /// The key just read, unescaped.
    fn key_name(&self) -> Option<String> {
        if self.key_escaped {
            crate::from_json::<String>(&self.key).ok()
        } else {
            std::str::from_utf8(self.key.get(1..self.key.len().saturating_sub(1))?).ok().map(str::to_owned)
        }
    }
}
