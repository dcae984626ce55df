use super::*;
use alloc::{string::String, vec, vec::Vec};

fn u(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn raw_tokens(text: &[u16], camel: bool) -> Vec<Vec<u16>> {
    raw_tokens_with(text, camel, true)
}

fn raw_tokens_with(text: &[u16], camel: bool, elide: bool) -> Vec<Vec<u16>> {
    let mut t = tokenize::Tokenizer::default();
    t.start();
    let mut out = Vec::new();
    while let Some(tok) = t.next(text, camel, elide) {
        out.push(tok.to_vec());
    }
    out
}

fn toks(s: &str) -> Vec<String> {
    raw_tokens(&u(s), true)
        .iter()
        .map(|t| String::from_utf16_lossy(t))
        .collect()
}

fn stem(s: &str) -> String {
    let mut w = u(s);
    let n = stem::stem(&mut w);
    String::from_utf16_lossy(&w[..n])
}

#[test]
fn identifiers_split() {
    assert_eq!(toks("getUserID"), ["get", "user", "id"]);
    assert_eq!(
        toks("HTMLParser v2.0 base64"),
        ["html", "parser", "v2", "base64"]
    );
    assert_eq!(toks("list_IDs URLs"), ["list", "ids", "urls"]);
    assert_eq!(
        toks("ChaDri.change_drink/x-y z"),
        ["cha", "dri", "change", "drink", "x", "y", "z"]
    );
    assert_eq!(
        toks("getV2Users 2FA S3Bucket"),
        ["get", "v2", "users", "2fa", "s3", "bucket"]
    );
    assert_eq!(
        toks("Events_3_BuyEventTickets 10 2024"),
        ["events", "buy", "event", "tickets"]
    );
    assert_eq!(toks("camelCase"), ["camel", "case"]);
    assert_eq!(raw_tokens(&u("camelCase"), false), [u("camelcase")]);
}

#[test]
fn non_ascii_letters_are_tokens() {
    assert_eq!(toks("Käärijä ÄRGER"), ["käärijä", "ärger"]);
    assert_eq!(toks("ПРИВЕТ мир, Ωμέγα"), ["привет", "мир", "ωμέγα"]);
    // Han and kana one by one; CJK and general punctuation separate.
    assert_eq!(toks("上海天气，カナ"), ["上", "海", "天", "气", "カ", "ナ"]);
    assert_eq!(
        toks("a\u{3000}b\u{2014}c\u{FEFF}d\u{A0}e"),
        ["a", "b", "c", "d", "e"]
    );
    assert_eq!(toks("Tôi cần"), ["tôi", "cần"]);
}

#[test]
fn surrogates_stay_exact() {
    // Unpaired surrogates are letters of their word, kept as they are.
    assert_eq!(
        raw_tokens(&[0x61, 0xD800, 0x62], true),
        [vec![0x61, 0xD800, 0x62]]
    );
    assert_eq!(
        raw_tokens(&[0xDC00, 0x20, 0xD800], true),
        [vec![0xDC00], vec![0xD800]]
    );
    // A pair stays a pair.
    assert_eq!(raw_tokens(&u("x\u{1F600}y"), true), [u("x\u{1F600}y")]);
}

#[test]
fn porter_matches_the_paper() {
    if !stem::PORTER {
        return;
    }
    for (w, s) in [
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("ties", "ti"),
        ("cats", "cat"),
        ("feed", "feed"),
        ("agreed", "agre"),
        ("plastered", "plaster"),
        ("motoring", "motor"),
        ("sing", "sing"),
        ("conflated", "conflat"),
        ("troubled", "troubl"),
        ("sized", "size"),
        ("hopping", "hop"),
        ("falling", "fall"),
        ("hissing", "hiss"),
        ("filing", "file"),
        ("happy", "happi"),
        ("sky", "sky"),
        ("relational", "relat"),
        ("conditional", "condit"),
        ("generalization", "gener"),
        ("oscillators", "oscil"),
        ("hopefulness", "hope"),
        ("goodness", "good"),
        ("allowance", "allow"),
        ("adoption", "adopt"),
        ("controlling", "control"),
        ("rolling", "roll"),
        ("weather", "weather"),
        ("connections", "connect"),
        ("connecting", "connect"),
    ] {
        assert_eq!(stem(w), s, "{w}");
    }
}

/// Compares with NLTK's PorterStemmer(mode=MARTIN_EXTENSIONS) over a word list, when
/// asked: `SEARCH_STEM_WORDS=words.txt SEARCH_STEM_EXPECTED=stems.txt cargo test -- --ignored`.
#[test]
#[ignore]
fn porter_matches_nltk() {
    if !stem::PORTER {
        return;
    }
    let words = std::fs::read_to_string(std::env::var("SEARCH_STEM_WORDS").unwrap()).unwrap();
    let expected = std::fs::read_to_string(std::env::var("SEARCH_STEM_EXPECTED").unwrap()).unwrap();
    let mut bad = Vec::new();
    for (w, e) in words.lines().zip(expected.lines()) {
        if stem(w) != e {
            bad.push(std::format!("{w}: {} != {e}", stem(w)));
        }
    }
    assert!(
        bad.is_empty(),
        "{} differ: {:?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn contractions_and_possessives_are_not_words() {
    // ASCII and typographic apostrophes; a suffix after a word, a negation's word before `'t`.
    assert_eq!(
        toks("What's the user's name?"),
        ["what", "the", "user", "name"]
    );
    assert_eq!(
        toks("What’s the user’s name"),
        ["what", "the", "user", "name"]
    );
    assert_eq!(
        toks("I'm sure we're done, they've, you'll, I'd, it's ALICE'S"),
        ["i", "sure", "we", "done", "they", "you", "i", "it", "alice"]
    );
    assert_eq!(toks("don't isn’t CAN'T won't"), Vec::<String>::new());
    // Not after a word, not a suffix, or not a whole token: kept.
    assert_eq!(toks("'s' 'd' 't"), ["s", "d", "t"]);
    assert_eq!(
        toks("O'Reilly rock'n'roll d'Artagnan"),
        ["o", "reilly", "rock", "n", "roll", "d", "artagnan"]
    );
    assert_eq!(toks("it'sOk the 90's s3's"), ["it", "s", "ok", "the", "s3"]);
    assert_eq!(toks("Ann't x'st"), ["x", "st"]);
    assert_eq!(toks("naïveté's n't"), ["naïveté"]);
    // Without `elide` (an older build's snapshot): as before.
    let raw: Vec<String> = raw_tokens_with(&u("What's don't"), true, false)
        .iter()
        .map(|t| String::from_utf16_lossy(t))
        .collect();
    assert_eq!(raw, ["what", "s", "don", "t"]);
}

#[test]
fn a_contraction_ranks_nothing() {
    let tools = vec![
        tool("get_weather", "The weather at a place."),
        tool("profile", "The user's profile, and what's in it."),
        tool("seconds", "Waits for n s."),
    ];
    let ix = index(&tools);
    assert_eq!(ranked(&ix, "What's the weather?", 5), [0]);
    assert_eq!(ranked(&ix, "What’s the weather?", 5), [0]);
    assert_eq!(ranked(&ix, "user's profile", 5), [1]);
    // `s` on its own is still a word.
    assert_eq!(ranked(&ix, "n s", 5), [2]);
}

#[test]
fn older_snapshots_keep_their_contractions() {
    let tools = vec![
        tool("get_weather", "The weather at a place."),
        tool("profile", "The user's profile."),
    ];
    // What a build before `elide` made: the same index with contractions as words.
    let p = Params {
        elide: false,
        ..Params::default()
    };
    let texts: Vec<Vec<(Field, &[u16])>> = tools
        .iter()
        .map(|t| t.texts.iter().map(|(f, s)| (*f, s.as_slice())).collect())
        .collect();
    let docs: Vec<ToolDoc> = (tools.iter().zip(&texts))
        .map(|(t, x)| ToolDoc {
            name: &t.name,
            texts: x,
        })
        .collect();
    let old = Index::build_with(&docs, p, false);
    let bytes = saved(&old, &tools);
    // Its options word (after the limit, weights, b and k1) lacks flag 16.
    assert_eq!(bytes[72] & 16, 0);
    assert_eq!(saved(&index(&tools), &tools)[72] & 16, 16);
    let back = snapshot::load(bytes).unwrap().index;
    assert!(!back.params.elide);
    // It ranks as the build that saved it did: `s` is a word there.
    assert_eq!(ranked(&old, "What's the weather?", 5), [0, 1]);
    assert_eq!(ranked(&back, "What's the weather?", 5), [0, 1]);
    assert_eq!(ranked(&index(&tools), "What's the weather?", 5), [0]);
}

#[test]
fn stop_words_and_stems_are_terms() {
    let mut w = u("the");
    assert_eq!(tokenize::normalize(&mut w, true, true), None);
    assert_eq!(tokenize::normalize(&mut w, false, true), Some(3));
    let mut w = u("running");
    assert_eq!(tokenize::normalize(&mut w, true, true), Some(3));
    assert_eq!(&w[..3], &u("run")[..]);
    // Non-ASCII tokens are neither stop words nor stemmed.
    let mut w = u("héllos");
    assert_eq!(tokenize::normalize(&mut w, true, true), Some(6));
}

#[test]
fn ln_is_accurate() {
    for x in [
        1.0,
        1.5,
        2.0,
        core::f64::consts::E,
        10.0,
        1234.5,
        1e9,
        0.001,
    ] {
        let want = std::primitive::f64::ln(x);
        assert!(
            (math::ln(x) - want).abs() < 1e-12 * want.abs().max(1.0),
            "{x}"
        );
    }
}

// ---- the index --------------------------------------------------------------------------

struct Tool {
    name: Vec<u16>,
    texts: Vec<(Field, Vec<u16>)>,
}

fn tool(name: &str, description: &str) -> Tool {
    Tool {
        name: u(name),
        texts: vec![(Field::Description, u(description))],
    }
}

fn index(tools: &[Tool]) -> Index {
    built(tools, false)
}

/// The index of `tools`, built to explain.
fn explaining(tools: &[Tool]) -> Index {
    built(tools, true)
}

fn built(tools: &[Tool], explain: bool) -> Index {
    let texts: Vec<Vec<(Field, &[u16])>> = tools
        .iter()
        .map(|t| t.texts.iter().map(|(f, s)| (*f, s.as_slice())).collect())
        .collect();
    let docs: Vec<ToolDoc> = tools
        .iter()
        .zip(&texts)
        .map(|(t, x)| ToolDoc {
            name: &t.name,
            texts: x,
        })
        .collect();
    Index::build_with(&docs, Params::default(), explain)
}

fn ranked(ix: &Index, q: &str, limit: usize) -> Vec<u32> {
    let mut out = Vec::new();
    ix.search(&u(q), limit, &mut out);
    out.iter().map(|h| h.tool).collect()
}

fn weather_tools() -> Vec<Tool> {
    vec![
        tool(
            "get_current_weather",
            "Retrieves the current weather conditions for a location.",
        ),
        tool("send_email", "Sends an email message to a recipient."),
        tool("forecast", "Weather forecast for the next days."),
        tool("uber.ride", "Books an Uber ride to a destination."),
    ]
}

#[test]
fn finds_and_ranks() {
    let ix = index(&weather_tools());
    assert_eq!(ix.len(), 4);
    assert_eq!(ranked(&ix, "What's the weather like in Hanoi?", 5), [0, 2]);
    assert_eq!(ranked(&ix, "please email my boss", 5), [1]);
    assert_eq!(ranked(&ix, "I need an UBER RIDES", 5), [3]);
    // A form only the query has still meets its stem.
    assert_eq!(ranked(&ix, "emailing", 5), [1]);
    // The name weighs more than the description.
    assert_eq!(ranked(&ix, "forecast", 5), [2]);
}

#[test]
fn blank_or_unmatched_queries_give_nothing() {
    let ix = index(&weather_tools());
    for q in [
        "",
        "   \t\n",
        "?!.,;",
        "the of and to",
        "xylophone zebra",
        "2024 10",
    ] {
        assert_eq!(ranked(&ix, q, 5), Vec::<u32>::new(), "{q:?}");
    }
    let empty = index(&[]);
    assert!(empty.is_empty());
    assert_eq!(ranked(&empty, "weather", 5), Vec::<u32>::new());
}

#[test]
fn limit_and_ties() {
    // Identical tools tie: registration order.
    let tools: Vec<Tool> = (0..7).map(|_| tool("lookup", "Looks a word up.")).collect();
    let ix = index(&tools);
    assert_eq!(ranked(&ix, "lookup", 3), [0, 1, 2]);
    assert_eq!(ranked(&ix, "lookup", 100), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(ranked(&ix, "lookup", 0), Vec::<u32>::new());
    let mut out = Vec::new();
    ix.search(&u("lookup"), 7, &mut out);
    assert!(out.iter().all(|h| h.score == out[0].score && h.score > 0.0));
    // The output vector is cleared first.
    ix.search(&u("nothing"), 7, &mut out);
    assert!(out.is_empty());
}

#[test]
fn results_are_distinct_whatever_the_query_repeats() {
    let ix = index(&weather_tools());
    let got = ranked(
        &ix,
        "weather Weather WEATHER weathers current currently getCurrentWeather",
        10,
    );
    let mut sorted = got.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), got.len());
    assert_eq!(got[0], 0);
}

#[test]
fn names_are_exact_utf16() {
    let tools = vec![
        Tool {
            name: vec![0x61, 0xD800],
            texts: Vec::new(),
        },
        Tool {
            name: vec![0x61, 0xDC00],
            texts: Vec::new(),
        },
        Tool {
            name: vec![0x61, 0xFFFD],
            texts: Vec::new(),
        },
    ];
    let ix = index(&tools);
    let search = |q: &[u16]| {
        let mut out = Vec::new();
        ix.search(q, 5, &mut out);
        out.iter().map(|h| h.tool).collect::<Vec<_>>()
    };
    assert_eq!(search(&[0x61, 0xD800]), [0]);
    assert_eq!(search(&[0x41, 0xDC00]), [1]);
    assert_eq!(search(&[0x61, 0xFFFD]), [2]);
    assert_eq!(search(&[0x61]), Vec::<u32>::new());
}

#[test]
fn zero_weight_fields_and_odd_params_stay_sane() {
    let tools = weather_tools();
    let texts: Vec<Vec<(Field, &[u16])>> = tools
        .iter()
        .map(|t| t.texts.iter().map(|(f, s)| (*f, s.as_slice())).collect())
        .collect();
    let docs: Vec<ToolDoc> = tools
        .iter()
        .zip(&texts)
        .map(|(t, x)| ToolDoc {
            name: &t.name,
            texts: x,
        })
        .collect();
    for p in [
        Params {
            weight: [0.0, 1.0, 1.0, 1.0, 1.0],
            ..Params::default()
        },
        Params {
            weight: [f32::NAN, f32::INFINITY, -1.0, 0.0, 1e30],
            ..Params::default()
        },
        Params {
            b: [2.0; FIELDS],
            k1: -5.0,
            ..Params::default()
        },
        Params {
            k1: f32::NAN,
            ..Params::default()
        },
    ] {
        let ix = Index::build_with(&docs, p, false);
        let mut out = Vec::new();
        ix.search(&u("weather uber email current ride"), 10, &mut out);
        let mut seen: Vec<u32> = out.iter().map(|h| h.tool).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), out.len());
        assert!(out.iter().all(|h| h.score > 0.0));
    }
}

