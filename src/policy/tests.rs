//! The seams against scripted predicates that record every call the core makes.

use super::gate::drops;
use super::seams::{Dispatched, Failure, Function, Hooks, Seam, Selection};
use super::*;
use crate::names::units;
use alloc::string::String;
use alloc::vec;

fn policy(name: &str) -> Policy {
    Policy {
        name: units(name),
        when_tool: WhenTool::Any,
        redirect_to: None,
        has_model: false,
        has_guard: false,
    }
}

fn redirect(name: &str, to: &str) -> Policy {
    Policy {
        redirect_to: Some(units(to)),
        ..policy(name)
    }
}

fn with_model(name: &str) -> Policy {
    Policy {
        has_model: true,
        ..policy(name)
    }
}

#[derive(Default)]
struct Script {
    matches: Vec<bool>,
    guards: Vec<bool>,
    throws: Option<(Function, usize)>,
    resolver: Option<bool>,
    callback_returns: Option<&'static str>,
    /// `None`: every tool passes.
    palette: Option<Vec<&'static str>>,
    log: Vec<String>,
}

impl Hooks for Script {
    type Error = &'static str;
    fn matches(&mut self, i: usize) -> Result<bool, &'static str> {
        self.log.push(format!("match {i}"));
        if self.throws == Some((Function::Match, i)) {
            return Err("boom");
        }
        Ok(self.matches[i])
    }
    fn guard(&mut self, i: usize) -> Result<bool, &'static str> {
        self.log.push(format!("guard {i}"));
        if self.throws == Some((Function::Guard, i)) {
            return Err("boom");
        }
        Ok(self.guards[i])
    }
    fn redirect(&mut self, i: usize) -> Result<(), &'static str> {
        self.log.push(format!("redirect {i}"));
        if self.throws == Some((Function::ArgsTransform, i)) {
            return Err("boom");
        }
        Ok(())
    }
    fn resolve_model(&mut self) -> Result<bool, &'static str> {
        self.log.push("resolver".into());
        self.resolver.ok_or("resolver failed")
    }
    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, &'static str> {
        self.log.push("callback".into());
        Ok(self.callback_returns.map(units))
    }
    fn allows(&mut self, tool: &Name) -> Result<bool, &'static str> {
        self.log
            .push(format!("gate {}", String::from_utf16_lossy(tool)));
        Ok(match &self.palette {
            None => true,
            Some(names) => names.iter().any(|n| units(n) == tool),
        })
    }
}

fn set(ps: Vec<Policy>, resolver: bool, callback: bool) -> PolicySet {
    PolicySet::new(ps, resolver, callback).unwrap()
}

#[test]
fn duplicate_names_are_rejected_with_the_second_index() {
    let err =
        PolicySet::new(vec![policy("a"), policy("b"), policy("a")], false, false).unwrap_err();
    assert_eq!(err, 2);
    let a1 = Policy {
        name: vec![0x61, 0xD800],
        ..policy("")
    };
    let a2 = Policy {
        name: vec![0x61, 0xDC00],
        ..policy("")
    };
    assert!(PolicySet::new(vec![a1, a2], false, false).is_ok());
}

#[test]
fn first_matching_model_policy_wins_before_the_resolver() {
    let ps = set(
        vec![policy("plain"), with_model("m1"), with_model("m2")],
        true,
        false,
    );
    let mut s = Script {
        matches: vec![true, false, true],
        resolver: Some(true),
        ..Default::default()
    };
    assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Policy(2));
    // A policy without a model is not asked; the resolver is not asked.
    assert_eq!(s.log, ["match 1", "match 2"]);

    let mut s = Script {
        matches: vec![true, false, false],
        resolver: Some(true),
        ..Default::default()
    };
    assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Resolver);
    assert_eq!(s.log, ["match 1", "match 2", "resolver"]);

    let mut s = Script {
        matches: vec![true, false, false],
        resolver: Some(false),
        ..Default::default()
    };
    assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Default);

    let no_resolver = set(vec![with_model("m")], false, false);
    let mut s = Script {
        matches: vec![false],
        ..Default::default()
    };
    assert_eq!(
        no_resolver.select_model(&mut s).unwrap(),
        Selection::Default
    );
    assert_eq!(s.log, ["match 0"]);
}

#[test]
fn guard_is_never_consulted_for_model_selection() {
    let ps = set(
        vec![Policy {
            has_guard: true,
            ..with_model("m")
        }],
        false,
        false,
    );
    let mut s = Script {
        matches: vec![true],
        guards: vec![false],
        ..Default::default()
    };
    assert_eq!(ps.select_model(&mut s).unwrap(), Selection::Policy(0));
    assert_eq!(s.log, ["match 0"]);
}

#[test]
fn first_redirect_whose_match_tool_and_guard_hold_rewrites() {
    let ps = set(
        vec![
            with_model("model-only"),
            Policy {
                when_tool: WhenTool::One(units("web_search")),
                ..redirect("wrong-tool", "x")
            },
            Policy {
                has_guard: true,
                ..redirect("guarded", "y")
            },
            redirect("winner", "sql_query"),
            redirect("later", "z"),
        ],
        false,
        true,
    );
    let mut s = Script {
        matches: vec![true; 5],
        guards: vec![false; 5],
        palette: Some(vec!["sql_query"]),
        ..Default::default()
    };
    let d = ps.dispatch(&units("lookup"), &mut s).unwrap();
    assert_eq!(
        d,
        Dispatched {
            redirected_by: Some(3),
            dropped: None
        }
    );
    // match is asked before whenTool is looked at, and guard only after both hold.
    assert_eq!(
        s.log,
        [
            "match 1",
            "match 2",
            "guard 2",
            "match 3",
            "redirect 3",
            "callback",
            "gate sql_query"
        ]
    );
}

