//! A two-level segregated-fit heap (TLSF: constant-time allocation and freeing, freed
//! neighbours coalesced) over one linear memory, addressed by 32-bit offsets from a base.
//!
//! Every operation that changes the heap is one function with no calls in it: everything
//! below is `#[inline(always)]`, growing is the `memory.grow` instruction, copying and
//! zeroing are `memory.copy` and `memory.fill`, and no operation loops but [`Heap::purge`]
//! (whose state is whole between any two of its rounds). V8 raises a JavaScript stack
//! overflow inside wasm only at a call (a callee's stack check, its lazy compilation, an
//! import), so it strikes before an operation begins or after it ends, never half-way
//! through one: the heap is never left half-updated (`tests/heap.rs` and the module's
//! build check that the compiled functions call nothing).
//!
//! Every used block belongs to at most one *group*: a circular list through the block
//! headers, around a sentinel [`Node`]. An allocation joins the heap's current group,
//! `realloc` keeps the block's group, freeing leaves it, and a group can be freed whole,
//! one block per round. That is how whatever a call that never returned allocated is
//! found and freed (see `lib.rs`).

use core::ptr;

/// Block granularity and payload alignment.
pub const ALIGN: u32 = 16;
/// The header before each payload.
pub const HEADER: u32 = 16;
/// The smallest block: a header and room for a free block's links.
const MIN: u32 = 32;
/// A wasm page.
pub const PAGE: u32 = 65536;

const FREE: u32 = 1;
const PREV_FREE: u32 = 2;
const FLAGS: u32 = 3;

// Header fields, by byte offset.
const SIZE: u32 = 0;
const PREV: u32 = 4;
/// Free: the previous free block of its class. Used: the previous node of its group.
const A: u32 = 8;
/// Free: the next free block of its class. Used: the next node of its group.
const Z: u32 = 12;

/// Second-level classes per first-level class.
const SL_LOG: u32 = 4;
const SL: usize = 1 << SL_LOG;
/// Sizes below this are classed linearly, 16 bytes a class (first-level class 0).
const SMALL: u32 = ALIGN << SL_LOG;
/// First-level classes: 0 (small), then one per power of two from 256 to 2^31.
const FL: usize = 25;
/// The largest request served (a block must stay under 2^31, the last class).
const LARGEST: u32 = (1 << 31) - PAGE;

/// A group's sentinel: laid out as a block header, so that a list's links are read and
/// written at the same offsets whatever the node.
#[repr(C, align(16))]
pub struct Node {
    _size: u32,
    _prev: u32,
    a: u32,
    z: u32,
}

impl Node {
    pub const fn new() -> Node {
        Node {
            _size: 0,
            _prev: 0,
            a: 0,
            z: 0,
        }
    }
}

impl Default for Node {
    fn default() -> Self {
        Node::new()
    }
}

/// The heap's state (about 1.7 KB: the class bitmaps and the free lists' heads).
pub struct Heap {
    /// Natively: where offset 0 is (a buffer's address; on wasm, address 0).
    #[cfg(not(target_arch = "wasm32"))]
    base: usize,
    /// The end of the heap (the epilogue's end); 0 until the first allocation.
    end: u32,
    /// Where the heap may begin (wasm: `__heap_base`).
    start: u32,
    fl: u32,
    sl: [u32; FL],
    heads: [[u32; SL]; FL],
    /// The group new blocks join (a node's offset; 0: none).
    pub(crate) current: u32,
    /// Bytes in used blocks, headers included (a block may be a little larger than asked:
    /// what the bench watches).
    pub(crate) used: u32,
    /// Used blocks (what the tests watch: where a block lands does not change it).
    pub(crate) blocks: u32,
    /// Natively: the buffer's size, which growing may not pass.
    #[cfg(not(target_arch = "wasm32"))]
    capacity: u32,
    #[cfg(not(target_arch = "wasm32"))]
    memory: u32,
}

#[inline(always)]
const fn round(size: u32) -> u32 {
    (size + ALIGN - 1) & !(ALIGN - 1)
}