// ---- random inputs, and a naive model of the ranking -----------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A text biased towards what matters: a small alphabet of letters (so words repeat),
    /// case, digits, separators, surrogates, CJK, and now and then any code unit.
    fn text(&mut self, max: usize) -> Vec<u16> {
        const PIECES: &[&str] = &[
            "a", "b", "ab", "ing", "s", "ed", "the", "x", "A", "B", "1", "_", " ", "-", ".", "é",
            "É", "上", "\u{3000}",
        ];
        let n = self.below(max + 1);
        let mut t = Vec::new();
        while t.len() < n {
            match self.below(10) {
                0 => t.push(self.next() as u16),
                1 => t.push(0xD800 + self.below(0x800) as u16),
                _ => t.extend(u(PIECES[self.below(PIECES.len())])),
            }
        }
        t
    }
}

/// A text's terms, by the same tokenizer, in order.
fn naive_terms(text: &[u16], p: &Params) -> Vec<Vec<u16>> {
    raw_tokens_with(text, p.camel, p.elide)
        .into_iter()
        .filter_map(|mut t| tokenize::normalize(&mut t, p.stop, p.stem).map(|n| t[..n].to_vec()))
        .collect()
}

/// Per tool and field, the terms of its texts.
fn naive_fields(tools: &[Tool], p: &Params) -> Vec<[Vec<Vec<u16>>; FIELDS]> {
    tools
        .iter()
        .map(|t| {
            let mut f: [Vec<Vec<u16>>; FIELDS] = Default::default();
            f[0] = naive_terms(&t.name, p);
            for (field, text) in &t.texts {
                f[*field as usize].extend(naive_terms(text, p));
            }
            f
        })
        .collect()
}

/// The ranking computed the obvious way: per tool and field, count the query's terms
/// (normalised by the same tokenizer) and apply BM25F.
fn naive(tools: &[Tool], query: &[u16], p: &Params) -> Vec<(u32, f32)> {
    let terms_of = |text: &[u16]| naive_terms(text, p);
    let fields = naive_fields(tools, p);
    let n = tools.len() as f32;
    let avg: Vec<f32> = (0..FIELDS)
        .map(|f| {
            let total: usize = fields.iter().map(|x| x[f].len()).sum();
            if total > 0 {
                total as f32 / n
            } else {
                1.0
            }
        })
        .collect();
    let mut q = terms_of(query);
    q.sort();
    q.dedup();
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let mut score = 0f32;
        for term in &q {
            let df = fields
                .iter()
                .filter(|x| x.iter().any(|v| v.contains(term)))
                .count();
            if df == 0 || !f.iter().any(|v| v.contains(term)) {
                continue;
            }
            let idf = math::ln(1.0 + (n as f64 - df as f64 + 0.5) / (df as f64 + 0.5)) as f32;
            let mut tf = 0f32;
            for k in 0..FIELDS {
                let c = f[k].iter().filter(|v| *v == term).count().min(63) as f32;
                tf += c * p.weight[k] / (1.0 - p.b[k] + p.b[k] * f[k].len() as f32 / avg[k]);
            }
            score += idf * tf / (p.k1 + tf);
        }
        if score > 0.0 {
            out.push((i as u32, score));
        }
    }
    out.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap().then(a.0.cmp(&b.0)));
    out
}

