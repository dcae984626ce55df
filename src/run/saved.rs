//! A run's saved form (SPEC 8: "a run outlives its process"): what a run needs to take its
//! next step exactly as the unbroken run would, as a short text that any store keeps (a
//! Durable Object's storage, KV, a database column, JSON beside the history).
//!
//! `tprun1.` then base64url (no padding) of the bytes: the strategy; the registered list's
//! fingerprint (its length and a 64-bit FNV-1a of its names, each name's code units and
//! length); the steps taken; the pinned tools, the tools revealed in order, and (for
//! `per-turn` and `append`) the last step's `listed` (each a count then indices, varints);
//! the tools loaded skills joined, and the skills the run has given the model (a count,
//! then each skill's length and code units, varints: skills are not the registered
//! tools, and must come back exact); then a 32-bit checksum of all that. Everything else is derived: a `fixed` run lists
//! every tool, a `deferred` one its pinned tools and defers the rest, what `append` showed
//! is what it listed, what `deferred` showed what it revealed. The names are not kept: the
//! run is restored over the registered list its host passes again, which must be the very
//! list it was saved with (the fingerprint says so, else a clear error: never a silently
//! different prefix).

use super::{Cache, Roster, Run, Step};
use crate::names::NameList;
use alloc::{vec, vec::Vec};

/// The saved form's prefix, and its version.
const PREFIX: &[u8] = b"tprun1.";

/// Why a saved form is refused (run.js words each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedError {
    /// Not a saved run (no prefix, not base64url, truncated, altered).
    NotSaved,
    /// A saved run of another version of the package.
    Version,
    /// The registered list has `given` names; the run was saved over `saved`.
    Count { given: u32, saved: u32 },
    /// The registered list has as many names, but not the same ones in the same order.
    Names,
}

/// A 64-bit FNV-1a of the names, each name's code units then its length.
fn fingerprint(names: &NameList) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u16| h = (h ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
    for name in names.iter() {
        name.iter().for_each(|&u| eat(u));
        eat(name.len() as u16);
        eat((name.len() >> 16) as u16 | 0x8000);
    }
    h
}

