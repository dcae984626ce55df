//! The YAML of a SKILL.md frontmatter, read as YAML 1.2's core schema (SPEC section 9,
//! "Parsing"): what npm `yaml` 2, Bun.YAML and serde_yaml read alike on real files.
//!
//! One pass over the text's UTF-16 code units, by recursive descent with a bounded depth:
//! block mappings and sequences (by indentation), flow collections (across lines), plain,
//! single- and double-quoted scalars (with YAML's line folding) and block scalars (`|`, `>`,
//! chomping and indentation indicators), comments and the `...` document end. Plain scalars
//! resolve as the core schema does (null, booleans, integers, floats, else a string).
//! What it cannot read is an error, never a guess: anchors, aliases, tags, directives, a
//! second document, complex keys, a tab in indentation, duplicate keys, and the unquoted
//! `: ` that every YAML parser refuses.
//!
//! Only CRLF and LF break lines (a lone CR is text, as npm `yaml` reads it).
//!
//! Where it reads otherwise than npm `yaml` 2.9 (none of these is in the measured corpora;
//! tests/skills_corpus.rs): anchors, aliases, tags, `? ` keys and collections as keys are
//! errors; a plain key is its text (`0x1F:` is the key "0x1F", `~:` the key "~", where npm
//! yaml writes "31" and ""); blank lines after an escaped line break in double quotes are
//! line feeds, as the YAML spec and libyaml (serde_yaml, PyYAML) read them; a multi-line
//! value after a comment line is read (npm yaml refuses it), and a double-quoted value
//! whose closing quote is escaped is unclosed (npm yaml reads some).

use alloc::vec::Vec;
use core::sync::atomic::Ordering::Relaxed;

use super::{Fault, Problem};

/// A YAML value as JSON sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    /// The code units the YAML means: the input's own, or decoded escapes.
    String(Vec<u16>),
    Array(Vec<Value>),
    /// A mapping, its keys in the text's order (a key is its scalar's text: a plain key as
    /// written, a quoted key decoded).
    Object(Vec<(Vec<u16>, Value)>),
}

/// What [`read`] found: the value and, for a block mapping at the top, where each key begins.
pub(super) struct Doc {
    pub value: Value,
    pub keys: Vec<usize>,
}

/// Collections nested deeper than this are refused (a frontmatter nests a few levels; the
/// bound keeps the recursion within any stack).
const MAX_DEPTH: u32 = 64;

const TAB: u16 = 0x09;
const NL: u16 = 0x0A;
const CR: u16 = 0x0D;
const SP: u16 = 0x20;
const DQ: u16 = b'"' as u16;
const SQ: u16 = b'\'' as u16;
const HASH: u16 = b'#' as u16;
const DASH: u16 = b'-' as u16;
const DOT: u16 = b'.' as u16;
const COLON: u16 = b':' as u16;
const COMMA: u16 = b',' as u16;
const LBRACKET: u16 = b'[' as u16;
const RBRACKET: u16 = b']' as u16;
const LBRACE: u16 = b'{' as u16;
const RBRACE: u16 = b'}' as u16;
const BACKSLASH: u16 = b'\\' as u16;

fn is_ws(c: u16) -> bool {
    c == SP || c == TAB
}

fn is_flow(c: u16) -> bool {
    matches!(c, COMMA | LBRACKET | RBRACKET | LBRACE | RBRACE)
}

fn fault(pos: usize, problem: Problem) -> Fault {
    Fault {
        pos,
        problem,
        field: None,
    }
}

type R<T> = Result<T, Fault>;

/// Reads `s[start..end]` (whole lines) as one YAML document.
pub(super) fn read(s: &[u16], start: usize, end: usize) -> R<Doc> {
    let s = s.get(..end).unwrap_or(s);
    let mut r = Reader {
        s,
        start,
        pos: start,
        depth: 0,
        flows: 0,
        keys: Vec::new(),
    };
    let value = match r.content(start) {
        None => Value::Null,
        Some(l) if l.marker => {
            r.pos = l.start;
            Value::Null
        }
        Some(l) => {
            if r.ch(l.at) == b'%' as u16 {
                return Err(fault(l.at, Problem::Directive));
            }
            if l.tab && l.indent == 0 {
                return Err(fault(l.start, Problem::Tab));
            }
            r.pos = l.at;
            r.node(l.indent, -1, true, l.tab)?
        }
    };
    match r.content(r.pos) {
        None => {}
        // `...` ends the document; anything after it would be another one.
        Some(l) if l.marker && r.ch(l.at) == DOT && r.rest_blank(l.at + 3) => {
            if let Some(more) = r.content(r.next_line(l.at)) {
                return Err(fault(more.at, Problem::SecondDocument));
            }
        }
        Some(l) if l.marker => return Err(fault(l.at, Problem::SecondDocument)),
        Some(l) => return Err(fault(l.at, r.indent_problem(&l, Problem::Unexpected))),
    }
    Ok(Doc {
        value,
        keys: r.keys,
    })
}

/// A line with content (not blank, not only a comment).
struct Line {
    /// Where the line begins.
    start: usize,
    /// Its leading spaces.
    indent: usize,
    /// Its first unit that is not white space.
    at: usize,
    /// Whether a tab comes between the spaces and the content.
    tab: bool,
    /// Whether it is a document marker (`---` or `...` at column 0).
    marker: bool,
}