#[test]
fn random_inputs_match_the_naive_model() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let fields = [
        Field::Name,
        Field::Description,
        Field::ParamName,
        Field::ParamDescription,
        Field::ParamEnum,
    ];
    let mut hits = 0;
    for round in 0..300 {
        let tools: Vec<Tool> = (0..rng.below(12))
            .map(|_| Tool {
                name: rng.text(8),
                texts: (0..rng.below(4))
                    .map(|_| (fields[rng.below(FIELDS)], rng.text(30)))
                    .collect(),
            })
            .collect();
        let ix = index(&tools);
        let p = Params::default();
        for _ in 0..10 {
            let q = rng.text(20);
            let limit = rng.below(6);
            let mut out = Vec::new();
            ix.search(&q, limit, &mut out);
            let want = naive(&tools, &q, &p);
            assert_eq!(out.len(), want.len().min(limit), "round {round}");
            hits += out.len();
            for (h, w) in out.iter().zip(&want) {
                // Scores agree to float rounding; where two are that close, either order is right.
                let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1.0);
                assert!(
                    close(h.score as f32, w.1),
                    "round {round}: {:?} vs {:?}",
                    out,
                    want
                );
                if h.tool != w.0 {
                    let other = want
                        .iter()
                        .find(|x| x.0 == h.tool)
                        .expect("a tool the model ranks");
                    assert!(
                        close(other.1, w.1),
                        "round {round}: {:?} vs {:?}",
                        out,
                        want
                    );
                }
            }
            assert!(out.windows(2).all(|w| w[0].score >= w[1].score));
        }
    }
    assert!(hits > 1000, "the random texts should match often: {hits}");
}

#[test]
fn no_panic_on_any_input() {
    let mut rng = Rng(42);
    for _ in 0..200 {
        let tools: Vec<Tool> = (0..rng.below(20))
            .map(|_| Tool {
                name: (0..rng.below(10)).map(|_| rng.next() as u16).collect(),
                texts: vec![(
                    Field::Description,
                    (0..rng.below(50)).map(|_| rng.next() as u16).collect(),
                )],
            })
            .collect();
        let ix = index(&tools);
        for _ in 0..20 {
            let q: Vec<u16> = (0..rng.below(40)).map(|_| rng.next() as u16).collect();
            let mut out = Vec::new();
            ix.search(&q, rng.below(30), &mut out);
            assert!(out
                .iter()
                .all(|h| (h.tool as usize) < tools.len() && h.score > 0.0));
        }
    }
}

// ---- hybrid ranking ---------------------------------------------------------------------

fn with_vectors(tools: &[Tool], vs: &[Vec<f64>]) -> Index {
    vectored(index(tools), vs)
}

fn vectored(mut ix: Index, vs: &[Vec<f64>]) -> Index {
    let mut store = Vectors::new(vs[0].len());
    for v in vs {
        vectors::check(v, Some(store.dims())).unwrap();
        store.push(v);
    }
    ix.set_vectors(store).unwrap();
    ix
}

fn fused(ix: &Index, q: &str, v: &[f64], limit: usize) -> Vec<u32> {
    let mut out = Vec::new();
    ix.hybrid(&u(q), v, &Fusion::default(), limit, &mut out);
    out.iter().map(|h| h.tool).collect()
}

fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let n = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if n(a) == 0.0 || n(b) == 0.0 {
        0.0
    } else {
        dot / n(a) / n(b)
    }
}

#[test]
fn vectors_are_checked() {
    assert_eq!(vectors::check(&[1.0, 2.0], None), Ok(()));
    assert_eq!(
        vectors::check(&[], None),
        Err(VectorError::Length {
            expected: 0,
            got: 0
        })
    );
    assert_eq!(
        vectors::check(&[1.0], Some(2)),
        Err(VectorError::Length {
            expected: 2,
            got: 1
        })
    );
    assert_eq!(
        vectors::check(&[1.0, f64::NAN], Some(2)),
        Err(VectorError::NotFinite { at: 1 })
    );
    assert_eq!(
        vectors::check(&[f64::NEG_INFINITY], None),
        Err(VectorError::NotFinite { at: 0 })
    );
    let mut ix = index(&weather_tools());
    assert_eq!(ix.set_vectors(Vectors::new(3)), Err(0));
    assert!(ix.vectors().is_none());
}

#[test]
fn cosines_are_close_to_exact_whatever_the_scale() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for dims in [1, 3, 16, 17, 384, 1000] {
        let mut value = || (rng.below(2001) as f64 - 1000.0) / 997.0;
        let vs: Vec<Vec<f64>> = (0..20)
            .map(|_| (0..dims).map(|_| value()).collect())
            .collect();
        let exact_q: Vec<f64> = (0..dims).map(|_| value()).collect();
        // Huge components (their squares overflow) have a direction all the same.
        let q: Vec<f64> = exact_q.iter().map(|x| x * 1e300).collect();
        let mut store = Vectors::new(dims);
        for v in &vs {
            store.push(v);
        }
        assert_eq!(store.bytes_per_vector(), dims.div_ceil(16) * 16 + 4);
        let mut scores = Vec::new();
        assert!(store.cosines(&q, &mut Default::default(), &mut scores));
        for (v, &s) in vs.iter().zip(&scores) {
            let exact = cosine(v, &exact_q);
            assert!(
                (f64::from(s) - exact).abs() < 0.02,
                "{dims}: {s} vs {exact}"
            );
        }
        // A zero query has no direction.
        assert!(!store.cosines(&vec![0.0; dims], &mut Default::default(), &mut scores));
        // Tiny tools' vectors (1 / max overflows) keep their directions too.
        let mut tiny = Vectors::new(dims);
        for v in &vs {
            tiny.push(&v.iter().map(|x| x * 1e-309).collect::<Vec<_>>());
        }
        let mut small = Vec::new();
        assert!(tiny.cosines(&exact_q, &mut Default::default(), &mut small));
        for (v, &s) in vs.iter().zip(&small) {
            let exact = cosine(v, &exact_q);
            assert!(
                (f64::from(s) - exact).abs() < 0.02,
                "{dims}, tiny: {s} vs {exact}"
            );
        }
    }
}

#[test]
fn hybrid_fuses_both_rankings() {
    let tools = weather_tools();
    // Vectors: the query's "direction" is closest to uber.ride, then forecast.
    let vs = vec![
        vec![0.0, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
        vec![0.6, 0.8, 0.0],
        vec![1.0, 0.0, 0.0],
    ];
    let ix = with_vectors(&tools, &vs);
    assert_eq!(ix.vectors().map(Vectors::dims), Some(3));
    // No shared word: the vector alone ranks, best cosine first, every tool (depth ≥ 4).
    assert_eq!(fused(&ix, "zzz", &[1.0, 0.1, 0.0], 5), [3, 2, 0, 1]);
    // Lexical [0, 2] (tool 2's score a fraction r of tool 0's), embedding [3, 2, 0, 1]:
    // 1/31 + 1/33 > r/32 + 1/32 > 1/31 > 1/34.
    assert_eq!(fused(&ix, "weather", &[1.0, 0.3, 0.0], 5), [0, 2, 3, 1]);
    // Lexical [0, 2], embedding [2, 0, 3, 1]: first lexically beats first by the vector.
    assert_eq!(fused(&ix, "weather", &[0.7, 0.7, 0.0], 2), [0, 2]);
    // Weighted towards the embedding (and a small k), its first place wins:
    // r/3 + 2/2 > 1/2 + 2/3 for r > 1/2.
    let embedding_first = Fusion {
        k: 1.0,
        lexical: 1.0,
        embedding: 2.0,
        ..Fusion::default()
    };
    let mut out = Vec::new();
    ix.hybrid(
        &u("weather"),
        &[0.7, 0.7, 0.0],
        &embedding_first,
        2,
        &mut out,
    );
    assert_eq!(out.iter().map(|h| h.tool).collect::<Vec<_>>(), [2, 0]);
    // Without a direction (a zero vector), or without vectors, it is the lexical ranking.
    assert_eq!(
        fused(&ix, "weather", &[0.0, 0.0, 0.0], 5),
        ranked(&ix, "weather", 5)
    );
    let plain = index(&tools);
    let mut out = Vec::new();
    plain.hybrid(
        &u("weather"),
        &[1.0, 0.0, 0.0],
        &Fusion::default(),
        5,
        &mut out,
    );
    assert_eq!(out.iter().map(|h| h.tool).collect::<Vec<_>>(), [0, 2]);
    // A blank query, or limit 0, gives nothing.
    for q in ["", "  \n", "?!"] {
        assert_eq!(fused(&ix, q, &[1.0, 0.0, 0.0], 5), Vec::<u32>::new());
    }
    assert_eq!(
        fused(&ix, "weather", &[1.0, 0.0, 0.0], 0),
        Vec::<u32>::new()
    );
    // Digits are words to a vector.
    assert_eq!(fused(&ix, "2024", &[1.0, 0.0, 0.0], 1), [3]);
}

#[test]
fn hybrid_ties_keep_registration_order() {
    let tools: Vec<Tool> = (0..6).map(|_| tool("lookup", "Looks a word up.")).collect();
    let vs: Vec<Vec<f64>> = (0..6).map(|_| vec![1.0, 2.0]).collect();
    let ix = with_vectors(&tools, &vs);
    assert_eq!(fused(&ix, "lookup", &[1.0, 2.0], 4), [0, 1, 2, 3]);
    assert_eq!(fused(&ix, "nothing", &[2.0, 1.0], 6), [0, 1, 2, 3, 4, 5]);
}

/// The fusion computed the obvious way, from the lexical ranking and the cosines.
fn naive_fusion(ix: &Index, q: &[u16], v: &[f64], f: &Fusion, limit: usize) -> Vec<u32> {
    let depth = f.depth.max(limit);
    let embedding_depth = f.embedding_depth.max(limit);
    let mut lexical = Vec::new();
    ix.search(q, depth, &mut lexical);
    let mut cos = Vec::new();
    let store = ix.vectors().unwrap();
    // In f32, as the core adds them (lexical first): near-ties then break the same way.
    let rrf = |w: f32, r: usize| w / (f.k + r as f32 + 1.0);
    let mut score = vec![0f32; ix.len()];
    for (r, h) in lexical.iter().enumerate() {
        let weight = f.lexical * (h.score / lexical[0].score) as f32;
        score[h.tool as usize] += rrf(weight, r).max(f32::MIN_POSITIVE);
    }
    if store.cosines(v, &mut Default::default(), &mut cos) {
        let mut order: Vec<u32> = (0..ix.len() as u32).collect();
        order.sort_by(|&a, &b| cos[b as usize].total_cmp(&cos[a as usize]).then(a.cmp(&b)));
        for (r, &t) in order.iter().take(embedding_depth).enumerate() {
            score[t as usize] += rrf(f.embedding, r);
        }
    }
    let mut order: Vec<u32> = (0..ix.len() as u32)
        .filter(|&t| score[t as usize] > 0.0)
        .collect();
    order.sort_by(|&a, &b| {
        score[b as usize]
            .total_cmp(&score[a as usize])
            .then(a.cmp(&b))
    });
    order.truncate(limit);
    order
}

#[test]
fn random_hybrid_queries_match_the_naive_fusion() {
    let mut rng = Rng(0x00DD_BA11_5EED_0002);
    for round in 0..60 {
        let n = 1 + rng.below(40);
        let dims = 1 + rng.below(40);
        let tools: Vec<Tool> = (0..n)
            .map(|i| Tool {
                name: u(&alloc::format!("t{i}")),
                texts: vec![(Field::Description, rng.text(30))],
            })
            .collect();
        // Few distinct components, so cosines tie now and then.
        let value = |rng: &mut Rng| rng.below(5) as f64 - 2.0;
        let vs: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..dims).map(|_| value(&mut rng)).collect())
            .collect();
        let ix = with_vectors(&tools, &vs);
        let fusion = Fusion {
            depth: 1 + rng.below(12),
            embedding_depth: 1 + rng.below(12),
            ..Fusion::default()
        };
        for _ in 0..10 {
            let q = rng.text(20);
            let v: Vec<f64> = (0..dims).map(|_| value(&mut rng)).collect();
            let limit = rng.below(15);
            let mut out = Vec::new();
            ix.hybrid(&q, &v, &fusion, limit, &mut out);
            let got: Vec<u32> = out.iter().map(|h| h.tool).collect();
            let want = if tokenize::has_word(&q) {
                naive_fusion(&ix, &q, &v, &fusion, limit)
            } else {
                Vec::new()
            };
            assert_eq!(got, want, "round {round}");
            assert!(out.windows(2).all(|w| w[0].score >= w[1].score));
        }
    }
}

