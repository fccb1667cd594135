//! Static discovery of the tests in a Jest or Vitest test file, for the durations exchange.
//!
//! Jest and Vitest hand their sequencer test *files*, and learn a file's tests only by running
//! it, but the durations exchange predicts per *test* (file, suite titles, title). So the
//! sequencers read each file's source and list the tests it declares: calls of `describe`,
//! `test` and `it` (and their `only`, `skip`, `todo`, `concurrent`, ... forms, `fit`, `xit`,
//! `xdescribe`, Vitest's `suite` and `skipIf(..)`/`runIf(..)`) whose title is a string literal,
//! nested by the calls' brackets, exactly as the runners name them in their reports (a second
//! test of one title path numbered as the reporters number it: [`distinct_titles`]).
//!
//! This is a tokenizer, not a parser: it skips comments, strings, template literals and regular
//! expression literals correctly, and otherwise only counts brackets. What it cannot name (a
//! title built at run time, `test.each`, a `describe` whose title is not a literal, and every
//! test inside such a `describe`) is counted in [`Discovered::unnamed`] and left to the planner's
//! estimates. Never fails: any input gives a (possibly empty) list.

use std::collections::{HashMap, HashSet};

/// The tests one source file declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Discovered {
    /// Title paths (suite titles, then the test's title), in source order; a title path seen
    /// before is numbered as the reporters number it (see [`distinct_titles`]).
    pub tests: Vec<Vec<String>>,
    /// Test calls whose title path is not known before running (computed titles, `each`).
    pub unnamed: u32,
    /// The relative modules the file loads (`./x`, `../y`), as written, each once, in source
    /// order: `import ... from`, `export ... from`, `import '...'`, `import(...)` and `require(...)`
    /// of a string literal ([`module_imports`]). The Jest sequencer follows them through the
    /// suite's own modules: a shard pays each module's transform once (`plan::cost` modules).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    /// The other modules it loads the same ways: a package (`lodash`), or a name the runner maps
    /// to a file of the suite (Jest's `moduleNameMapper`: `@/lib/x`), as written, each once, in
    /// source order; not Node's builtins (`node:fs`). The Jest sequencer resolves those its
    /// configuration maps to the suite's own files.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bare_imports: Vec<String>,
}

/// Most imports listed of one file.
const MAX_IMPORTS: usize = 1000;

/// The module specifiers `tokens` load: `from '...'`, `import '...'`, `import('...')`,
/// `require('...')` (not a method: `jest.requireActual` loads the module the file mocks): the
/// relative ones, then the others but Node's builtins ([`Discovered::bare_imports`]).
fn module_imports(tokens: &[Tok<'_>]) -> (Vec<String>, Vec<String>) {
    let mut out: Vec<String> = Vec::new();
    let mut bare: Vec<String> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let Tok::Ident(name) = t else { continue };
        if i > 0 && tokens[i - 1] == Tok::Dot {
            continue;
        }
        let spec = match (*name, tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3)) {
            ("from" | "import", Some(Tok::Str(Some(s))), _, _) => s,
            ("require" | "import", Some(Tok::Open('(')), Some(Tok::Str(Some(s))), Some(Tok::Close | Tok::Comma)) => s,
            _ => continue,
        };
        if spec.starts_with("./") || spec.starts_with("../") {
            if !out.contains(spec) && out.len() < MAX_IMPORTS {
                out.push(spec.clone());
            }
        } else if !spec.is_empty() && !spec.starts_with("node:") && !spec.starts_with('/') && !bare.contains(spec) && bare.len() < MAX_IMPORTS {
            bare.push(spec.clone());
        }
    }
    (out, bare)
}

/// The modules a source loads, without its tests ([`discover_imports`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleImports {
    /// As [`Discovered::imports`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    /// As [`Discovered::bare_imports`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bare_imports: Vec<String>,
}

/// The modules `source` loads, as [`discover_tests`] lists them, without reading its tests: what
/// the planner needs of a module that is not a test file, and of a test file when the durations
/// come from a timings file (the sequencers' `suiteModules`). The tests' walk and their titles'
/// copies across to JavaScript were a third of such a read (date-fns's 970 sources).
pub fn discover_imports(source: &str) -> ModuleImports {
    let (imports, bare_imports) = module_imports(&tokenize(source));
    ModuleImports { imports, bare_imports }
}

