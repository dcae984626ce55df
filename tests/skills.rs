//! SPEC section 9, "Parsing": `parse_skill` and the YAML of a SKILL.md frontmatter, case by
//! case (every construct, every error and warning with its message), then properties.

use proptest::prelude::*;
use tool_palette::skills::{
    parse_frontmatter, parse_skill, AllowedTool, Departure, Problem, Skill, Value,
};

// ---------------------------------------------------------------- helpers

fn u(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn text(v: &[u16]) -> String {
    String::from_utf16(v).unwrap()
}

fn s(x: &str) -> Value {
    Value::String(u(x))
}

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn arr(items: Vec<Value>) -> Value {
    Value::Array(items)
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (u(k), v)).collect())
}

/// The frontmatter `yaml` (whole lines) read as YAML.
fn read(yaml: &str) -> Value {
    let t = u(&format!("---\n{yaml}---\n"));
    match parse_frontmatter(&t) {
        Ok(f) => f.value,
        Err(e) => panic!("{yaml:?}: {}", text(&e.message())),
    }
}

/// The value of the single field `a: ...`.
fn a(yaml: &str) -> Value {
    match read(yaml) {
        Value::Object(mut e) if e.len() == 1 && e[0].0 == u("a") => e.remove(0).1,
        v => panic!("{yaml:?}: {v:?}"),
    }
}

/// The message of the error reading the frontmatter `yaml`.
fn err(yaml: &str) -> String {
    let t = u(&format!("---\n{yaml}---\n"));
    match parse_frontmatter(&t) {
        Ok(f) => panic!("{yaml:?} reads as {:?}", f.value),
        Err(e) => text(&e.message()),
    }
}

fn skill(t: &str) -> Skill {
    match parse_skill(&u(t), None) {
        Ok(s) => s,
        Err(e) => panic!("{t:?}: {}", text(&e.message())),
    }
}

fn skill_err(t: &str) -> String {
    match parse_skill(&u(t), None) {
        Ok(s) => panic!("{t:?} parses: {s:?}"),
        Err(e) => text(&e.message()),
    }
}

fn warnings(s: &Skill) -> Vec<String> {
    s.warnings.iter().map(|w| text(&w.message())).collect()
}

fn tools(list: &[(&str, Option<&str>)]) -> Option<Vec<AllowedTool>> {
    Some(
        list.iter()
            .map(|(t, s)| AllowedTool {
                tool: u(t),
                scope: s.map(u),
            })
            .collect(),
    )
}

const HEAD: &str = "---\nname: my-skill\ndescription: Does things.\n";

// ---------------------------------------------------------------- the frontmatter's cut

#[test]
fn frontmatter_and_body() {
    let t = "---\nname: a\ndescription: b\n---\n# Body\n\ntext\n";
    let sk = skill(t);
    assert_eq!(sk.name, u("a"));
    assert_eq!(sk.description, u("b"));
    assert_eq!(sk.allowed_tools, None);
    assert_eq!(
        sk.frontmatter,
        vec![(u("name"), s("a")), (u("description"), s("b"))]
    );
    let tu = u(t);
    assert_eq!(text(&tu[sk.body.0..sk.body.1]), "# Body\n\ntext\n");
    assert!(sk.warnings.is_empty());
}

#[test]
fn bom_crlf_and_trailing_white_space_on_the_fences() {
    let t = "\u{feff}--- \t\r\nname: a\r\ndescription: |\r\n  x\r\n  y\r\n---\t\r\nbody\r\n";
    let sk = skill(t);
    assert_eq!(sk.description, u("x\ny\n"));
    let tu = u(t);
    assert_eq!(text(&tu[sk.body.0..sk.body.1]), "body\r\n");
}

#[test]
fn closing_fence_at_the_end_and_an_empty_body() {
    let t = "---\nname: a\ndescription: b\n---";
    assert_eq!(skill(t).body, (t.len(), t.len()));
}

#[test]
fn no_frontmatter_is_line_1() {
    let no = "line 1: a SKILL.md begins with a line \"---\", its YAML frontmatter, and another line \"---\"; this text does not";
    assert_eq!(skill_err("# Just markdown\n"), no);
    assert_eq!(skill_err(""), no);
    assert_eq!(skill_err("\n---\nname: a\ndescription: b\n---\n"), no);
    assert_eq!(skill_err("----\nname: a\n---\n"), no);
    let unclosed = "line 1: the frontmatter begun here is never closed by a line \"---\"";
    assert_eq!(skill_err("---\nname: a\ndescription: b\n# X\n"), unclosed);
    assert_eq!(skill_err("---"), unclosed);
    assert_eq!(skill_err("---\nname: a\n--- x\n"), unclosed);
}

#[test]
fn a_second_document_and_the_document_end() {
    assert_eq!(read("a: x\n...\n"), obj(vec![("a", s("x"))]));
    assert_eq!(read("a: x\n... # end\n\n# c\n"), obj(vec![("a", s("x"))]));
    let second = "a second YAML document (after \"---\" or \"...\") is not supported";
    assert_eq!(err("a: x\n...\nb: y\n"), format!("line 4: {second}"));
    assert_eq!(err("a: x\n--- y\n"), format!("line 3: {second}"));
    assert_eq!(
        err("%YAML 1.2\na: b\n"),
        "line 2: \"%\" begins a YAML directive, which a SKILL.md cannot use: quote the value"
    );
    assert_eq!(read(""), Value::Null);
    assert_eq!(read("# only a comment\n\n"), Value::Null);
}

