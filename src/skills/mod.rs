//! Agent Skills (SPEC section 9): reading a `SKILL.md`.
//!
//! A `SKILL.md` is YAML frontmatter between two lines `---`, then markdown. [`parse_skill`]
//! reads the frontmatter with the YAML reader in `yaml.rs` (the YAML real skills use, read
//! as YAML 1.2's core schema, as npm `yaml`, Bun.YAML and serde_yaml read it; see
//! bench/skills/HOSTS.md), then the skill: `name` and `description` are required strings,
//! `allowed-tools` is read into tools and scopes, and each departure from the specification
//! that hosts still load is a [`Warning`]. Text is UTF-16 code units, as JavaScript's
//! strings, so that every string (a lone surrogate too) comes back exactly.

mod yaml;

use alloc::vec::Vec;

pub use yaml::Value;

/// One entry of `allowed-tools`: `Tool(scope)` or a bare `Tool`.
#[derive(Clone, Debug, PartialEq)]
pub struct AllowedTool {
    pub tool: Vec<u16>,
    /// The text between the parentheses, exactly; None for a bare tool.
    pub scope: Option<Vec<u16>>,
}

/// A parsed `SKILL.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: Vec<u16>,
    pub description: Vec<u16>,
    /// None: the field is absent.
    pub allowed_tools: Option<Vec<AllowedTool>>,
    /// Every field, in the text's order, as JSON values.
    pub frontmatter: Vec<(Vec<u16>, Value)>,
    /// The markdown after the frontmatter: `text[body.0..body.1]`.
    pub body: (usize, usize),
    /// Each departure from the specification, in the text's order.
    pub warnings: Vec<Warning>,
}

/// A frontmatter read as YAML, whatever its shape (see [`parse_frontmatter`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Frontmatter {
    pub value: Value,
    /// The markdown after the frontmatter: `text[body.0..body.1]`.
    pub body: (usize, usize),
}

/// Why a text is not a skill: a `SyntaxError` in JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillError {
    /// 1-based, in the whole text.
    pub line: usize,
    /// The field at fault (a top-level key), if one is.
    pub field: Option<Vec<u16>>,
    pub problem: Problem,
}

/// What is wrong, in a skill author's words ([`Problem::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    NoFrontmatter,
    Unclosed,
    NotMapping,
    Missing,
    NotString,
    ToolsType,
    ColonInPlain,
    TextAfterFlow,
    TextAfterQuote,
    Anchor,
    Alias,
    Tag,
    Directive,
    SecondDocument,
    Tab,
    DuplicateKey,
    Indented,
    Unexpected,
    NotAKey,
    NoKey,
    ComplexKey,
    CollectionKey,
    SequenceOnKeyLine,
    Indicator,
    UnclosedQuote,
    QuoteIndent,
    Escape,
    BlockHeader,
    BlockLeadingBlank,
    FlowIndent,
    UnclosedFlow,
    FlowExpected,
    Deep,
}

