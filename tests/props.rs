//! Property tests: the core against the naive model of the SPEC in tests/model/.
//!
//! Names are drawn from a small alphabet full of traps (JS whitespace that Rust's trim
//! disagrees with, unpaired surrogates, NUL, `__proto__`) so that collisions, trims and
//! duplicates happen often; a share of arbitrary code units keeps the rest honest.

mod model;

use model::{PolicySpec, RetrievalSpec, RowSpec, Script, Units, WhenSpec};
use proptest::prelude::*;
use tool_palette::names::{trim_bounds, NameList, NameSet};
use tool_palette::policy::Step;

const TRAPS: &[u16] = &[
    0x61, 0x62, 0x20, 0x09, 0xFEFF, 0x85, 0xA0, 0x3000, 0x2028, 0x180E, 0x200B, 0xD800, 0xDC00,
    0xD83D, 0xDE00, 0x00, 0x301, 0xFFFD,
];

fn unit() -> impl Strategy<Value = u16> {
    prop_oneof![
        8 => proptest::sample::select(TRAPS),
        1 => any::<u16>(),
    ]
}

fn name() -> impl Strategy<Value = Units> {
    prop_oneof![
        6 => proptest::collection::vec(unit(), 0..5),
        1 => Just("__proto__".encode_utf16().collect()),
        1 => Just("constructor".encode_utf16().collect()),
    ]
}

fn row() -> impl Strategy<Value = RowSpec> {
    prop_oneof![
        1 => Just(RowSpec::Inactive),
        1 => Just(RowSpec::NoCandidate),
        6 => name().prop_map(RowSpec::Candidate),
    ]
}

fn retrieval() -> impl Strategy<Value = RetrievalSpec> {
    prop_oneof![
        1 => Just(RetrievalSpec::NoLayer),
        1 => name().prop_map(RetrievalSpec::Failed),
        1 => name().prop_map(RetrievalSpec::TimedOut),
        1 => Just(RetrievalSpec::RowsNull),
        12 => proptest::collection::vec(row(), 0..24).prop_map(RetrievalSpec::Rows),
    ]
}

fn when() -> impl Strategy<Value = WhenSpec> {
    prop_oneof![
        2 => Just(WhenSpec::Any),
        2 => name().prop_map(WhenSpec::One),
        2 => proptest::collection::vec(name(), 0..4).prop_map(WhenSpec::Set),
    ]
}

fn policy() -> impl Strategy<Value = PolicySpec> {
    (
        name(),
        when(),
        proptest::option::of(name()),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(name, when, redirect_to, has_model, has_transform, has_guard)| PolicySpec {
                name,
                when,
                redirect_to,
                has_model,
                has_transform,
                has_guard,
            },
        )
}