/// Where a plain scalar's line stops.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    Break,
    Comment,
    /// At a `:` that ends a key (followed by white space, a line end, or in flow a flow indicator).
    Colon,
    /// At a flow indicator (in flow context).
    Flow,
}

/// A plain scalar before resolution: a span of the input, or folded lines.
enum Plain {
    Span(usize, usize),
    Owned(Vec<u16>),
}

/// A flow collection's node before it is known to be a key or a value.
enum Node {
    Plain(Plain),
    Value(Value),
}

/// A block scalar's value as its lines come.
struct Block {
    literal: bool,
    out: Vec<u16>,
    /// Whether a line (empty or not) has come.
    started: bool,
    /// Whether a line with text has come.
    text: bool,
    /// Folding: the separator before the next line of text: 0 none, 1 a space, 2 a line
    /// feed, 3 two.
    sep: u8,
    prev_more: bool,
}

impl Block {
    /// One line: its text after the indentation, or None when empty.
    fn line(&mut self, text: Option<&[u16]>) {
        if self.literal {
            if self.started {
                self.out.push(NL);
            }
            self.out.extend_from_slice(text.unwrap_or(&[]));
        } else {
            match text {
                None if !self.text => self.out.push(NL),
                None if self.sep == 2 => self.out.push(NL),
                None => self.sep = 2,
                Some(t) => {
                    // A more-indented line keeps its line breaks.
                    let more = matches!(t.first(), Some(&SP) | Some(&TAB));
                    if more {
                        if self.sep == 1 {
                            self.sep = 2;
                        } else if !self.prev_more && self.sep == 2 {
                            self.sep = 3;
                        }
                    }
                    match self.sep {
                        1 => self.out.push(SP),
                        2 => self.out.push(NL),
                        3 => self.out.extend_from_slice(&[NL, NL]),
                        _ => {}
                    }
                    self.out.extend_from_slice(t);
                    self.sep = if more { 2 } else { 1 };
                    self.prev_more = more;
                }
            }
        }
        self.started = true;
        self.text |= text.is_some();
    }
}

struct Reader<'a> {
    /// The text up to the frontmatter's end (the reader's end is `s.len()`).
    s: &'a [u16],
    start: usize,
    pos: usize,
    depth: u32,
    /// How many flow collections are open.
    flows: u32,
    keys: Vec<usize>,
}

