//! The one heap of the module (wasm: its linear memory; natively, with the `global`
//! feature: a static buffer), its calls' groups and its records.

use crate::tlsf::{Heap, Node, ALIGN};
use alloc::boxed::Box;
use core::alloc::{GlobalAlloc, Layout};
use core::any::Any;
use core::cell::UnsafeCell;
use core::ptr::NonNull;

/// Calls nested at most this deep have a group each (deeper ones share their parent's).
const CALLS: usize = 256;
/// Records borrowed at once, at most (beyond: refused, as a record in use).
const BORROWS: usize = 256;

struct State {
    heap: Heap,
    ready: bool,
    /// The groups of the calls in progress, by depth (1 = the outermost; 0 is `statics`).
    calls: [Node; CALLS],
    /// How many records were borrowed when each call began.
    marks: [u32; CALLS],
    depth: u32,
    /// What lives as long as the module (allocated outside any call).
    statics: Node,
    /// The records in use, innermost last (a record's offset; +1 while its state is built).
    borrows: [u32; BORROWS],
    borrowed: u32,
    /// The slot table (a payload of record offsets, 0: empty) and its length.
    slots: u32,
    slot_count: u32,
    /// The first record waiting to be freed (its borrowers gone, or a purge cut short).
    dying: u32,
}

/// An instance's state: its memory is the group `live`; `next` is the group a new state
/// is built in (copy-on-write), or the leftovers of a build that never finished. Or, for
/// an `owned` state (one that holds JavaScript values, whose library code may keep memory
/// of its own beyond the state: wasm-bindgen-futures'), its memory is the module's (the
/// statics) and goes by its `Drop`, as in any Rust program: such a state is built and
/// used only where no call is cut short (index.js polls a stream load from a settled
/// promise's turn).
#[repr(C)]
struct Record {
    live: Node,
    next: Node,
    state: Option<NonNull<dyn Any>>,
    busy: u32,
    /// Released: freed once no call borrows it.
    dying: bool,
    /// Its memory is the statics' and goes by its `Drop` (see above).
    owned: bool,
    /// The next dying record.
    after: u32,
    /// While lent by [`within`]: the group that was current.
    saved: u32,
}

#[cfg(target_arch = "wasm32")]
mod memory {
    use super::*;

    #[repr(transparent)]
    pub struct Global(pub UnsafeCell<State>);
    // Safety: wasm32 without threads: one thread touches it.
    unsafe impl Sync for Global {}

    extern "C" {
        static __heap_base: u8;
    }

    pub static MEMORY: Global = Global(UnsafeCell::new(State::new()));

    #[inline(always)]
    pub unsafe fn state() -> &'static mut State {
        let s = &mut *MEMORY.0.get();
        if !s.ready {
            s.heap.begin_at(core::ptr::addr_of!(__heap_base) as u32);
            s.start();
        }
        s
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod memory {
    use super::*;

    /// The test heap's memory: 512 MiB of virtual memory, touched as it is used.
    const ARENA: usize = 1 << 29;

    #[repr(C, align(16))]
    pub struct Global {
        state: UnsafeCell<State>,
        arena: UnsafeCell<[u8; ARENA]>,
    }
    // Safety: the tests that use it run on one thread (see tests/heap.rs).
    unsafe impl Sync for Global {}

    pub static MEMORY: Global = Global {
        state: UnsafeCell::new(State::new()),
        arena: UnsafeCell::new([0; ARENA]),
    };

    #[inline(always)]
    pub unsafe fn state() -> &'static mut State {
        let s = &mut *MEMORY.state.get();
        if !s.ready {
            let base = &MEMORY as *const Global as usize;
            let start = (MEMORY.arena.get() as usize - base) as u32;
            let capacity = core::mem::size_of::<Global>() as u32;
            s.heap = Heap::over(base, start, start + (1 << 20), capacity);
            s.start();
        }
        s
    }
}

use memory::state;

