//! A naive model of SPEC 8 (runs), written from the SPEC's words: lists of names, linear
//! scans, the previous step's lists kept as they were.

use super::Units;
use tool_palette::names::NameList;
use tool_palette::run::{Cache, Roster, Run};

/// One step as the SPEC states it, in names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSpec {
    pub step: u32,
    pub offered: Vec<Units>,
    pub listed: Vec<Units>,
    pub deferred: Vec<Units>,
    pub revealed: Vec<Units>,
    pub kept: bool,
    /// SPEC 9: per skill the outcome named, whether the run meets it for the first time.
    pub fresh: Vec<bool>,
}

pub struct RunModel {
    cache: Cache,
    registered: Vec<Units>,
    pinned: Vec<Units>,
    revealed: Vec<Units>,
    last: Option<StepSpec>,
    /// SPEC 9: the skills the run gave the model; the tools loaded skills joined.
    skills: Vec<Units>,
    joined: Vec<Units>,
}

/// `Err(i)`: `names[i]` is the first that is not registered.
fn check(registered: &[Units], names: &[Units]) -> Result<(), usize> {
    match names.iter().position(|n| !registered.contains(n)) {
        Some(i) => Err(i),
        None => Ok(()),
    }
}

impl RunModel {
    pub fn new(cache: Cache, registered: &[Units], pinned: &[Units]) -> Result<RunModel, usize> {
        check(registered, pinned)?;
        let mut distinct: Vec<Units> = Vec::new();
        for n in registered {
            if !distinct.contains(n) {
                distinct.push(n.clone());
            }
        }
        let pinned = distinct
            .iter()
            .filter(|n| pinned.contains(n))
            .cloned()
            .collect();
        Ok(RunModel {
            cache,
            registered: distinct,
            pinned,
            revealed: Vec::new(),
            last: None,
            skills: Vec::new(),
            joined: Vec::new(),
        })
    }

    /// Whether the run meets `skill` for the first time (from now on it has met it).
    fn meet(&mut self, skill: &Units) -> bool {
        let new = !self.skills.contains(skill);
        if new {
            self.skills.push(skill.clone());
        }
        new
    }

    /// SPEC 9, `load_skill`: the skill is met, and its registered tools that are neither
    /// pinned nor joined before join every later palette (the new ones answered).
    pub fn join(&mut self, skill: &Units, tools: &[Units]) -> Vec<Units> {
        self.meet(skill);
        let mut new = Vec::new();
        for t in tools {
            if self.registered.contains(t) && !self.pinned.contains(t) && !self.joined.contains(t) {
                self.joined.push(t.clone());
                new.push(t.clone());
            }
        }
        new
    }

    /// `None`: a refusal or `RoutingUnavailable`; `skills`: those the outcome names.
    pub fn step(&mut self, names: Option<&[Units]>, skills: &[Units]) -> Result<StepSpec, usize> {
        if let Some(names) = names {
            check(&self.registered, names)?;
        }
        let r = &self.registered;
        // The step's palette, in registration order: every name, or the outcome's and the pinned.
        let palette: Vec<Units> = r
            .iter()
            .filter(|n| {
                names.map_or(true, |names| {
                    names.contains(n) || self.pinned.contains(n) || self.joined.contains(n)
                })
            })
            .cloned()
            .collect();
        let last_listed = self
            .last
            .as_ref()
            .map(|s| s.listed.clone())
            .unwrap_or_default();
        let (offered, listed, deferred, revealed) = match self.cache {
            Cache::PerTurn => (palette.clone(), palette, vec![], vec![]),
            Cache::Append => {
                let mut listed = last_listed.clone();
                for n in palette {
                    if !listed.contains(&n) {
                        listed.push(n);
                    }
                }
                (listed.clone(), listed, vec![], vec![])
            }
            Cache::Fixed => (palette, r.clone(), vec![], vec![]),
            Cache::Deferred => {
                let listed = self.pinned.clone();
                let deferred: Vec<Units> =
                    r.iter().filter(|n| !listed.contains(n)).cloned().collect();
                if names.is_none() {
                    (r.clone(), listed, deferred, vec![])
                } else {
                    let revealed: Vec<Units> = palette
                        .into_iter()
                        .filter(|n| !self.revealed.contains(n) && !listed.contains(n))
                        .collect();
                    self.revealed.extend(revealed.iter().cloned());
                    let offered = listed.iter().chain(&self.revealed).cloned().collect();
                    (offered, listed, deferred, revealed)
                }
            }
        };
        let kept = self
            .last
            .as_ref()
            .is_some_and(|s| s.listed == listed && s.deferred == deferred);
        let fresh = skills.iter().map(|s| self.meet(s)).collect();
        let step = StepSpec {
            step: self.last.as_ref().map_or(1, |s| s.step + 1),
            offered,
            listed,
            deferred,
            revealed,
            kept,
            fresh,
        };
        self.last = Some(step.clone());
        Ok(step)
    }
}