// ---- snapshots --------------------------------------------------------------------------

fn names_of(tools: &[Tool]) -> Vec<&[u16]> {
    tools.iter().map(|t| t.name.as_slice()).collect()
}

fn saved(ix: &Index, tools: &[Tool]) -> Vec<u8> {
    snapshot::save(ix, names_of(tools).into_iter(), &Fusion::default(), 7)
}

#[test]
fn snapshots_rank_exactly_as_the_saved_index() {
    let mut rng = Rng(0x5A4E_5A4E_0003);
    for round in 0..30 {
        let n = rng.below(30);
        let tools: Vec<Tool> = (0..n)
            .map(|_| Tool {
                name: rng.text(6),
                texts: vec![
                    (Field::Description, rng.text(30)),
                    (Field::ParamName, rng.text(8)),
                ],
            })
            .collect();
        let dims = 1 + rng.below(40);
        let vs: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..dims).map(|_| rng.below(9) as f64 - 4.0).collect())
            .collect();
        let ix = if n > 0 && round % 3 != 0 {
            with_vectors(&tools, &vs)
        } else {
            index(&tools)
        };
        let bytes = saved(&ix, &tools);
        let back = snapshot::load(bytes.clone()).unwrap();
        assert_eq!(back.limit, 7);
        assert_eq!(back.fusion, Fusion::default());
        let list = crate::names::NameList::from_parts(back.name_units, back.name_ends).unwrap();
        assert_eq!(list.iter().collect::<Vec<_>>(), names_of(&tools));
        assert_eq!(back.index.vectors(), ix.vectors());
        // Saved again, the same bytes.
        assert_eq!(saved(&back.index, &tools), bytes);
        for _ in 0..10 {
            let q = rng.text(20);
            let v: Vec<f64> = (0..dims).map(|_| rng.below(9) as f64 - 4.0).collect();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            ix.search(&q, 10, &mut a);
            back.index.search(&q, 10, &mut b);
            assert_eq!(a, b);
            ix.hybrid(&q, &v, &Fusion::default(), 10, &mut a);
            back.index.hybrid(&q, &v, &Fusion::default(), 10, &mut b);
            assert_eq!(a, b);
        }
    }
}