impl Problem {
    pub fn text(self) -> &'static str {
        use Problem::*;
        match self {
            NoFrontmatter => "a SKILL.md begins with a line \"---\", its YAML frontmatter, and another line \"---\"; this text does not",
            Unclosed => "the frontmatter begun here is never closed by a line \"---\"",
            NotMapping => "the frontmatter is not a mapping of fields (\"name: value\" lines)",
            Missing => "the frontmatter lacks this field, which a skill requires",
            NotString => "this field must be a string (quote the value if it reads as a number, a boolean or null)",
            ToolsType => "allowed-tools must be a string of tools (\"Read Grep Bash(git status:*)\") or a list of strings",
            ColonInPlain => "an unquoted value cannot hold \": \" (a colon and a space) or end with \":\": quote the value",
            TextAfterFlow => "text follows a closing bracket: a value that begins with \"[\" or \"{\" is a list or a mapping, so quote the whole value",
            TextAfterQuote => "text follows the closing quote: quote the whole value",
            Anchor => "\"&\" begins a YAML anchor, which a SKILL.md cannot use: quote the value",
            Alias => "\"*\" begins a YAML alias, which a SKILL.md cannot use: quote the value (an unquoted glob such as **/*.md is read as an alias)",
            Tag => "\"!\" begins a YAML tag, which a SKILL.md cannot use: quote the value",
            Directive => "\"%\" begins a YAML directive, which a SKILL.md cannot use: quote the value",
            SecondDocument => "a second YAML document (after \"---\" or \"...\") is not supported",
            Tab => "a tab in indentation: indent with spaces",
            DuplicateKey => "the field appears twice: keep one",
            Indented => "this line is indented more than the value above it belongs to: align it, or quote a multi-line value",
            Unexpected => "this line does not continue the frontmatter above it: check its indentation",
            NotAKey => "this line is not \"field: value\" (a colon and a space after the field's name)",
            NoKey => "a field's name is missing before \":\"",
            ComplexKey => "complex keys (\"? \") are not supported",
            CollectionKey => "a key must be a string, not a list or a mapping",
            SequenceOnKeyLine => "a list (\"- \") cannot begin on its key's line: begin it on the next line, or quote the value",
            Indicator => "a value cannot begin with this character unquoted (one of , [ ] { } # | > @ `): quote the value",
            UnclosedQuote => "the quoted value is never closed",
            QuoteIndent => "a quoted value's next line must be indented more than its field (or its closing quote is missing)",
            Escape => "an invalid escape in a double-quoted value: write \\\\ for a backslash, or use single quotes",
            BlockHeader => "only \"-\" or \"+\", a digit 1-9 and a comment may follow \"|\" or \">\"",
            BlockLeadingBlank => "the block scalar's first lines are blank lines indented more than its text: give an indentation indicator (such as |2)",
            FlowIndent => "a line inside brackets must be indented more than its field",
            UnclosedFlow => "the bracket opened here is never closed",
            FlowExpected => "expected \",\" or a closing bracket",
            Deep => "values are nested more than 64 levels deep",
        }
    }
}

/// A departure from the specification that hosts still load.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// 1-based: the field's line.
    pub line: usize,
    pub field: Vec<u16>,
    pub departure: Departure,
    /// The text the message quotes (a name, a directory, a tool entry), or a count.
    pub detail: Option<Vec<u16>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// detail: the name.
    NameFormat,
    /// detail: the directory's name.
    NameDirectory,
    /// detail: the length in code points.
    DescriptionLong,
    DescriptionEmpty,
    /// detail: the length in code points.
    CompatibilityLong,
    NotString,
    UnknownField,
    MetadataNotStrings,
    ToolsList,
    ToolsEmpty,
    /// detail: the entry.
    ToolParentheses,
}

impl Departure {
    /// The message's parts around the quoted detail (a count is not quoted).
    fn parts(self) -> (&'static str, &'static str) {
        use Departure::*;
        match self {
            NameFormat => ("", " is not a valid name: the specification asks for 1 to 64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row"),
            NameDirectory => ("differs from the skill's directory ", ": the specification asks for the directory's name"),
            DescriptionLong => ("is ", " characters long: the specification allows 1,024 at most, and some hosts refuse or cut a longer one"),
            DescriptionEmpty => ("is empty: the specification asks for what the skill does and when to use it", ""),
            CompatibilityLong => ("is ", " characters long: the specification allows 500 at most"),
            NotString => ("should be a string", ""),
            UnknownField => ("is not a field of the Agent Skills specification (name, description, license, compatibility, metadata, allowed-tools): hosts other than its own ignore it", ""),
            MetadataNotStrings => ("should map strings to strings, as the specification asks", ""),
            ToolsList => ("is a list: the specification asks for a space-delimited string, and some hosts ignore a list", ""),
            ToolsEmpty => ("is empty", ""),
            ToolParentheses => ("", " has unbalanced parentheses: read as a tool name"),
        }
    }
}