#[test]
fn the_adopter_callback_runs_after_the_policy_and_the_gate_runs_last() {
    let ps = set(vec![redirect("r", "sql_query")], false, true);
    // The policy redirects to a routed tool, then the callback moves it outside: dropped.
    let mut s = Script {
        matches: vec![true],
        callback_returns: Some("shell"),
        palette: Some(vec!["sql_query", "web_search"]),
        ..Default::default()
    };
    let d = ps.dispatch(&units("web_search"), &mut s).unwrap();
    assert_eq!(d.redirected_by, Some(0));
    assert_eq!(d.dropped, Some(units("shell")));
    assert_eq!(s.log, ["match 0", "redirect 0", "callback", "gate shell"]);

    // The same with every tool allowed: nothing is dropped.
    let mut s = Script {
        matches: vec![true],
        callback_returns: Some("shell"),
        ..Default::default()
    };
    assert_eq!(
        ps.dispatch(&units("web_search"), &mut s).unwrap().dropped,
        None
    );
}

#[test]
fn the_gate_is_asked_only_when_the_target_changed() {
    let ps = set(vec![redirect("r", "sql_query")], false, true);
    // No policy matched and the callback kept the tool: the gate is not asked, even
    // though the emitted tool is outside the palette.
    let mut s = Script {
        matches: vec![false],
        palette: Some(vec!["web_search"]),
        ..Default::default()
    };
    let d = ps.dispatch(&units("shell"), &mut s).unwrap();
    assert_eq!(
        d,
        Dispatched {
            redirected_by: None,
            dropped: None
        }
    );
    assert_eq!(s.log, ["match 0", "callback"]);
    // The callback alone moving the call is gated.
    let mut s = Script {
        matches: vec![false],
        callback_returns: Some("mail"),
        palette: Some(vec!["web_search"]),
        ..Default::default()
    };
    let d = ps.dispatch(&units("web_search"), &mut s).unwrap();
    assert_eq!(d.dropped, Some(units("mail")));
    // The callback returning a call to the same tool is no change.
    let mut s = Script {
        matches: vec![false],
        callback_returns: Some("web_search"),
        palette: Some(vec![]),
        ..Default::default()
    };
    assert_eq!(
        ps.dispatch(&units("web_search"), &mut s).unwrap().dropped,
        None
    );
    assert!(!s.log.iter().any(|l| l.starts_with("gate")));
}

#[test]
fn a_failing_function_names_policy_function_and_seam() {
    let ps = set(
        vec![
            Policy {
                has_guard: true,
                ..redirect("a", "x")
            },
            with_model("b"),
        ],
        false,
        false,
    );
    for (f, i, seam) in [
        (Function::Match, 1, Seam::Pre),
        (Function::Match, 0, Seam::Post),
        (Function::Guard, 0, Seam::Post),
        (Function::ArgsTransform, 0, Seam::Post),
    ] {
        let mut s = Script {
            matches: vec![true, true],
            guards: vec![true, true],
            throws: Some((f, i)),
            ..Default::default()
        };
        let err = match seam {
            Seam::Pre => ps.select_model(&mut s).unwrap_err(),
            Seam::Post => ps.dispatch(&units("t"), &mut s).unwrap_err(),
        };
        assert_eq!(err.blamed(), Some((i, f, seam)));
        assert_eq!(
            err,
            Failure::Policy {
                policy: i,
                function: f,
                seam,
                cause: "boom"
            }
        );
    }
    // The adopter's resolver failing passes through as it is.
    let ps = set(vec![], true, false);
    let mut s = Script::default();
    let err = ps.select_model(&mut s).unwrap_err();
    assert_eq!(err.blamed(), None);
    assert_eq!(err, Failure::Adopter("resolver failed"));
}

#[test]
fn when_tool_forms() {
    assert!(WhenTool::Any.matches(&units("anything")));
    assert!(WhenTool::One(units("a")).matches(&units("a")));
    assert!(!WhenTool::One(units("a")).matches(&units("A")));
    let set = WhenTool::Set(NameSet::new(["a", "__proto__"].iter().collect()));
    assert!(set.matches(&units("__proto__")));
    assert!(!set.matches(&units("b")));
    assert!(!WhenTool::Set(NameSet::default()).matches(&units("a")));
}

#[test]
fn the_gate_rule_and_its_reason() {
    let allows_web = |t: &Name| Ok::<_, ()>(t == units("web").as_slice());
    let (web, sql, shell) = (units("web"), units("sql"), units("shell"));
    assert_eq!(drops(&shell, &shell, false, allows_web), Ok(false));
    assert_eq!(drops(&web, &sql, false, allows_web), Ok(true));
    assert_eq!(drops(&shell, &shell, true, allows_web), Ok(true));
    assert_eq!(drops(&sql, &web, true, allows_web), Ok(false));
}

#[test]
fn the_gate_admits_what_the_palette_narrows_to() {
    use super::gate::{admits, Admits, Handed};
    for (handed, with, without) in [
        (Handed::Nothing, Admits::Registered, Admits::Every),
        (Handed::NotRouted, Admits::Registered, Admits::Every),
        (Handed::Routed, Admits::Routed, Admits::Routed),
        (Handed::Names, Admits::Handed, Admits::Handed),
    ] {
        assert_eq!(
            admits(handed, true),
            with,
            "{handed:?} with registered names"
        );
        assert_eq!(admits(handed, false), without, "{handed:?} without");
    }
}
