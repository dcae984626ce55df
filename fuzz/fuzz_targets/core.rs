//! Fuzzes the whole core: no input may panic it, and its answers must equal the naive
//! model of the SPEC (tests/model/, shared with the property tests).
//!
//! The first byte picks the part: routing (`resolve` over arbitrary registries, rows and
//! retrievals), the policy seams (composition, both seams driven with arbitrary answers
//! and throws), the step machine fed arbitrary step codes and tool ids, or
//! `NameList::from_parts` with arbitrary ends (the binding's only way in for names).
#![no_main]

#[path = "../../tests/model/mod.rs"]
mod model;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use model::{PolicySpec, RetrievalSpec, RowSpec, Script, Units, WhenSpec};
use tool_palette::names::{trim_bounds, NameList, NameSet};
use tool_palette::policy::{Selection, Step, UNMENTIONED};

/// Code units that make trims, collisions and lookalikes likely.
const TRAPS: &[u16] = &[
    0x61, 0x62, 0x20, 0x09, 0x0A, 0xFEFF, 0x85, 0xA0, 0x1680, 0x3000, 0x2028, 0x180E, 0x200B,
    0xD800, 0xDBFF, 0xDC00, 0xD83D, 0xDE00, 0x00, 0x301, 0xFFFD, 0x41,
];

fn unit(u: &mut Unstructured) -> Result<u16> {
    let b: u8 = u.arbitrary()?;
    if b < 224 {
        Ok(TRAPS[b as usize % TRAPS.len()])
    } else {
        u.arbitrary()
    }
}

fn name(u: &mut Unstructured) -> Result<Units> {
    match u.int_in_range(0u8..=15)? {
        0 => return Ok("__proto__".encode_utf16().collect()),
        1 => return Ok("constructor".encode_utf16().collect()),
        _ => {}
    }
    let n = u.int_in_range(0usize..=6)?;
    (0..n).map(|_| unit(u)).collect()
}

fn names(u: &mut Unstructured, max: usize) -> Result<Vec<Units>> {
    let n = u.int_in_range(0..=max)?;
    (0..n).map(|_| name(u)).collect()
}

fn routing(u: &mut Unstructured) -> Result<()> {
    let registered = names(u, 16)?;
    let retrieval = match u.int_in_range(0u8..=7)? {
        0 => RetrievalSpec::NoLayer,
        1 => RetrievalSpec::Failed(name(u)?),
        2 => RetrievalSpec::TimedOut(name(u)?),
        3 => RetrievalSpec::RowsNull,
        _ => {
            let n = u.int_in_range(0usize..=40)?;
            let mut rows = Vec::with_capacity(n);
            for _ in 0..n {
                rows.push(match u.int_in_range(0u8..=7)? {
                    0 => RowSpec::Inactive,
                    1 => RowSpec::NoCandidate,
                    // Often a registered name, padded with JS whitespace, so that the
                    // routed branch is as common as the refusals.
                    2..=4 if !registered.is_empty() => {
                        let i = u.choose_index(registered.len())?;
                        let mut t: Units = (0..u.int_in_range(0..=2)?)
                            .map(|_| unit(u))
                            .collect::<Result<_>>()?;
                        t.extend_from_slice(&registered[i]);
                        t.extend((0..u.int_in_range(0..=2)?).map(|_| 0x20u16));
                        RowSpec::Candidate(t)
                    }
                    _ => RowSpec::Candidate(name(u)?),
                });
            }
            RetrievalSpec::Rows(rows)
        }
    };
    assert_eq!(
        model::core_resolve(&registered, &retrieval),
        model::resolve(&registered, &retrieval),
        "routing differs from the model: registered {registered:?}, retrieval {retrieval:?}"
    );
    Ok(())
}

fn policy(u: &mut Unstructured) -> Result<PolicySpec> {
    Ok(PolicySpec {
        name: name(u)?,
        when: match u.int_in_range(0u8..=2)? {
            0 => WhenSpec::Any,
            1 => WhenSpec::One(name(u)?),
            _ => WhenSpec::Set(names(u, 4)?),
        },
        redirect_to: if u.arbitrary()? { Some(name(u)?) } else { None },
        has_model: u.arbitrary()?,
        has_transform: u.arbitrary()?,
        has_guard: u.arbitrary()?,
    })
}

fn policies(u: &mut Unstructured) -> Result<Vec<PolicySpec>> {
    let n = u.int_in_range(0usize..=10)?;
    (0..n).map(|_| policy(u)).collect()
}