// ---------------------------------------------------------------- block structure

#[test]
fn block_mappings_and_sequences() {
    assert_eq!(
        read("a:\n  b: 1\n  c:\n    d: x\ne: y\n"),
        obj(vec![
            (
                "a",
                obj(vec![("b", n(1.0)), ("c", obj(vec![("d", s("x"))]))])
            ),
            ("e", s("y")),
        ])
    );
    // a sequence at its key's indentation, or indented
    assert_eq!(a("a:\n- x\n- y\n"), arr(vec![s("x"), s("y")]));
    assert_eq!(
        a("a:\n  - x\n  -\n  - - y\n    - z\n"),
        arr(vec![s("x"), Value::Null, arr(vec![s("y"), s("z")])])
    );
    // mappings in a sequence
    assert_eq!(
        a("a:\n  - id: 1\n    kind: brew\n  -   b: 2\n      c: 3\n  - d:\n      e: f\n"),
        arr(vec![
            obj(vec![("id", n(1.0)), ("kind", s("brew"))]),
            obj(vec![("b", n(2.0)), ("c", n(3.0))]),
            obj(vec![("d", obj(vec![("e", s("f"))]))]),
        ])
    );
    // empty values, comments, quoted keys, keys with spaces
    assert_eq!(
        read("a:\nb: # c\n# whole line\n\"c d\": 1\n'e''f': 2\ng h: 3\n  # indented comment\n"),
        obj(vec![
            ("a", Value::Null),
            ("b", Value::Null),
            ("c d", n(1.0)),
            ("e'f", n(2.0)),
            ("g h", n(3.0)),
        ])
    );
    // the whole frontmatter indented
    assert_eq!(
        read("  a: 1\n  b: 2\n"),
        obj(vec![("a", n(1.0)), ("b", n(2.0))])
    );
    // a value on the next line
    assert_eq!(a("a:\n  text on\n  two lines\n"), s("text on two lines"));
    // tabs as separation (not indentation)
    assert_eq!(
        read("a:\tb\nc: d\t# x\n"),
        obj(vec![("a", s("b")), ("c", s("d"))])
    );
}

#[test]
fn flow_collections() {
    assert_eq!(a("a: [Read, Grep]\n"), arr(vec![s("Read"), s("Grep")]));
    assert_eq!(a("a: []\n"), arr(vec![]));
    assert_eq!(a("a: {}\n"), obj(vec![]));
    assert_eq!(
        a("a: {x: 1, y: [p, q], 'z': \"w\"}\n"),
        obj(vec![
            ("x", n(1.0)),
            ("y", arr(vec![s("p"), s("q")])),
            ("z", s("w"))
        ])
    );
    // JSON style across lines, trailing commas, comments (OpenClaw's metadata)
    assert_eq!(
        a("a:\n  {\n    \"openclaw\":\n      {\n        \"emoji\": \"x\", # c\n        \"bins\": [\"op\",],\n      },\n  }\n"),
        obj(vec![("openclaw", obj(vec![("emoji", s("x")), ("bins", arr(vec![s("op")]))]))])
    );
    assert_eq!(a("a: {\"k\":1}\n"), obj(vec![("k", n(1.0))]));
    // single pairs in a sequence; keys without values; plain scalars with ":" inside
    assert_eq!(
        a("a: [x: 1, \"y\":2, z]\n"),
        arr(vec![
            obj(vec![("x", n(1.0))]),
            obj(vec![("y", n(2.0))]),
            s("z")
        ])
    );
    assert_eq!(
        a("a: {b, c: , d:e}\n"),
        obj(vec![
            ("b", Value::Null),
            ("c", Value::Null),
            ("d:e", Value::Null)
        ])
    );
    assert_eq!(
        a("a: [optional: value]\n"),
        arr(vec![obj(vec![("optional", s("value"))])])
    );
    assert_eq!(a("a: [a b\n  c, d]\n"), arr(vec![s("a b c"), s("d")]));
    // the closing bracket may sit at its key's indentation
    assert_eq!(a("a: [1,\n]\n"), arr(vec![n(1.0)]));
}

// ---------------------------------------------------------------- scalars

#[test]
fn plain_scalars_fold() {
    assert_eq!(
        a("a: one\n  two\n\n  three\n\n\n  four\n"),
        s("one two\nthree\n\nfour")
    );
    assert_eq!(a("a: x \n  - y\n"), s("x - y"));
    assert_eq!(a("a: Ranks issues #1 first\n"), s("Ranks issues"));
    assert_eq!(a("a: C#, F# and a#b\n"), s("C#, F# and a#b"));
    assert_eq!(
        a("a: https://example.com/x?y=1\n"),
        s("https://example.com/x?y=1")
    );
    assert_eq!(a("a: -x\n"), s("-x"));
    assert_eq!(a("a: ?x :y\n"), s("?x :y"));
    assert_eq!(a("a: ---\n"), s("---"));
    assert_eq!(a("a: 'it''s' \n"), s("it's"));
    // a lone CR is text (only CRLF and LF break lines)
    assert_eq!(a("a: x\ry\n"), Value::String(vec![0x78, 0x0D, 0x79]));
}

