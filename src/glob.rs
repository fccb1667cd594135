//! File patterns (`shardwise run --files "<glob>"`): which paths a glob matches. Pure: the CLI
//! walks the folders and asks here (Node 20 has no `fs.glob`, and the package has no
//! dependencies).
//!
//! The syntax: `*` any characters but `/`; `?` one character but `/`; `**` as a whole segment,
//! any number of folders (none too); `[abc]`, `[a-z]`, `[!a]` (or `[^a]`) one character of a set;
//! `{a,b}` either text (nested too); `\` makes the next character literal. Paths and patterns are
//! POSIX (`/`), relative to the working directory (a leading `./` is dropped). A `*`, `?` or set
//! does not match a leading `.` of a name (hidden files and folders), as in shells.

use crate::error::{Error, Result};

/// A compiled pattern: its brace alternatives, each as segments.
#[derive(Debug, Clone)]
pub struct Glob {
    alternatives: Vec<Vec<Seg>>,
    /// Whether the pattern names `node_modules`: else no path through one matches (installed
    /// packages are not the project's test files).
    into_node_modules: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Seg {
    /// `**`
    Any,
    Name(Vec<Tok>),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Lit(char),
    Star,
    One,
    Set { negated: bool, ranges: Vec<(char, char)> },
}

/// More brace alternatives than this in one pattern are refused (`{a,b}{c,d}...` multiplies).
const MAX_ALTERNATIVES: usize = 1024;

impl Glob {
    pub fn new(pattern: &str) -> Result<Glob> {
        let bad = |why: &str| Error::invalid_input(format!("the file pattern {pattern:?} {why}"));
        let mut p = pattern.trim();
        while let Some(r) = p.strip_prefix("./") {
            p = r;
        }
        if p.is_empty() {
            return Err(bad("is empty"));
        }
        if p.starts_with('/') {
            return Err(bad("is absolute: give it relative to the working directory"));
        }
        let expanded = expand_braces(p).ok_or_else(|| bad("has a { without its } (or a } without its {)"))?;
        if expanded.len() > MAX_ALTERNATIVES {
            return Err(bad(&format!("expands to more than {MAX_ALTERNATIVES} alternatives")));
        }
        let mut alternatives = Vec::new();
        for alt in expanded {
            let mut segs = Vec::new();
            for s in alt.split('/').filter(|s| !s.is_empty() && *s != ".") {
                if s == "**" {
                    if segs.last() != Some(&Seg::Any) {
                        segs.push(Seg::Any);
                    }
                    continue;
                }
                segs.push(Seg::Name(tokens(s).ok_or_else(|| bad("has a [ without its ]"))?));
            }
            alternatives.push(segs);
        }
        Ok(Glob { alternatives, into_node_modules: p.contains("node_modules") })
    }

    /// True when `path` (POSIX, relative) matches.
    pub fn matches(&self, path: &str) -> bool {
        let mut p = path;
        while let Some(r) = p.strip_prefix("./") {
            p = r;
        }
        let names: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        if !self.into_node_modules && names.contains(&"node_modules") {
            return false;
        }
        self.alternatives.iter().any(|segs| match_segs(segs, &names))
    }

    /// True when something below folder `dir` (POSIX, relative; "" the working directory) may
    /// match: the walk enters only such folders.
    pub fn may_enter(&self, dir: &str) -> bool {
        let names: Vec<&str> = dir.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
        if !self.into_node_modules && names.contains(&"node_modules") {
            return false;
        }
        self.alternatives.iter().any(|segs| prefix_ok(segs, &names))
    }
}

fn prefix_ok(segs: &[Seg], names: &[&str]) -> bool {
    match (segs.first(), names.first()) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(Seg::Any), Some(n)) => prefix_ok(&segs[1..], names) || (!n.starts_with('.') && prefix_ok(segs, &names[1..])),
        (Some(Seg::Name(t)), Some(n)) => match_name(t, n) && prefix_ok(&segs[1..], &names[1..]),
    }
}

fn match_segs(segs: &[Seg], names: &[&str]) -> bool {
    match segs.first() {
        None => names.is_empty(),
        Some(Seg::Any) => {
            // none, or one more folder (not a hidden one)
            match_segs(&segs[1..], names) || names.first().is_some_and(|n| !n.starts_with('.') && match_segs(segs, &names[1..]))
        }
        Some(Seg::Name(t)) => names.first().is_some_and(|n| match_name(t, n)) && match_segs(&segs[1..], &names[1..]),
    }
}

fn match_name(toks: &[Tok], name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    // a leading dot is matched only by a literal dot
    if chars.first() == Some(&'.') && toks.first() != Some(&Tok::Lit('.')) {
        return false;
    }
    // iterative wildcard matching with backtracking to the last star
    let (mut t, mut c) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while c < chars.len() {
        let ok = match toks.get(t) {
            Some(Tok::Lit(l)) => *l == chars[c],
            Some(Tok::One) => true,
            Some(Tok::Set { negated, ranges }) => ranges.iter().any(|&(a, b)| a <= chars[c] && chars[c] <= b) != *negated,
            Some(Tok::Star) => {
                star = Some((t, c));
                t += 1;
                continue;
            }
            None => false,
        };
        if ok {
            t += 1;
            c += 1;
        } else if let Some((st, sc)) = star {
            t = st + 1;
            c = sc + 1;
            star = Some((st, sc + 1));
        } else {
            return false;
        }
    }
    toks[t..].iter().all(|x| *x == Tok::Star)
}