/// `line N, field "F": ` then the parts.
fn message(line: usize, field: Option<&[u16]>, parts: &[&[u16]], quoted: usize) -> Vec<u16> {
    let mut m: Vec<u16> = "line ".encode_utf16().collect();
    decimal(&mut m, line);
    if let Some(f) = field {
        m.extend(", field \"".encode_utf16());
        m.extend_from_slice(f);
        m.push(u16::from(b'"'));
    }
    m.extend(": ".encode_utf16());
    for (i, part) in parts.iter().enumerate() {
        if i == quoted {
            m.push(u16::from(b'"'));
            m.extend_from_slice(part);
            m.push(u16::from(b'"'));
        } else {
            m.extend_from_slice(part);
        }
    }
    m
}

fn decimal(out: &mut Vec<u16>, mut n: usize) {
    let at = out.len();
    loop {
        out.insert(at, u16::from(b'0') + (n % 10) as u16);
        n /= 10;
        if n == 0 {
            break;
        }
    }
}

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

impl SkillError {
    /// The message a skill author reads: `line 3, field "description": …`.
    pub fn message(&self) -> Vec<u16> {
        message(
            self.line,
            self.field.as_deref(),
            &[&units(self.problem.text())],
            usize::MAX,
        )
    }
}

impl Warning {
    /// The message: `line 2, field "name": "My Skill" is not a valid name: …`.
    pub fn message(&self) -> Vec<u16> {
        let (before, after) = self.departure.parts();
        let detail = self.detail.as_deref().unwrap_or(&[]);
        let count = matches!(
            self.departure,
            Departure::DescriptionLong | Departure::CompatibilityLong
        );
        let quoted = if self.detail.is_none() || count {
            usize::MAX
        } else {
            1
        };
        message(
            self.line,
            Some(&self.field),
            &[&units(before), detail, &units(after)],
            quoted,
        )
    }
}

/// A fault found at a position of the text (converted to a line at the end).
pub(crate) struct Fault {
    pub pos: usize,
    pub problem: Problem,
    pub field: Option<Vec<u16>>,
}

/// The 1-based line of `pos`.
fn line_of(text: &[u16], pos: usize) -> usize {
    1 + text[..pos.min(text.len())]
        .iter()
        .filter(|&&c| c == 0x0A)
        .count()
}

const BOM: u16 = 0xFEFF;

/// Whether `line` is `---` then spaces or tabs (its line break, and a CR before it, excluded).
fn is_fence(line: &[u16]) -> bool {
    let line = line.strip_suffix(&[0x0D]).unwrap_or(line);
    line.len() >= 3 && line[..3] == [0x2D; 3] && line[3..].iter().all(|&c| c == 0x20 || c == 0x09)
}

/// A span of the text: `text[.0...1]`.
type Span = (usize, usize);

/// The frontmatter's span (its whole lines between the fences) and the body's.
fn split(text: &[u16]) -> Result<(Span, Span), SkillError> {
    let start = usize::from(text.first() == Some(&BOM));
    let no = |problem| SkillError {
        line: 1,
        field: None,
        problem,
    };
    let eol = |from: usize| {
        text[from..]
            .iter()
            .position(|&c| c == 0x0A)
            .map(|i| from + i)
    };
    let first_end = eol(start);
    if !is_fence(&text[start..first_end.unwrap_or(text.len())]) {
        return Err(no(Problem::NoFrontmatter));
    }
    let Some(first_end) = first_end else {
        return Err(no(Problem::Unclosed));
    };
    let fm = first_end + 1;
    let mut line = fm;
    while line < text.len() {
        let end = eol(line);
        if is_fence(&text[line..end.unwrap_or(text.len())]) {
            let body = end.map_or(text.len(), |e| e + 1);
            return Ok(((fm, line), (body, text.len())));
        }
        match end {
            Some(e) => line = e + 1,
            None => break,
        }
    }
    Err(no(Problem::Unclosed))
}

fn error(text: &[u16], f: Fault) -> SkillError {
    SkillError {
        line: line_of(text, f.pos),
        field: f.field,
        problem: f.problem,
    }
}

