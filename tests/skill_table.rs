//! SPEC 9, "Routing by skills", in the core: a SkillIndex's skills, their tools, the rows of
//! a turn, and the snapshot.

use tool_palette::names::{units, NameList};
use tool_palette::search::{
    snapshot::{self, SnapshotError},
    Fusion, NONE,
};
use tool_palette::skills::table::{dir_of, load, Row, Skills, SkillsError, LIMIT};

fn list(items: &[&str]) -> NameList {
    items.iter().collect()
}

fn md(name: &str, description: &str, extra: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n{extra}---\n{body}")
}

fn skills() -> Skills {
    let texts = [
        md(
            "pdf",
            "Extract text and tables from PDF files",
            "allowed-tools: Read Bash(pdftotext:*) Read\n",
            "Use pdftotext.",
        ),
        md(
            "notes",
            "Write meeting notes in markdown",
            "",
            "Headings, then bullets.",
        ),
        md(
            "deploy",
            "Deploy the site to production",
            "disable-model-invocation: true\nallowed-tools: Bash\n",
            "",
        ),
        md(
            "charts",
            "Draw charts from CSV data",
            "allowed-tools: [Plot]\n",
            "",
        ),
    ];
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut s = Skills::read(list(&texts), list(&["a/pdf/SKILL.md", "", "", ""])).unwrap();
    // Plot → the host's two chart tools; every other tool keeps its name.
    let (line, bar) = (units("line_chart"), units("bar_chart"));
    let mapped = vec![None, None, None, None, Some(vec![&line[..], &bar[..]])];
    s.resolve(&mapped, &list(&["notes"]));
    s
}

fn names(s: &Skills, rows: &[Row]) -> Vec<(String, Option<String>, bool)> {
    let text = |u: &[u16]| String::from_utf16(u).unwrap();
    rows.iter()
        .map(|r| {
            let tool = (r.tool != NONE).then(|| text(s.tools().get(r.tool as usize)));
            (text(&s.skill(r.skill as usize).name), tool, r.active)
        })
        .collect()
}

#[test]
fn rows_are_the_relevant_skills_tools_best_first() {
    let s = skills();
    let index = s.index();
    let rows = s.rows(
        &index,
        &units("extract the tables of this PDF"),
        None,
        None,
        3,
    );
    // Read once: a skill's tools are distinct, in its allowed-tools order.
    assert_eq!(
        names(&s, &rows)[..2],
        [
            ("pdf".into(), Some("Read".into()), true),
            ("pdf".into(), Some("Bash".into()), true)
        ]
    );
    // A skill without allowed-tools: one row without a tool; a disabled one (by the host's
    // list here): inactive.
    let rows = s.rows(&index, &units("meeting notes"), None, None, 1);
    assert_eq!(names(&s, &rows), [("notes".into(), None, false)]);
    // disable-model-invocation: true.
    let rows = s.rows(&index, &units("deploy to production"), None, None, 1);
    assert_eq!(
        names(&s, &rows),
        [("deploy".into(), Some("Bash".into()), false)]
    );
    // A mapped tool gives the host's names.
    let rows = s.rows(&index, &units("charts from CSV"), None, None, 1);
    assert_eq!(
        names(&s, &rows),
        [
            ("charts".into(), Some("line_chart".into()), true),
            ("charts".into(), Some("bar_chart".into()), true)
        ]
    );
    // Nothing ranked: no rows (the routing refuses, rule 3).
    assert!(s.rows(&index, &units("zebra"), None, None, 3).is_empty());
    assert!(s.rows(&index, &units("   "), None, None, 3).is_empty());
}

#[test]
fn history_fills_what_the_message_leaves() {
    let s = skills();
    let index = s.index();
    let history = units("draw charts from the CSV");
    let rows = s.rows(
        &index,
        &units("now do the same again"),
        None,
        Some(&history),
        3,
    );
    assert_eq!(names(&s, &rows)[0].0, "charts");
    // The message's own skills first; the history's after them, within the limit.
    let rows = s.rows(&index, &units("pdf tables"), None, Some(&history), 2);
    let skills: Vec<String> = names(&s, &rows).into_iter().map(|r| r.0).collect();
    assert_eq!(skills, ["pdf", "pdf", "charts", "charts"]);
    let rows = s.rows(&index, &units("pdf tables"), None, Some(&history), 1);
    assert!(names(&s, &rows).iter().all(|r| r.0 == "pdf"));
}