impl State {
    const fn new() -> State {
        const NODE: Node = Node::new();
        State {
            heap: Heap::new(0, 0),
            ready: false,
            calls: [NODE; CALLS],
            marks: [0; CALLS],
            depth: 0,
            statics: Node::new(),
            borrows: [0; BORROWS],
            borrowed: 0,
            slots: 0,
            slot_count: 0,
            dying: 0,
        }
    }

    #[inline(always)]
    unsafe fn start(&mut self) {
        self.ready = true;
        let statics = self.heap.node(&self.statics);
        self.heap.clear_node(statics);
        self.heap.current = statics;
    }

    /// The group of the call at `depth` (0: the statics).
    #[inline(always)]
    fn group(&self, depth: u32) -> u32 {
        let node: *const Node = if depth == 0 {
            &self.statics
        } else {
            &self.calls[depth as usize]
        };
        self.heap.node(node)
    }

    #[inline(always)]
    unsafe fn record(&self, at: u32) -> &'static mut Record {
        &mut *(self.heap.address(at) as *mut Record)
    }

    /// The record in `slot`, if there is one.
    #[inline(always)]
    unsafe fn slot(&self, slot: u32) -> Option<&'static mut Record> {
        if slot >= self.slot_count {
            return None;
        }
        let at = *(self.heap.address(self.slots + 4 * slot) as *const u32);
        (at != 0).then(|| self.record(at))
    }

    #[inline(always)]
    unsafe fn offset_of(&self, rec: &Record) -> u32 {
        self.heap.offset(rec as *const Record as *mut u8)
    }

    /// The record in `slot`, made (empty) if there is none; none if the table cannot grow.
    #[inline(never)]
    unsafe fn slot_or_new(&mut self, slot: u32) -> Option<&'static mut Record> {
        if slot >= self.slot_count {
            let count = (slot + 1).max(self.slot_count * 2).max(64);
            let saved = self.heap.current;
            self.heap.current = 0;
            let table = if self.slots == 0 {
                self.heap.alloc(4 * count as usize, 4)
            } else {
                self.heap.realloc(self.slots, 4 * count as usize)
            };
            self.heap.current = saved;
            if table == 0 {
                return None;
            }
            core::ptr::write_bytes(
                self.heap.address(table + 4 * self.slot_count),
                0,
                4 * (count - self.slot_count) as usize,
            );
            self.slots = table;
            self.slot_count = count;
        }
        if let Some(rec) = self.slot(slot) {
            return Some(rec);
        }
        let saved = self.heap.current;
        self.heap.current = 0;
        let at = self
            .heap
            .alloc(core::mem::size_of::<Record>(), ALIGN as usize);
        self.heap.current = saved;
        if at == 0 {
            return None;
        }
        let rec = self.record(at);
        core::ptr::write(
            rec,
            Record {
                live: Node::new(),
                next: Node::new(),
                state: None,
                busy: 0,
                dying: false,
                owned: false,
                after: 0,
                saved: 0,
            },
        );
        self.heap.clear_node(self.heap.node(&rec.live));
        self.heap.clear_node(self.heap.node(&rec.next));
        *(self.heap.address(self.slots + 4 * slot) as *mut u32) = at;
        Some(rec)
    }

    /// Borrows `rec` (`building`: its `next` holds a state being built).
    #[inline(always)]
    unsafe fn lend(&mut self, rec: &mut Record, building: bool) -> bool {
        if self.borrowed as usize >= BORROWS {
            return false;
        }
        rec.busy += 1;
        self.borrows[self.borrowed as usize] = self.offset_of(rec) + building as u32;
        self.borrowed += 1;
        true
    }

    /// Gives back the innermost borrow (of `rec`), freeing `rec` if it was released meanwhile.
    #[inline(always)]
    unsafe fn give_back(&mut self, rec: &mut Record) {
        self.borrowed -= 1;
        rec.busy -= 1;
        if rec.busy == 0 && rec.dying {
            self.reap();
        }
    }

    /// Gives back every borrow beyond the first `height` (of calls that never returned):
    /// a state half-built is thrown away.
    #[inline(never)]
    unsafe fn give_back_to(&mut self, height: u32) {
        while self.borrowed > height {
            let entry = self.borrows[self.borrowed as usize - 1];
            let rec = self.record(entry & !1);
            if entry & 1 != 0 {
                self.heap.purge(self.heap.node(&rec.next), u32::MAX);
            }
            rec.busy -= 1;
            self.borrowed -= 1;
        }
        self.reap();
    }

    /// Frees the dying records no call borrows any more, one block per round.
    #[inline(never)]
    unsafe fn reap(&mut self) {
        let mut link: *mut u32 = &mut self.dying;
        while *link != 0 {
            let rec = self.record(*link);
            if rec.busy > 0 {
                link = &mut rec.after;
                continue;
            }
            if rec.owned {
                if let Some(state) = rec.state.take() {
                    drop(alloc::boxed::Box::from_raw(state.as_ptr()));
                }
            }
            rec.state = None;
            self.heap.purge(self.heap.node(&rec.live), u32::MAX);
            self.heap.purge(self.heap.node(&rec.next), u32::MAX);
            let at = *link;
            *link = rec.after;
            self.heap.dealloc(at);
        }
    }

    /// Rolls back every call deeper than `mark`: their groups freed, their borrows given back.
    unsafe fn recover(&mut self, mark: u32) {
        if self.depth > mark {
            let height = self.marks[mark as usize + 1].min(self.borrowed);
            while self.depth > mark {
                let node = self.group(self.depth);
                self.heap.purge(node, u32::MAX);
                self.depth -= 1;
            }
            self.heap.current = self.group(self.depth);
            self.give_back_to(height);
        }
        self.heap.current = self.group(self.depth);
    }
}