/// Lists the tests `source` (JavaScript or TypeScript) declares; see the module documentation.
pub fn discover_tests(source: &str) -> Discovered {
    let tokens = tokenize(source);
    let closers = closers(&tokens);
    let mut out = Discovered::default();
    // Open suites: (title, or None when not a literal; the bracket depth inside its call).
    let mut suites: Vec<(Option<String>, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Tok::Open(_) => depth += 1,
            Tok::Close => {
                depth = depth.saturating_sub(1);
                while suites.last().is_some_and(|s| s.1 > depth) {
                    suites.pop();
                }
            }
            Tok::Ident(name) if !matches!(i.checked_sub(1).map(|p| &tokens[p]), Some(Tok::Dot)) => {
                if let Some(kind) = kind_of(name) {
                    if let Some(call) = read_call(&tokens, &closers, i + 1) {
                        let known = suites.iter().all(|s| s.0.is_some());
                        match kind {
                            Kind::Suite => {
                                // the call's "(" is the next token: the suite lives inside it
                                suites.push((call.title.filter(|_| known), depth + 1));
                            }
                            Kind::Test => match call.title {
                                Some(title) if known => {
                                    let mut path: Vec<String> = suites.iter().filter_map(|s| s.0.clone()).collect();
                                    path.push(title);
                                    out.tests.push(path);
                                }
                                _ => out.unnamed += 1,
                            },
                        }
                        i = call.open;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    distinct_titles(&mut out.tests);
    (out.imports, out.bare_imports) = module_imports(&tokens);
    out
}

/// Numbers each further test of a title path already listed, in source order: `t [2]`, `t [3]`,
/// ... (a number a title of the file already uses is passed over). This is the rule by which the
/// Jest and Vitest reporters keep apart in the report the tests a runner keeps apart; it is
/// decided, and why, at `distinctTitles` in pkg-template/src/runner/record.mjs. Applying it here
/// too makes the durations exchange ask for the names the reports use.
fn distinct_titles(tests: &mut [Vec<String>]) {
    let mut used: HashSet<Vec<String>> = HashSet::new();
    let mut next: HashMap<Vec<String>, usize> = HashMap::new();
    for path in tests.iter_mut() {
        if used.insert(path.clone()) {
            continue;
        }
        let key = path.clone();
        let Some(title) = path.pop() else { continue };
        let mut n = next.get(&key).copied().unwrap_or(2);
        loop {
            path.push(format!("{title} [{n}]"));
            n += 1;
            if used.insert(path.clone()) {
                break;
            }
            path.pop();
        }
        next.insert(key, n);
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Suite,
    Test,
}

fn kind_of(name: &str) -> Option<Kind> {
    match name {
        "describe" | "fdescribe" | "xdescribe" | "suite" => Some(Kind::Suite),
        "test" | "it" | "fit" | "xit" | "xtest" => Some(Kind::Test),
        _ => None,
    }
}

/// A recognised call: its title when the first argument is a lone string literal, and the index
/// of the token of the call's "(" (the caller resumes there, so its bracket is counted).
struct Call {
    title: Option<String>,
    open: usize,
}

/// After `describe` / `test` / ...: modifiers, then `(`. `None` when this is not a test call
/// (e.g. `test.describe`, `it = 1`); a title of `None` for `each` tables and computed titles.
fn read_call(tokens: &[Tok<'_>], closers: &[usize], mut i: usize) -> Option<Call> {
    let mut each = false;
    while let Some(Tok::Dot) = tokens.get(i) {
        let Some(Tok::Ident(m)) = tokens.get(i + 1) else { return None };
        i += 2;
        match *m {
            "only" | "skip" | "todo" | "concurrent" | "sequential" | "fails" | "failing" | "shuffle" => {}
            // `.skipIf(cond)` / `.runIf(cond)`: skip the condition's brackets
            "skipIf" | "runIf" => i = after_group(tokens, closers, i)?,
            // `.each(table)` / `.for(table)`: the title that follows is a format, not a name
            "each" | "for" => {
                each = true;
                i = after_group(tokens, closers, i)?;
                // tagged-template tables: test.each`a | b`(...)
            }
            _ => return None,
        }
    }
    if each {
        if let Some(Tok::Str(_)) = tokens.get(i) {
            i += 1; // test.each`table`
        }
    }
    if !matches!(tokens.get(i), Some(Tok::Open('('))) {
        return None;
    }
    let title = match (tokens.get(i + 1), tokens.get(i + 2)) {
        (Some(Tok::Str(Some(s))), Some(Tok::Comma | Tok::Close)) if !each => Some(s.clone()),
        _ => None,
    };
    Some(Call { title, open: i })
}

/// `i` at an opening bracket: the index after its matching close (`None` if not an opening).
fn after_group(tokens: &[Tok<'_>], closers: &[usize], i: usize) -> Option<usize> {
    if !matches!(tokens.get(i), Some(Tok::Open(_))) {
        // `.each` with a tagged template: no brackets
        return matches!(tokens.get(i), Some(Tok::Str(_))).then_some(i);
    }
    closers.get(i).filter(|&&k| k != NO_CLOSE).map(|&k| k + 1)
}

/// No matching close.
const NO_CLOSE: usize = usize::MAX;

/// For each opening bracket token, the index of the close that matches it (brackets of any
/// kind counted together), or [`NO_CLOSE`]; found once for all, so a file of many unclosed
/// `.each(` stays linear (scanning ahead from each one was quadratic: 320 KB took 6 s).
fn closers(tokens: &[Tok<'_>]) -> Vec<usize> {
    let mut out = vec![NO_CLOSE; tokens.len()];
    let mut open = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        match t {
            Tok::Open(_) => open.push(k),
            Tok::Close => {
                if let Some(o) = open.pop() {
                    out[o] = k;
                }
            }
            _ => {}
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    /// An identifier or keyword, borrowed from the source (most tokens are: an owned copy of
    /// each made tokenizing a third slower).
    Ident(&'a str),
    /// A string or template literal: its value, or `None` for a template with substitutions.
    Str(Option<String>),
    Open(char),
    Close,
    Dot,
    Comma,
    /// Any other punctuator, number or keyword-like token that matters only as "something".
    Other,
}

/// Tokens of `src`. Comments and whitespace vanish; `(`, `[`, `{` are `Open`, their closers
/// `Close`; regular expression literals and numbers are `Other`.
fn tokenize(src: &str) -> Vec<Tok<'_>> {
    let mut lx = Lexer { s: src.as_bytes(), src, pos: 0, out: Vec::new(), depth: 0, no_brace_from: usize::MAX };
    lx.run(false);
    lx.out
}

struct Lexer<'a> {
    s: &'a [u8],
    src: &'a str,
    pos: usize,
    out: Vec<Tok<'a>>,
    /// How many `${` substitutions this lexer is inside.
    depth: usize,
    /// A position with no `}` after it, once one is known (else `usize::MAX`): a `\u{` escape
    /// looks for its `}` ahead, and without this every unterminated one searched to the end
    /// again (quadratic: 143 KB of `\u{` took 1 s).
    no_brace_from: usize,
}

/// Deepest nesting of template substitutions lexed as code; deeper, a substitution is read as
/// template text. Each level is a recursive call: about 7,000 levels (22 KB of source) overflowed
/// a 2 MB stack natively (a process abort; in wasm, a trap).
const MAX_TEMPLATE_DEPTH: usize = 64;

impl<'a> Lexer<'a> {
    /// Lexes until the end, or (`in_template`) until the `}` that closes a `${` substitution.
    fn run(&mut self, in_template: bool) {
        let mut braces = 0usize;
        while self.pos < self.s.len() {
            let c = self.s[self.pos];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if self.s.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < self.s.len() && self.s[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'/' if self.s.get(self.pos + 1) == Some(&b'*') => {
                    self.pos = self.src[self.pos + 2..].find("*/").map_or(self.s.len(), |k| self.pos + 2 + k + 2);
                }
                b'/' if self.regex_allowed() => {
                    self.skip_regex();
                    self.out.push(Tok::Other);
                }
                b'\'' | b'"' => {
                    let v = self.string(c);
                    self.out.push(Tok::Str(v));
                }
                b'`' => {
                    let v = self.template();
                    self.out.push(Tok::Str(v));
                }
                b'(' | b'[' | b'{' => {
                    if c == b'{' {
                        braces += 1;
                    }
                    self.pos += 1;
                    self.out.push(Tok::Open(c as char));
                }
                b')' | b']' | b'}' => {
                    if c == b'}' {
                        if in_template && braces == 0 {
                            self.pos += 1;
                            return;
                        }
                        braces = braces.saturating_sub(1);
                    }
                    self.pos += 1;
                    self.out.push(Tok::Close);
                }
                b'.' if !self.s.get(self.pos + 1).is_some_and(u8::is_ascii_digit) => {
                    // `...` spread is Other; `?.` optional chaining is a Dot too
                    if self.s[self.pos..].starts_with(b"...") {
                        self.pos += 3;
                        self.out.push(Tok::Other);
                    } else {
                        self.pos += 1;
                        self.out.push(Tok::Dot);
                    }
                }
                b',' => {
                    self.pos += 1;
                    self.out.push(Tok::Comma);
                }
                b'?' if self.s.get(self.pos + 1) == Some(&b'.') && !self.s.get(self.pos + 2).is_some_and(u8::is_ascii_digit) => {
                    self.pos += 1; // the `.` follows as a Dot
                }
                _ if is_ident_start(c) => {
                    let start = self.pos;
                    while self.pos < self.s.len() && is_ident_part(self.s[self.pos]) {
                        self.pos += 1;
                    }
                    self.out.push(Tok::Ident(&self.src[start..self.pos]));
                }
                b'0'..=b'9' | b'.' => {
                    while self.pos < self.s.len() && (is_ident_part(self.s[self.pos]) || self.s[self.pos] == b'.') {
                        self.pos += 1;
                    }
                    self.out.push(Tok::Other);
                }
                _ => {
                    self.pos += 1;
                    self.out.push(Tok::Other);
                }
            }
        }
    }

    /// Whether a `/` here starts a regular expression literal rather than a division: after an
    /// operator, an opening bracket, a comma, or a keyword that ends no expression.
    fn regex_allowed(&self) -> bool {
        match self.out.last() {
            None | Some(Tok::Open(_) | Tok::Comma) => true,
            Some(Tok::Other) => !self.prev_is_value(),
            Some(Tok::Ident(k)) => matches!(
                *k,
                "return" | "typeof" | "instanceof" | "in" | "of" | "new" | "delete" | "void" | "throw" | "case" | "do" | "else" | "yield" | "await"
            ),
            Some(Tok::Close | Tok::Str(_) | Tok::Dot) => false,
        }
    }

    /// `Other` covers numbers, regexes and `++`/`--` (after which `/` divides) as well as
    /// operators (after which it starts a regex): look at the source before the token.
    fn prev_is_value(&self) -> bool {
        let before = self.src[..self.pos].trim_end();
        let last = before.as_bytes().last().copied().unwrap_or(b';');
        last.is_ascii_alphanumeric() || last == b'_' || last == b'$' || before.ends_with("++") || before.ends_with("--")
    }

    fn skip_regex(&mut self) {
        self.pos += 1;
        let mut class = false;
        while self.pos < self.s.len() {
            match self.s[self.pos] {
                b'\\' => self.pos += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => break,
                b'\n' => return, // not a regex after all; resume at the line end
                _ => {}
            }
            self.pos += 1;
        }
        self.pos += 1;
        while self.pos < self.s.len() && is_ident_part(self.s[self.pos]) {
            self.pos += 1;
        }
    }

    /// A quoted string from its opening quote; its value, `None` if it is not terminated.
    fn string(&mut self, quote: u8) -> Option<String> {
        self.pos += 1;
        let mut v = String::new();
        while self.pos < self.s.len() {
            let c = self.s[self.pos];
            if c == quote {
                self.pos += 1;
                return Some(v);
            }
            if c == b'\n' {
                return None;
            }
            if c == b'\\' {
                self.escape(&mut v);
            } else {
                // a run of plain text at once, to the next quote, backslash or line end (ASCII
                // bytes: the run ends on a character boundary)
                let start = self.pos;
                while self.pos < self.s.len() && !matches!(self.s[self.pos], b'\\' | b'\n') && self.s[self.pos] != quote {
                    self.pos += 1;
                }
                v.push_str(&self.src[start..self.pos]);
            }
        }
        None
    }

    /// A template literal from its backquote; its value when it has no `${...}`.
    fn template(&mut self) -> Option<String> {
        self.pos += 1;
        let mut v = Some(String::new());
        while self.pos < self.s.len() {
            match self.s[self.pos] {
                b'`' => {
                    self.pos += 1;
                    return v;
                }
                b'\\' => {
                    let mut tmp = String::new();
                    self.escape(&mut tmp);
                    if let Some(v) = v.as_mut() {
                        v.push_str(&tmp);
                    }
                }
                b'$' if self.s.get(self.pos + 1) == Some(&b'{') => {
                    self.pos += 2;
                    v = None;
                    if self.depth < MAX_TEMPLATE_DEPTH {
                        // the substitution's tokens do not belong to the outer stream
                        let mut inner = Lexer {
                            s: self.s,
                            src: self.src,
                            pos: self.pos,
                            out: Vec::new(),
                            depth: self.depth + 1,
                            no_brace_from: self.no_brace_from,
                        };
                        inner.run(true);
                        (self.pos, self.no_brace_from) = (inner.pos, inner.no_brace_from);
                    }
                }
                _ => {
                    // a run of plain text at once (a `$` not before `{` is text), to the next
                    // backquote, backslash or `$` (ASCII bytes: the run ends on a boundary)
                    let start = self.pos;
                    self.pos += 1;
                    while self.pos < self.s.len() && !matches!(self.s[self.pos], b'`' | b'\\' | b'$') {
                        self.pos += 1;
                    }
                    if let Some(v) = v.as_mut() {
                        v.push_str(&self.src[start..self.pos]);
                    }
                }
            }
        }
        None
    }

    /// At a backslash: appends the escaped character(s) and moves past the escape.
    fn escape(&mut self, v: &mut String) {
        self.pos += 1;
        let Some(&c) = self.s.get(self.pos) else { return };
        self.pos += 1;
        match c {
            b'n' => v.push('\n'),
            b't' => v.push('\t'),
            b'r' => v.push('\r'),
            b'b' => v.push('\u{8}'),
            b'f' => v.push('\u{c}'),
            b'v' => v.push('\u{b}'),
            b'0' if !self.s.get(self.pos).is_some_and(u8::is_ascii_digit) => v.push('\0'),
            b'\r' => {
                if self.s.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
            }
            b'\n' => {}
            b'x' => self.hex(v, 2),
            b'u' if self.s.get(self.pos) == Some(&b'{') => {
                let end = if self.pos >= self.no_brace_from { None } else { self.src[self.pos..].find('}').map(|k| self.pos + k) };
                if end.is_none() {
                    self.no_brace_from = self.no_brace_from.min(self.pos);
                }
                if let Some(end) = end {
                    if let Some(ch) = u32::from_str_radix(&self.src[self.pos + 1..end], 16).ok().and_then(char::from_u32) {
                        v.push(ch);
                    }
                    self.pos = end + 1;
                }
            }
            b'u' => {
                let hi = self.hex_value(4);
                match hi {
                    Some(hi @ 0xd800..=0xdbff) if self.src[self.pos..].starts_with("\\u") => {
                        let save = self.pos;
                        self.pos += 2;
                        match self.hex_value(4) {
                            Some(lo @ 0xdc00..=0xdfff) => {
                                v.extend(char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)));
                            }
                            _ => {
                                self.pos = save;
                                v.push('\u{fffd}');
                            }
                        }
                    }
                    Some(x) => v.push(char::from_u32(x).unwrap_or('\u{fffd}')),
                    None => {}
                }
            }
            _ => {
                // any other character stands for itself (a multi-byte one whole)
                self.pos -= 1;
                let ch = self.src[self.pos..].chars().next().unwrap_or('\u{fffd}');
                v.push(ch);
                self.pos += ch.len_utf8();
            }
        }
    }

    fn hex(&mut self, v: &mut String, n: usize) {
        if let Some(x) = self.hex_value(n) {
            v.push(char::from_u32(x).unwrap_or('\u{fffd}'));
        }
    }

    fn hex_value(&mut self, n: usize) -> Option<u32> {
        let digits = self.src.get(self.pos..self.pos + n)?;
        let x = u32::from_str_radix(digits, 16).ok()?;
        self.pos += n;
        Some(x)
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_part(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(src: &str) -> Vec<String> {
        discover_tests(src).tests.iter().map(|p| p.join(" > ")).collect()
    }

    #[test]
    fn nested_describes_and_tests() {
        let src = r#"
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            describe('outer', () => {
              test('a', async () => { await sleep(10); });
              describe("inner", function () {
                it(`b`, () => {});
                it.only('c', () => {});
              });
              test.skip('d', () => {});
            });
            test('top', () => {});
        "#;
        assert_eq!(titles(src), ["outer > a", "outer > inner > b", "outer > inner > c", "outer > d", "top"]);
        assert_eq!(discover_tests(src).unnamed, 0);
    }

    #[test]
    fn module_imports_each_once_in_source_order() {
        let src = r#"
            import a, { b } from './a.js';
            import './setup';
            export * from "../lib/index";
            const c = require('./c'), d = await import('./d.mjs');
            const lodash = require('lodash'); import x from 'node:fs';
            const again = require('./a.js');
            const real = jest.requireActual('./mocked'); // not a load of its own
            // import z from './commented';
            const s = "require('./in-a-string')";
            const dynamic = require(`./${name}`);
            type T = import('./types').T;
        "#;
        assert_eq!(discover_tests(src).imports, ["./a.js", "./setup", "../lib/index", "./c", "./d.mjs", "./types"]);
        assert_eq!(discover_tests(src).bare_imports, ["lodash"], "packages and aliases, not Node's builtins");
        let aliased = r#"import { x } from '@/lib/x'; const y = require("~utils"); import 'fs'; import('@scope/pkg/sub'); require('lodash');"#;
        assert_eq!(discover_tests(aliased).bare_imports, ["@/lib/x", "~utils", "fs", "@scope/pkg/sub", "lodash"]);
        assert!(discover_tests(aliased).imports.is_empty());
    }

    #[test]
    fn imports_alone_are_the_imports_of_the_whole_read() {
        // what suiteModules reads of a module must be what a test list's read of it would give
        let sources = [
            "import a from './a.js'; test('t', () => { require('./b'); }); describe(name, () => { it('x', () => import('../c')) });",
            "export { x } from '@/lib/x'; const y = require(`./${n}`); /* import z from './z' */ import 'lodash';",
            "",
            "test('unterminated, () => { import('./after-a-broken-string')",
        ];
        for src in sources {
            let whole = discover_tests(src);
            let alone = discover_imports(src);
            assert_eq!((alone.imports, alone.bare_imports), (whole.imports, whole.bare_imports), "{src}");
        }
    }

    #[test]
    fn modifiers_and_aliases() {
        let src = r#"
            fit('f', () => {}); xit('x', () => {}); xtest('xt'); test.todo('later');
            describe.concurrent('c', () => { test.concurrent.skip('y', async () => {}); });
            xdescribe('xd', () => { it('z') }); fdescribe('fd', () => {});
            suite('s', () => { test.skipIf(process.env.CI)('w', () => {}); test.runIf(a(b))('v', () => {}); });
            test.fails('fails', () => {}); it.failing('failing', () => {});
        "#;
        assert_eq!(titles(src), ["f", "x", "xt", "later", "c > y", "xd > z", "s > w", "s > v", "fails", "failing"]);
    }

    #[test]
    fn a_title_path_seen_before_is_numbered_as_the_reporters_number_it() {
        let src = r#"
            test('t', () => {}); test('t', () => {});
            describe('d', () => { test('t', () => {}); });
            describe('d', () => { test('t', () => {}); test('t [3]', () => {}); test('t', () => {}); });
            test('t', () => {});
        "#;
        // as `distinctTitles` (record.mjs) numbers them: per title path in order, passing over a
        // number a title already uses
        assert_eq!(titles(src), ["t", "t [2]", "d > t", "d > t [2]", "d > t [3]", "d > t [4]", "t [3]"]);
    }

    #[test]
    fn computed_titles_and_each_are_unnamed() {
        let src = r#"
            const name = 'n';
            test(name, () => {});
            test('a' + name, () => {});
            test(`t ${name}`, () => {});
            test.each([[1], [2]])('each %i', () => {});
            it.each`a | b ${1} | ${2}`('tagged $a', () => {});
            describe.each([1, 2])('d %i', () => { test('inside', () => {}); });
            describe(SomeClass, () => { test('in class', () => {}); });
            test('known', () => {});
        "#;
        let d = discover_tests(src);
        assert_eq!(titles(src), ["known"]);
        assert_eq!(d.unnamed, 7);
    }

    #[test]
    fn not_test_calls() {
        let src = r#"
            expect.test('no'); obj.it('no'); const test2 = 1; my_test('no');
            function test(name, fn) { return it(name, fn); }
            class A { it() { return 1 } }
            test.describe('pw', () => { test('pw test', () => {}) });
        "#;
        // `test.describe` is not a Jest/Vitest suite: the tests inside still count, without it
        assert_eq!(titles(src), ["pw test"]);
    }

    #[test]
    fn strings_comments_templates_and_regexes_do_not_confuse_the_brackets() {
        let src = r#"
            // test('commented out')
            /* describe('also not', () => { */
            describe('d', () => {
              const s = "test('in a string') )))";
              const t = `template ${ fn({ a: "}" }) } test('no') ${`nested ${1}`}`;
              const r = /[)(]test\('x'\)/g, q = a / b / c;
              const u = x++ / 2;
              test('real', () => { expect(s).toMatch(/\)/); });
            });
            test('after', () => {});
        "#;
        assert_eq!(titles(src), ["d > real", "after"]);
    }

    #[test]
    fn escapes_are_decoded_like_javascript() {
        let src = r#"test('it\'s \u00e9 \x41 \u{1F600} \uD83D\uDE00 "q" \\', () => {}); test("line\
continued", () => {});"#;
        assert_eq!(titles(src), ["it's é A 😀 😀 \"q\" \\", "linecontinued"]);
    }

    #[test]
    fn typescript_sources() {
        let src = r#"
            import { describe, it, expect } from 'vitest';
            interface Foo { a: number }
            describe('ts', () => {
              it('typed', async (): Promise<void> => { const x: Foo = { a: 1 }; expect(x.a as number).toBe(1); });
            });
        "#;
        assert_eq!(titles(src), ["ts > typed"]);
    }

    #[test]
    fn deep_template_nesting_and_many_unclosed_calls_stay_cheap() {
        // 100,000 nested substitutions: no stack overflow (past MAX_TEMPLATE_DEPTH they are text)
        let src = format!("test('a', () => {{}});\nconst x = {};", "`${".repeat(100_000));
        assert_eq!(titles(&src), ["a"]);
        // 40,000 unclosed `.each(` calls, 100,000 unterminated `\u{` escapes: linear (each used
        // to scan to the end)
        let start = std::time::Instant::now();
        let src = format!("test('a', () => {{}});\n{}", "it.each(".repeat(40_000));
        assert_eq!(titles(&src), ["a"]);
        let src = format!("test('a', () => {{}});\ntest('{}", "\\u{".repeat(100_000));
        assert_eq!(titles(&src), ["a"]);
        assert!(start.elapsed() < std::time::Duration::from_secs(2), "{:?}", start.elapsed());
    }

    #[test]
    fn unbalanced_or_truncated_input_never_fails() {
        for src in ["describe('a', () => { test('b'", ")))}}}]] test('c', () => {})", "test('unterminated", "`${", "/* x", "describe(", "'\\"] {
            let _ = discover_tests(src);
        }
        assert_eq!(titles(")))}}}]] test('c', () => {})"), ["c"]);
        assert_eq!(titles("describe('a', () => { test('b', () => {"), ["a > b"]);
    }

    proptest::proptest! {
        /// Any text, and especially text made of the characters the lexer treats specially,
        /// gives a list (no panic, no endless loop).
        #[test]
        fn never_fails(src in "[ a-z()\\[\\]{}'\"`$/*\\\\.,?+\n\u{e9}\u{1F600}]{0,200}", any in ".{0,100}") {
            let _ = discover_tests(&src);
            let _ = discover_tests(&any);
        }
    }
}