#[test]
fn snapshots_refuse_foreign_truncated_altered_and_other_versions() {
    use snapshot::SnapshotError as E;
    let tools = weather_tools();
    let vs: Vec<Vec<f64>> = (0..4).map(|i| vec![i as f64, 1.0, 2.0]).collect();
    let bytes = saved(&with_vectors(&tools, &vs), &tools);
    assert!(snapshot::load(bytes.clone()).is_ok());
    assert_eq!(
        snapshot::load(b"".to_vec()).err(),
        Some(E::Truncated { had: 0, needed: 24 })
    );
    assert_eq!(
        snapshot::load(b"{\"tools\": []}".to_vec()).err(),
        Some(E::Foreign)
    );
    assert_eq!(
        snapshot::load(b"TPIN".to_vec()).err(),
        Some(E::Truncated { had: 4, needed: 24 })
    );
    // Every prefix is refused, and every byte altered.
    for len in 0..bytes.len() {
        assert!(
            snapshot::load(bytes[..len].to_vec()).is_err(),
            "prefix {len}"
        );
    }
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let err = snapshot::load(b.clone()).err();
        assert!(err.is_some(), "byte {at}");
        if (24..bytes.len()).contains(&at) {
            assert_eq!(err, Some(E::Checksum), "byte {at}");
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        snapshot::load(longer.clone()),
        Err(E::Trailing { .. })
    ));
    let mut other = bytes.clone();
    other[8] = 9;
    assert_eq!(snapshot::load(other.clone()).err(), Some(E::Version(9)));
    // Content that breaks an invariant, its checksum made to match: corrupt, not a panic.
    let mut forged = bytes.clone();
    // The first row's first component: after the header, the limit, the weights and b,
    // k1, the flags, the fusion, the tools, the dimensions and the rows' length.
    let row = 24 + 4 + 4 * 10 + 4 + 4 + 20 + 4 + 4 + 4;
    assert_eq!(
        forged[row - 8..row - 4],
        3u32.to_le_bytes(),
        "the dimensions"
    );
    forged[row] ^= 0xFF;
    let sum = snapshot::checksum(&forged[24..]);
    forged[16..24].copy_from_slice(&sum.to_le_bytes());
    assert!(
        snapshot::load(forged.clone()).is_ok(),
        "a vector component is any i8"
    );
    // A limit of 0, and ranking constants out of their bounds (which made equal scores,
    // a tool twice, or infinite scores): each refused, its checksum made to match.
    let options = 24 + 4; // the weights, b, k1, the flags, then the fusion: k, lexical, embedding
    let fusion = options + 4 * 10 + 4 + 4;
    for (at, value) in [
        (24, 0u32),
        (options, (-1f32).to_bits()),
        (options + 4 * 5, 2f32.to_bits()),
        (options + 4 * 10, f32::NAN.to_bits()),
        (fusion, 0f32.to_bits()),
        (fusion + 4, 0f32.to_bits()),
        (fusion + 8, 3e38f32.to_bits()),
    ] {
        let mut forged = bytes.clone();
        forged[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let sum = snapshot::checksum(&forged[24..]);
        forged[16..24].copy_from_slice(&sum.to_le_bytes());
        assert!(
            matches!(snapshot::load(forged), Err(E::Corrupt(_))),
            "{at}: {value:#x}"
        );
    }
    // The postings, the snapshot's arrays before the (here empty) namespaces (tools, then
    // scores, each after its length): a tool out of range, or a score that is not finite
    // and above 0, refused; the last tool in range, and any finite positive score, loaded.
    let ix = with_vectors(&tools, &vs);
    let posted = ix.post_tool.len();
    let end = bytes.len() - 4;
    assert_eq!(bytes[end..], [0; 4], "no namespaces");
    let score = end - 4;
    let tool = end - 4 * posted - 8;
    assert_eq!(
        bytes[tool - 4 * posted..tool - 4 * posted + 4],
        (posted as u32).to_le_bytes(),
        "the tools' length"
    );
    for (at, value, ok) in [
        (tool, 3u32, true),
        (tool, 4, false),
        (tool, u32::MAX, false),
        (score, 1, true),
        (score, f32::MAX.to_bits(), true),
        (score, 0f32.to_bits(), false),
        (score, (-1f32).to_bits(), false),
        (score, f32::INFINITY.to_bits(), false),
        (score, f32::NAN.to_bits(), false),
    ] {
        let mut forged = bytes.clone();
        forged[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let sum = snapshot::checksum(&forged[24..]);
        forged[16..24].copy_from_slice(&sum.to_le_bytes());
        let err = snapshot::load(forged).err();
        let want = (!ok).then_some(E::Corrupt("the postings"));
        assert_eq!(err, want, "{at}: {value:#x}");
    }
}

#[test]
fn snapshots_of_random_bytes_never_panic() {
    let mut rng = Rng(0xB17E_5EED_0004);
    let tools = weather_tools();
    let bytes = saved(&index(&tools), &tools);
    for _ in 0..3000 {
        let mut b = bytes.clone();
        for _ in 0..1 + rng.below(4) {
            let at = 24 + rng.below(b.len() - 24);
            b[at] = rng.next() as u8;
        }
        // Forge the checksum, so the structural checks are what stands.
        let sum = snapshot::checksum(&b[24..]);
        b[16..24].copy_from_slice(&sum.to_le_bytes());
        if let Ok(s) = snapshot::load(b.clone()) {
            let mut out = Vec::new();
            s.index.search(&u("weather email uber"), 10, &mut out);
            assert!(out.iter().all(|h| (h.tool as usize) < s.index.len()));
        }
    }
}

#[test]
fn snapshot_errors_say_what_is_wrong() {
    use snapshot::SnapshotError as E;
    // A length field of 0xFFFFFFFF: truncated, by its full size (no wrap on 32 bits).
    let mut header = saved(&index(&[]), &[]);
    header[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let had = header.len();
    assert_eq!(
        snapshot::load(header).err(),
        Some(E::Truncated {
            had,
            needed: 24 + u64::from(u32::MAX)
        })
    );
    let (texts, numbers, range) = E::Truncated {
        had: 0,
        needed: 1024,
    }
    .words();
    assert_eq!(
        texts,
        [" are truncated: ", " bytes of the ", " the snapshot needs"]
    );
    assert_eq!((numbers, range), ([Some(0), Some(1024)], true));
    let (texts, numbers, range) = E::Version(3).words();
    assert!(texts[0].ends_with("format version ") && numbers[0] == Some(3) && !range);
    assert_eq!(E::Corrupt("the names").words().0[1], "the names");
}

/// `bytes` through `Incoming` in chunks of `size`: the bytes gathered, or why not.
fn streamed(bytes: &[u8], size: usize) -> Result<Vec<u8>, snapshot::SnapshotError> {
    let mut incoming = snapshot::Incoming::default();
    for chunk in bytes.chunks(size) {
        let head = incoming.head(chunk.len());
        let at = head.len();
        head.copy_from_slice(&chunk[..at]);
        incoming
            .body(chunk.len() - at)?
            .copy_from_slice(&chunk[at..]);
    }
    Ok(incoming.bytes())
}

#[test]
fn streamed_snapshots_gather_their_bytes_and_no_more() {
    use snapshot::SnapshotError as E;
    let bytes = saved(&index(&[tool("a", "alpha"), tool("b", "beta")]), &[]);
    for size in [1, 5, 23, 24, 25, 100, bytes.len()] {
        assert_eq!(streamed(&bytes, size).as_deref(), Ok(&bytes[..]), "{size}");
        assert_eq!(streamed(&bytes[..30], size).as_deref(), Ok(&bytes[..30]));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(streamed(&longer, size), Err(E::Longer(bytes.len() as u64)));
    }
    assert_eq!(streamed(&bytes[..10], 3).as_deref(), Ok(&bytes[..10]));
    assert_eq!(streamed(&[b'x'; 30], 7), Err(E::Foreign));
    let mut huge = bytes[..24].to_vec();
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        streamed(&huge, 24),
        Err(E::Announced(24 + u64::from(u32::MAX)))
    );
    let text: String = char::decode_utf16(E::Longer(1234).units())
        .map(|c| c.unwrap())
        .collect();
    assert_eq!(
        text,
        " are more than the 1234 of the snapshot they start with"
    );
}

// ---- namespaces and entries (SPEC 8) -----------------------------------------------------

/// Files (0-3), a math class (4-5) and two tools without a namespace (6-7).
fn namespaced() -> Index {
    let mut ix = index(&[
        tool("cd", "Change the current directory."),
        tool("ls", "List the files of the directory."),
        tool("sort", "Sort a file by line."),
        tool("mv", "Move a file to another directory."),
        tool("mean", "The mean of a list of numbers."),
        tool("add", "Add two numbers."),
        tool("weather", "The weather of a city."),
        tool("forecast", "The weather forecast of a city."),
    ]);
    assert!(ix.set_namespaces(vec![0, 0, 0, 0, 4, 4, NONE, NONE]));
    ix
}

fn ix_first(ix: &Index, q: &str) -> u32 {
    let mut hits = Vec::new();
    ix.search(&u(q), 1, &mut hits);
    hits[0].tool
}

fn entries_of(ix: &Index, q: &str, history: Option<&str>, limit: usize) -> Vec<u32> {
    entries_called(ix, q, history, &[], limit)
}

fn entries_called(
    ix: &Index,
    q: &str,
    history: Option<&str>,
    called: &[u32],
    limit: usize,
) -> Vec<u32> {
    let mut out = Vec::new();
    let history = history.map(u);
    ix.entries(&u(q), None, history.as_deref(), called, limit, &mut out);
    out
}

#[test]
fn entries_offer_the_turns_namespaces() {
    let ix = namespaced();
    // One message alone: the first hit's namespace (files, 4 tools) is larger than the
    // limit, so only its best tools come (those among the deep hits: sort alone matches).
    assert_eq!(entries_of(&ix, "sort by line", None, 1), [2]);
    // No larger than the limit: whole.
    assert_eq!(entries_of(&ix, "sort by line", None, 4), [2, 0, 1, 3]);
    assert_eq!(entries_of(&ix, "the mean", None, 2), [4, 5]);
    // In a run (with history, even an empty one: a run's first turn), a namespace the
    // ranking names is offered whole up to WHOLE_NAMESPACE tools.
    assert_eq!(entries_of(&ix, "sort by line", Some(""), 1), [2, 0, 1, 3]);
    assert_eq!(
        entries_of(&ix, "sort by line", Some("zzz"), 1),
        [2, 0, 1, 3]
    );
    // A tool without a namespace brings only itself.
    assert_eq!(entries_of(&ix, "forecast", None, 1), [7]);
    assert_eq!(entries_of(&ix, "weather city", Some("zzz"), 5), [6, 7]);
    // The history's namespaces come after the message's, each tool once.
    assert_eq!(
        entries_of(&ix, "the mean", Some("move the file"), 1),
        [4, 5, 0, 1, 2, 3]
    );
    // A message that ranks nothing gives nothing, whatever the history.
    assert_eq!(
        entries_of(&ix, "zzz", Some("move the file"), 5),
        Vec::<u32>::new()
    );
    // Without namespaces, entries is search.
    let plain = index(&weather_tools());
    for q in ["weather", "send an email", "ride", ""] {
        assert_eq!(
            entries_of(&plain, q, Some("weather"), 2),
            ranked(&plain, q, 2)
        );
    }
}

#[test]
fn a_namespace_is_the_turns_by_its_first_hit_or_its_share_of_the_hits() {
    // 0: no namespace; 1-3: one namespace; 4-5: another.
    let mut ix = index(&[
        tool("g", "gamma alpha"),
        tool("a1", "alpha"),
        tool("a2", "alpha"),
        tool("a3", "delta"),
        tool("b1", "alpha"),
        tool("b2", "zeta"),
    ]);
    assert!(ix.set_namespaces(vec![NONE, 1, 1, 1, 4, 4]));
    // A single message: the first hit has no namespace; of the first 3 hits (0, 1, 2), two
    // are of the first namespace: it is the turn's, whole (3 tools, no larger than the
    // limit); the other's hit (4, fourth) brings nothing.
    assert_eq!(entries_of(&ix, "gamma alpha", None, 3), [0, 1, 2, 3]);
    // Of the first 2 hits only one is of it: no namespace is the turn's.
    assert_eq!(entries_of(&ix, "gamma alpha", None, 2), [0, 1]);
    // In a run, a1 and a2 are two of the deep hits, fewer than RUN_CONCENTRATION (3), but
    // the lead namespace (that of the best-ranked of the first `limit` hits with one: a1's)
    // is the turn's: whole (3 tools, no larger than the limit at 3; at 2, holding `limit`
    // of the deep hits). The first hit stays: it scores more than FIRST_HIT_MARGIN times
    // a1. b1 ranks below the first `limit` hits: its namespace brings nothing.
    assert_eq!(entries_of(&ix, "gamma alpha", Some("zzz"), 3), [0, 1, 2, 3]);
    assert_eq!(entries_of(&ix, "gamma alpha", Some("zzz"), 2), [0, 1, 2, 3]);
    // At limit 1 the lead is looked for in the first hit alone, which has none.
    assert_eq!(entries_of(&ix, "gamma alpha", Some("zzz"), 1), [0]);
    // Called in, the namespace is the turn's, whole; the first hit stays though it has none.
    assert_eq!(
        entries_called(&ix, "gamma alpha", Some("zzz"), &[2], 2),
        [0, 1, 2, 3]
    );
}

#[test]
fn in_a_run_the_namespaces_called_in_come_whole() {
    let ix = namespaced();
    // At limit 2, "sort by line" ranks one tool of files (4 tools): fewer deep hits than
    // the limit, so its best tool alone ...
    assert_eq!(entries_of(&ix, "sort by line", Some(""), 2), [2]);
    // ... and whole once the run called in it (any of its tools).
    assert_eq!(
        entries_called(&ix, "sort by line", Some(""), &[0], 2),
        [2, 0, 1, 3]
    );
    // A namespace the run called in comes whole even when the message does not name it.
    assert_eq!(
        entries_called(&ix, "the mean", Some("zzz"), &[3], 2),
        [4, 5, 0, 1, 2, 3]
    );
    // Called tools without a namespace, or not the index's, bring nothing more; without a
    // history (not a run) the calls change nothing.
    assert_eq!(
        entries_called(&ix, "the mean", Some("zzz"), &[6, 99], 2),
        [4, 5]
    );
    assert_eq!(entries_called(&ix, "sort by line", None, &[0], 2), [2]);
    // A message that ranks nothing gives nothing, whatever the calls.
    assert_eq!(
        entries_called(&ix, "zzz", Some("move the file"), &[0], 5),
        Vec::<u32>::new()
    );
    // Without namespaces, entries is search.
    let plain = index(&weather_tools());
    for q in ["weather", "send an email", "ride", ""] {
        assert_eq!(
            entries_called(&plain, q, Some("weather"), &[0, 1], 2),
            ranked(&plain, q, 2)
        );
    }
    // A namespace larger than the limit with as many deep hits as the limit: whole.
    let tools: Vec<Tool> = (0..8)
        .map(|i| {
            tool(
                &alloc::format!("t{i}"),
                if i < 3 { "alpha" } else { "beta" },
            )
        })
        .collect();
    let mut ix = index(&tools);
    assert!(ix.set_namespaces(vec![0; 8]));
    assert_eq!(entries_of(&ix, "alpha", Some(""), 4), [0, 1, 2]);
    assert_eq!(entries_of(&ix, "alpha", Some(""), 3).len(), 8);
    assert_eq!(entries_called(&ix, "alpha", Some(""), &[7], 4).len(), 8);
}

#[test]
fn in_a_run_hits_without_a_namespace_give_way_to_the_turns_namespace() {
    let ix = namespaced();
    let single = entries_of(&ix, "the directory weather", None, 5);
    assert!(single.contains(&6), "{single:?}");
    // In a run standing in files (3 of the deep hits), the hits without a namespace are
    // left out, but for the message's first hit (weather: the rarer word, the shorter text) ...
    let run = entries_of(&ix, "the directory weather", Some(""), 5);
    assert_eq!(ix_first(&ix, "the directory weather"), 6);
    assert!(run.contains(&6) && !run.contains(&7), "{run:?}");
    assert!(run.contains(&0), "{run:?}");
    let q = "list the files of the directory, sort a file by line, weather";
    assert_eq!(ix_first(&ix, q), 2);
    let run = entries_of(&ix, q, Some(""), 5);
    assert!(!run.contains(&6) && !run.contains(&7), "{run:?}");
    // ... but kept when no namespace of the turn's ranks at all.
    assert_eq!(entries_of(&ix, "weather city", Some(""), 5), [6, 7]);
}

#[test]
fn in_a_run_the_first_hit_without_a_namespace_stays_when_it_clearly_leads() {
    let ix = namespaced();
    // "city directory": weather (city) ranks first, cd (directory, files) scores more than
    // 1 / FIRST_HIT_MARGIN of it: a near tie with the namespace the turn stands in, so the
    // first hit gives way too; "the directory weather" (the test above) ranks weather
    // more than FIRST_HIT_MARGIN times cd, and it stays.
    let score = |q: &str, t: u32| {
        let mut hits = Vec::new();
        ix.search(&u(q), 8, &mut hits);
        hits.iter().find(|h| h.tool == t).unwrap().score
    };
    assert!(score("city directory", 6) < FIRST_HIT_MARGIN * score("city directory", 0));
    let q = "the directory weather";
    assert!(score(q, 6) > FIRST_HIT_MARGIN * score(q, 0));
    assert_eq!(ix_first(&ix, "city directory"), 6);
    assert_eq!(entries_of(&ix, "city directory", Some(""), 5), [0, 1, 3, 2]);
    // A single message is ranked as before: the first hit stays.
    assert!(entries_of(&ix, "city directory", None, 5).contains(&6));
    // A run that called in a namespace stands in it: the hits without a namespace give way
    // though none of its tools ranks, but for the first hit (no deep hit of the turn's
    // namespaces to weigh it against).
    assert_eq!(
        entries_called(&ix, "weather city", Some(""), &[0], 5),
        [6, 0, 1, 2, 3]
    );
}

#[test]
fn in_a_hybrid_run_the_first_hit_without_a_namespace_stays() {
    // Fused scores are sums of reciprocal ranks: cd comes within FIRST_HIT_MARGIN of weather
    // (which a lexical run drops for "city directory"), but the margin is read on lexical
    // scores only, so with a vector the first hit stays.
    let ix = vectored(namespaced(), &vec![vec![1.0, 0.0]; 8]);
    let (q, v, fusion) = (u("city directory"), [1.0, 0.0], Fusion::default());
    let mut hits = Vec::new();
    ix.hybrid(&q, &v, &fusion, 20, &mut hits);
    assert_eq!(hits[0].tool, 6);
    let cd = hits.iter().find(|h| h.tool == 0).unwrap();
    assert!(hits[0].score < FIRST_HIT_MARGIN * cd.score);
    let mut out = Vec::new();
    ix.entries(&q, Some((&v, &fusion)), Some(&u("")), &[], 5, &mut out);
    assert!(out.contains(&6) && out.contains(&0), "{out:?}");
    // Without the vector, the lexical run's rows: weather gives way.
    assert_eq!(entries_of(&ix, "city directory", Some(""), 5), [0, 1, 3, 2]);
}

#[test]
fn large_namespaces_bring_their_best_tools() {
    let n = WHOLE_NAMESPACE as usize + 1;
    let tools: Vec<Tool> = (0..n)
        .map(|i| {
            tool(
                &alloc::format!("t{i}"),
                if i % 4 == 3 { "alpha" } else { "beta" },
            )
        })
        .collect();
    let mut ix = index(&tools);
    assert!(ix.set_namespaces(vec![0; n]));
    // Its tools among the first NAMESPACE_DEPTH x limit hits in a run, among the first
    // SINGLE_DEPTH x limit for a single message.
    assert_eq!(entries_of(&ix, "alpha", None, 1), [3, 7]);
    assert_eq!(entries_of(&ix, "alpha", None, 2), [3, 7, 11, 15]);
    assert_eq!(entries_of(&ix, "alpha", Some("zzz"), 1), [3, 7, 11, 15]);
    assert_eq!(entries_of(&ix, "alpha", Some("zzz"), 2).len(), 8);
    // One tool fewer: offered whole in a run.
    let mut ix = index(&tools[..n - 1]);
    assert!(ix.set_namespaces(vec![0; n - 1]));
    assert_eq!(entries_of(&ix, "alpha", Some("zzz"), 5).len(), n - 1);
}

#[test]
fn a_single_messages_near_hits_keep_their_places() {
    // Each tool its own namespace (a server of one tool): what a single message offers past
    // the limit are the hits among the first SINGLE_DEPTH x limit scoring at least NEAR_TIE
    // of the first hit's score.
    let tools = [
        tool("a", "zeta omega."),
        tool("b", "zeta omega."),
        tool("c", "zeta omega."),
        tool(
            "d",
            "omega, with many more words that the query does not share at all here.",
        ),
        tool("e", "zeta omega."),
    ];
    let mut ix = index(&tools);
    assert!(ix.set_namespaces(vec![0, 1, 2, 3, 4]));
    let mut hits = Vec::new();
    ix.search(&u("zeta omega"), 5, &mut hits);
    let order: Vec<u32> = hits.iter().map(|h| h.tool).collect();
    assert_eq!(order, [0, 1, 2, 4, 3]);
    assert!(hits[4].score < NEAR_TIE * hits[0].score, "{hits:?}");
    // Limit 1: the second hit ties the first (the ranking cannot tell them apart), so it
    // keeps its place; plain search at limit 1 gives the first alone.
    assert_eq!(entries_of(&ix, "zeta omega", None, 1), [0, 1]);
    // Limit 2: hits 3 and 4 tie too; hit 5 is past SINGLE_DEPTH x limit.
    assert_eq!(entries_of(&ix, "zeta omega", None, 2), [0, 1, 2, 4]);
    // Limit 3: hit 5 is near enough in rank but scores under NEAR_TIE of the first.
    assert_eq!(entries_of(&ix, "zeta omega", None, 3), [0, 1, 2, 4]);
    // "omega" alone: every hit ties or nearly, so the first 2 x limit hits come.
    let near = entries_of(&ix, "omega", None, 2);
    assert_eq!(near.len(), 4, "{near:?}");
    // In a run (a history, even empty) ties bring nothing: the run path is its own.
    assert_eq!(entries_of(&ix, "zeta omega", Some(""), 1), [0]);
    // Limit 0 offers nothing.
    assert!(entries_of(&ix, "zeta omega", None, 0).is_empty());
    // Without namespaces, entries is search: no ties either.
    let plain = index(&tools);
    assert_eq!(entries_of(&plain, "zeta omega", None, 1), [0]);
}

#[test]
fn a_single_messages_namespace_does_not_displace_near_hits() {
    // A server of 8 tools whose first tool is the message's first hit, and a tool of another
    // server that ranks right behind it with a close score: the other server's hit stays,
    // and the first server brings its tools among the first SINGLE_DEPTH x limit hits only.
    let mut tools = vec![tool("s0", "Export the report as a pdf file.")];
    for i in 1..8 {
        tools.push(tool(
            &alloc::format!("s{i}"),
            "Export the report, with options and many other words besides.",
        ));
    }
    tools.push(tool("other", "Export a pdf file."));
    let mut ix = index(&tools);
    assert!(ix.set_namespaces(vec![0, 0, 0, 0, 0, 0, 0, 0, 8]));
    let mut hits = Vec::new();
    ix.search(&u("export the report as pdf"), 4, &mut hits);
    assert_eq!(hits[0].tool, 0, "{hits:?}");
    let other = hits.iter().position(|h| h.tool == 8).expect("ranked");
    assert!(
        other >= 1 && hits[other].score >= NEAR_TIE * hits[0].score,
        "{hits:?}"
    );
    let rows = entries_of(&ix, "export the report as pdf", None, 1);
    assert!(rows.contains(&8), "{rows:?}");
    assert!(rows.len() <= SINGLE_DEPTH, "{rows:?}");
}

#[test]
fn namespaces_are_checked() {
    let mut ix = index(&weather_tools());
    assert!(!ix.set_namespaces(vec![0, 0, 0]), "one per tool");
    assert!(
        !ix.set_namespaces(vec![1, 1, NONE, NONE]),
        "a first after the tool"
    );
    assert!(
        !ix.set_namespaces(vec![NONE, 0, 0, 0]),
        "a first that is not its own"
    );
    assert!(ix.namespaces().is_empty());
    assert!(ix.set_namespaces(vec![0, 1, 0, NONE]));
    assert_eq!(ix.namespaces(), [0, 1, 0, NONE]);
}

#[test]
fn snapshots_refuse_forged_namespaces() {
    let tools: Vec<Tool> = [
        "cd", "ls", "sort", "mv", "mean", "add", "weather", "forecast",
    ]
    .iter()
    .map(|n| tool(n, ""))
    .collect();
    let bytes = saved(&namespaced(), &tools);
    // The last tool's first tool of its namespace, the snapshot's last word.
    let last = bytes.len() - 4;
    for (value, ok) in [(NONE, true), (7, true), (0, true), (5, false), (8, false)] {
        let mut forged = bytes.clone();
        forged[last..].copy_from_slice(&value.to_le_bytes());
        let sum = snapshot::checksum(&forged[24..]);
        forged[16..24].copy_from_slice(&sum.to_le_bytes());
        let err = snapshot::load(forged).err();
        let want = (!ok).then_some(snapshot::SnapshotError::Corrupt("the namespaces"));
        assert_eq!(err, want, "{value:#x}");
    }
}

#[test]
fn snapshots_keep_namespaces() {
    let ix = namespaced();
    let tools: Vec<Tool> = [
        "cd", "ls", "sort", "mv", "mean", "add", "weather", "forecast",
    ]
    .iter()
    .map(|n| tool(n, ""))
    .collect();
    let back = snapshot::load(saved(&ix, &tools)).unwrap().index;
    assert_eq!(back.namespaces(), ix.namespaces());
    assert_eq!(
        entries_of(&back, "sort by line", Some("the mean"), 1),
        [2, 0, 1, 3, 4, 5]
    );
    let plain = snapshot::load(saved(&index(&tools), &tools)).unwrap().index;
    assert!(plain.namespaces().is_empty());
}

// ---- explanations -----------------------------------------------------------------------

fn counts_of(ix: &Index) -> &Counts {
    ix.counts.as_ref().expect("an index built to explain")
}

/// `bytes` with the word at `at` set to `value`, and the header's length and checksum set.
fn forged(bytes: &[u8], at: usize, value: &[u8]) -> Vec<u8> {
    let mut forged = bytes.to_vec();
    forged[at..at + value.len()].copy_from_slice(value);
    let len = (forged.len() - 24) as u32;
    forged[12..16].copy_from_slice(&len.to_le_bytes());
    let sum = snapshot::checksum(&forged[24..]);
    forged[16..24].copy_from_slice(&sum.to_le_bytes());
    forged
}

#[test]
fn only_an_index_built_to_explain_keeps_counts_and_saves_them() {
    use snapshot::SnapshotError as E;
    let tools = weather_tools();
    let (plain, counted) = (index(&tools), explaining(&tools));
    let q = u("weather forecast");
    assert!(!plain.explains() && counted.explains());
    assert_eq!(plain.explain(&q, None, 5), None);
    assert!(plain.heap_bytes() < counted.heap_bytes());
    let mut hits = (Vec::new(), Vec::new());
    plain.search(&q, 5, &mut hits.0);
    counted.search(&q, 5, &mut hits.1);
    assert_eq!(hits.0, hits.1, "the same ranking");
    // The plain snapshot is the other's without its counts (the last section), flag 8 and
    // format 5: the bytes of format 4, which an older reader reads.
    let (bytes, with) = (saved(&plain, &tools), saved(&counted, &tools));
    const FLAGS: usize = 24 + 4 + 4 * 2 * FIELDS + 4;
    assert_eq!(with[FLAGS..FLAGS + 4], [7 | 8 | 16, 0, 0, 0]);
    assert_eq!((bytes[8], with[8]), (4, 5));
    let mut cut = forged(&with[..bytes.len()], FLAGS, &[7 | 16, 0, 0, 0]);
    cut[8] = 4;
    assert_eq!(cut, bytes);
    for (bytes, explains) in [(&bytes, false), (&with, true)] {
        let loaded = snapshot::load(bytes.clone()).unwrap().index;
        assert_eq!(loaded.explains(), explains);
        assert_eq!(
            loaded.explain(&q, None, 5),
            if explains {
                counted.explain(&q, None, 5)
            } else {
                None
            }
        );
    }
    // The flag without the counts or format 5, the counts without the flag: refused.
    cut = forged(&bytes, FLAGS, &[7 | 8, 0, 0, 0]);
    let flags = Some(E::Corrupt("the format's flags"));
    assert_eq!(snapshot::load(cut.clone()).err(), flags);
    cut = forged(&cut, 8, &[5, 0, 0, 0]);
    assert!(matches!(
        snapshot::load(cut),
        Err(E::Corrupt(_) | E::Truncated { .. })
    ));
    let unflagged = forged(&with, FLAGS, &[7, 0, 0, 0]);
    assert_eq!(snapshot::load(unflagged.clone()).err(), flags);
    let unflagged = forged(&unflagged, 8, &[4, 0, 0, 0]);
    assert_eq!(
        snapshot::load(unflagged).err(),
        Some(E::Corrupt("bytes after the last section"))
    );
    // The field frequencies (after their length, right after the plain snapshot's end): 0,
    // not 3 bits a field, or wide without a wide entry, refused; any 3 bits but 0, loaded.
    let tf = bytes.len() + 4;
    for (value, ok) in [
        (1u16, true),
        (0x7FFF, true),
        (0, false),
        (0x8000, false),
        (WIDE, false),
    ] {
        let err = snapshot::load(forged(&with, tf, &value.to_le_bytes())).err();
        let want = (!ok).then_some(E::Corrupt("the field counts"));
        assert_eq!(err, want, "frequencies {value:#x}");
    }
    // Field lengths of another count: refused.
    let short = forged(
        &with[..with.len() - 4],
        with.len() - 4 - 4 * FIELDS * tools.len(),
        &((FIELDS * tools.len() - 1) as u32).to_le_bytes(),
    );
    assert_eq!(
        snapshot::load(short).err(),
        Some(E::Corrupt("the field counts"))
    );
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1e-30)
}