impl Reader<'_> {
    // ------------------------------------------------------------ units and lines

    /// The unit at `i`; past the end, a line feed (so every scan stops there).
    fn ch(&self, i: usize) -> u16 {
        self.s.get(i).copied().unwrap_or(NL)
    }

    /// The units from `a` to `b`. Like `ch`, read without a bounds check's panic: every span
    /// the reader takes lies in the text (the corpora's tests), and a panic's location would
    /// weigh 16 bytes of data and a call at each place (measured: see the commit).
    fn span(&self, a: usize, b: usize) -> &[u16] {
        self.s.get(a..b).unwrap_or(&[])
    }

    /// Whether a line break (LF, CRLF) or the end is at `i`.
    #[inline(never)]
    fn brk(&self, i: usize) -> bool {
        i >= self.s.len() || self.s[i] == NL || (self.s[i] == CR && self.ch(i + 1) == NL)
    }

    /// Whether white space, a line break or the end is at `i`.
    #[inline(never)]
    fn sep(&self, i: usize) -> bool {
        is_ws(self.ch(i)) || self.brk(i)
    }

    /// The start of the line after the one holding `i`.
    #[inline(never)]
    fn next_line(&self, mut i: usize) -> usize {
        while i < self.s.len() && self.s[i] != NL {
            i += 1;
        }
        (i + 1).min(self.s.len())
    }

    /// Where the line break after `i` is.
    #[inline(never)]
    fn line_end(&self, mut i: usize) -> usize {
        while !self.brk(i) {
            i += 1;
        }
        i
    }

    #[inline(never)]
    fn white(&self, mut i: usize) -> usize {
        while i < self.s.len() && is_ws(self.s[i]) {
            i += 1;
        }
        i
    }

    #[inline(never)]
    fn spaces(&self, mut i: usize) -> usize {
        while i < self.s.len() && self.s[i] == SP {
            i += 1;
        }
        i
    }

    /// Whether a `#` at `i` begins a comment (white space or a line start before it).
    #[inline(never)]
    fn comment(&self, i: usize) -> bool {
        self.ch(i) == HASH && (i == self.start || matches!(self.ch(i - 1), SP | TAB | NL))
    }

    /// Whether only white space and perhaps a comment follow `i` on its line.
    #[inline(never)]
    fn rest_blank(&self, i: usize) -> bool {
        let j = self.white(i);
        self.brk(j) || self.comment(j)
    }

    /// Whether a document marker (`---` or `...` then white space or the line's end) is at `i`.
    #[inline(never)]
    fn marker(&self, i: usize) -> bool {
        let c = self.ch(i);
        (c == DASH || c == DOT) && self.ch(i + 1) == c && self.ch(i + 2) == c && self.sep(i + 3)
    }

    /// The next line with content, from the line start `i`, blank and comment lines skipped.
    fn content(&self, mut i: usize) -> Option<Line> {
        while i < self.s.len() {
            let sp = self.spaces(i);
            let at = self.white(sp);
            if !self.brk(at) && self.ch(at) != HASH {
                return Some(Line {
                    start: i,
                    indent: sp - i,
                    at,
                    tab: at != sp,
                    marker: sp == i && self.marker(i),
                });
            }
            i = self.next_line(at);
        }
        None
    }

    /// What is wrong with a line indented where it cannot be: a tab, or `otherwise`.
    /// After a block collection's entry (indented `indent`): the next content line is its
    /// next entry when `entry` says so (true, `self.pos` at the line's content; a tab in its
    /// indentation is an error), an error when indented further, and otherwise ends the
    /// collection (false, `self.pos` at that line's start, or the end).
    fn next_entry(
        &mut self,
        indent: usize,
        entry: impl Fn(&Self, &Line) -> bool,
    ) -> Result<bool, Fault> {
        match self.content(self.pos) {
            Some(l) if entry(self, &l) => {
                if l.tab {
                    return Err(fault(l.at, Problem::Tab));
                }
                self.pos = l.at;
                Ok(true)
            }
            Some(l) if l.indent > indent => {
                Err(fault(l.at, self.indent_problem(&l, Problem::Indented)))
            }
            Some(l) => {
                self.pos = l.start;
                Ok(false)
            }
            None => {
                self.pos = self.s.len();
                Ok(false)
            }
        }
    }

    fn indent_problem(&self, l: &Line, otherwise: Problem) -> Problem {
        if l.tab || self.ch(l.start + l.indent) == TAB {
            Problem::Tab
        } else {
            otherwise
        }
    }

    fn deeper(&mut self, at: usize) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(fault(at, Problem::Deep));
        }
        Ok(())
    }

    // ------------------------------------------------------------ block structure

    /// The node that begins at `self.pos`, at column `col`, inside a block indented
    /// `parent` (-1 at the top). `compact`: it begins a line or follows `- `, so it may be a
    /// mapping or a sequence; after `key: ` it may not. `tab`: a tab precedes it on its line.
    fn node(&mut self, col: usize, parent: isize, compact: bool, tab: bool) -> R<Value> {
        let p = self.pos;
        let c = self.ch(p);
        if c == DASH && self.sep(p + 1) {
            if !compact {
                return Err(fault(p, Problem::SequenceOnKeyLine));
            }
            if tab {
                return Err(fault(p, Problem::Tab));
            }
            return self.seq(col);
        }
        if c == b'?' as u16 && self.sep(p + 1) {
            return Err(fault(p, Problem::ComplexKey));
        }
        if compact && self.key()?.is_some() {
            if tab {
                return Err(fault(p, Problem::Tab));
            }
            self.pos = p;
            return self.map(col);
        }
        self.pos = p;
        self.scalar(parent)
    }

    /// A block mapping whose keys are at column `m`; `self.pos` is at its first key.
    fn map(&mut self, m: usize) -> R<Value> {
        self.deeper(self.pos)?;
        let top = self.depth == 1;
        let mut entries = Entries::default();
        loop {
            let at = self.pos;
            let Some(key) = self.key()? else {
                let problem = match self.indicator(at, false) {
                    Some(
                        p @ (Problem::Anchor
                        | Problem::Alias
                        | Problem::Tag
                        | Problem::NoKey
                        | Problem::ComplexKey),
                    ) => p,
                    _ => Problem::NotAKey,
                };
                return Err(fault(at, problem));
            };
            if entries.has(&key) {
                return Err(Fault {
                    pos: at,
                    problem: Problem::DuplicateKey,
                    field: Some(key),
                });
            }
            if top {
                self.keys.push(at);
            }
            let value = match self.value(m) {
                Ok(v) => v,
                Err(mut f) => {
                    if top && f.field.is_none() {
                        f.field = Some(key);
                    }
                    return Err(f);
                }
            };
            entries.push(key, value);
            if !self.next_entry(m, |_, l| l.indent == m && !l.marker)? {
                break;
            }
        }
        self.depth -= 1;
        Ok(Value::Object(entries.list))
    }

    /// A key and its `:` at `self.pos`: then `self.pos` is after the colon. Otherwise None,
    /// `self.pos` unchanged.
    fn key(&mut self) -> R<Option<Vec<u16>>> {
        let p = self.pos;
        let c = self.ch(p);
        let (key, after) = if c == DQ || c == SQ {
            let key = self.quoted(-1)?;
            let e = self.pos;
            self.pos = p;
            if self.span(p, e).contains(&NL) {
                return Ok(None);
            }
            (key, e)
        } else if self.indicator(p, false).is_none() {
            let (e, stop, at) = self.plain_line(p, false);
            if stop != Stop::Colon {
                return Ok(None);
            }
            (self.span(p, e).to_vec(), at)
        } else {
            return Ok(None);
        };
        let j = self.white(after);
        if self.ch(j) == COLON && self.sep(j + 1) {
            self.pos = j + 1;
            Ok(Some(key))
        } else {
            Ok(None)
        }
    }

    /// The value after `key:` in a mapping at column `m`.
    fn value(&mut self, m: usize) -> R<Value> {
        let p = self.pos;
        if self.rest_blank(p) {
            let next = self.next_line(p);
            self.pos = next;
            return match self.content(next) {
                Some(l)
                    if !l.marker
                        && (l.indent > m
                            || (l.indent == m && self.ch(l.at) == DASH && self.sep(l.at + 1))) =>
                {
                    self.pos = l.at;
                    self.node(l.indent, m as isize, true, l.tab)
                }
                _ => Ok(Value::Null),
            };
        }
        self.pos = self.white(p);
        self.node(0, m as isize, false, false)
    }

    /// A block sequence whose `-` are at column `s`; `self.pos` is at the first.
    fn seq(&mut self, s: usize) -> R<Value> {
        self.deeper(self.pos)?;
        let mut items = Vec::new();
        loop {
            let dash = self.pos;
            let p = dash + 1;
            let item = if self.rest_blank(p) {
                let next = self.next_line(p);
                self.pos = next;
                match self.content(next) {
                    Some(l) if !l.marker && l.indent > s => {
                        self.pos = l.at;
                        self.node(l.indent, s as isize, true, l.tab)?
                    }
                    _ => Value::Null,
                }
            } else {
                let j = self.white(p);
                self.pos = j;
                let tab = self.span(p, j).contains(&TAB);
                self.node(s + (j - dash), s as isize, true, tab)?
            };
            items.push(item);
            let entry = |y: &Self, l: &Line| {
                l.indent == s && !l.marker && y.ch(l.at) == DASH && y.sep(l.at + 1)
            };
            if !self.next_entry(s, entry)? {
                break;
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    /// A scalar or flow collection in a block, at `self.pos`; then `self.pos` is at the
    /// start of the next line.
    fn scalar(&mut self, parent: isize) -> R<Value> {
        let p = self.pos;
        let (value, after) = match self.ch(p) {
            0x7C | 0x3E => return self.block_scalar(parent),
            LBRACKET | LBRACE => (self.flow(parent)?, Problem::TextAfterFlow),
            DQ | SQ => (Value::String(self.quoted(parent)?), Problem::TextAfterQuote),
            _ => {
                if let Some(problem) = self.indicator(p, false) {
                    return Err(fault(p, problem));
                }
                let plain = self.plain(parent, false)?;
                self.pos = self.next_line(self.pos);
                return Ok(resolve_plain(self.s, plain));
            }
        };
        if !self.rest_blank(self.pos) {
            return Err(fault(self.white(self.pos), after));
        }
        self.pos = self.next_line(self.pos);
        Ok(value)
    }

    // ------------------------------------------------------------ plain scalars

    /// Why a plain scalar cannot begin at `p`, if it cannot.
    fn indicator(&self, p: usize, flow: bool) -> Option<Problem> {
        let c = self.ch(p);
        match c {
            0x2D | 0x3F | COLON => {
                // `-`, `?`, `:` begin a plain scalar when a "safe" character follows.
                let n = self.ch(p + 1);
                if self.sep(p + 1) || (flow && is_flow(n)) {
                    Some(match c {
                        DASH => Problem::SequenceOnKeyLine,
                        COLON => Problem::NoKey,
                        _ => Problem::ComplexKey,
                    })
                } else {
                    None
                }
            }
            0x26 => Some(Problem::Anchor),
            0x2A => Some(Problem::Alias),
            0x21 => Some(Problem::Tag),
            0x25 => Some(Problem::Directive),
            COMMA | LBRACKET | RBRACKET | LBRACE | RBRACE | HASH | 0x7C | 0x3E | DQ | SQ | 0x40
            | 0x60 => Some(Problem::Indicator),
            _ if self.brk(p) => Some(Problem::Indicator),
            _ => None,
        }
    }

    /// One line of a plain scalar from `j`: where its text ends (trailing white space
    /// left out), why it stops, and where.
    fn plain_line(&self, j: usize, flow: bool) -> (usize, Stop, usize) {
        let mut i = j;
        let mut e = j;
        loop {
            if self.brk(i) {
                return (e, Stop::Break, i);
            }
            let c = self.ch(i);
            if c == COLON {
                if self.sep(i + 1) || (flow && is_flow(self.ch(i + 1))) {
                    return (e, Stop::Colon, i);
                }
            } else if c == HASH && i > j && is_ws(self.s[i - 1]) {
                return (e, Stop::Comment, i);
            } else if flow && is_flow(c) {
                return (e, Stop::Flow, i);
            }
            i += 1;
            if !is_ws(c) {
                e = i;
            }
        }
    }

    /// A plain scalar at `self.pos`, its continuation lines (indented more than `parent`)
    /// folded in. Then `self.pos` is where it stops: in a block, its last line's break or
    /// comment; in flow, the end of its text.
    fn plain(&mut self, parent: isize, flow: bool) -> R<Plain> {
        let p = self.pos;
        let (mut e, mut stop, mut at) = self.plain_line(p, flow);
        let mut owned: Option<Vec<u16>> = None;
        while stop == Stop::Break {
            let mut i = self.next_line(at);
            let mut blanks = 0;
            let j = loop {
                if i >= self.s.len() {
                    break None;
                }
                let sp = self.spaces(i);
                let j = self.white(sp);
                if self.brk(j) {
                    // A blank line with a tab where the indentation should be ends it.
                    if j != sp && (sp - i) as isize <= parent {
                        break None;
                    }
                    blanks += 1;
                    i = self.next_line(j);
                    continue;
                }
                let deep_enough = (sp - i) as isize > parent;
                let fits = deep_enough && self.ch(j) != HASH && !(sp == i && self.marker(i));
                break fits.then_some(j);
            };
            let Some(j) = j else { break };
            let (e2, stop2, at2) = self.plain_line(j, flow);
            if e2 == j {
                break;
            }
            let out = owned.get_or_insert_with(|| self.span(p, e).to_vec());
            if blanks == 0 {
                out.push(SP);
            } else {
                out.resize(out.len() + blanks, NL);
            }
            out.extend_from_slice(self.span(j, e2));
            (e, stop, at) = (e2, stop2, at2);
        }
        if stop == Stop::Colon && !flow {
            return Err(fault(at, Problem::ColonInPlain));
        }
        self.pos = if flow { e } else { at };
        Ok(match owned {
            Some(v) => Plain::Owned(v),
            None => Plain::Span(p, e),
        })
    }

    // ------------------------------------------------------------ quoted scalars

    /// A single- or double-quoted scalar at `self.pos` (the quote); then `self.pos` is
    /// after its closing quote. Continuation lines are indented more than `parent`.
    fn quoted(&mut self, parent: isize) -> R<Vec<u16>> {
        let open = self.pos;
        let q = self.ch(open);
        let double = q == DQ;
        let mut out = Vec::new();
        // How much of `out` a line break keeps: up to its last unit that is not literal
        // white space (escapes count as text).
        let mut keep = 0;
        let mut i = open + 1;
        loop {
            if i >= self.s.len() {
                return Err(fault(open, Problem::UnclosedQuote));
            }
            let c = self.s[i];
            if c == q {
                if !double && self.ch(i + 1) == SQ {
                    out.push(SQ);
                    i += 2;
                    keep = out.len();
                    continue;
                }
                self.pos = i + 1;
                return Ok(out);
            }
            if self.brk(i) {
                out.truncate(keep);
                i = self.fold(self.next_line(i), parent, open, &mut out, false)?;
                keep = out.len();
                continue;
            }
            if double && c == BACKSLASH {
                i = if self.brk(i + 1) {
                    self.fold(self.next_line(i + 1), parent, open, &mut out, true)?
                } else {
                    self.escape(i, &mut out)?
                };
                keep = out.len();
                continue;
            }
            out.push(c);
            i += 1;
            if !is_ws(c) {
                keep = out.len();
            }
        }
    }

    /// A quoted scalar's line folding from the line start `i`: blank lines give a line feed
    /// each; none gives a space (nothing after an escaped line break). Returns the next
    /// line's first unit after its white space.
    fn fold(
        &self,
        mut i: usize,
        parent: isize,
        open: usize,
        out: &mut Vec<u16>,
        escaped: bool,
    ) -> R<usize> {
        let mut blanks = 0;
        loop {
            if i >= self.s.len() {
                return Err(fault(open, Problem::UnclosedQuote));
            }
            let sp = self.spaces(i);
            let j = self.white(sp);
            if self.brk(j) {
                if j != sp && (sp - i) as isize <= parent {
                    return Err(fault(sp, Problem::Tab));
                }
                blanks += 1;
                i = self.next_line(j);
                continue;
            }
            if (sp - i) as isize <= parent || (sp == i && self.marker(i)) {
                return Err(fault(j, Problem::QuoteIndent));
            }
            if blanks == 0 && !escaped {
                out.push(SP);
            } else {
                out.resize(out.len() + blanks, NL);
            }
            return Ok(j);
        }
    }

    /// The escape at `i` (a backslash) in a double-quoted scalar, decoded into `out`;
    /// returns the position after it.
    fn escape(&self, i: usize, out: &mut Vec<u16>) -> R<usize> {
        let unit = match self.ch(i + 1) {
            0x30 => 0,
            0x61 => 7,
            0x62 => 8,
            0x74 | TAB => 9,
            0x6E => 10,
            0x76 => 11,
            0x66 => 12,
            0x72 => 13,
            0x65 => 0x1B,
            c @ (SP | DQ | 0x2F | BACKSLASH) => c,
            0x4E => 0x85,
            0x5F => 0xA0,
            0x4C => 0x2028,
            0x50 => 0x2029,
            c @ (0x78 | 0x75 | 0x55) => {
                let n = match c {
                    0x78 => 2,
                    0x75 => 4,
                    _ => 8,
                };
                let mut cp: u32 = 0;
                for k in 0..n {
                    let d = match self.ch(i + 2 + k) {
                        d @ 0x30..=0x39 => d - 0x30,
                        d @ 0x41..=0x46 => d - 0x41 + 10,
                        d @ 0x61..=0x66 => d - 0x61 + 10,
                        _ => return Err(fault(i, Problem::Escape)),
                    };
                    cp = cp << 4 | u32::from(d);
                }
                if cp > 0x10FFFF {
                    return Err(fault(i, Problem::Escape));
                }
                if cp >= 0x10000 {
                    let v = cp - 0x10000;
                    out.push(0xD800 | (v >> 10) as u16);
                    out.push(0xDC00 | (v & 0x3FF) as u16);
                } else {
                    // \uD800 alone is a lone surrogate, as JavaScript's String.fromCodePoint makes it.
                    out.push(cp as u16);
                }
                return Ok(i + 2 + n);
            }
            _ => return Err(fault(i, Problem::Escape)),
        };
        out.push(unit);
        Ok(i + 2)
    }

    // ------------------------------------------------------------ block scalars

    /// A literal (`|`) or folded (`>`) block scalar at `self.pos`; then `self.pos` is at the
    /// start of the first line after it. Lines, folding and chomping as npm yaml 2 reads
    /// them (its lexer's `parseBlockScalar` and `resolveBlockScalar`).
    fn block_scalar(&mut self, parent: isize) -> R<Value> {
        let p = self.pos;
        let mut i = p + 1;
        // -1 strip, 0 clip, 1 keep
        let mut chomp = 0i8;
        let mut indicator = 0usize;
        for _ in 0..2 {
            match self.ch(i) {
                DASH if chomp == 0 => chomp = -1,
                0x2B if chomp == 0 => chomp = 1,
                c @ 0x31..=0x39 if indicator == 0 => indicator = usize::from(c - 0x30),
                _ => break,
            }
            i += 1;
        }
        if !self.rest_blank(i) {
            return Err(fault(i, Problem::BlockHeader));
        }
        i = self.next_line(i);
        // The first line with text, if it belongs to the scalar: its indentation is the
        // content's unless an indicator gives it; blank lines before it may not be
        // indented more.
        let mut first = None;
        let mut j = i;
        let mut blank = 0;
        while j < self.s.len() {
            let sp = self.spaces(j);
            if self.brk(sp) {
                blank = blank.max(sp - j);
                j = self.next_line(sp);
                continue;
            }
            let indent = sp - j;
            if indent as isize > parent {
                if indicator == 0 && blank > indent {
                    return Err(fault(j, Problem::BlockLeadingBlank));
                }
                first = Some(indent);
            }
            break;
        }
        let k = match (indicator, first) {
            (0, Some(f)) => f,
            (0, None) => usize::MAX,
            (d, _) => (parent + d as isize) as usize,
        };
        let mut b = Block {
            literal: self.s[p] == 0x7C,
            out: Vec::new(),
            started: false,
            text: false,
            sep: 0,
            prev_more: false,
        };
        // The blank lines since the last line of text: where they begin, how many.
        let mut run = i;
        let mut blanks = 0;
        while i < self.s.len() {
            let sp_end = self.spaces(i);
            let sp = sp_end - i;
            let w = self.white(sp_end);
            // A tab short of the indentation (npm yaml counts it in the scalar, and refuses it).
            if sp < k && self.ch(sp_end) == TAB {
                return Err(fault(sp_end, Problem::Tab));
            }
            if self.brk(w) && w == sp_end {
                blanks += 1;
                i = self.next_line(w);
                continue;
            }
            if sp < k || (sp == 0 && self.marker(i)) {
                break;
            }
            self.blank_lines(&mut b, run, blanks, k);
            let le = self.line_end(w);
            b.line(Some(self.span(i + k, le)));
            blanks = 0;
            i = self.next_line(le);
            run = i;
        }
        let out = if b.text {
            // Trailing blank lines up to the last one indented more than the first line of
            // text (with "+": than the content) are content; the rest are chomped.
            let t = if chomp > 0 { k } else { first.unwrap_or(k) };
            let mut inner = 0;
            let mut j = run;
            for n in 0..blanks {
                if self.spaces(j) - j > t {
                    inner = n + 1;
                }
                j = self.next_line(j);
            }
            self.blank_lines(&mut b, run, inner, k);
            let mut out = b.out;
            if chomp >= 0 {
                out.push(NL);
            }
            if chomp > 0 {
                out.resize(out.len() + blanks - inner, NL);
            }
            out
        } else if chomp > 0 {
            alloc::vec![NL; blanks]
        } else {
            Vec::new()
        };
        self.pos = i;
        Ok(Value::String(out))
    }

    /// `n` blank lines from the line start `from` into a block scalar: empty, or the spaces
    /// beyond its indentation `k`.
    fn blank_lines(&self, b: &mut Block, mut from: usize, n: usize, k: usize) {
        for _ in 0..n {
            let e = self.spaces(from);
            b.line((e - from > k).then(|| self.span(from + k, e)));
            from = self.next_line(e);
        }
    }

    // ------------------------------------------------------------ flow collections

    /// White space, line breaks and comments inside a flow collection. A line's content is
    /// indented more than the block around it (`parent`), its closing bracket excepted.
    fn flow_ws(&mut self, parent: isize) -> R<()> {
        let mut i = self.pos;
        while i < self.s.len() {
            let c = self.s[i];
            if is_ws(c) {
                i += 1;
            } else if self.brk(i) {
                i = self.next_line(i);
                let sp = self.spaces(i);
                let j = self.white(sp);
                let indent = (sp - i) as isize;
                // npm yaml lets the outermost closing bracket sit at the block's own
                // indentation (its lexer's parseFlowCollection).
                let end_marker =
                    matches!(self.ch(j), RBRACKET | RBRACE) && self.flows == 1 && indent == parent;
                if !self.brk(j)
                    && self.ch(j) != HASH
                    && !end_marker
                    && (indent <= parent || (sp == i && self.marker(i)))
                {
                    let problem = if j != sp || self.ch(i) == TAB {
                        Problem::Tab
                    } else {
                        Problem::FlowIndent
                    };
                    return Err(fault(j, problem));
                }
                i = j;
            } else if self.comment(i) {
                i = self.line_end(i);
            } else {
                break;
            }
        }
        self.pos = i;
        Ok(())
    }

    /// A flow sequence or mapping at `self.pos` (its bracket); then `self.pos` is after its
    /// closing bracket.
    fn flow(&mut self, parent: isize) -> R<Value> {
        let open = self.pos;
        self.deeper(open)?;
        self.flows += 1;
        let seq = self.ch(open) == LBRACKET;
        let close = if seq { RBRACKET } else { RBRACE };
        self.pos += 1;
        let mut items = Vec::new();
        let mut entries = Entries::default();
        loop {
            self.flow_ws(parent)?;
            if self.pos >= self.s.len() {
                return Err(fault(open, Problem::UnclosedFlow));
            }
            if self.s[self.pos] == close {
                self.pos += 1;
                break;
            }
            let at = self.pos;
            let (node, json) = self.flow_node(parent)?;
            self.flow_ws(parent)?;
            let p = self.pos;
            let pair = self.ch(p) == COLON
                && p < self.s.len()
                && (json || self.sep(p + 1) || is_flow(self.ch(p + 1)));
            if seq && pair && self.span(at, p).contains(&NL) {
                return Err(fault(at, Problem::PairKeyLines));
            }
            let value = if pair {
                self.pos += 1;
                self.flow_ws(parent)?;
                let c = self.ch(self.pos);
                if self.pos >= self.s.len() {
                    return Err(fault(open, Problem::UnclosedFlow));
                }
                if c == COMMA || c == close {
                    Value::Null
                } else {
                    let (v, _) = self.flow_node(parent)?;
                    self.resolve(v)
                }
            } else {
                Value::Null
            };
            if seq && !pair {
                items.push(self.resolve(node));
            } else {
                let key = self.node_key(node, at)?;
                if seq {
                    items.push(Value::Object(alloc::vec![(key, value)]));
                } else {
                    if entries.has(&key) {
                        return Err(Fault {
                            pos: at,
                            problem: Problem::DuplicateKey,
                            field: Some(key),
                        });
                    }
                    entries.push(key, value);
                }
            }
            self.flow_ws(parent)?;
            if self.pos >= self.s.len() {
                return Err(fault(open, Problem::UnclosedFlow));
            }
            let c = self.s[self.pos];
            self.pos += 1;
            if c == close {
                break;
            }
            if c != COMMA {
                return Err(fault(self.pos - 1, Problem::FlowExpected));
            }
        }
        self.depth -= 1;
        self.flows -= 1;
        Ok(if seq {
            Value::Array(items)
        } else {
            Value::Object(entries.list)
        })
    }

    /// A node inside a flow collection, and whether it is "JSON-like" (quoted or a
    /// collection: a `:` may follow it without a space).
    fn flow_node(&mut self, parent: isize) -> R<(Node, bool)> {
        let p = self.pos;
        Ok(match self.ch(p) {
            LBRACKET | LBRACE => (Node::Value(self.flow(parent)?), true),
            DQ | SQ => (Node::Value(Value::String(self.quoted(parent)?)), true),
            _ => {
                if let Some(problem) = self.indicator(p, true) {
                    return Err(fault(p, problem));
                }
                (Node::Plain(self.plain(parent, true)?), false)
            }
        })
    }

    fn resolve(&self, node: Node) -> Value {
        match node {
            Node::Plain(plain) => resolve_plain(self.s, plain),
            Node::Value(v) => v,
        }
    }

    /// A flow node as a key: a scalar's text.
    fn node_key(&self, node: Node, at: usize) -> R<Vec<u16>> {
        match node {
            Node::Plain(Plain::Span(a, b)) => Ok(self.span(a, b).to_vec()),
            Node::Plain(Plain::Owned(v)) | Node::Value(Value::String(v)) => Ok(v),
            Node::Value(_) => Err(fault(at, Problem::CollectionKey)),
        }
    }
}

// ---------------------------------------------------------------- the core schema

fn resolve_plain(s: &[u16], plain: Plain) -> Value {
    match plain {
        // Folded lines hold a space or a line feed: never null, a boolean or a number.
        Plain::Owned(v) => Value::String(v),
        Plain::Span(a, b) => resolve(s.get(a..b).unwrap_or(&[])),
    }
}

/// A plain scalar as YAML 1.2's core schema types it (npm yaml 2's tags): `null`, `~` and
/// empty are null; `true`/`false` in three casings are booleans; decimal, `0o` and `0x`
/// integers and floats (with `.inf`, `.nan`) are numbers; everything else is a string.
pub(super) fn resolve(t: &[u16]) -> Value {
    let word = |words: &[&str]| words.iter().any(|w| is(t, w));
    if word(&["", "~", "null", "Null", "NULL"]) {
        Value::Null
    } else if word(&["true", "True", "TRUE"]) {
        Value::Bool(true)
    } else if word(&["false", "False", "FALSE"]) {
        Value::Bool(false)
    } else {
        number(t).map_or_else(|| Value::String(t.to_vec()), Value::Number)
    }
}

/// Whether the code units `t` are the ASCII text `w`.
#[inline(never)]
pub(super) fn is(t: &[u16], w: &str) -> bool {
    t.len() == w.len() && t.iter().zip(w.bytes()).all(|(&a, b)| a == u16::from(b))
}

fn number(t: &[u16]) -> Option<f64> {
    let (negative, u) = match *t.first()? {
        0x2D => (true, &t[1..]),
        0x2B => (false, &t[1..]),
        _ => (false, t),
    };
    let signed = u.len() != t.len();
    // 0o17, 0x1F: no sign. Exact to 2^53, then rounded as the digits accumulate
    // (JavaScript's parseInt rounds once; a frontmatter holds no such integer).
    if !signed && u.len() > 2 && u[0] == 0x30 && (u[1] == 0x6F || u[1] == 0x78) {
        let radix = if u[1] == 0x6F { 8 } else { 16 };
        let mut n = 0.0;
        for &c in &u[2..] {
            n = n * f64::from(radix) + f64::from(char::from_u32(c.into())?.to_digit(radix)?);
        }
        return Some(n);
    }
    // .inf, -.Inf, +.INF; .nan, .NaN, .NAN (no sign)
    if u.first() == Some(&DOT) {
        let w = &u[1..];
        if ["inf", "Inf", "INF"].iter().any(|x| is(w, x)) {
            return Some(if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        if !signed && ["nan", "NaN", "NAN"].iter().any(|x| is(w, x)) {
            return Some(f64::NAN);
        }
    }
    // [-+]? ( d+ ( . d* )? | . d+ ) ( [eE] [-+]? d+ )?: the significant digits, and the
    // power of ten that scales them.
    let mut ds = Vec::new();
    let mut e: i64 = 0;
    let (mut seen, mut dot) = (false, false);
    let mut i = 0;
    while i < u.len() {
        match u[i] {
            c @ 0x30..=0x39 => {
                seen = true;
                e -= i64::from(dot);
                if !ds.is_empty() || c != 0x30 {
                    ds.push((c - 0x30) as u8);
                }
            }
            DOT if !dot => dot = true,
            _ => break,
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if i < u.len() {
        if u[i] | 0x20 != 0x65 {
            return None;
        }
        i += 1;
        let minus = u.get(i) == Some(&DASH);
        if minus || u.get(i) == Some(&0x2B) {
            i += 1;
        }
        let start = i;
        let mut x: i64 = 0;
        while let Some(&c @ 0x30..=0x39) = u.get(i) {
            x = (x * 10 + i64::from(c - 0x30)).min(1 << 40);
            i += 1;
        }
        if i == start || i != u.len() {
            return None;
        }
        e += if minus { -x } else { x };
    }
    Some(super::float::value(negative, ds, e))
}

/// A mapping's entries, in the text's order, and a table of their keys (`table`: an entry's
/// index + 1, 0 empty; linear probing, at most half full; keys hashed by [`sip`]): a key seen
/// twice is found without a scan of the others, so that a hostile text of many keys stays
/// linear.
#[derive(Default)]
struct Entries {
    list: Vec<(Vec<u16>, Value)>,
    table: Vec<u32>,
}

impl Entries {
    /// Where `key` is in the table, or the empty slot where it goes (none while it is empty).
    #[inline(never)]
    fn slot(&self, key: &[u16]) -> usize {
        let mask = self.table.len().wrapping_sub(1);
        let mut at = sip(key) as usize & mask;
        while let Some(&i) = self.table.get(at) {
            match self.list.get((i as usize).wrapping_sub(1)) {
                Some((k, _)) if k != key => at = (at + 1) & mask,
                _ => break,
            }
        }
        at
    }

    fn has(&self, key: &[u16]) -> bool {
        self.table.get(self.slot(key)).is_some_and(|&i| i != 0)
    }

    fn push(&mut self, key: Vec<u16>, value: Value) {
        self.list.push((key, value));
        let n = self.list.len();
        let grown = n * 2 > self.table.len();
        if grown {
            self.table = alloc::vec![0; (n * 4).next_power_of_two()];
        }
        for i in if grown { 0 } else { n - 1 }..n {
            let at = self.slot(&self.list[i].0);
            if let Some(slot) = self.table.get_mut(at) {
                *slot = i as u32 + 1;
            }
        }
    }
}

/// SipHash-1-3 of `units` (four code units a word, the length in the last word's top 16
/// bits) under the module's key (`skills::SEED`): a keyed hash, so that keys made to share a
/// slot cannot be written without the key (a hash such as FxHash, seeded or not, has
/// collisions that hold for every seed).
#[inline(never)]
fn sip(units: &[u16]) -> u64 {
    let key = |i: usize| u64::from(super::SEED[i].load(Relaxed));
    let (k0, k1) = (key(0) | key(1) << 32, key(2) | key(3) << 32);
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    let round = |v: &mut [u64; 4]| {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13) ^ v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16) ^ v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21) ^ v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17) ^ v[2];
        v[2] = v[2].rotate_left(32);
    };
    let compress = |v: &mut [u64; 4], m: u64| {
        v[3] ^= m;
        round(v);
        v[0] ^= m;
    };
    let mut words = units.chunks_exact(4);
    for w in &mut words {
        compress(
            &mut v,
            w.iter().rev().fold(0, |m, &u| m << 16 | u64::from(u)),
        );
    }
    let last = words
        .remainder()
        .iter()
        .rev()
        .fold(0, |m, &u| m << 16 | u64::from(u));
    compress(&mut v, last | (units.len() as u64) << 48);
    v[2] ^= 0xff;
    for _ in 0..3 {
        round(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}