/// The class (first level, second level) a free block of `size` is filed under.
#[inline(always)]
fn class(size: u32) -> (usize, usize) {
    if size < SMALL {
        (0, (size / ALIGN) as usize)
    } else {
        let log = 31 - size.leading_zeros();
        (
            (log - 7) as usize,
            ((size >> (log - SL_LOG)) as usize) & (SL - 1),
        )
    }
}

/// The first class whose every block holds `size`.
#[inline(always)]
fn class_for(size: u32) -> (usize, usize) {
    if size < SMALL {
        class(size)
    } else {
        let log = 31 - size.leading_zeros();
        class(size + (1 << (log - SL_LOG)) - 1)
    }
}

impl Heap {
    /// A heap that begins at `start`, offsets from `base`.
    pub const fn new(_base: usize, start: u32) -> Heap {
        Heap {
            #[cfg(not(target_arch = "wasm32"))]
            base: _base,
            end: 0,
            start,
            fl: 0,
            sl: [0; FL],
            heads: [[0; SL]; FL],
            current: 0,
            used: 0,
            blocks: 0,
            #[cfg(not(target_arch = "wasm32"))]
            capacity: 0,
            #[cfg(not(target_arch = "wasm32"))]
            memory: 0,
        }
    }

    /// Where the heap may begin (set once, before the first allocation).
    #[cfg(target_arch = "wasm32")]
    #[inline(always)]
    pub fn begin_at(&mut self, start: u32) {
        self.start = start;
    }

    /// Natively: a heap from `start` over `capacity` bytes at `base` (16-aligned), of which
    /// `memory` are there at first (the rest comes as "memory.grow" asks).
    #[cfg(not(target_arch = "wasm32"))]
    pub const fn over(base: usize, start: u32, memory: u32, capacity: u32) -> Heap {
        let mut heap = Heap::new(base, start);
        heap.capacity = capacity;
        heap.memory = memory;
        heap
    }

    // ------------------------------------------------------------ raw words

    /// Where offset 0 is (wasm: address 0, a constant the compiler folds away).
    #[inline(always)]
    fn base(&self) -> usize {
        #[cfg(target_arch = "wasm32")]
        {
            0
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.base
        }
    }

    #[inline(always)]
    unsafe fn get(&self, at: u32) -> u32 {
        ptr::read((self.base() + at as usize) as *const u32)
    }

    #[inline(always)]
    unsafe fn set(&self, at: u32, value: u32) {
        ptr::write((self.base() + at as usize) as *mut u32, value)
    }

    #[inline(always)]
    unsafe fn size(&self, b: u32) -> u32 {
        self.get(b + SIZE) & !FLAGS
    }

    #[inline(always)]
    unsafe fn is_free(&self, b: u32) -> bool {
        self.get(b + SIZE) & FREE != 0
    }

    /// The address a payload offset stands for.
    #[inline(always)]
    pub fn address(&self, at: u32) -> *mut u8 {
        (self.base() + at as usize) as *mut u8
    }

    /// The offset of an address inside the heap.
    #[inline(always)]
    pub fn offset(&self, p: *mut u8) -> u32 {
        (p as usize - self.base()) as u32
    }

    /// A node's offset (a group's sentinel lives in the heap's memory: a static, a block).
    #[inline(always)]
    pub fn node(&self, node: *const Node) -> u32 {
        self.offset(node as *mut u8)
    }

    // ------------------------------------------------------------ memory

    /// The memory's size in bytes, and more of it: the old size, or none.
    #[inline(always)]
    fn memory_size(&self) -> u32 {
        #[cfg(target_arch = "wasm32")]
        {
            (core::arch::wasm32::memory_size::<0>() as u32).wrapping_mul(PAGE)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.memory
        }
    }

    #[inline(always)]
    fn memory_grow(&mut self, pages: u32) -> Option<u32> {
        #[cfg(target_arch = "wasm32")]
        {
            let old = core::arch::wasm32::memory_grow::<0>(pages as usize);
            (old != usize::MAX).then(|| (old as u32).wrapping_mul(PAGE))
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let old = self.memory;
            let more = (pages as u64) * PAGE as u64;
            if old as u64 + more > self.capacity as u64 {
                return None;
            }
            self.memory = old + more as u32;
            Some(old)
        }
    }