/// Checks `explain` against the ranking it explains: the same hits (tools, scores, order),
/// lexical parts that add up to the lexical score (per term, the count `naive_fields`
/// finds in each field), fused parts that add up to the hybrid score.
fn check_explained(
    ix: &Index,
    tools: &[Tool],
    q: &[u16],
    vector: Option<(&[f64], &Fusion)>,
    limit: usize,
) -> Explanation {
    let p = ix.params;
    let ex = ix
        .explain(q, vector, limit)
        .expect("an index built to explain");
    let mut hits = Vec::new();
    match vector {
        Some((v, f)) => ix.hybrid(q, v, f, limit, &mut hits),
        None => ix.search(q, limit, &mut hits),
    }
    let got: Vec<Hit> = ex
        .hits
        .iter()
        .map(|x| Hit {
            tool: x.tool,
            score: x.score,
        })
        .collect();
    assert_eq!(got, hits, "the hits of the ranking explained");
    // The query's terms, each once, in order: those some tool has.
    let fields = naive_fields(tools, &p);
    let mut want: Vec<Vec<u16>> = Vec::new();
    for t in naive_terms(q, &p) {
        if !want.contains(&t) && fields.iter().any(|f| f.iter().any(|x| x.contains(&t))) {
            want.push(t);
        }
    }
    let terms: Vec<Vec<u16>> = ex.terms.iter().map(|&t| ix.term(t).to_vec()).collect();
    if !ex.hits.is_empty() {
        assert_eq!(terms, want, "the query's terms");
    }
    let mut lexical = Vec::new();
    ix.search(q, ix.len(), &mut lexical);
    let cosines = vector.and_then(|(v, _)| {
        let mut cos = Vec::new();
        let ok = ix.vectors()?.cosines(v, &mut Default::default(), &mut cos);
        ok.then_some(cos)
    });
    for (i, x) in ex.hits.iter().enumerate() {
        assert_eq!(x.rank as usize, i + 1);
        let t = x.tool as usize;
        match &x.lexical {
            None => assert!(lexical.iter().all(|h| h.tool != x.tool)),
            Some(l) => {
                let at = lexical.iter().position(|h| h.tool == x.tool).unwrap();
                assert_eq!((l.rank as usize, l.score), (at + 1, lexical[at].score));
                let sum: f64 = l.fields.iter().map(|f| f.score).sum();
                assert!(close(sum, l.score), "{sum} vs {}", l.score);
                assert!(!l.fields.is_empty());
                assert!(l
                    .fields
                    .windows(2)
                    .all(|w| (w[0].field as usize) < w[1].field as usize));
                for f in &l.fields {
                    assert!(!f.terms.is_empty());
                    let sum: f64 = f.terms.iter().map(|t| t.score).sum();
                    assert!(close(sum, f.score));
                    for part in &f.terms {
                        let term = &terms[part.term as usize];
                        let count = fields[t][f.field as usize]
                            .iter()
                            .filter(|x| *x == term)
                            .count();
                        assert_eq!(part.count as usize, count.min(63));
                        assert!(part.score > 0.0);
                    }
                }
            }
        }
        match (&cosines, vector) {
            (Some(cos), Some((_, fusion))) => {
                let v = x.vector.as_ref().unwrap();
                assert_eq!(v.similarity, f64::from(cos[t]));
                let better = (0..cos.len())
                    .filter(|&u| cos[u] > cos[t] || (cos[u] == cos[t] && u < t))
                    .count();
                assert_eq!(v.rank as usize, better + 1);
                let fused = x.fused.as_ref().unwrap();
                // In f32, as the fusion adds them: exactly the score.
                assert_eq!(
                    f64::from(fused.lexical as f32 + fused.vector as f32),
                    x.score
                );
                let (depth, embedding_depth) = fusion.depths(limit);
                let lexical_rank = x.lexical.as_ref().map_or(usize::MAX, |l| l.rank as usize);
                assert_eq!(fused.lexical > 0.0, lexical_rank <= depth);
                assert_eq!(fused.vector > 0.0, v.rank as usize <= embedding_depth);
            }
            _ => {
                assert_eq!((&x.vector, &x.fused), (&None, &None));
                assert_eq!(x.lexical.as_ref().map(|l| l.score), Some(x.score));
            }
        }
    }
    ex
}