#[test]
fn quoted_scalars() {
    assert_eq!(a("a: 'It''s quoted: fine.'\n"), s("It's quoted: fine."));
    assert_eq!(a("a: 'one  \n  two\n\n  three'\n"), s("one two\nthree"));
    assert_eq!(
        a("a: \"Says \\\"hi\\\",\n  twice.\"\n"),
        s("Says \"hi\", twice.")
    );
    let escapes = r#"\n\t\\\"\/\0\a\b\e\f\r\v\N\_\L\P\ "#.to_string() + "\\\t";
    assert_eq!(
        a(&format!("a: \"{escapes}\"\n")),
        Value::String(vec![
            0x0A, 0x09, 0x5C, 0x22, 0x2F, 0x00, 0x07, 0x08, 0x1B, 0x0C, 0x0D, 0x0B, 0x85, 0xA0,
            0x2028, 0x2029, 0x20, 0x09
        ])
    );
    assert_eq!(a("a: \"\\x41\\u00e9\\U0001F600\"\n"), s("Aé😀"));
    // a lone surrogate, escaped or as it is, survives
    assert_eq!(a("a: \"\\uD800x\"\n"), Value::String(vec![0xD800, 0x78]));
    // an escaped line break joins; trailing white space before a break goes, escaped stays
    assert_eq!(a("a: \"one \\\n   two\"\n"), s("one two"));
    assert_eq!(a("a: \"one\\\n   two\"\n"), s("onetwo"));
    assert_eq!(a("a: \"x\\t\n  y\"\n"), s("x\t y"));
    assert_eq!(a("a: \"x  \n\n  y\"\n"), s("x\ny"));
}

#[test]
fn block_scalars() {
    assert_eq!(
        a("a: |\n  First line.\n  Second line.\n"),
        s("First line.\nSecond line.\n")
    );
    assert_eq!(
        a("a: >-\n  First line\n  continues here.\n"),
        s("First line continues here.")
    );
    assert_eq!(a("a: |-\n  x\n\n\n"), s("x"));
    assert_eq!(a("a: |+\n  x\n\n"), s("x\n\n"));
    assert_eq!(
        a("a: >\n  x\n  y\n\n  z\n   w\n  v\n"),
        s("x y\nz\n w\nv\n")
    );
    assert_eq!(
        a("a: |\n  # not a comment\n    indented\n"),
        s("# not a comment\n  indented\n")
    );
    assert_eq!(a("a: > # a comment\n\n  x\n"), s("\nx\n"));
    assert_eq!(a("a: |2\n    x\n  y\n"), s("  x\ny\n"));
    assert_eq!(a("a:\n- |1\n  x\n"), arr(vec![s(" x\n")]));
    assert_eq!(a("a: |\n"), s(""));
    assert_eq!(a("a: |+\n\n\n"), s("\n\n"));
    assert_eq!(
        read("a: |\n  x\nb: 1\n"),
        obj(vec![("a", s("x\n")), ("b", n(1.0))])
    );
}

#[test]
fn the_core_schema() {
    for (t, v) in [
        ("", Value::Null),
        ("~", Value::Null),
        ("null", Value::Null),
        ("Null", Value::Null),
        ("NULL", Value::Null),
        ("true", Value::Bool(true)),
        ("True", Value::Bool(true)),
        ("TRUE", Value::Bool(true)),
        ("false", Value::Bool(false)),
        ("FALSE", Value::Bool(false)),
        ("0", n(0.0)),
        ("-12", n(-12.0)),
        ("+7", n(7.0)),
        ("0123", n(123.0)),
        ("0o17", n(15.0)),
        ("0x1F", n(31.0)),
        ("0xff", n(255.0)),
        ("1.0", n(1.0)),
        ("2.", n(2.0)),
        (".5", n(0.5)),
        ("-.5e-3", n(-0.0005)),
        ("1e3", n(1000.0)),
        ("1.e2", n(100.0)),
        ("6.02E+23", n(6.02e23)),
        (".inf", n(f64::INFINITY)),
        ("+.Inf", n(f64::INFINITY)),
        ("-.INF", n(f64::NEG_INFINITY)),
        ("12345678901234567890", n(12345678901234567890.0)),
        // strings: dates, YAML 1.1 words, near-numbers
        ("2025-10-01", s("2025-10-01")),
        ("yes", s("yes")),
        ("on", s("on")),
        ("No", s("No")),
        ("nULL", s("nULL")),
        ("tRUE", s("tRUE")),
        ("1_000", s("1_000")),
        ("0x", s("0x")),
        ("0o8", s("0o8")),
        ("-0x1", s("-0x1")),
        ("1e", s("1e")),
        (".", s(".")),
        ("+", s("+")),
        ("-.nan", s("-.nan")),
        ("v1.0", s("v1.0")),
        ("1.0.0", s("1.0.0")),
    ] {
        assert_eq!(a(&format!("a: {t}\n")), v, "{t:?}");
    }
    assert!(matches!(a("a: .NaN\n"), Value::Number(x) if x.is_nan()));
    // quoted values are strings
    assert_eq!(a("a: 'true'\n"), s("true"));
    assert_eq!(a("a: \"1\"\n"), s("1"));
}