/// Adler-32: enough to tell a form cut short or altered by hand.
fn checksum(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

fn varint(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn list(out: &mut Vec<u8>, items: &[u32]) {
    varint(out, items.len() as u32);
    for &i in items {
        varint(out, i);
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn digit(u: u16) -> Option<u32> {
    let d = match u {
        0x41..=0x5a => u - 0x41,
        0x61..=0x7a => u - 0x61 + 26,
        0x30..=0x39 => u - 0x30 + 52,
        0x2d => 62,
        0x5f => 63,
        _ => return None,
    };
    Some(u32::from(d))
}

impl Run {
    /// The run's saved form, over its roster.
    #[inline(never)]
    pub fn save(&self, roster: &Roster) -> Vec<u16> {
        let mut bytes = Vec::new();
        bytes.push(
            Cache::ALL
                .iter()
                .position(|&(_, c)| c == self.cache)
                .unwrap_or(0) as u8,
        );
        varint(&mut bytes, roster.names.list().len() as u32);
        bytes.extend_from_slice(&fingerprint(roster.names.list()).to_le_bytes());
        varint(&mut bytes, self.last.step);
        let pinned: Vec<u32> = (0..roster.pinned.len() as u32)
            .filter(|&i| roster.pinned[i as usize])
            .collect();
        list(&mut bytes, &pinned);
        list(&mut bytes, &self.revealed);
        if matches!(self.cache, Cache::PerTurn | Cache::Append) {
            list(&mut bytes, &self.last.listed);
        }
        list(&mut bytes, &self.joined);
        varint(&mut bytes, self.skills.len() as u32);
        for skill in self.skills.iter() {
            varint(&mut bytes, skill.len() as u32);
            skill.iter().for_each(|&u| varint(&mut bytes, u32::from(u)));
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let mut out: Vec<u16> = PREFIX.iter().map(|&b| u16::from(b)).collect();
        for chunk in bytes.chunks(3) {
            let mut v = 0u32;
            for (i, &b) in chunk.iter().enumerate() {
                v |= u32::from(b) << (16 - 8 * i);
            }
            for k in 0..=chunk.len() {
                out.push(u16::from(ALPHABET[(v >> (18 - 6 * k)) as usize & 63]));
            }
        }
        out
    }

    /// The run a saved form holds, restored over `registered` (the list it was saved with).
    #[inline(never)]
    pub fn load(saved: &[u16], registered: NameList) -> Result<(Roster, Run), SavedError> {
        use SavedError::NotSaved;
        let head = saved.len() >= PREFIX.len()
            && saved[..PREFIX.len()]
                .iter()
                .zip(PREFIX)
                .all(|(&u, &b)| u == u16::from(b));
        if !head {
            let other = saved.len() >= 5
                && saved[..5]
                    .iter()
                    .zip(&PREFIX[..5])
                    .all(|(&u, &b)| u == u16::from(b));
            return Err(if other { SavedError::Version } else { NotSaved });
        }
        let body = &saved[PREFIX.len()..];
        let mut bytes = Vec::with_capacity(body.len() * 3 / 4);
        for chunk in body.chunks(4) {
            let mut v = 0u32;
            for (k, &u) in chunk.iter().enumerate() {
                v |= digit(u).ok_or(NotSaved)? << (18 - 6 * k);
            }
            for k in 0..chunk.len().saturating_sub(1) {
                bytes.push((v >> (16 - 8 * k)) as u8);
            }
        }
        if bytes.len() < 4 || body.len() % 4 == 1 {
            return Err(NotSaved);
        }
        let (content, sum) = bytes.split_at(bytes.len() - 4);
        if checksum(content).to_le_bytes() != sum {
            return Err(NotSaved);
        }
        let mut r = Reader {
            bytes: content,
            at: 0,
        };
        let cache = Cache::ALL.get(r.byte()? as usize).ok_or(NotSaved)?.1;
        let count = r.varint()?;
        let mut hash = 0u64;
        for k in 0..8 {
            hash |= u64::from(r.byte()?) << (8 * k);
        }
        let given = registered.len() as u32;
        if given != count {
            return Err(SavedError::Count {
                given,
                saved: count,
            });
        }
        if fingerprint(&registered) != hash {
            return Err(SavedError::Names);
        }
        let steps = r.varint()?;
        let pinned = r.list(count)?;
        let revealed = r.list(count)?;
        let kept = matches!(cache, Cache::PerTurn | Cache::Append);
        let listed = if kept { r.list(count)? } else { Vec::new() };
        let joined = r.list(count)?;
        let mut skills = NameList::default();
        for _ in 0..r.varint()? {
            let len = r.varint()? as usize;
            if len > content.len() - r.at {
                return Err(NotSaved);
            }
            let skill: Result<Vec<u16>, SavedError> = (0..len)
                .map(|_| u16::try_from(r.varint()?).map_err(|_| NotSaved))
                .collect();
            skills.push(&skill?);
        }
        if r.at != content.len() {
            return Err(NotSaved);
        }
        let mut pins = NameList::default();
        for &i in &pinned {
            pins.push(registered.get(i as usize));
        }
        let roster = Roster::new(registered, &pins).map_err(|_| NotSaved)?;
        // Every index names a tool at its first place (what a run ever holds).
        for &i in pinned.iter().chain(&revealed).chain(&listed).chain(&joined) {
            if roster.firsts.binary_search(&i).is_err() {
                return Err(NotSaved);
            }
        }
        let mut run = Run::new(cache, &roster);
        run.revealed = revealed;
        run.joined = joined;
        run.skills = skills;
        let mut last = Step {
            step: steps,
            listed,
            ..Step::default()
        };
        if steps > 0 && !kept {
            // What a `fixed` or `deferred` step lists and defers, whatever the palette.
            for &i in &roster.firsts {
                if cache == Cache::Fixed || roster.pinned[i as usize] {
                    last.listed.push(i);
                } else {
                    last.deferred.push(i);
                }
            }
        }
        let shown = if cache == Cache::Append {
            &last.listed
        } else {
            &run.revealed
        };
        for &i in shown {
            run.shown[i as usize] = true;
        }
        run.last = last;
        Ok((roster, run))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, SavedError> {
        let b = *self.bytes.get(self.at).ok_or(SavedError::NotSaved)?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, SavedError> {
        let mut x = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return u32::try_from(x).map_err(|_| SavedError::NotSaved);
            }
        }
        Err(SavedError::NotSaved)
    }

    /// A count then that many indices, each below `count`.
    fn list(&mut self, count: u32) -> Result<Vec<u32>, SavedError> {
        let n = self.varint()?;
        if n > count {
            return Err(SavedError::NotSaved);
        }
        let mut out = vec![0; n as usize];
        for x in &mut out {
            *x = self.varint()?;
            if *x >= count {
                return Err(SavedError::NotSaved);
            }
        }
        Ok(out)
    }
}