// ---------------------------------------------------------------- the allocator

/// The module's global allocator. Each method is one function that calls nothing but, before
/// it changes anything, the heap's one function that takes a block: a stack overflow can
/// only strike before the heap is touched (the build checks the compiled module for calls).
pub struct Allocator;

unsafe impl GlobalAlloc for Allocator {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let s = state();
        match s.heap.alloc(layout.size(), layout.align()) {
            0 => core::ptr::null_mut(),
            at => s.heap.address(at),
        }
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = self.alloc(layout);
        if !p.is_null() {
            core::ptr::write_bytes(p, 0, layout.size());
        }
        p
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        let s = state();
        s.heap.dealloc(s.heap.offset(ptr));
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let s = state();
        if layout.align() > ALIGN as usize {
            return core::ptr::null_mut();
        }
        match s.heap.realloc(s.heap.offset(ptr), new_size) {
            0 => core::ptr::null_mut(),
            at => s.heap.address(at),
        }
    }
}

// ---------------------------------------------------------------- calls

/// A call into the module begins (the binding's door): its allocations form a group of
/// their own. The depth before it (the mark to [`close`] it with). `outermost`: no call is
/// in progress, so anything left by one that never returned is rolled back first.
pub fn open(outermost: bool) -> u32 {
    unsafe {
        let s = state();
        if outermost && (s.depth != 0 || s.borrowed != 0) {
            s.recover(0);
        }
        let mark = s.depth;
        if (mark as usize) + 1 < CALLS {
            s.depth = mark + 1;
            s.marks[s.depth as usize] = s.borrowed;
            let node = s.group(s.depth);
            s.heap.clear_node(node);
            s.heap.current = node;
        }
        mark
    }
}

/// The call opened at `mark` ends. One that returned (`aborted` false) leaves its group
/// empty (what it may still hold joins the caller's group); one that did not is rolled
/// back: its group and those of the calls it left open are freed, its borrows given back.
pub fn close(mark: u32, aborted: bool) {
    unsafe {
        let s = state();
        if aborted {
            s.recover(mark);
            return;
        }
        if s.depth > mark + 1 {
            // Calls nested in this one that never returned and were not rolled back.
            s.recover(mark + 1);
        }
        if s.depth == mark + 1 {
            let (from, to) = (s.group(s.depth), s.group(mark));
            s.heap.splice(from, to);
            s.depth = mark;
        }
        s.heap.current = s.group(s.depth);
    }
}