/// Numbers are read to the nearest f64, as JavaScript's Number() (and Rust's parser) read them.
fn same_number(t: &str) {
    let want: f64 = t.parse().unwrap();
    match a(&format!("a: {t}\n")) {
        Value::Number(x) => assert_eq!(x.to_bits(), want.to_bits(), "{t}: {x:e} against {want:e}"),
        v => panic!("{t}: {v:?}"),
    }
}

#[test]
fn numbers_round_to_nearest() {
    let nines = format!("0.{}", "9".repeat(900));
    let tie = format!("9007199254740993{}", "0".repeat(30));
    let sticky = format!("9007199254740993{}1e-30", "0".repeat(900));
    for t in [
        "0.1", "-0.0", "123456789012345678901234567890", "1e23", "8.98846567431158e307",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "9007199254740993",
        "9007199254740995", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
        &nines, &tie, &sticky, "0.000000000000000000000000000000000000000000001e45",
    ] {
        same_number(t);
    }
}

// ---------------------------------------------------------------- what is refused

#[test]
fn anchors_aliases_tags_and_indicators() {
    assert_eq!(
        skill_err("---\nname: anchor\ndescription: &d Anchored.\nsummary: *d\n---\n"),
        "line 3, field \"description\": \"&\" begins a YAML anchor, which a SKILL.md cannot use: quote the value"
    );
    assert_eq!(
        skill_err("---\nname: glob\ndescription: Lints TypeScript.\npaths: **/*.ts\n---\n"),
        "line 4, field \"paths\": \"*\" begins a YAML alias, which a SKILL.md cannot use: quote the value (an unquoted glob such as **/*.md is read as an alias)"
    );
    assert_eq!(
        err("a: !!str x\n"),
        "line 2, field \"a\": \"!\" begins a YAML tag, which a SKILL.md cannot use: quote the value"
    );
    assert!(err("&x a: b\n").starts_with("line 2: \"&\" begins a YAML anchor"));
    assert!(err("a:\n  - *x\n").starts_with("line 3, field \"a\": \"*\" begins a YAML alias"));
    assert!(err("a: [&x b]\n").contains("anchor"));
    assert!(err("a: [- b]\n").contains("a list (\"- \") cannot begin here"));
    assert_eq!(
        err("a: @x\n"),
        "line 2, field \"a\": a value cannot begin with this character unquoted (one of , [ ] { } # | > @ `): quote the value"
    );
    assert!(err("a: `x`\n").contains("cannot begin with this character"));
    assert!(err("a: ,x\n").contains("cannot begin with this character"));
    assert!(err("a: %x\n").contains("directive"));
    assert_eq!(
        err("? a\n: b\n"),
        "line 2: complex keys (\"? \") are not supported"
    );
    assert_eq!(
        err(": b\n"),
        "line 2: a field's name is missing before \":\""
    );
    assert_eq!(
        err("a: {[x]: 1}\n"),
        "line 2, field \"a\": a key must be a string, not a list or a mapping"
    );
}

#[test]
fn an_unquoted_colon_and_space() {
    let quote = "an unquoted value cannot hold \": \" (a colon and a space) or end with \":\": quote the value";
    assert_eq!(
        skill_err("---\nname: colon-space\ndescription: Deploys the app. Use when: the user asks to ship.\n---\n"),
        format!("line 3, field \"description\": {quote}")
    );
    assert_eq!(
        skill_err("---\nname: colon-end\ndescription: Does these things:\n---\n"),
        format!("line 3, field \"description\": {quote}")
    );
    // on a continuation line: its own line
    assert_eq!(
        err("a: Deploys the app.\n  Use when: shipping.\n"),
        format!("line 3, field \"a\": {quote}")
    );
    assert_eq!(
        err("a:\n  - b: c: d\n"),
        format!("line 3, field \"a\": {quote}")
    );
    assert_eq!(
        err("argument-hint: [x] (optional)\n"),
        "line 2, field \"argument-hint\": text follows a closing bracket: a value that begins with \"[\" or \"{\" is a list or a mapping, so quote the whole value"
    );
    assert_eq!(
        err("a: \"x\" y\n"),
        "line 2, field \"a\": text follows the closing quote: quote the whole value"
    );
    assert!(err("a: \"x\"#y\n").contains("text follows the closing quote"));
    assert!(err("a: [x]#y\n").contains("text follows a closing bracket"));
    assert_eq!(
        err("a: - b\n"),
        "line 2, field \"a\": a list (\"- \") cannot begin here, after a key or inside brackets: begin it on a line of its own, or quote the value"
    );
    assert!(err("a: b: c\n").ends_with(quote));
}