    // ------------------------------------------------------------ free lists

    // The class tables, indexed without a bounds check (a failed one would be a call):
    // every class comes from `class`/`class_for`, whose first level is below FL (`take`
    // checks it for a request) and second level below SL.

    #[inline(always)]
    unsafe fn head(&mut self, f: usize, s: usize) -> &mut u32 {
        self.heads.get_unchecked_mut(f).get_unchecked_mut(s)
    }

    #[inline(always)]
    unsafe fn second(&mut self, f: usize) -> &mut u32 {
        self.sl.get_unchecked_mut(f)
    }

    #[inline(always)]
    unsafe fn file(&mut self, b: u32) {
        let (f, s) = class(self.size(b));
        let head = *self.head(f, s);
        self.set(b + A, 0);
        self.set(b + Z, head);
        if head != 0 {
            self.set(head + A, b);
        }
        *self.head(f, s) = b;
        self.fl |= 1 << f;
        *self.second(f) |= 1 << s;
    }

    #[inline(always)]
    unsafe fn unfile(&mut self, b: u32) {
        let (f, s) = class(self.size(b));
        let (a, z) = (self.get(b + A), self.get(b + Z));
        if z != 0 {
            self.set(z + A, a);
        }
        if a != 0 {
            self.set(a + Z, z);
        } else {
            *self.head(f, s) = z;
            if z == 0 {
                *self.second(f) &= !(1 << s);
                if *self.second(f) == 0 {
                    self.fl &= !(1 << f);
                }
            }
        }
    }

    /// A free block of at least `size` bytes, taken off its list; 0 when none is filed.
    #[inline(always)]
    unsafe fn take(&mut self, size: u32) -> u32 {
        let (f, s) = class_for(size);
        if f >= FL {
            return 0;
        }
        let mut f = f;
        let mut slots = *self.second(f) & (!0u32 << s);
        if slots == 0 {
            let larger = if f + 1 >= FL {
                0
            } else {
                self.fl & (!0u32 << (f + 1))
            };
            if larger == 0 {
                return 0;
            }
            f = larger.trailing_zeros() as usize;
            slots = *self.second(f);
        }
        let b = *self.head(f, slots.trailing_zeros() as usize);
        self.unfile(b);
        b
    }

    // ------------------------------------------------------------ groups

    /// `b` joins the list of `node`'s group, after `node` (`node` a sentinel: at its end).
    #[inline(always)]
    unsafe fn link_after(&self, node: u32, b: u32) {
        let z = self.get(node + Z);
        self.set(b + A, node);
        self.set(b + Z, z);
        self.set(z + A, b);
        self.set(node + Z, b);
    }

    /// `b` leaves its group, if it is in one.
    #[inline(always)]
    unsafe fn unlink(&self, b: u32) {
        let (a, z) = (self.get(b + A), self.get(b + Z));
        if a != 0 {
            self.set(a + Z, z);
            self.set(z + A, a);
            self.set(b + A, 0);
            self.set(b + Z, 0);
        }
    }

    /// An empty group around `node`.
    #[inline(always)]
    pub unsafe fn clear_node(&self, node: u32) {
        self.set(node + A, node);
        self.set(node + Z, node);
    }

    /// Whether `node`'s group has no block.
    #[inline(always)]
    pub unsafe fn is_empty(&self, node: u32) -> bool {
        self.get(node + Z) == node
    }

    /// Every block of `from`'s group joins `to`'s (at its end); `from` is left empty.
    #[inline(always)]
    pub unsafe fn splice(&self, from: u32, to: u32) {
        if self.is_empty(from) {
            return;
        }
        let (first, last) = (self.get(from + Z), self.get(from + A));
        let tail = self.get(to + A);
        self.set(tail + Z, first);
        self.set(first + A, tail);
        self.set(last + Z, to);
        self.set(to + A, last);
        self.clear_node(from);
    }

