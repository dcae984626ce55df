//! Property tests: the core against the naive model of the SPEC in tests/model/.
//!
//! The generators are in `model::strategies` (shared with tests/spec_cases.rs): names
//! from a small alphabet of traps, most of a case's names picked from a small pool.

mod model;

use model::strategies::{name, policy_case, routing_case, unit};
use model::{read_row, Answer, ReadRow, RetrievalSpec, RowFateSpec, SeamAnswer};
use proptest::prelude::*;
use tool_palette::names::{trim_bounds, NameList, NameSet};

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn routing_matches_the_model((registered, retrieval) in routing_case(false, 24)) {
        prop_assert_eq!(
            model::core_resolve(&registered, &retrieval),
            model::resolve(&registered, &retrieval)
        );
    }

    #[test]
    fn routing_matches_the_model_for_store_answers_a_caller_can_give(
        (registered, retrieval) in routing_case(true, 12),
    ) {
        prop_assert_eq!(
            model::core_resolve(&registered, &retrieval),
            model::resolve(&registered, &retrieval)
        );
    }

    /// The model's own invariants of SPEC 5, so that a shared mistake of model and core
    /// in one place still shows up in another.
    #[test]
    fn decision_reports_hold_together((registered, retrieval) in routing_case(false, 24)) {
        let d = model::resolve(&registered, &retrieval);
        let read = match &retrieval {
            RetrievalSpec::Rows(rows) => rows.len(),
            _ => 0,
        };
        prop_assert_eq!(d.rows.len(), read);
        for (r, spec) in d.rows.iter().zip(match &retrieval {
            RetrievalSpec::Rows(rows) => rows.as_slice(),
            _ => &[],
        }) {
            match r.fate {
                RowFateSpec::Inactive => prop_assert_eq!(read_row(spec), ReadRow::Inactive),
                RowFateSpec::NoCandidate => prop_assert!(r.candidate.is_none()),
                _ => prop_assert!(r.candidate.as_ref().is_some_and(|c| !c.is_empty())),
            }
        }
        let of = |fate| -> Vec<Vec<u16>> {
            d.rows.iter().filter(|r| r.fate == fate).filter_map(|r| r.candidate.clone()).collect()
        };
        match &d.answer {
            Answer::Routed { names, unresolved } => {
                prop_assert_eq!(d.rule, "routed");
                prop_assert_eq!(names, &of(RowFateSpec::Routed));
                prop_assert_eq!(unresolved, &of(RowFateSpec::Unresolved));
                // Shown and hidden split the distinct registered names.
                let mut distinct: Vec<&Vec<u16>> = vec![];
                for n in &registered {
                    if !distinct.contains(&n) {
                        distinct.push(n);
                    }
                }
                prop_assert_eq!(names.len() + d.hidden.len(), distinct.len());
                prop_assert!(d.hidden.iter().all(|h| !names.contains(h)));
            }
            Answer::Refused { unresolved, .. } => {
                prop_assert!(d.hidden.is_empty());
                if d.rule == "5" {
                    prop_assert_eq!(unresolved, &of(RowFateSpec::Unresolved));
                } else {
                    prop_assert!(unresolved.is_empty());
                }
            }
        }
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
    fn composition_rejects_the_first_duplicate_name(c in policy_case(false)) {
        prop_assert_eq!(
            model::core_set(&c.policies, c.has_resolver, c.has_callback).map(|_| ()),
            model::compose(&c.policies)
        );
    }

    #[test]
    fn seams_match_the_model(c in policy_case(false)) {
        let Ok(set) = model::core_set(&c.policies, c.has_resolver, c.has_callback) else {
            return Ok(());
        };
        let palette = c.palette.as_deref();
        prop_assert_eq!(
            model::core_select(&set, &c.policies, c.has_resolver, c.has_callback, &c.script),
            model::select(&c.policies, c.has_resolver, &c.script)
        );
        prop_assert_eq!(
            model::core_dispatch(&set, &c.policies, c.has_resolver, c.has_callback, &c.tool, palette, &c.script),
            model::dispatch(&c.policies, c.has_callback, &c.tool, palette, &c.script)
        );
    }

    /// The gate on its own: asked only when the target changed, and then it drops a
    /// target outside the palette.
    #[test]
    fn the_gate_matches_the_model(
        original in name(),
        target in name(),
        same in any::<bool>(),
        by_policy in any::<bool>(),
        palette in proptest::option::of(proptest::collection::vec(name(), 0..4)),
    ) {
        let target = if same { original.clone() } else { target };
        let palette = palette.as_deref();
        prop_assert_eq!(
            model::core_gate_drops(&original, &target, by_policy, palette),
            model::gate_drops(&original, &target, by_policy, palette)
        );
    }

    /// A thrown error carries the number of the call that threw, and the log ends there.
    #[test]
    fn a_throw_ends_the_seam_at_that_call(c in policy_case(false)) {
        let palette = c.palette.as_deref();
        for (answer, log) in [
            model::select(&c.policies, c.has_resolver, &c.script),
            model::dispatch(&c.policies, c.has_callback, &c.tool, palette, &c.script),
        ] {
            match answer {
                SeamAnswer::PolicyError { thrown, .. } | SeamAnswer::AdopterError { thrown } => {
                    prop_assert_eq!(Some(thrown), c.script.throw_at);
                    prop_assert_eq!(log.len(), thrown + 1);
                }
                _ => prop_assert!(c.script.throw_at.map_or(true, |k| k >= log.len())),
            }
        }
    }
}

