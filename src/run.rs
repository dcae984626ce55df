//! Runs (SPEC 8): what each step of one conversation lists, defers, reveals and offers,
//! so that routing narrows what the model may call while the request's prefix (the tools
//! list first of all) stays as the provider's prompt cache needs it.
//!
//! A step's lists hold the registered names by their index in the registered list
//! (registration order is the order their definitions are sent): the binding answers
//! with the caller's own strings at those indices.

use crate::names::{NameList, NameSet};
use alloc::{vec, vec::Vec};

mod saved;
pub use saved::SavedError;

/// How a run keeps the request's prefix (SPEC 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cache {
    /// Lists exactly the step's palette (the prefix changes whenever the palette does).
    PerTurn,
    /// Lists what earlier steps listed, then the palette's new names: nothing is removed.
    Append,
    /// Lists every tool on every step and offers the palette (the provider restricts calls).
    Fixed,
    /// Lists the pinned tools, defers the rest, and reveals the palette's new names.
    Deferred,
}

impl Cache {
    /// Every strategy, by its SPEC name.
    pub const ALL: [(&'static str, Cache); 4] = [
        ("per-turn", Cache::PerTurn),
        ("append", Cache::Append),
        ("fixed", Cache::Fixed),
        ("deferred", Cache::Deferred),
    ];
    /// The default of `new PaletteRun({ cache })`.
    pub const DEFAULT: Cache = Cache::Append;
}

/// One step of a run: each list holds registered tools by index, each tool once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// 1, 2, … in the run.
    pub step: u32,
    /// What the model may call at this step (the palette the gate admits).
    pub offered: Vec<u32>,
    /// Whose full definitions the request's tools list carries, in this order.
    pub listed: Vec<u32>,
    /// `Deferred`: the tools sent as deferred definitions; else empty.
    pub deferred: Vec<u32>,
    /// `Deferred`: the offered tools new to the run, to reveal after the history; else empty.
    pub revealed: Vec<u32>,
    /// `listed` and `deferred` are the previous step's (false at step 1).
    pub kept: bool,
    /// SPEC 9: for each skill the step's outcome named relevant, whether it is new to the
    /// run (its instructions enter the conversation now, after the history).
    pub fresh: Vec<bool>,
}

/// Why [`Run::reveal`] refused: the run does not defer, or `names[i]` is not registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevealError {
    NotDeferred(Cache),
    Unregistered(usize),
}

/// What never changes in a run: the registered names and which are pinned.
#[derive(Debug, Clone)]
pub struct Roster {
    names: NameSet,
    /// The registered names' first occurrences, in registration order (each name once).
    firsts: Vec<u32>,
    pinned: Vec<bool>,
}

impl Roster {
    /// The registered names (a name given twice counts once, at its first place), with
    /// `pinned` part of every step's palette; or `Err(i)` when `pinned[i]` is not
    /// registered.
    #[inline(never)]
    pub fn new(registered: NameList, pinned: &NameList) -> Result<Roster, usize> {
        let names = NameSet::new(registered);
        let count = names.list().len();
        let firsts = (0..count as u32)
            .filter(|&i| names.position(names.list().get(i as usize)) == Some(i))
            .collect();
        let mut is_pinned = vec![false; count];
        for i in positions(&names, pinned)? {
            is_pinned[i as usize] = true;
        }
        Ok(Roster {
            names,
            firsts,
            pinned: is_pinned,
        })
    }
}

/// One conversation's progress over its [`Roster`]: what the run listed and revealed, and
/// its last step. Small enough to be copied whole at each step (the binding does: a step
/// is built aside and put in place at once).
#[derive(Debug, Clone)]
pub struct Run {
    cache: Cache,
    /// `Append`: listed at some step; `Deferred`: revealed at some step.
    shown: Vec<bool>,
    /// `Deferred`: the tools revealed so far, in the order they were revealed.
    revealed: Vec<u32>,
    /// SPEC 9: the skills the run has given the model, in order, and the tools the skills
    /// it loaded itself (`load_skill`) joined to every later step's palette.
    skills: NameList,
    joined: Vec<u32>,
    /// The last step (its `listed` and `deferred` are what the next one keeps or not).
    last: Step,
}