/// The heap's blocks in use, and their bytes (headers included): flat over calls that
/// leave nothing behind, whether they returned or were cut short (the bytes within a block
/// or so: a block may be a little larger than asked, as where it lands allows).
pub fn used() -> (u32, u32) {
    unsafe {
        let h = &state().heap;
        (h.blocks, h.used)
    }
}

/// Calls in progress (0: none).
pub fn depth() -> u32 {
    unsafe { state().depth }
}

// ---------------------------------------------------------------- records

/// Puts in `slot` the state `make` builds (its memory a group of its own: exactly what
/// `make` allocates or [`adopt`]s, so a state must never keep a buffer allocated before,
/// unless adopted), replacing what the slot held; `owned`: a state whose memory is the
/// module's and goes by its `Drop` (see [`Record`]). False (the slot as it was) when
/// `make` answers none, the memory ran out, or the slot's state is in use.
pub fn build<T: Any>(slot: u32, owned: bool, make: impl FnOnce() -> Option<T>) -> bool {
    unsafe {
        let Some((rec, saved)) = begin(slot, Some(owned)) else {
            return false;
        };
        let made = make().map(|v| Box::new(v) as Box<dyn Any>);
        finish(rec, saved, made)
    }
}

/// Copy-on-write: the state `f` makes from the one in `slot` replaces it (built aside,
/// put in place at once), and `f`'s answer; none (the slot as it was) when `f` answers
/// none, the slot holds no `T` or is in use.
pub fn replace<T: Any, R>(slot: u32, f: impl FnOnce(&T) -> Option<(T, R)>) -> Option<R> {
    unsafe {
        let (rec, saved) = begin(slot, None)?;
        let made = rec
            .state
            .and_then(|s| s.as_ref().downcast_ref::<T>())
            .and_then(f);
        let (value, r) = match made {
            Some((v, r)) => (Some(Box::new(v) as Box<dyn Any>), Some(r)),
            None => (None, None),
        };
        finish(rec, saved, value);
        r
    }
}

/// The record in `slot` lent for a new state built in its `next` group (the current one
/// meanwhile; an owned state's in the statics), and the group that was current; none when
/// it is in use. `owned`: a new record's kind (made if there is none); none: the record's
/// state replaced by one of its kind.
#[inline(never)]
unsafe fn begin(slot: u32, owned: Option<bool>) -> Option<(&'static mut Record, u32)> {
    let s = state();
    let rec = if owned.is_some() {
        s.slot_or_new(slot)?
    } else {
        s.slot(slot)?
    };
    if rec.busy != 0 || !s.lend(rec, true) {
        return None;
    }
    if let Some(owned) = owned {
        if rec.state.is_some() && rec.owned != owned {
            s.give_back(rec);
            return None;
        }
        rec.owned = owned;
    }
    let next = s.heap.node(&rec.next);
    s.heap.purge(next, u32::MAX);
    let saved = s.heap.current;
    s.heap.current = if rec.owned { s.group(0) } else { next };
    Some((rec, saved))
}

/// The build begun on `rec` ends: its state put in place, if made; what it replaced
/// freed. Whether it was made.
#[inline(never)]
unsafe fn finish(rec: &mut Record, saved: u32, made: Option<Box<dyn Any>>) -> bool {
    let s = state();
    s.heap.current = saved;
    let done = made.is_some();
    if let Some(value) = made {
        let old = rec
            .state
            .replace(NonNull::new_unchecked(Box::into_raw(value)));
        if rec.owned {
            if let Some(old) = old {
                drop(Box::from_raw(old.as_ptr()));
            }
        } else {
            s.heap.swap(s.heap.node(&rec.live), s.heap.node(&rec.next));
        }
    }
    s.heap.purge(s.heap.node(&rec.next), u32::MAX);
    s.give_back(rec);
    done
}