#[test]
fn indentation_tabs_and_duplicates() {
    let tab = "a tab in indentation: indent with spaces";
    assert_eq!(
        skill_err("---\nname: tab-indent\ndescription: Tabs.\nmetadata:\n\tauthor: me\n---\n"),
        format!("line 5: {tab}")
    );
    assert_eq!(err("a:\n \tb: c\n"), format!("line 3, field \"a\": {tab}"));
    assert_eq!(err("a: b\n\tc\n"), format!("line 3: {tab}"));
    assert_eq!(err("\ta\n"), format!("line 2: {tab}"));
    assert_eq!(err("a: [x,\n\ty]\n"), format!("line 3, field \"a\": {tab}"));
    assert_eq!(
        err("a: |\n  x\n \t# y\nb: 1\n"),
        format!("line 4, field \"a\": {tab}")
    );
    assert_eq!(
        skill_err("---\nname: duplicate-key\ndescription: First.\ndescription: Second.\n---\n"),
        "line 4, field \"description\": the field appears twice: keep one"
    );
    assert_eq!(
        err("a:\n  b: 1\n  b: 2\n"),
        "line 4, field \"b\": the field appears twice: keep one"
    );
    assert_eq!(
        err("a: {b: 1, b: 2}\n"),
        "line 2, field \"b\": the field appears twice: keep one"
    );
    assert_eq!(
        err("a: \"x\"\n  b\n"),
        "line 3: this line is indented more than the value above it belongs to: align it, or quote a multi-line value"
    );
    assert_eq!(
        err("a:\n  b: 1\n c: 2\n"),
        "line 4: this line is indented more than the value above it belongs to: align it, or quote a multi-line value"
    );
    assert_eq!(
        err("  a: 1\nb: 2\n"),
        "line 3: this line does not continue the frontmatter above it: check its indentation"
    );
    assert_eq!(
        err("a: 1\njust text\n"),
        "line 3: this line is not \"field: value\" (a colon and a space after the field's name)"
    );
    assert_eq!(
        err("a: b\n# c\n  d\n"),
        "line 4: this line is indented more than the value above it belongs to: align it, or quote a multi-line value"
    );
}

#[test]
fn unclosed_and_malformed_values() {
    assert_eq!(
        err("a: \"x\n"),
        "line 2, field \"a\": the quoted value is never closed"
    );
    assert_eq!(
        err("a: 'x\n  y\n"),
        "line 2, field \"a\": the quoted value is never closed"
    );
    assert_eq!(
        err("a: \"x\nb: y\"\n"),
        "line 3, field \"a\": a quoted value's next line must be indented more than its field (or its closing quote is missing)"
    );
    assert_eq!(
        err("a: \"\\q\"\n"),
        "line 2, field \"a\": an invalid escape in a double-quoted value: write \\\\ for a backslash, or use single quotes"
    );
    assert!(err("a: \"\\x4\"\n").contains("invalid escape"));
    assert!(err("a: \"\\U00110000\"\n").contains("invalid escape"));
    assert_eq!(
        err("a: [x, y\n"),
        "line 2, field \"a\": the bracket opened here is never closed"
    );
    assert_eq!(
        err("a: [x\n  y: 1]\n"),
        "line 2, field \"a\": a key inside [ ] must be on one line"
    );
    assert_eq!(a("a: {x\n  y: 1}\n"), obj(vec![("x y", n(1.0))]));
    assert_eq!(
        err("a: {x: 1\n  y: 2}\n"),
        "line 3, field \"a\": expected \",\" or a closing bracket"
    );
    assert_eq!(
        err("a: [x,\ny]\n"),
        "line 3, field \"a\": a line inside brackets must be indented more than its field"
    );
    assert_eq!(
        err("a: |x\n  y\n"),
        "line 2, field \"a\": only \"-\" or \"+\", a digit 1-9 and a comment may follow \"|\" or \">\""
    );
    assert_eq!(
        err("a: |\n    \n  x\n"),
        "line 4, field \"a\": the block scalar's first lines are blank lines indented more than its text: give an indentation indicator (such as |2)"
    );
    let deep = format!("a: {}{}\n", "[".repeat(70), "]".repeat(70));
    assert_eq!(
        err(&deep),
        "line 2, field \"a\": values are nested more than 64 levels deep"
    );
    let deep_block: String = (0..70).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    assert!(err(&deep_block).ends_with("values are nested more than 64 levels deep"));
}

// ---------------------------------------------------------------- the skill

#[test]
fn name_and_description_are_required_strings() {
    assert_eq!(
        skill_err("---\nname: missing-description\n---\n"),
        "line 1, field \"description\": the frontmatter lacks this field, which a skill requires"
    );
    assert_eq!(
        skill_err("---\ndescription: x\n---\n"),
        "line 1, field \"name\": the frontmatter lacks this field, which a skill requires"
    );
    assert_eq!(
        skill_err("---\n---\n"),
        "line 1, field \"name\": the frontmatter lacks this field, which a skill requires"
    );
    let not_string =
        "this field must be a string (quote the value if it reads as a number, a boolean or null)";
    assert_eq!(
        skill_err("---\nname: 2048\ndescription: A number for a name.\n---\n"),
        format!("line 2, field \"name\": {not_string}")
    );
    assert_eq!(
        skill_err("---\nname: a\n\ndescription:\n---\n"),
        format!("line 4, field \"description\": {not_string}")
    );
    assert_eq!(
        skill_err("---\nname: a\ndescription: [x]\n---\n"),
        format!("line 3, field \"description\": {not_string}")
    );
    assert_eq!(
        skill_err("---\n- name: a\n---\n"),
        "line 2: the frontmatter is not a mapping of fields (\"name: value\" lines)"
    );
    // a flow mapping is a mapping too
    assert_eq!(skill("---\n{name: a, description: b}\n---\n").name, u("a"));
}