impl Run {
    #[inline(never)]
    pub fn new(cache: Cache, roster: &Roster) -> Run {
        Run {
            cache,
            shown: vec![false; roster.pinned.len()],
            revealed: Vec::new(),
            skills: NameList::default(),
            joined: Vec::new(),
            last: Step::default(),
        }
    }

    /// Steps taken.
    pub fn steps(&self) -> u32 {
        self.last.step
    }

    /// How it keeps the request's prefix.
    pub fn cache(&self) -> Cache {
        self.cache
    }

    /// The last step (an empty one, numbered 0, before the first).
    pub fn last(&self) -> &Step {
        &self.last
    }

    /// The next step, for the outcome's palette: a `Routed` outcome's names, or `None`
    /// for a refusal or `RoutingUnavailable` (every tool), and the skills it names relevant
    /// (SPEC 9). The palette takes in the pinned tools and those a loaded skill joined.
    /// `Err(i)` when `names[i]` is not registered; then the run is as it was.
    pub fn step(
        &mut self,
        roster: &Roster,
        palette: Option<&NameList>,
        skills: &NameList,
    ) -> Result<&Step, usize> {
        let mut member = roster.pinned.clone();
        for &i in &self.joined {
            member[i as usize] = true;
        }
        match palette {
            None => roster
                .firsts
                .iter()
                .for_each(|&i| member[i as usize] = true),
            Some(names) => {
                for i in positions(&roster.names, names)? {
                    member[i as usize] = true;
                }
            }
        }
        let all = roster.firsts.iter().copied();
        let names: Vec<u32> = all.clone().filter(|&i| member[i as usize]).collect();
        let (offered, listed, deferred, revealed) = match self.cache {
            Cache::PerTurn => (names.clone(), names, Vec::new(), Vec::new()),
            Cache::Append => {
                let mut listed = self.last.listed.clone();
                for i in names {
                    if !core::mem::replace(&mut self.shown[i as usize], true) {
                        listed.push(i);
                    }
                }
                (listed.clone(), listed, Vec::new(), Vec::new())
            }
            Cache::Fixed => (names, all.collect(), Vec::new(), Vec::new()),
            Cache::Deferred => {
                let pinned = &roster.pinned;
                let (listed, deferred): (Vec<u32>, Vec<u32>) =
                    all.clone().partition(|&i| pinned[i as usize]);
                let mut revealed = Vec::new();
                let offered = if palette.is_none() {
                    all.collect()
                } else {
                    for &i in &names {
                        let seen = core::mem::replace(&mut self.shown[i as usize], true);
                        if !pinned[i as usize] && !seen {
                            revealed.push(i);
                        }
                    }
                    self.revealed.extend_from_slice(&revealed);
                    listed.iter().chain(&self.revealed).copied().collect()
                };
                (offered, listed, deferred, revealed)
            }
        };
        let step = self.last.step + 1;
        let kept = step > 1 && listed == self.last.listed && deferred == self.last.deferred;
        let fresh = skills.iter().map(|skill| self.meet(skill)).collect();
        self.last = Step {
            step,
            offered,
            listed,
            deferred,
            revealed,
            kept,
            fresh,
        };
        Ok(&self.last)
    }

    /// Whether `skill` is new to the run (and from now on it is not).
    fn meet(&mut self, skill: &[u16]) -> bool {
        let new = !self.skills.iter().any(|s| s == skill);
        if new {
            self.skills.push(skill);
        }
        new
    }