/// The generators reach every branch they are meant to: a property over inputs that
/// never route, never drop or never throw would prove little.
#[test]
fn the_generators_cover_every_answer() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut rules = std::collections::BTreeSet::new();
    let mut fates = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let (registered, retrieval) = routing_case(true, 12)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let d = model::resolve(&registered, &retrieval);
        rules.insert(d.rule);
        fates.extend(d.rows.iter().map(|r| r.fate.as_str()));
    }
    assert_eq!(rules.len(), 7, "{rules:?}");
    assert_eq!(fates.len(), 5, "{fates:?}");

    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let c = policy_case(true).new_tree(&mut runner).unwrap().current();
        if model::compose(&c.policies).is_err() {
            seen.insert("duplicate".to_string());
            continue;
        }
        let (s, _) = model::select(&c.policies, c.has_resolver, &c.script);
        let (d, _) = model::dispatch(
            &c.policies,
            c.has_callback,
            &c.tool,
            c.palette.as_deref(),
            &c.script,
        );
        for a in [s, d] {
            seen.insert(match a {
                SeamAnswer::Model(p) => format!("{p:?}").split('(').next().unwrap().to_string(),
                SeamAnswer::Dispatch {
                    redirected_by: Some(_),
                    dropped: None,
                    ..
                } => "redirected".into(),
                SeamAnswer::Dispatch {
                    redirected_by: None,
                    dropped: None,
                    ..
                } => "passed".into(),
                SeamAnswer::Dispatch {
                    dropped: Some(_), ..
                } => "dropped".into(),
                SeamAnswer::PolicyError { function, seam, .. } => format!("{function:?} {seam:?}"),
                SeamAnswer::AdopterError { .. } => "adopter".into(),
            });
        }
    }
    for want in [
        "duplicate",
        "Policy",
        "Resolver",
        "Default",
        "redirected",
        "passed",
        "dropped",
        "Match Pre",
        "Match Post",
        "Guard Post",
        "ArgsTransform Post",
        "adopter",
    ] {
        assert!(seen.contains(want), "no case gives {want}: {seen:?}");
    }
}

/// A run's case: registered names (some twice), pinned names (mostly registered), and the
/// run's calls: steps with their outcomes (`None`: a refusal; a routed outcome's names, now
/// and then one that is not registered) and the skills they name; by the call's kind,
/// `reveal(names)` instead, or a skill loaded by the model (`join`) with names as its tools.
type RunCase = (
    usize,
    Vec<Vec<u16>>,
    Vec<Vec<u16>>,
    Vec<(u8, Option<Vec<Vec<u16>>>, Vec<Vec<u16>>)>,
    Vec<bool>,
);

fn run_case() -> impl Strategy<Value = RunCase> {
    use model::strategies::pick;
    use proptest::collection::vec;
    vec(name(), 0..12).prop_flat_map(|registered| {
        let pool = registered.clone();
        let names = move || vec(pick(&pool), 0..5);
        let outcome = prop_oneof![1 => Just(None), 4 => names().prop_map(Some)];
        // Skills from a small pool, so that runs meet them again.
        let skills = vec(
            prop_oneof![
                Just(vec![0x73]),
                Just(vec![0x74]),
                Just(vec![0x73, 0xD800]),
                name()
            ],
            0..3,
        );
        let call = (
            prop_oneof![6 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)],
            outcome,
            skills,
        );
        (
            0..4usize,
            Just(registered),
            names(),
            vec(call, 0..8),
            vec(proptest::bool::weighted(0.3), 8),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// SPEC 8: every strategy's lists, step by step, as the model has them, with tools the
    /// model revealed itself between steps; a name that is not registered is refused with
    /// its index and leaves the run as it was; a run saved and restored between any two
    /// calls goes on exactly as the unbroken run.
    #[test]
    fn runs_match_the_model((cache, registered, pinned, outcomes, restarts) in run_case()) {
        use model::run::{CoreRun, RunModel};
        let cache = tool_palette::run::Cache::ALL[cache].1;
        let core = CoreRun::new(cache, &registered, &pinned);
        let naive = RunModel::new(cache, &registered, &pinned);
        prop_assert_eq!(core.as_ref().err(), naive.as_ref().err());
        let (Ok(mut core), Ok(mut naive)) = (core, naive) else { return Ok(()) };
        for ((kind, names, skills), &restart) in outcomes.iter().zip(&restarts) {
            // Now and then the run is saved and restored, as in a new process (SPEC 8).
            if restart {
                core.restart();
            }
            let before = core.steps();
            match (kind, names, skills.first()) {
                (1, Some(names), _) => {
                    prop_assert_eq!(core.reveal(names), naive.reveal(names));
                    prop_assert_eq!(core.steps(), before);
                    continue;
                }
                (2, Some(names), Some(skill)) => {
                    prop_assert_eq!(core.join(skill, names), naive.join(skill, names));
                    prop_assert_eq!(core.steps(), before);
                    continue;
                }
                _ => {}
            }
            let (c, m) = (core.step(names.as_deref(), skills), naive.step(names.as_deref(), skills));
            prop_assert_eq!(&c, &m);
            prop_assert_eq!(core.steps(), before + u32::from(c.is_ok()));
        }
    }
}