#[test]
fn warnings_for_what_hosts_accept() {
    let sk = parse_skill(
        &u("---\nname: My Skill\ndescription: Capitals.\n---\n"),
        Some(&u("my-skill")),
    )
    .unwrap();
    assert_eq!(
        warnings(&sk),
        [
            "line 2, field \"name\": \"My Skill\" is not a valid name: the specification asks for 1 to 64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row",
            "line 2, field \"name\": differs from the skill's directory \"my-skill\": the specification asks for the directory's name",
        ]
    );
    for bad in ["-a", "a-", "a--b", "A", "a_b", "a b", "é", &"a".repeat(65)] {
        let sk = skill(&format!("---\nname: '{bad}'\ndescription: x\n---\n"));
        assert_eq!(sk.warnings.len(), 1, "{bad}");
        assert_eq!(sk.warnings[0].departure, Departure::NameFormat);
    }
    for good in ["a", "a-b", "pdf-2", &"a".repeat(64)] {
        assert!(skill(&format!("---\nname: {good}\ndescription: x\n---\n"))
            .warnings
            .is_empty());
    }
    // 1,024 characters are code points: an emoji (two code units) counts once
    let ok = "😀".repeat(1024);
    assert!(skill(&format!("---\nname: a\ndescription: {ok}\n---\n"))
        .warnings
        .is_empty());
    let long = format!("{ok}x");
    assert_eq!(
        warnings(&skill(&format!("---\nname: a\ndescription: {long}\n---\n"))),
        ["line 3, field \"description\": is 1025 characters long: the specification allows 1,024 at most, and some hosts refuse or cut a longer one"]
    );
    assert_eq!(
        warnings(&skill("---\nname: a\ndescription: ''\n---\n")),
        ["line 3, field \"description\": is empty: the specification asks for what the skill does and when to use it"]
    );
    let compat = "x".repeat(501);
    assert_eq!(
        warnings(&skill(&format!("{HEAD}compatibility: {compat}\nlicense: 2\n---\n"))),
        [
            "line 4, field \"compatibility\": is 501 characters long: the specification allows 500 at most",
            "line 5, field \"license\": should be a string",
        ]
    );
    let sk = skill(&format!(
        "{HEAD}license: MIT\nwhen_to_use: When asked.\ndisable-model-invocation: true\nmodel: opus\nargument-hint: \"[file]\"\nuser-invocable: false\n---\n"
    ));
    let unknown = "is not a field of the Agent Skills specification (name, description, license, compatibility, metadata, allowed-tools): hosts other than its own ignore it";
    assert_eq!(
        warnings(&sk),
        [
            "when_to_use",
            "disable-model-invocation",
            "model",
            "argument-hint",
            "user-invocable"
        ]
        .iter()
        .enumerate()
        .map(|(i, f)| format!("line {}, field \"{f}\": {unknown}", i + 5))
        .collect::<Vec<_>>()
    );
    // metadata: a mapping of strings, or a warning (the value is kept)
    assert!(skill(&format!(
        "{HEAD}metadata:\n  author: me\n  version: \"1.0\"\n---\n"
    ))
    .warnings
    .is_empty());
    let sk = skill(&format!(
        "{HEAD}metadata:\n  version: 1.0\n  tags: [a, b]\n---\n"
    ));
    assert_eq!(
        warnings(&sk),
        ["line 4, field \"metadata\": should map strings to strings, as the specification asks"]
    );
    assert_eq!(
        sk.frontmatter[2].1,
        obj(vec![
            ("version", n(1.0)),
            ("tags", arr(vec![s("a"), s("b")]))
        ])
    );
}