    /// SPEC 9, `load_skill`: the model loaded `skill` itself. It is no longer new to the
    /// run (its instructions are in the conversation: the tool's answer), and its `tools`
    /// that are registered join the palette of every later step. The tools that joined
    /// now (registered, not pinned, not joined before); a name that is not registered is
    /// none of the host's tools, and is passed over.
    pub fn join(&mut self, roster: &Roster, skill: &[u16], tools: &NameList) -> Vec<u32> {
        self.meet(skill);
        let mut new = Vec::new();
        for tool in tools.iter() {
            if let Some(i) = roster.names.position(tool) {
                if !roster.pinned[i as usize] && !self.joined.contains(&i) {
                    self.joined.push(i);
                    new.push(i);
                }
            }
        }
        new
    }

    /// `Deferred`: tools the model loaded itself (a tool search the host answered), by
    /// name. Each joins what the run has revealed, in the order given: offered from the
    /// next step on, never revealed again. Pinned and already revealed names add nothing.
    /// The tools newly revealed; `Err` (the run as it was) for another strategy or a name
    /// that is not registered.
    pub fn reveal(&mut self, roster: &Roster, names: &NameList) -> Result<Vec<u32>, RevealError> {
        if self.cache != Cache::Deferred {
            return Err(RevealError::NotDeferred(self.cache));
        }
        let at = positions(&roster.names, names).map_err(RevealError::Unregistered)?;
        let mut new = Vec::new();
        for i in at {
            if !roster.pinned[i as usize] && !core::mem::replace(&mut self.shown[i as usize], true)
            {
                new.push(i);
            }
        }
        self.revealed.extend_from_slice(&new);
        Ok(new)
    }
}

/// Where each of `names` is registered (its first place), or `Err(i)` for the first
/// `names[i]` that is not.
fn positions(registered: &NameSet, names: &NameList) -> Result<Vec<u32>, usize> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| registered.position(name).ok_or(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn list(names: &[&str]) -> NameList {
        names.iter().collect()
    }

    fn saved_of(cache: Cache) -> (Vec<u16>, [&'static str; 4]) {
        let names = ["a", "b", "c", "b"];
        let roster = Roster::new(list(&names), &list(&["c"])).unwrap();
        let mut run = Run::new(cache, &roster);
        run.step(&roster, Some(&list(&["a"])), &list(&[])).unwrap();
        (run.save(&roster), names)
    }

    #[test]
    fn a_saved_form_is_short_versioned_text() {
        let (saved, _) = saved_of(Cache::Deferred);
        let text = String::from_utf16(&saved).unwrap();
        assert!(text.starts_with("tprun1."), "{text}");
        assert!(text.len() < 40, "{text}");
        assert!(text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)));
    }

    #[test]
    fn a_saved_form_refuses_another_list_and_anything_altered() {
        let (saved, names) = saved_of(Cache::Append);
        assert!(Run::load(&saved, list(&names)).is_ok());
        assert_eq!(
            Run::load(&saved, list(&names[..3])).err(),
            Some(SavedError::Count { given: 3, saved: 4 })
        );
        assert_eq!(
            Run::load(&saved, list(&["a", "b", "x", "b"])).err(),
            Some(SavedError::Names)
        );
        assert_eq!(
            Run::load(&saved, list(&["b", "a", "c", "b"])).err(),
            Some(SavedError::Names)
        );
        let v2: Vec<u16> = "tprun2.AAAA".encode_utf16().collect();
        assert_eq!(
            Run::load(&v2, list(&names)).err(),
            Some(SavedError::Version)
        );
        for cut in 0..saved.len() {
            assert!(
                Run::load(&saved[..cut], list(&names)).is_err(),
                "cut at {cut}"
            );
        }
        for at in 7..saved.len() {
            let mut altered = saved.clone();
            altered[at] = if altered[at] == u16::from(b'A') {
                u16::from(b'B')
            } else {
                u16::from(b'A')
            };
            assert!(
                Run::load(&altered, list(&names)).is_err(),
                "altered at {at}"
            );
        }
    }
}