/// Reads the frontmatter of `text` as YAML, whatever it holds (a mapping, another value,
/// or null when empty): the reading measured against other parsers.
pub fn parse_frontmatter(text: &[u16]) -> Result<Frontmatter, SkillError> {
    let (fm, body) = split(text)?;
    let doc = yaml::read(text, fm.0, fm.1).map_err(|f| error(text, f))?;
    Ok(Frontmatter {
        value: doc.value,
        body,
    })
}

fn is(key: &[u16], s: &str) -> bool {
    key.len() == s.len() && key.iter().zip(s.bytes()).all(|(&a, b)| a == u16::from(b))
}

/// Code points (a lone surrogate counts as one): the specification's "characters", as
/// Codex (Rust `chars`), skills-ref and deepagents (Python `len`) count them; JavaScript's
/// `length` would count a character outside the BMP twice.
fn code_points(s: &[u16]) -> usize {
    s.len()
        - s.windows(2)
            .filter(|w| (0xD800..0xDC00).contains(&w[0]) && (0xDC00..0xE000).contains(&w[1]))
            .count()
}

/// The specification's name: 1-64 of `a-z`, `0-9`, `-`; no hyphen first, last or twice.
fn valid_name(name: &[u16]) -> bool {
    (1..=64).contains(&name.len())
        && name
            .iter()
            .all(|&c| matches!(c, 0x61..=0x7A | 0x30..=0x39 | 0x2D))
        && name[0] != 0x2D
        && name[name.len() - 1] != 0x2D
        && !name.windows(2).any(|w| w == [0x2D, 0x2D])
}

/// Parses a `SKILL.md` (SPEC section 9, "Parsing"). `dir_name`: the skill's directory,
/// which its name should equal.
pub fn parse_skill(text: &[u16], dir_name: Option<&[u16]>) -> Result<Skill, SkillError> {
    let (fm, body) = split(text)?;
    let doc = yaml::read(text, fm.0, fm.1).map_err(|f| error(text, f))?;
    let frontmatter = match doc.value {
        Value::Object(entries) => entries,
        Value::Null => Vec::new(),
        _ => {
            return Err(SkillError {
                line: line_of(text, fm.0),
                field: None,
                problem: Problem::NotMapping,
            })
        }
    };
    // Each field's line (one pass: the keys are in the text's order); a flow mapping's
    // fields all take the frontmatter's first line.
    let mut lines = Vec::with_capacity(frontmatter.len());
    let (mut at, mut line) = (0, 1);
    for i in 0..frontmatter.len() {
        let pos = doc.keys.get(i).copied().unwrap_or(fm.0);
        line += text[at..pos].iter().filter(|&&c| c == 0x0A).count();
        at = pos;
        lines.push(line);
    }
    let find = |name: &str| frontmatter.iter().position(|(k, _)| is(k, name));
    let required = |name: &str| -> Result<(Vec<u16>, usize), SkillError> {
        let Some(i) = find(name) else {
            return Err(SkillError {
                line: 1,
                field: Some(units(name)),
                problem: Problem::Missing,
            });
        };
        match &frontmatter[i].1 {
            Value::String(s) => Ok((s.clone(), lines[i])),
            _ => Err(SkillError {
                line: lines[i],
                field: Some(units(name)),
                problem: Problem::NotString,
            }),
        }
    };
    let (name, _) = required("name")?;
    let (description, _) = required("description")?;

    let mut warnings = Vec::new();
    let mut warn = |i: usize, departure, detail: Option<Vec<u16>>| {
        warnings.push(Warning {
            line: lines[i],
            field: frontmatter[i].0.clone(),
            departure,
            detail,
        })
    };
    let count = |n: usize| {
        let mut v = Vec::new();
        decimal(&mut v, n);
        Some(v)
    };
    let mut allowed_tools = None;
    for (i, (key, value)) in frontmatter.iter().enumerate() {
        if is(key, "name") {
            if !valid_name(&name) {
                warn(i, Departure::NameFormat, Some(name.clone()));
            }
            if let Some(dir) = dir_name {
                if dir != name.as_slice() {
                    warn(i, Departure::NameDirectory, Some(dir.to_vec()));
                }
            }
        } else if is(key, "description") {
            let n = code_points(&description);
            if n > 1024 {
                warn(i, Departure::DescriptionLong, count(n));
            }
            if description
                .iter()
                .all(|&c| crate::names::is_js_whitespace(c))
            {
                warn(i, Departure::DescriptionEmpty, None);
            }
        } else if is(key, "license") || is(key, "compatibility") {
            match value {
                Value::String(s) if is(key, "compatibility") && code_points(s) > 500 => {
                    warn(i, Departure::CompatibilityLong, count(code_points(s)))
                }
                Value::String(_) => {}
                _ => warn(i, Departure::NotString, None),
            }
        } else if is(key, "metadata") {
            let strings = match value {
                Value::Object(entries) => {
                    entries.iter().all(|(_, v)| matches!(v, Value::String(_)))
                }
                _ => false,
            };
            if !strings {
                warn(i, Departure::MetadataNotStrings, None);
            }
        } else if is(key, "allowed-tools") {
            let mut tools = Vec::new();
            let mut odd = Vec::new();
            match value {
                Value::String(s) => split_tools(s, &mut tools, &mut odd),
                Value::Null => warn(i, Departure::ToolsEmpty, None),
                Value::Array(items) => {
                    warn(i, Departure::ToolsList, None);
                    for item in items {
                        let Value::String(s) = item else {
                            return Err(SkillError {
                                line: lines[i],
                                field: Some(key.clone()),
                                problem: Problem::ToolsType,
                            });
                        };
                        split_tools(s, &mut tools, &mut odd);
                    }
                }
                _ => {
                    return Err(SkillError {
                        line: lines[i],
                        field: Some(key.clone()),
                        problem: Problem::ToolsType,
                    })
                }
            }
            for entry in odd {
                warn(i, Departure::ToolParentheses, Some(entry));
            }
            allowed_tools = Some(tools);
        } else {
            warn(i, Departure::UnknownField, None);
        }
    }
    Ok(Skill {
        name,
        description,
        allowed_tools,
        frontmatter,
        body,
        warnings,
    })
}