#[test]
fn reading_refuses_a_text_that_is_no_skill_and_a_name_twice() {
    let good = md("pdf", "d", "", "");
    let texts = list(&[&good, "no frontmatter"]);
    match Skills::read(texts, list(&["", "x/y/SKILL.md"])) {
        Err(SkillsError::Syntax(1, m)) => assert!(String::from_utf16(&m)
            .unwrap()
            .starts_with("x/y/SKILL.md: line 1: ")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        Skills::read(list(&[&good, &good]), list(&[])).err(),
        Some(SkillsError::Duplicate(1, 0, units("pdf")))
    );
}

#[test]
fn the_directory_is_the_path_s_last_folder() {
    let dir = |p: &str| dir_of(&units(p)).map(|d| String::from_utf16(d).unwrap());
    assert_eq!(dir("skills/pdf/SKILL.md").as_deref(), Some("pdf"));
    assert_eq!(dir("C:\\skills\\pdf\\SKILL.md").as_deref(), Some("pdf"));
    assert_eq!(dir("pdf/SKILL.md").as_deref(), Some("pdf"));
    assert_eq!(dir("SKILL.md"), None);
}

#[test]
fn a_snapshot_loads_as_the_index_saved_and_refuses_altered_bytes() {
    let s = skills();
    let index = s.index();
    let bytes = s.save(&index, &Fusion::default(), LIMIT);
    let (skills, inner) = load(bytes.clone()).unwrap();
    let loaded = snapshot::load(inner).unwrap();
    assert_eq!(skills.ranked_by(&loaded), Ok(()));
    for q in [
        "pdf tables",
        "meeting notes",
        "charts",
        "deploy production",
        "zebra",
    ] {
        let a = s.rows(&index, &units(q), None, None, 3);
        let b = skills.rows(&loaded.index, &units(q), None, None, 3);
        assert_eq!(names(&s, &a), names(&skills, &b), "{q}");
    }
    assert_eq!(loaded.limit, LIMIT);
    // Another index's ranking inside (a forged snapshot) is corrupt.
    let other = Skills::read(list(&[&md("zzz", "d", "", "")]), list(&[])).unwrap();
    let zzz = units("zzz");
    let inner = snapshot::save(
        &other.index(),
        std::iter::once(&zzz[..]),
        &Fusion::default(),
        3,
    );
    let forged = snapshot::load(inner).unwrap();
    assert_eq!(
        skills.ranked_by(&forged),
        Err(SnapshotError::Corrupt("the skills"))
    );
    let mut altered = bytes.clone();
    let last = altered.len() - 1;
    altered[last] ^= 1;
    assert_eq!(load(altered).err(), Some(SnapshotError::Checksum));
    assert_eq!(
        load(bytes[..30].to_vec())
            .err()
            .map(|e| matches!(e, SnapshotError::Truncated { .. })),
        Some(true)
    );
    assert_eq!(
        load(b"TPINDEX\0xxxxxxxxxxxxxxxxxxxxxxxx".to_vec()).err(),
        Some(SnapshotError::Foreign)
    );
    let mut longer = bytes;
    longer.push(0);
    assert!(matches!(load(longer), Err(SnapshotError::Trailing { .. })));
}

#[test]
fn refusals_name_a_skill_index() {
    use tool_palette::skills::table::{refusal, VERSION};
    let text = |e| String::from_utf16(&refusal(&e).1).unwrap();
    assert_eq!(
        text(SnapshotError::Foreign),
        " are not a SkillIndex snapshot (made by skills.save())"
    );
    assert_eq!(VERSION, 1, "the message says version 1");
    for (v, shown) in [(0, "0"), (7, "7"), (12, "12"), (4294967295, "4294967295")] {
        assert!(text(SnapshotError::Version(v)).starts_with(&format!(
            " are a SkillIndex snapshot of format version {shown}; "
        )));
    }
    assert!(
        refusal(&SnapshotError::Truncated { had: 1, needed: 24 }).0,
        "a size is a RangeError"
    );
}

#[test]
fn load_skill_picks_by_name_then_by_query_never_a_disabled_one() {
    use tool_palette::skills::table::Picked;
    let s = skills();
    let index = s.index();
    let pick = |name: Option<&str>, query: Option<&str>| {
        let (n, q) = (name.map(units), query.map(units));
        s.pick(&index, n.as_deref(), q.as_deref())
    };
    assert_eq!(pick(Some("pdf"), None), Picked::Skill(0));
    // Exactly: another case is a query.
    assert_eq!(pick(Some("PDF files"), None), Picked::Skill(0));
    assert_eq!(pick(None, Some("bar charts from csv")), Picked::Skill(3));
    // Disabled by the host's list (notes) or its author (deploy).
    assert_eq!(pick(Some("notes"), None), Picked::Disabled(1));
    assert_eq!(
        pick(None, Some("deploy to production")),
        Picked::Disabled(2)
    );
    assert_eq!(pick(None, Some("zebra")), Picked::Nothing);
    assert_eq!(pick(None, None), Picked::Nothing);
    assert_eq!(s.tool_indices(3).len(), 2);
    assert_eq!(s.tool_indices(1), Vec::<u32>::new());
}