#[test]
fn explanations_take_the_weather_apart() {
    let tools = weather_tools();
    let ix = explaining(&tools);
    let ex = check_explained(&ix, &tools, &u("Weather forecasts, please"), None, 5);
    let terms: Vec<String> = ex
        .terms
        .iter()
        .map(|&t| String::from_utf16_lossy(ix.term(t)))
        .collect();
    assert_eq!(terms, ["weather", "forecast"]);
    // "forecast": a name and its description's first words; "get_current_weather": its
    // name and its description.
    assert_eq!(ex.hits.iter().map(|x| x.tool).collect::<Vec<_>>(), [2, 0]);
    let shape = |x: &Explained| -> Vec<(Field, Vec<(u32, u32)>)> {
        let l = x.lexical.as_ref().unwrap();
        l.fields
            .iter()
            .map(|f| (f.field, f.terms.iter().map(|t| (t.term, t.count)).collect()))
            .collect()
    };
    assert_eq!(
        shape(&ex.hits[0]),
        [
            (Field::Name, vec![(1, 1)]),
            (Field::Description, vec![(0, 1), (1, 1)])
        ]
    );
    assert_eq!(
        shape(&ex.hits[1]),
        [
            (Field::Name, vec![(0, 1)]),
            (Field::Description, vec![(0, 1)])
        ]
    );
    // The name weighs twice the description (about, lengths aside).
    let parts = &ex.hits[1].lexical.as_ref().unwrap().fields;
    assert!(parts[0].score > 1.5 * parts[1].score);
    // Nothing to explain: nothing found.
    let none = Some(Explanation::default());
    assert_eq!(ix.explain(&u("zebra"), None, 5), none);
    assert_eq!(ix.explain(&u("weather"), None, 0), none);
}