    /// The groups of `a` and `b` change places.
    #[inline(always)]
    pub unsafe fn swap(&self, a: u32, b: u32) {
        let (fa, la, ea) = (self.get(a + Z), self.get(a + A), self.is_empty(a));
        let (fb, lb, eb) = (self.get(b + Z), self.get(b + A), self.is_empty(b));
        if eb {
            self.clear_node(a);
        } else {
            self.set(a + Z, fb);
            self.set(a + A, lb);
            self.set(fb + A, a);
            self.set(lb + Z, a);
        }
        if ea {
            self.clear_node(b);
        } else {
            self.set(b + Z, fa);
            self.set(b + A, la);
            self.set(fa + A, b);
            self.set(la + Z, b);
        }
    }

    /// The used block of the payload at `p` joins the current group (leaving its own).
    #[inline(always)]
    pub unsafe fn adopt(&self, p: u32) {
        let b = p - HEADER;
        self.unlink(b);
        if self.current != 0 {
            self.link_after(self.get(self.current + A), b);
        }
    }

    /// Frees every block of `node`'s group, one per round; `false` if `rounds` ran out
    /// first. Between any two rounds the heap and the group are whole, so a purge cut
    /// short is finished by the next.
    #[inline(never)]
    pub unsafe fn purge(&mut self, node: u32, mut rounds: u32) -> bool {
        loop {
            let b = self.get(node + Z);
            if b == node {
                return true;
            }
            if rounds == 0 {
                return false;
            }
            rounds -= 1;
            self.release(b);
        }
    }

    // ------------------------------------------------------------ blocks

    /// The heap's first block and epilogue, where the memory has room after `start`.
    #[inline(always)]
    unsafe fn begin(&mut self) {
        let start = round(self.start.max(ALIGN));
        let end = self.memory_size() & !(ALIGN - 1);
        self.end = start;
        if end >= start + MIN + HEADER {
            let b = start;
            self.set(b + SIZE, (end - HEADER - b) | FREE);
            self.set(b + PREV, 0);
            let epilogue = end - HEADER;
            self.set(epilogue + SIZE, PREV_FREE);
            self.set(epilogue + PREV, b);
            self.file(b);
            self.end = end;
        } else {
            // No room: the first growth starts the heap (its epilogue at `start`).
            self.set(start + SIZE, 0);
            self.set(start + PREV, 0);
            self.end = start + HEADER;
        }
    }

    /// A free block of at least `size` from new memory (merged with a free block before
    /// it), not filed; 0 when the memory cannot grow.
    #[inline(always)]
    unsafe fn grow(&mut self, size: u32) -> u32 {
        // At least 1 MiB at a time: fewer, larger growths.
        let want = (size as u64 + HEADER as u64).max(1 << 20);
        let pages = want.div_ceil(PAGE as u64);
        if pages > u16::MAX as u64 {
            return 0;
        }
        let Some(old) = self.memory_grow(pages as u32) else {
            return 0;
        };
        let new_end = old + pages as u32 * PAGE;
        let epilogue = self.end - HEADER;
        let mut b;
        if old == self.end {
            // Contiguous: the old epilogue's place begins the new block.
            b = epilogue;
            let flags = self.get(epilogue + SIZE) & PREV_FREE;
            self.set(b + SIZE, (new_end - HEADER - b) | FREE | flags);
        } else {
            // Memory grown by someone else in between: a separate stretch of heap.
            b = round(old);
            self.set(b + SIZE, (new_end - HEADER - b) | FREE);
            self.set(b + PREV, 0);
        }
        let end = new_end - HEADER;
        self.set(end + SIZE, PREV_FREE);
        self.set(end + PREV, b);
        self.end = new_end;
        if self.get(b + SIZE) & PREV_FREE != 0 {
            let p = self.get(b + PREV);
            self.unfile(p);
            let merged = self.size(p) + self.size(b);
            self.set(p + SIZE, merged | FREE | (self.get(p + SIZE) & PREV_FREE));
            self.set(end + PREV, p);
            b = p;
        }
        b
    }