impl RunModel {
    /// SPEC 8 has no word for it: the model loaded `names` itself (its own tool search).
    /// Only a deferred run reveals; each registered name not pinned and not revealed before
    /// joins the revealed ones, in the order given. `Err(None)`: not deferred.
    pub fn reveal(&mut self, names: &[Units]) -> Result<Vec<Units>, Option<usize>> {
        if self.cache != Cache::Deferred {
            return Err(None);
        }
        check(&self.registered, names).map_err(Some)?;
        let mut new: Vec<Units> = Vec::new();
        for n in names {
            if !self.pinned.contains(n) && !self.revealed.contains(n) && !new.contains(n) {
                new.push(n.clone());
            }
        }
        self.revealed.extend(new.iter().cloned());
        Ok(new)
    }
}

fn list(names: &[Units]) -> NameList {
    let mut list = NameList::default();
    names.iter().for_each(|n| list.push(n));
    list
}

/// The core's run, answering in the model's terms.
pub struct CoreRun {
    roster: Roster,
    run: Run,
    registered: Vec<Units>,
}

impl CoreRun {
    pub fn new(cache: Cache, registered: &[Units], pinned: &[Units]) -> Result<CoreRun, usize> {
        let roster = Roster::new(list(registered), &list(pinned))?;
        let run = Run::new(cache, &roster);
        Ok(CoreRun {
            roster,
            run,
            registered: registered.to_vec(),
        })
    }

    pub fn steps(&self) -> u32 {
        self.run.steps()
    }

    /// The run saved and restored over its registered list, as a new process would: it
    /// must go on exactly as it would have.
    pub fn restart(&mut self) {
        let saved = self.run.save(&self.roster);
        let (roster, run) =
            Run::load(&saved, list(&self.registered)).expect("its own saved form loads");
        (self.roster, self.run) = (roster, run);
    }

    pub fn reveal(&mut self, names: &[Units]) -> Result<Vec<Units>, Option<usize>> {
        use tool_palette::run::RevealError;
        let new = self
            .run
            .reveal(&self.roster, &list(names))
            .map_err(|e| match e {
                RevealError::NotDeferred(_) => None,
                RevealError::Unregistered(i) => Some(i),
            })?;
        Ok(new
            .iter()
            .map(|&i| self.registered[i as usize].clone())
            .collect())
    }

    pub fn join(&mut self, skill: &Units, tools: &[Units]) -> Vec<Units> {
        let new = self.run.join(&self.roster, skill, &list(tools));
        new.iter()
            .map(|&i| self.registered[i as usize].clone())
            .collect()
    }

    pub fn step(&mut self, names: Option<&[Units]>, skills: &[Units]) -> Result<StepSpec, usize> {
        let given = names.map(list);
        let s = self.run.step(&self.roster, given.as_ref(), &list(skills))?;
        let of = |is: &[u32]| {
            is.iter()
                .map(|&i| self.registered[i as usize].clone())
                .collect()
        };
        Ok(StepSpec {
            step: s.step,
            offered: of(&s.offered),
            listed: of(&s.listed),
            deferred: of(&s.deferred),
            revealed: of(&s.revealed),
            kept: s.kept,
            fresh: s.fresh.clone(),
        })
    }
}
