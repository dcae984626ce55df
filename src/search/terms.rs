//! The term dictionary: an open-addressing table from a token (UTF-16 code units) to its
//! term id, ids given in order of first insertion. Like `names::NameTable`, but it owns
//! the terms, stored back to back.

use alloc::{vec, vec::Vec};

/// FxHash-style hashing four code units at a time: small and fast; terms come from the
/// caller's own tool texts, and a collision only costs a probe.
#[inline(never)]
pub(crate) fn hash(t: &[u16]) -> u32 {
    // Index loops: at opt-level "z" iterator adapters stay calls, and this runs once per
    // token of every tool at build time.
    let mut h = t.len() as u64;
    let mut i = 0;
    while i < t.len() {
        let end = (i + 4).min(t.len());
        let mut w = 0u64;
        let mut j = end;
        while j > i {
            j -= 1;
            w = w << 16 | u64::from(t[j]);
        }
        h = (h.rotate_left(26) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        i = end;
    }
    (h ^ h >> 32) as u32
}

/// `a == b`, without the call to `memcmp` that slice equality compiles to (tokens are a
/// few code units; the call costs more than the comparison).
fn same(a: &[u16], b: &[u16]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Terms {
    units: Vec<u16>,
    /// Term `i` is `units[ends[i-1]..ends[i]]`.
    ends: Vec<u32>,
    /// (`id + 1`, hash), id 0 = empty; a power of two in length, at most half full.
    slots: Vec<(u32, u32)>,
}

impl Terms {
    pub(crate) fn heap_bytes(&self) -> usize {
        2 * self.units.capacity() + 4 * self.ends.capacity() + 8 * self.slots.capacity()
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn get(&self, id: u32) -> &[u16] {
        let (i, ends) = (id as usize, self.ends.as_slice());
        let start = if i == 0 { 0 } else { ends[i - 1] as usize };
        &self.units.as_slice()[start..ends[i] as usize]
    }

    /// The terms back to back and where each ends (for snapshots).
    pub(crate) fn parts(&self) -> (&[u16], &[u32]) {
        (&self.units, &self.ends)
    }

    /// The dictionary of `parts`, its table rebuilt; `None` unless the ends fit the units
    /// and the terms are distinct.
    pub(crate) fn from_parts(units: &[u16], ends: &[u32]) -> Option<Terms> {
        let mut terms = Terms::default();
        let mut start = 0usize;
        for (i, &end) in ends.iter().enumerate() {
            let term = units.get(start..end as usize)?;
            if terms.intern(term, hash(term)) as usize != i {
                return None;
            }
            start = end as usize;
        }
        (start == units.len()).then_some(terms)
    }

    /// The slot holding `t`, or the empty slot where it would go.
    fn probe(&self, t: &[u16], h: u32) -> usize {
        let slots = self.slots.as_slice();
        let mask = slots.len() - 1;
        let mut at = h as usize & mask;
        loop {
            let (s, sh) = slots[at];
            if s == 0 || (sh == h && same(self.get(s - 1), t)) {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// The id of `t`, whose `hash` is `h`.
    pub(crate) fn find(&self, t: &[u16], h: u32) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.slots.as_slice()[self.probe(t, h)].0.checked_sub(1)
    }

    /// The id of `t`, whose `hash` is `h`, added if new.
    pub(crate) fn intern(&mut self, t: &[u16], h: u32) -> u32 {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let at = self.probe(t, h);
        // `as_slice` indexing: `Vec`'s own `Index` stays a call at opt-level "z".
        let id = self.slots.as_slice()[at].0;
        if id != 0 {
            return id - 1;
        }
        self.units.extend_from_slice(t);
        self.ends.push(self.units.len() as u32);
        self.slots.as_mut_slice()[at] = (self.ends.len() as u32, h);
        self.ends.len() as u32 - 1
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1024);
        let old = core::mem::replace(&mut self.slots, vec![(0, 0); size]);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.0 != 0) {
            let mut at = slot.1 as usize & mask;
            while self.slots[at].0 != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}