    /// Leaves `size` bytes of the free block `b` and files the rest, if a block's worth.
    /// `b` is marked used.
    #[inline(always)]
    unsafe fn carve(&mut self, b: u32, size: u32) {
        let total = self.size(b);
        let flags = self.get(b + SIZE) & PREV_FREE;
        let n = b + total;
        if total - size >= MIN {
            let r = b + size;
            self.set(r + SIZE, (total - size) | FREE);
            self.set(r + PREV, b);
            self.set(n + PREV, r);
            self.file(r);
            self.set(b + SIZE, size | flags);
        } else {
            self.set(b + SIZE, total | flags);
            self.set(n + SIZE, self.get(n + SIZE) & !PREV_FREE);
        }
    }

    /// A used block of at least `size` bytes (header included), linked after `node` (0:
    /// in no group); 0 when the memory runs out. One function, called where the heap is
    /// whole (before any change of the operation that calls it).
    #[inline(never)]
    unsafe fn block(&mut self, size: u32, node: u32) -> u32 {
        if self.end == 0 {
            self.begin();
        }
        let mut b = self.take(size);
        if b == 0 {
            b = self.grow(size);
            if b == 0 {
                return 0;
            }
        }
        self.carve(b, size);
        self.used = self.used.wrapping_add(self.size(b));
        self.blocks = self.blocks.wrapping_add(1);
        if node != 0 {
            self.link_after(node, b);
        } else {
            self.set(b + A, 0);
            self.set(b + Z, 0);
        }
        b
    }

    /// Frees the used block `b` (it leaves its group), merged with free neighbours.
    #[inline(always)]
    unsafe fn release(&mut self, b: u32) {
        self.used = self.used.wrapping_sub(self.size(b));
        self.blocks = self.blocks.wrapping_sub(1);
        self.unlink(b);
        let mut b = b;
        let mut size = self.size(b);
        let n = b + size;
        if self.is_free(n) {
            self.unfile(n);
            size += self.size(n);
        }
        let mut flags = self.get(b + SIZE) & PREV_FREE;
        if flags != 0 {
            let p = self.get(b + PREV);
            self.unfile(p);
            size += self.size(p);
            b = p;
            flags = self.get(p + SIZE) & PREV_FREE;
        }
        self.set(b + SIZE, size | FREE | flags);
        let n = b + size;
        self.set(n + PREV, b);
        self.set(n + SIZE, self.get(n + SIZE) | PREV_FREE);
        self.file(b);
    }

    /// The block size a request of `size` bytes aligned to `align` needs; 0 if none can.
    #[inline(always)]
    fn need(size: usize, align: usize) -> u32 {
        if align > ALIGN as usize || size > LARGEST as usize {
            return 0;
        }
        round((size as u32).max(1) + HEADER).max(MIN)
    }

    // ------------------------------------------------------------ the allocator

    /// `size` bytes aligned to `align` (at most 16), in the current group: the payload's
    /// offset, or 0 when the memory runs out.
    #[inline(always)]
    pub unsafe fn alloc(&mut self, size: usize, align: usize) -> u32 {
        let need = Self::need(size, align);
        if need == 0 {
            return 0;
        }
        let node = self.current;
        let at = if node == 0 { 0 } else { self.get(node + A) };
        let b = self.block(need, at);
        if b == 0 {
            0
        } else {
            b + HEADER
        }
    }

    /// Frees the payload at `p`.
    #[inline(always)]
    pub unsafe fn dealloc(&mut self, p: u32) {
        self.release(p - HEADER);
    }