#[test]
fn allowed_tools() {
    let at = |v: &str| skill(&format!("{HEAD}allowed-tools: {v}\n---\n"));
    assert_eq!(
        at("Read Bash(git status:*) Bash(npm test)").allowed_tools,
        tools(&[
            ("Read", None),
            ("Bash", Some("git status:*")),
            ("Bash", Some("npm test"))
        ])
    );
    assert_eq!(
        at("Read, Grep,Glob ,, ").allowed_tools,
        tools(&[("Read", None), ("Grep", None), ("Glob", None)])
    );
    assert_eq!(
        at("Bash(git diff:*), Bash(npm run test, lint) Write").allowed_tools,
        tools(&[
            ("Bash", Some("git diff:*")),
            ("Bash", Some("npm run test, lint")),
            ("Write", None)
        ])
    );
    assert_eq!(
        at("mcp__github__search").allowed_tools,
        tools(&[("mcp__github__search", None)])
    );
    assert_eq!(at("Bash()").allowed_tools, tools(&[("Bash", Some(""))]));
    assert_eq!(at("''").allowed_tools, Some(vec![]));
    assert!(at("Read").warnings.is_empty());
    let sk = skill(&format!(
        "{HEAD}allowed-tools:\n  - Read\n  - Bash(git diff:*)\n---\n"
    ));
    assert_eq!(
        sk.allowed_tools,
        tools(&[("Read", None), ("Bash", Some("git diff:*"))])
    );
    assert_eq!(
        warnings(&sk),
        ["line 4, field \"allowed-tools\": is a list: the specification asks for a space-delimited string, and some hosts ignore a list"]
    );
    assert_eq!(
        at("[Read, Grep]").allowed_tools,
        tools(&[("Read", None), ("Grep", None)])
    );
    // unbalanced parentheses: a tool named as written, with a warning
    let sk = at("Bash(git diff Read) x)");
    assert_eq!(
        sk.allowed_tools,
        tools(&[("Bash", Some("git diff Read")), ("x)", None)])
    );
    assert_eq!(
        warnings(&sk),
        ["line 4, field \"allowed-tools\": \"x)\" has unbalanced parentheses: read as a tool name"]
    );
    assert_eq!(at("Bash(git").allowed_tools, tools(&[("Bash(git", None)]));
    assert_eq!(at("(x)").allowed_tools, tools(&[("(x)", None)]));
    // empty: no tools, a warning; another type: an error
    let sk = skill(&format!("{HEAD}allowed-tools:\n---\n"));
    assert_eq!(sk.allowed_tools, Some(vec![]));
    assert_eq!(warnings(&sk), ["line 4, field \"allowed-tools\": is empty"]);
    let wrong = "line 4, field \"allowed-tools\": allowed-tools must be a string of tools (\"Read Grep Bash(git status:*)\") or a list of strings";
    assert_eq!(skill_err(&format!("{HEAD}allowed-tools: 3\n---\n")), wrong);
    assert_eq!(
        skill_err(&format!("{HEAD}allowed-tools: {{Read: x}}\n---\n")),
        wrong
    );
    assert_eq!(
        skill_err(&format!("{HEAD}allowed-tools: [Read, 2]\n---\n")),
        wrong
    );
}

#[test]
fn strings_are_the_callers_exact_code_units() {
    // a lone surrogate in a plain value, a quoted one and a key
    let mut t = u("---\nname: a\ndescription: x");
    t.push(0xDC00);
    t.extend(u("y\n"));
    t.push(0xD800);
    t.extend(u(": 'q"));
    t.push(0xDBFF);
    t.extend(u("'\n---\n"));
    let sk = parse_skill(&t, None).unwrap();
    assert_eq!(sk.description, vec![0x78, 0xDC00, 0x79]);
    assert_eq!(
        sk.frontmatter[2],
        (vec![0xD800], Value::String(vec![0x71, 0xDBFF]))
    );
    // names are compared exactly, not trimmed
    let sk = parse_skill(
        &u("---\nname: \"a \"\ndescription: x\n---\n"),
        Some(&u("a")),
    )
    .unwrap();
    assert_eq!(sk.warnings.len(), 2);
}

#[test]
fn errors_carry_their_parts() {
    let e = parse_skill(&u("---\nname: a\ndescription: b: c\n---\n"), None).unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.field, Some(u("description")));
    assert_eq!(e.problem, Problem::ColonInPlain);
}

// ---------------------------------------------------------------- properties

/// A string written as a YAML double-quoted scalar, escaping what must be.
fn double_quoted(v: &[u16]) -> Vec<u16> {
    let mut out = vec![u16::from(b'"')];
    for &c in v {
        match c {
            0x22 => out.extend(u("\\\"")),
            0x5C => out.extend(u("\\\\")),
            0x0A => out.extend(u("\\n")),
            0x0D => out.extend(u("\\r")),
            0x09 => out.extend(u("\\t")),
            0x20 => out.push(0x20),
            0..=0x1F => out.extend(u(&format!("\\x{c:02X}"))),
            _ => out.push(c),
        }
    }
    out.push(u16::from(b'"'));
    out
}