/// Splits `allowed-tools` on white space and commas outside parentheses (both separators
/// are used in the wild: bench/skills/HOSTS.md, point 9). `Tool(scope)` keeps the scope's
/// text exactly (spaces, colons and commas included); an entry whose parentheses do not
/// balance is kept whole as a tool name, and listed in `odd`.
fn split_tools(s: &[u16], tools: &mut Vec<AllowedTool>, odd: &mut Vec<Vec<u16>>) {
    let mut depth = 0usize;
    let mut start = 0;
    for i in 0..=s.len() {
        let c = s.get(i).copied();
        match c {
            Some(0x28) => depth += 1,
            Some(0x29) => depth = depth.saturating_sub(1),
            _ => {}
        }
        let boundary = match c {
            None => true,
            Some(0x20 | 0x09 | 0x0A | 0x0D | 0x2C) => depth == 0,
            _ => false,
        };
        if boundary {
            if i > start {
                tools.push(tool(&s[start..i], odd));
            }
            start = i + 1;
        }
    }
}

fn tool(entry: &[u16], odd: &mut Vec<Vec<u16>>) -> AllowedTool {
    let open = entry.iter().position(|&c| c == 0x28);
    if let Some(open) = open {
        let closes = entry.last() == Some(&0x29);
        let mut depth = 0isize;
        let mut balanced = true;
        for (i, &c) in entry.iter().enumerate().skip(open) {
            depth += match c {
                0x28 => 1,
                0x29 => -1,
                _ => 0,
            };
            // The first "(" closes only at the end.
            if depth == 0 && i + 1 != entry.len() {
                balanced = false;
            }
        }
        if open > 0 && closes && balanced && depth == 0 {
            return AllowedTool {
                tool: entry[..open].to_vec(),
                scope: Some(entry[open + 1..entry.len() - 1].to_vec()),
            };
        }
    } else if !entry.contains(&0x29) {
        return AllowedTool {
            tool: entry.to_vec(),
            scope: None,
        };
    }
    odd.push(entry.to_vec());
    AllowedTool {
        tool: entry.to_vec(),
        scope: None,
    }
}