    /// The payload at `p` resized to `size` bytes, in its group: in place where the block
    /// or a free block after it has the room, else moved (its bytes copied); 0 when the
    /// memory runs out (`p` is then left as it was).
    #[inline(always)]
    pub unsafe fn realloc(&mut self, p: u32, size: usize) -> u32 {
        let need = Self::need(size, 1);
        if need == 0 {
            return 0;
        }
        let b = p - HEADER;
        let have = self.size(b);
        let n = b + have;
        if need <= have || (self.is_free(n) && have + self.size(n) >= need) {
            self.used = self.used.wrapping_sub(have);
            if need > have {
                // The free block after it joins it.
                self.unfile(n);
                let flags = self.get(b + SIZE) & PREV_FREE;
                let total = have + self.size(n);
                self.set(b + SIZE, total | flags);
                let after = b + total;
                self.set(after + PREV, b);
                self.set(after + SIZE, self.get(after + SIZE) & !PREV_FREE);
            }
            let total = self.size(b);
            if total - need >= MIN {
                // The rest is freed, merged with a free block after it.
                let flags = self.get(b + SIZE) & PREV_FREE;
                let r = b + need;
                let mut rest = total - need;
                let after = b + total;
                if self.is_free(after) {
                    self.unfile(after);
                    rest += self.size(after);
                }
                self.set(b + SIZE, need | flags);
                self.set(r + SIZE, rest | FREE);
                self.set(r + PREV, b);
                let after = r + rest;
                self.set(after + PREV, r);
                self.set(after + SIZE, self.get(after + SIZE) | PREV_FREE);
                self.file(r);
            }
            self.used = self.used.wrapping_add(self.size(b));
            return p;
        }
        // Moved: the new block takes the old one's place in its group.
        let linked = self.get(b + A) != 0;
        let m = self.block(need, if linked { b } else { 0 });
        if m == 0 {
            return 0;
        }
        ptr::copy_nonoverlapping(
            self.address(p),
            self.address(m + HEADER),
            (have - HEADER) as usize,
        );
        self.release(b);
        m + HEADER
    }

    // ------------------------------------------------------------ checks (tests)

    /// Walks the whole heap and checks every invariant: blocks tile the memory, flags and
    /// back links agree, no two free blocks touch, every free block is filed in its class
    /// and every filed block is free; the bytes in use and free. Panics on a fault.
    #[cfg(not(target_arch = "wasm32"))]
    pub unsafe fn check(&self) -> (u64, u64) {
        let (mut used, mut free, mut filed) = (0u64, 0u64, 0u64);
        if self.end == 0 {
            return (0, 0);
        }
        let mut b = round(self.start.max(ALIGN));
        let mut prev = 0u32;
        let mut prev_free = false;
        loop {
            let word = self.get(b + SIZE);
            let size = word & !FLAGS;
            assert_eq!(word & PREV_FREE != 0, prev_free, "PREV_FREE of {b}");
            if prev_free {
                assert_eq!(self.get(b + PREV), prev, "back link of {b}");
            }
            if size == 0 {
                break; // the epilogue
            }
            assert!(size >= MIN && size % ALIGN == 0, "size {size} of {b}");
            let free_now = word & FREE != 0;
            assert!(!(free_now && prev_free), "two free blocks touch at {b}");
            if free_now {
                free += size as u64;
            } else {
                used += size as u64;
            }
            prev = b;
            prev_free = free_now;
            b += size;
        }
        assert_eq!(b + HEADER, self.end, "the heap's end");
        for f in 0..FL {
            for s in 0..SL {
                let mut at = self.heads[f][s];
                assert_eq!(at != 0, self.sl[f] & (1 << s) != 0, "bitmap {f}/{s}");
                let mut back = 0;
                while at != 0 {
                    assert!(self.is_free(at), "filed block {at} is used");
                    assert_eq!(class(self.size(at)), (f, s), "class of {at}");
                    assert_eq!(self.get(at + A), back, "free list back link of {at}");
                    filed += self.size(at) as u64;
                    back = at;
                    at = self.get(at + Z);
                }
            }
            assert_eq!(
                self.sl[f] != 0,
                self.fl & (1 << f) != 0,
                "first-level bitmap {f}"
            );
        }
        assert_eq!(filed, free, "every free block is filed");
        (used, free)
    }

    /// The blocks of `node`'s group, checked as a circular list.
    #[cfg(not(target_arch = "wasm32"))]
    pub unsafe fn members(&self, node: u32) -> usize {
        let mut n = 0;
        let mut at = self.get(node + Z);
        let mut back = node;
        while at != node {
            assert!(!self.is_free(at), "group member {at} is free");
            assert_eq!(self.get(at + A), back, "group back link of {at}");
            back = at;
            at = self.get(at + Z);
            n += 1;
        }
        assert_eq!(self.get(node + A), back, "group tail");
        n
    }
}