/// `f` on the state in `slot`, borrowed (other calls may borrow it meanwhile; none may
/// replace or free it until `f` returns); none when the slot holds no `T`.
pub fn with<T: Any, R>(slot: u32, f: impl FnOnce(&T) -> R) -> Option<R> {
    unsafe {
        let rec = lend(slot, false, false)?;
        let r = rec
            .state
            .and_then(|s| s.as_ref().downcast_ref::<T>())
            .map(f);
        give_back(rec, 0);
        r
    }
}

/// `f` on the state in `slot`, borrowed alone; none when the slot holds no `T` or is in
/// use. What `f` allocates is the call's (freed with it if it is cut short), but a buffer
/// of the state that grows stays the state's (a block keeps its group when it grows): `f`
/// may fill what the state holds, never give it something new (see [`within`]).
pub fn with_mut<T: Any, R>(slot: u32, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    lend_mut(slot, false, f)
}

/// [`with_mut`], where what `f` allocates joins the state's memory (kept until the state
/// goes, even if `f` is cut short): for states that take in new buffers.
pub fn within<T: Any, R>(slot: u32, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    lend_mut(slot, true, f)
}

fn lend_mut<T: Any, R>(slot: u32, keep: bool, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    unsafe {
        let rec = lend(slot, true, keep)?;
        let saved = if keep { rec.saved } else { 0 };
        let r = rec
            .state
            .and_then(|mut s| s.as_mut().downcast_mut::<T>())
            .map(f);
        give_back(rec, saved);
        r
    }
}

/// The record in `slot`, lent (`alone`: only if no call has it); `keep`: what is
/// allocated meanwhile joins its memory (the group that was current kept in `saved`).
#[inline(never)]
unsafe fn lend(slot: u32, alone: bool, keep: bool) -> Option<&'static mut Record> {
    let s = state();
    let rec = s.slot(slot)?;
    if (alone && rec.busy != 0) || !s.lend(rec, false) {
        return None;
    }
    if keep {
        rec.saved = s.heap.current;
        s.heap.current = if rec.owned {
            s.group(0)
        } else {
            s.heap.node(&rec.live)
        };
    }
    Some(rec)
}

/// Gives `rec` back (`saved`: the group to make current again, if `lend` kept).
#[inline(never)]
unsafe fn give_back(rec: &mut Record, saved: u32) {
    let s = state();
    if saved != 0 {
        s.heap.current = saved;
    }
    s.give_back(rec);
}

/// The buffer of `v` (if it has one) joins the current group: what a state takes from a
/// buffer allocated before its build (an argument the glue allocated, bytes a stream
/// gathered) becomes the state's own. A state owns exactly what was allocated (or adopted)
/// while its build or replacement ran.
pub fn adopt<T>(v: &alloc::vec::Vec<T>) {
    if v.capacity() == 0 || core::mem::size_of::<T>() == 0 {
        return;
    }
    unsafe {
        let s = state();
        let at = s.heap.offset(v.as_ptr() as *mut u8);
        s.heap.adopt(at);
    }
}

/// Frees the state in `slot` and empties the slot (at once, or, while a call borrows it,
/// when the last borrower is done).
pub fn release(slot: u32) {
    unsafe {
        let s = state();
        let Some(rec) = s.slot(slot) else {
            return;
        };
        *(s.heap.address(s.slots + 4 * slot) as *mut u32) = 0;
        rec.dying = true;
        rec.after = s.dying;
        s.dying = s.offset_of(rec);
        s.reap();
    }
}

/// Whether `slot` holds a state.
pub fn holds(slot: u32) -> bool {
    unsafe { state().slot(slot).is_some_and(|r| r.state.is_some()) }
}

/// Bytes in use and free in the heap, checked block by block (tests).
#[cfg(not(target_arch = "wasm32"))]
pub fn check() -> (u64, u64) {
    unsafe { state().heap.check() }
}

/// Blocks in the statics' group and in each call's (tests).
#[cfg(not(target_arch = "wasm32"))]
pub fn groups() -> (usize, u32) {
    unsafe {
        let s = state();
        (s.heap.members(s.group(0)), s.depth)
    }
}