/// Texts made of YAML's significant pieces, for the fuzzing below.
fn yamlish() -> impl Strategy<Value = Vec<u16>> {
    let piece = prop_oneof![
        Just("\n"),
        Just("\r\n"),
        Just(" "),
        Just("  "),
        Just("\t"),
        Just(":"),
        Just(": "),
        Just("- "),
        Just("#"),
        Just(" #"),
        Just("'"),
        Just("\""),
        Just("\\"),
        Just("["),
        Just("]"),
        Just("{"),
        Just("}"),
        Just(","),
        Just("|"),
        Just(">"),
        Just("|-"),
        Just(">+2"),
        Just("&"),
        Just("*"),
        Just("!"),
        Just("?"),
        Just("%"),
        Just("---"),
        Just("..."),
        Just("a"),
        Just("key"),
        Just("name"),
        Just("description"),
        Just("allowed-tools"),
        Just("1"),
        Just("0x"),
        Just(".inf"),
        Just("true"),
        Just("\\u"),
        Just("\\x4"),
        Just("Bash("),
        Just(")"),
        Just("é"),
        Just("😀"),
        Just("\u{feff}"),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|ps| u(&ps.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any string (lone surrogates included) comes back from a double-quoted description.
    #[test]
    fn any_string_survives_double_quotes(v in prop::collection::vec(any::<u16>(), 0..40)) {
        let mut t = u("---\nname: a\ndescription: ");
        t.extend(double_quoted(&v));
        t.extend(u("\n---\n"));
        let sk = parse_skill(&t, None).unwrap();
        prop_assert_eq!(sk.description, v);
    }

    /// The body is exactly what follows the closing line, whatever it holds.
    #[test]
    fn the_body_span_is_exact(
        body in prop::collection::vec(any::<u16>(), 0..40),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let nl = if crlf { "\r\n" } else { "\n" };
        let mut t = if bom { vec![0xFEFF] } else { vec![] };
        t.extend(u(&format!("---{nl}name: a{nl}description: b{nl}---{nl}")));
        let start = t.len();
        t.extend(&body);
        let sk = parse_skill(&t, None).unwrap();
        prop_assert_eq!(sk.body, (start, t.len()));
    }

    /// Plain words, quoted or not, read as themselves.
    #[test]
    fn plain_words_read_as_strings(w in "[a-z][a-z0-9 .,()/-]{0,30}[a-z]") {
        let sk = parse_skill(&u(&format!("---\nname: a\ndescription: {w}\n---\n")), None).unwrap();
        prop_assert_eq!(sk.description, u(&w));
    }

    /// Any decimal number reads as Rust's correctly rounded parser reads it.
    #[test]
    fn decimals_round_as_rust_parses_them(
        sign in "[-+]?", int in "[0-9]{0,25}", frac in prop::option::of("[0-9]{0,25}"),
        exp in prop::option::of(-400i32..400),
    ) {
        let mut t = format!("{sign}{int}");
        if let Some(f) = &frac {
            t += &format!(".{f}");
        }
        prop_assume!(t.trim_start_matches(['-', '+']).chars().any(|c| c.is_ascii_digit()));
        if let Some(e) = exp {
            t += &format!("e{e}");
        }
        same_number(&t);
    }

    /// No input panics; an error names a line of the text.
    #[test]
    fn no_panics_on_yamlish_texts(body in yamlish(), fence in any::<bool>()) {
        let mut t = if fence { u("---\n") } else { vec![] };
        t.extend(&body);
        if fence {
            t.extend(u("\n---\n"));
        }
        let lines = 1 + t.iter().filter(|&&c| c == 0x0A).count();
        match parse_skill(&t, Some(&u("a"))) {
            Ok(sk) => {
                prop_assert!(sk.body.0 <= sk.body.1 && sk.body.1 == t.len());
                prop_assert!(sk.warnings.iter().all(|w| w.line >= 1 && w.line <= lines));
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= lines, "line {} of {}", e.line, lines);
                prop_assert!(!e.message().is_empty());
            }
        }
    }

    /// Arbitrary code units do not panic either.
    #[test]
    fn no_panics_on_any_units(body in prop::collection::vec(any::<u16>(), 0..200)) {
        let mut t = u("---\n");
        t.extend(&body);
        t.extend(u("\n---\n"));
        if let Err(e) = parse_skill(&t, None) {
            prop_assert!(e.line >= 1);
        }
    }
}

/// Many fields: a field given twice is found wherever it is (the keys' table, not a scan),
/// in block and flow mappings and nested ones; each unknown field's warning carries its own
/// line (counted on from the field before, not from the text's start).
#[test]
fn many_fields() {
    // (The module draws the keys' seed at start; here two.)
    for seed in [0, 0x9E37_79B9] {
        for word in &tool_palette::skills::SEED {
            word.store(seed, std::sync::atomic::Ordering::Relaxed);
        }
        many_fields_once();
    }
}

fn many_fields_once() {
    let n = 5_000;
    let fields: Vec<String> = (0..n).map(|i| format!("k{i}: v")).collect();
    let sk = skill(&format!(
        "---\nname: many\ndescription: d.\n{}\n---\n",
        fields.join("\n")
    ));
    assert_eq!(sk.frontmatter.len(), n + 2);
    assert_eq!(sk.warnings.len(), n);
    for (i, w) in sk.warnings.iter().enumerate() {
        assert_eq!((w.line, text(&w.field)), (i + 4, format!("k{i}")));
        assert_eq!(w.departure, Departure::UnknownField);
    }
    for (first, second) in [(0, n - 1), (n / 2, n / 2 + 1), (n - 2, n - 1), (17, 4_000)] {
        let mut dup = fields.clone();
        dup[second] = format!("k{first}: again");
        let message = |yaml: &str| err(yaml);
        assert_eq!(
            message(&format!("{}\n", dup.join("\n"))),
            format!(
                "line {}, field \"k{first}\": the field appears twice: keep one",
                second + 2
            )
        );
        let nested: Vec<String> = dup.iter().map(|f| format!("  {f}")).collect();
        assert_eq!(
            message(&format!("a:\n{}\n", nested.join("\n"))),
            format!(
                "line {}, field \"k{first}\": the field appears twice: keep one",
                second + 3
            )
        );
        assert_eq!(
            message(&format!("a: {{{}}}\n", dup.join(", "))),
            format!("line 2, field \"k{first}\": the field appears twice: keep one")
        );
    }
    // Keys that differ only past a shared start, and equal by their text once unquoted.
    assert_eq!(
        err("a: 1\n\"a\": 2\n"),
        "line 3, field \"a\": the field appears twice: keep one"
    );
}
