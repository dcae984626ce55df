//! Fuzzes the whole core: no input may panic it, and its answers must equal the naive
//! model of the SPEC (tests/model/, shared with the property tests).
//!
//! The first byte picks the part: routing (`resolve` over arbitrary registries, rows and
//! retrievals: the outcome, each row's fate and the hidden names), the policy seams
//! (composition, both seams driven with arbitrary answers and throws, the palette gate),
//! or `NameList::from_parts` with arbitrary ends (the binding's only way in for names).
#![no_main]

#[path = "../../tests/model/mod.rs"]
mod model;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use model::{Field, PolicySpec, RetrievalSpec, RowSpec, Script, Units, WhenSpec};
use tool_palette::names::{trim_bounds, NameList, NameSet};

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
    let registered = names(u, 80)?;
    let retrieval = match u.int_in_range(0u8..=7)? {
        0 => RetrievalSpec::NoLayer,
        1 => RetrievalSpec::Failed(name(u)?),
        2 => RetrievalSpec::TimedOut(name(u)?),
        3 => RetrievalSpec::RowsNull,
        _ => {
            let n = u.int_in_range(0usize..=40)?;
            let mut rows = Vec::with_capacity(n);
            for _ in 0..n {
                // A candidate: often a registered name, padded with JS whitespace, so
                // that the routed branch is as common as the refusals.
                let candidate = |u: &mut Unstructured| -> Result<Units> {
                    if !registered.is_empty() && u.int_in_range(0u8..=2)? > 0 {
                        let i = u.choose_index(registered.len())?;
                        let mut t: Units = (0..u.int_in_range(0..=2)?)
                            .map(|_| unit(u))
                            .collect::<Result<_>>()?;
                        t.extend_from_slice(&registered[i]);
                        t.extend((0..u.int_in_range(0..=2)?).map(|_| 0x20u16));
                        Ok(t)
                    } else {
                        name(u)
                    }
                };
                // A property of an object row.
                let field = |u: &mut Unstructured| -> Result<Field> {
                    Ok(match u.int_in_range(0u8..=5)? {
                        0 | 1 => Field::Absent,
                        2 | 3 => Field::Text(candidate(u)?),
                        4 => Field::False,
                        _ => Field::Other,
                    })
                };
                rows.push(match u.int_in_range(0u8..=7)? {
                    0 => RowSpec::Other,
                    1..=2 => RowSpec::Text(candidate(u)?),
                    _ => RowSpec::Record {
                        active: field(u)?,
                        tool: field(u)?,
                        tool_name: field(u)?,
                        content: field(u)?,
                    },
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

/// Mostly a name of the case's pool (so that whenTool, targets, the emitted tool and the
/// palette meet), else a fresh one.
fn pick(u: &mut Unstructured, pool: &[Units]) -> Result<Units> {
    if !pool.is_empty() && u.int_in_range(0u8..=3)? > 0 {
        Ok(pool[u.choose_index(pool.len())?].clone())
    } else {
        name(u)
    }
}

fn picks(u: &mut Unstructured, pool: &[Units], max: usize) -> Result<Vec<Units>> {
    let n = u.int_in_range(0..=max)?;
    (0..n).map(|_| pick(u, pool)).collect()
}

fn policy(u: &mut Unstructured, pool: &[Units]) -> Result<PolicySpec> {
    Ok(PolicySpec {
        name: name(u)?,
        when: match u.int_in_range(0u8..=2)? {
            0 => WhenSpec::Any,
            1 => WhenSpec::One(pick(u, pool)?),
            _ => WhenSpec::Set(picks(u, pool, 4)?),
        },
        redirect_to: if u.arbitrary()? {
            Some(pick(u, pool)?)
        } else {
            None
        },
        has_model: u.arbitrary()?,
        has_transform: u.arbitrary()?,
        has_guard: u.arbitrary()?,
    })
}

fn policies(u: &mut Unstructured, pool: &[Units]) -> Result<Vec<PolicySpec>> {
    let n = u.int_in_range(0usize..=10)?;
    (0..n).map(|_| policy(u, pool)).collect()
}

fn seams(u: &mut Unstructured) -> Result<()> {
    let pool = names(u, 4)?;
    let ps = policies(u, &pool)?;
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
        rewrite: if u.arbitrary()? {
            Some(pick(u, &pool)?)
        } else {
            None
        },
        throw_at: if u.arbitrary()? {
            Some(u.int_in_range(0..=2 * n + 2)?)
        } else {
            None
        },
    };
    let want = model::select(&ps, has_resolver, &script);
    assert_eq!(
        model::core_select(&set, &ps, has_resolver, has_callback, &script),
        want,
        "PRE seam: {ps:?} {script:?}"
    );
    let original = pick(u, &pool)?;
    let palette = if u.arbitrary()? {
        Some(picks(u, &pool, 4)?)
    } else {
        None
    };
    let want = model::dispatch(&ps, has_callback, &original, palette.as_deref(), &script);
    assert_eq!(
        model::core_dispatch(
            &set,
            &ps,
            has_resolver,
            has_callback,
            &original,
            palette.as_deref(),
            &script
        ),
        want,
        "POST seam: {ps:?} {script:?} {original:?} {palette:?}"
    );
    // The gate on its own, with a target that is often the original.
    let target = if u.arbitrary()? {
        original.clone()
    } else {
        pick(u, &pool)?
    };
    let by_policy = u.arbitrary()?;
    assert_eq!(
        model::core_gate_drops(&original, &target, by_policy, palette.as_deref()),
        model::gate_drops(&original, &target, by_policy, palette.as_deref()),
        "gate: {original:?} {target:?} {by_policy} {palette:?}"
    );
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
    let Ok(part) = u.int_in_range(0u8..=2) else {
        return;
    };
    let _ = match part {
        0 => routing(&mut u),
        1 => seams(&mut u),
        _ => name_lists(&mut u),
    };
});