#[test]
fn random_explanations_add_up() {
    let mut rng = Rng(0x0E8A_1A1D_5EED_0001);
    let mut explained = 0;
    for round in 0..150 {
        let tools: Vec<Tool> = (0..rng.below(12))
            .map(|_| Tool {
                name: rng.text(8),
                texts: (0..rng.below(4))
                    .map(|_| (Field::ALL[rng.below(FIELDS)], rng.text(30)))
                    .collect(),
            })
            .collect();
        let ix = explaining(&tools);
        for _ in 0..10 {
            let q = rng.text(20);
            let ex = check_explained(&ix, &tools, &q, None, rng.below(6));
            explained += ex.hits.len();
        }
        if round % 10 == 0 {
            // A loaded snapshot explains as the index saved.
            let loaded = snapshot::load(saved(&ix, &tools)).unwrap().index;
            let q = rng.text(20);
            assert_eq!(loaded.explain(&q, None, 5), ix.explain(&q, None, 5));
        }
    }
    assert!(
        explained > 500,
        "the random texts should match often: {explained}"
    );
}

#[test]
fn random_hybrid_explanations_add_up() {
    let mut rng = Rng(0x0E8A_1A1D_5EED_0002);
    let mut fused = 0;
    for round in 0..60 {
        let n = 1 + rng.below(40);
        let dims = 1 + rng.below(20);
        let tools: Vec<Tool> = (0..n)
            .map(|i| Tool {
                name: u(&alloc::format!("t{i}")),
                texts: vec![(Field::ALL[rng.below(FIELDS)], rng.text(30))],
            })
            .collect();
        let value = |rng: &mut Rng| rng.below(5) as f64 - 2.0;
        let vs: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..dims).map(|_| value(&mut rng)).collect())
            .collect();
        let ix = vectored(explaining(&tools), &vs);
        // Shallow depths now and then, so that parts beyond them are 0.
        let fusion = Fusion {
            depth: 1 + rng.below(12),
            embedding_depth: 1 + rng.below(12),
            ..Fusion::default()
        };
        for _ in 0..10 {
            let q = rng.text(20);
            let v: Vec<f64> = (0..dims).map(|_| value(&mut rng)).collect();
            let ex = check_explained(&ix, &tools, &q, Some((&v, &fusion)), rng.below(15));
            fused += ex.hits.iter().filter(|x| x.fused.is_some()).count();
        }
        if round % 10 == 0 {
            let loaded = snapshot::load(saved(&ix, &tools)).unwrap().index;
            let (q, v) = (u("a b"), vec![1.0; dims]);
            let f = Fusion::default();
            assert_eq!(
                loaded.explain(&q, Some((&v, &f)), 5),
                ix.explain(&q, Some((&v, &f)), 5)
            );
        }
    }
    assert!(fused > 500, "hybrid hits: {fused}");
}

#[test]
fn explanations_count_frequent_terms_exactly() {
    // Counts over 7 (a wide posting) and past 63 (saturated), beside small ones.
    let many = |word: &str, n: usize| vec![word; n].join(" ");
    let tools = vec![
        tool(
            "lookup",
            &alloc::format!("{} {}", many("lookup", 10), many("word", 70)),
        ),
        tool("word_count", "Counts a word."),
        tool("other", &many("lookup", 3)),
    ];
    let ix = explaining(&tools);
    assert_eq!(counts_of(&ix).wide.len(), 2, "two wide postings");
    for ix in [&ix, &snapshot::load(saved(&ix, &tools)).unwrap().index] {
        let ex = check_explained(ix, &tools, &u("word lookup"), None, 5);
        let counts = |tool: u32| -> Vec<(Field, Vec<u32>)> {
            let x = ex.hits.iter().find(|x| x.tool == tool).unwrap();
            let fields = &x.lexical.as_ref().unwrap().fields;
            fields
                .iter()
                .map(|f| (f.field, f.terms.iter().map(|t| t.count).collect()))
                .collect()
        };
        assert_eq!(
            counts(0),
            [(Field::Name, vec![1]), (Field::Description, vec![63, 10])]
        );
        assert_eq!(counts(2), [(Field::Description, vec![3])]);
    }
    // In a snapshot, a wide posting's frequencies of 0, or wide postings out of order or
    // not `WIDE`: corrupt.
    let bytes = saved(&ix, &tools);
    // The two wide frequencies, then their two postings, each after its length; then the
    // field lengths (5 a tool), last.
    let lens = bytes.len() - 4 * FIELDS * tools.len();
    let (at, freqs) = (lens - 4 - 8, lens - 4 - 8 - 4 - 8);
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let wide_at = &counts_of(&ix).wide_at;
    assert_eq!([word(at), word(at + 4)], [wide_at[0], wide_at[1]]);
    let (first, second) = (word(at), word(at + 4));
    for (place, value) in [
        (freqs, 0),
        (at, second),
        (at + 4, first),
        (at, second + 1),
        (at + 4, u32::MAX),
    ] {
        let mut forged = bytes.clone();
        forged[place..place + 4].copy_from_slice(&value.to_le_bytes());
        let sum = snapshot::checksum(&forged[24..]);
        forged[16..24].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(
            snapshot::load(forged).err(),
            Some(snapshot::SnapshotError::Corrupt("the field counts")),
            "{place}: {value}"
        );
    }
}