fn script(n: usize) -> impl Strategy<Value = Script> {
    (
        proptest::collection::vec(any::<bool>(), n),
        proptest::collection::vec(any::<bool>(), n),
        any::<bool>(),
        proptest::option::of(name()),
        proptest::option::of(0..(2 * n + 3)),
    )
        .prop_map(|(matches, guards, resolver, rewrite, throw_at)| Script {
            matches,
            guards,
            resolver,
            rewrite,
            throw_at,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn routing_matches_the_model(
        registered in proptest::collection::vec(name(), 0..12),
        retrieval in retrieval(),
    ) {
        prop_assert_eq!(model::core_resolve(&registered, &retrieval), model::resolve(&registered, &retrieval));
    }

    #[test]
    fn routing_matches_the_model_when_rows_name_registered_tools(
        registered in proptest::collection::vec(name(), 1..12),
        picks in proptest::collection::vec((any::<prop::sample::Index>(), 0..3usize, 0..3usize, any::<bool>()), 1..24),
    ) {
        // Rows built from the registered names, padded with JS whitespace, so that the
        // routed branch (not only refusal 5) is exercised on most cases.
        let pad = [0x20u16, 0xFEFF, 0x3000];
        let rows = picks
            .iter()
            .map(|(i, before, after, active)| {
                if !active {
                    return RowSpec::Inactive;
                }
                let mut t = vec![pad[*before]; *before];
                t.extend_from_slice(&registered[i.index(registered.len())]);
                t.extend(std::iter::repeat(pad[*after]).take(*after));
                RowSpec::Candidate(t)
            })
            .collect();
        let retrieval = RetrievalSpec::Rows(rows);
        prop_assert_eq!(model::core_resolve(&registered, &retrieval), model::resolve(&registered, &retrieval));
    }

    #[test]
    fn trimming_is_string_prototype_trim(s in proptest::collection::vec(unit(), 0..12)) {
        let (a, b) = trim_bounds(&s);
        prop_assert_eq!(&s[a..b], model::js_trim(&s));
    }

    #[test]
    fn name_lists_refuse_bad_ends_and_never_slice_out_of_bounds(
        units in proptest::collection::vec(unit(), 0..16),
        ends in proptest::collection::vec(0u32..20, 0..8),
    ) {
        let ok = ends.windows(2).all(|w| w[0] <= w[1]) && ends.iter().all(|&e| e as usize <= units.len());
        match NameList::from_parts(units.clone(), ends.clone()) {
            None => prop_assert!(!ok),
            Some(list) => {
                prop_assert!(ok);
                let mut start = 0;
                for (i, &end) in ends.iter().enumerate() {
                    prop_assert_eq!(list.get(i), &units[start..end as usize]);
                    start = end as usize;
                }
                let set = NameSet::new(list.clone());
                for i in 0..list.len() {
                    let first = (0..list.len()).find(|&j| list.get(j) == list.get(i)).unwrap();
                    prop_assert_eq!(set.position(list.get(i)), Some(first as u32));
                }
            }
        }
    }

    #[test]
    fn composition_rejects_the_first_duplicate_name(policies in proptest::collection::vec(policy(), 0..8)) {
        prop_assert_eq!(model::core_set(&policies, false, false).map(|_| ()), model::compose(&policies));
    }

    #[test]
    fn seams_match_the_model(
        (policies, script) in proptest::collection::vec(policy(), 0..8)
            .prop_flat_map(|ps| { let n = ps.len(); (Just(ps), script(n)) }),
        has_resolver in any::<bool>(),
        has_callback in any::<bool>(),
        original in name(),
        gate in proptest::option::of(proptest::collection::vec(name(), 0..4)),
    ) {
        let Ok(set) = model::core_set(&policies, has_resolver, has_callback) else {
            return Ok(());
        };
        let want = model::select(&policies, has_resolver, &script);
        prop_assert_eq!(model::core_select(&set, &script), want.clone());
        prop_assert_eq!(model::wire_select(&set, &script), want.clone());
        prop_assert_eq!(model::plan_select(&set, &script), want);
        let gate = gate.as_deref();
        let want = model::dispatch(&policies, has_callback, &original, gate, &script);
        prop_assert_eq!(model::core_dispatch(&set, &original, gate, &script), want.clone());
        prop_assert_eq!(model::plan_dispatch(&set, &original, gate, &script), want);
    }

    #[test]
    fn any_step_code_gets_an_answer_not_a_panic(
        policies in proptest::collection::vec(policy(), 0..6),
        code in any::<u32>(),
        yes in any::<bool>(),
        tool in any::<u32>(),
    ) {
        let Ok(set) = model::core_set(&policies, true, true) else { return Ok(()); };
        for next in [set.model_answer(Step::decode(code), yes), set.post_answer(Step::decode(code), yes, tool)] {
            // Either the seam goes on to a step about a real policy, or it says Invalid.
            let index = next.encode() >> 4;
            match next {
                Step::Match(_) | Step::Guard(_) | Step::Redirect(_) | Step::Selected(tool_palette::policy::Selection::Policy(_)) => {
                    prop_assert!((index as usize) < policies.len())
                }
                _ => {}
            }
        }
    }
}