fn seams(u: &mut Unstructured) -> Result<()> {
    let ps = policies(u)?;
    let (has_resolver, has_callback) = (u.arbitrary()?, u.arbitrary()?);
    let set = model::core_set(&ps, has_resolver, has_callback);
    assert_eq!(
        set.as_ref().map(|_| ()).map_err(|&i| i),
        model::compose(&ps)
    );
    let Ok(set) = set else { return Ok(()) };
    let n = ps.len();
    let script = Script {
        matches: (0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?,
        guards: (0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?,
        resolver: u.arbitrary()?,
        rewrite: if u.arbitrary()? { Some(name(u)?) } else { None },
        throw_at: if u.arbitrary()? {
            Some(u.int_in_range(0..=2 * n + 2)?)
        } else {
            None
        },
    };
    let want = model::select(&ps, has_resolver, &script);
    assert_eq!(
        model::core_select(&set, &script),
        want,
        "PRE seam: {ps:?} {script:?}"
    );
    assert_eq!(
        model::wire_select(&set, &script),
        want,
        "PRE seam over the wire"
    );
    assert_eq!(
        model::plan_select(&set, &script),
        want,
        "PRE seam as a plan"
    );
    let original = name(u)?;
    let gate = if u.arbitrary()? {
        Some(names(u, 4)?)
    } else {
        None
    };
    let want = model::dispatch(&ps, has_callback, &original, gate.as_deref(), &script);
    assert_eq!(
        model::core_dispatch(&set, &original, gate.as_deref(), &script),
        want,
        "POST seam: {ps:?} {script:?} {original:?} {gate:?}"
    );
    assert_eq!(
        model::plan_dispatch(&set, &original, gate.as_deref(), &script),
        want,
        "POST seam as a plan: {ps:?} {script:?} {original:?} {gate:?}"
    );
    Ok(())
}

/// The binding forwards whatever step code and tool id JavaScript hands it: any of them
/// must get an answer (possibly `Invalid`), never a panic or an out-of-range policy.
fn steps(u: &mut Unstructured) -> Result<()> {
    let ps = policies(u)?;
    let Ok(set) = model::core_set(&ps, u.arbitrary()?, u.arbitrary()?) else {
        return Ok(());
    };
    let in_range = |s: Step| match s {
        Step::Match(i)
        | Step::Guard(i)
        | Step::Redirect(i)
        | Step::Selected(Selection::Policy(i)) => i < ps.len(),
        _ => true,
    };
    assert!(in_range(set.model_begin()) && in_range(set.post_begin()));
    while !u.is_empty() {
        let code: u32 = u.arbitrary()?;
        let yes: bool = u.arbitrary()?;
        let tool = if u.arbitrary()? {
            UNMENTIONED
        } else {
            u.arbitrary()?
        };
        let step = Step::decode(code);
        if step != Step::Invalid && (code >> 4) < (1 << 24) {
            assert_eq!(Step::decode(step.encode()), step);
        }
        assert!(in_range(set.model_answer(step, yes)));
        assert!(in_range(set.post_answer(step, yes, tool)));
        let t = name(u)?;
        let _ = set.tool_id(&t);
    }
    Ok(())
}

fn name_lists(u: &mut Unstructured) -> Result<()> {
    let units: Vec<u16> = (0..u.int_in_range(0usize..=32)?)
        .map(|_| unit(u))
        .collect::<Result<_>>()?;
    let ends: Vec<u32> = (0..u.int_in_range(0usize..=12)?)
        .map(|_| -> Result<u32> {
            Ok(if u.arbitrary::<bool>()? {
                u.int_in_range(0..=40)?
            } else {
                u.arbitrary()?
            })
        })
        .collect::<Result<_>>()?;
    let ok =
        ends.windows(2).all(|w| w[0] <= w[1]) && ends.iter().all(|&e| e as usize <= units.len());
    match NameList::from_parts(units.clone(), ends.clone()) {
        None => assert!(!ok, "good ends refused"),
        Some(list) => {
            assert!(ok, "bad ends accepted: {ends:?} over {} units", units.len());
            let set = NameSet::new(list.clone());
            let mut start = 0;
            for (i, &end) in ends.iter().enumerate() {
                assert_eq!(list.get(i), &units[start..end as usize]);
                start = end as usize;
                let first = (0..=i).find(|&j| list.get(j) == list.get(i)).unwrap();
                assert_eq!(set.position(list.get(i)), Some(first as u32));
                let (a, b) = trim_bounds(list.get(i));
                assert_eq!(&list.get(i)[a..b], model::js_trim(list.get(i)));
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(part) = u.int_in_range(0u8..=3) else {
        return;
    };
    let _ = match part {
        0 => routing(&mut u),
        1 => seams(&mut u),
        2 => steps(&mut u),
        _ => name_lists(&mut u),
    };
});