fn tokens(s: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        out.push(match c {
            '\\' => Tok::Lit(it.next().unwrap_or('\\')),
            '*' => {
                if out.last() == Some(&Tok::Star) {
                    continue;
                }
                Tok::Star
            }
            '?' => Tok::One,
            '[' => {
                let negated = matches!(it.peek(), Some('!' | '^'));
                if negated {
                    it.next();
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = it.next()?;
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    let c = if c == '\\' { it.next()? } else { c };
                    if it.peek() == Some(&'-') {
                        it.next();
                        match it.next()? {
                            ']' => {
                                ranges.push((c, c));
                                ranges.push(('-', '-'));
                                break;
                            }
                            e => ranges.push((c, e)),
                        }
                    } else {
                        ranges.push((c, c));
                    }
                }
                Tok::Set { negated, ranges }
            }
            c => Tok::Lit(c),
        });
    }
    Some(out)
}

/// `a{b,c}d` -> `abd`, `acd` (nested braces too); None for unbalanced braces.
fn expand_braces(p: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    let mut open = None;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '{' => {
                open = Some(i);
                break;
            }
            '}' => return None,
            _ => {}
        }
        i += 1;
    }
    let Some(start) = open else { return Some(vec![p.to_string()]) };
    // the matching close, and the top-level commas inside
    let (mut depth, mut j, mut commas) = (0usize, start, Vec::new());
    let end = loop {
        j += 1;
        let c = *chars.get(j)?;
        match c {
            '\\' => j += 1,
            '{' => depth += 1,
            '}' if depth == 0 => break j,
            '}' => depth -= 1,
            ',' if depth == 0 => commas.push(j),
            _ => {}
        }
    };
    let head: String = chars[..start].iter().collect();
    let tail: String = chars[end + 1..].iter().collect();
    let mut bounds = vec![start];
    bounds.extend(&commas);
    bounds.push(end);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let part: String = chars[w[0] + 1..w[1]].iter().collect();
        for expanded in expand_braces(&format!("{head}{part}{tail}"))? {
            out.push(expanded);
            if out.len() > MAX_ALTERNATIVES {
                return Some(out);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, path: &str) -> bool {
        Glob::new(p).unwrap().matches(path)
    }

    #[test]
    fn stars_questions_and_sets() {
        assert!(m("test/*.test.js", "test/a.test.js"));
        assert!(!m("test/*.test.js", "test/sub/a.test.js"));
        assert!(m("test/**/*.test.js", "test/a.test.js"));
        assert!(m("test/**/*.test.js", "test/sub/deep/a.test.js"));
        assert!(m("**/*.spec.mjs", "a/b/c.spec.mjs"));
        assert!(m("./test/?.js", "test/a.js"));
        assert!(!m("test/?.js", "test/ab.js"));
        assert!(m("t/[ab].js", "t/b.js"));
        assert!(!m("t/[!ab].js", "t/b.js"));
        assert!(m("t/[a-c]x.js", "t/bx.js"));
        assert!(m("t/*.{js,mjs}", "t/x.mjs"));
        assert!(m("{a,b/{c,d}}/*.js", "b/d/x.js"));
        assert!(!m("{a,b/{c,d}}/*.js", "b/e/x.js"));
        assert!(m("a\\*b", "a*b"));
        assert!(!m("a\\*b", "axb"));
        assert!(m("**", "x/y"));
        assert!(m("*a*b*c", "xxaxxbxxc"));
        assert!(!m("*a*b*c", "xxaxxbxx"));
    }

    #[test]
    fn hidden_names_need_a_literal_dot() {
        assert!(!m("**/*.js", ".git/x.js"));
        assert!(!m("**/*.js", "node_modules/a/x.js"));
        assert!(!Glob::new("**/*.js").unwrap().may_enter("node_modules"));
        assert!(m("node_modules/a/*.js", "node_modules/a/x.js"));
        assert!(!m("*", ".env"));
        assert!(m(".config/*.js", ".config/a.js"));
    }

    #[test]
    fn folders_the_walk_enters() {
        let g = Glob::new("test/**/*.js").unwrap();
        assert!(g.may_enter(""));
        assert!(g.may_enter("test"));
        assert!(g.may_enter("test/a/b"));
        assert!(!g.may_enter("src"));
        assert!(!g.may_enter("test/.hidden"));
        let g = Glob::new("{a,b}/x/*.js").unwrap();
        assert!(g.may_enter("b/x"));
        assert!(!g.may_enter("b/y"));
    }

    #[test]
    fn bad_patterns_say_what_is_wrong() {
        assert!(Glob::new("a{b").unwrap_err().message.contains("{ without its }"));
        assert!(Glob::new("a[b").unwrap_err().message.contains("[ without its ]"));
        assert!(Glob::new("/abs/*.js").unwrap_err().message.contains("absolute"));
        assert!(Glob::new("").unwrap_err().message.contains("empty"));
        assert!(Glob::new(&"{a,b}".repeat(12)).unwrap_err().message.contains("alternatives"));
    }
}
