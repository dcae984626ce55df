//! The heap as this process's global allocator (over a static buffer), driven at random
//! against a model: every live allocation keeps its bytes, the heap's invariants hold
//! after every round (`check`), a call's group rolled back frees exactly what the call
//! left allocated, and records survive builds, borrows and releases cut short (a panic
//! stands in for the stack overflow: it leaves the call as the RangeError would, with the
//! heap's `current` group and borrows as they were at that point).
//!
//! One thread (harness = false): the heap is the module's, single-threaded.

use std::alloc::{GlobalAlloc, Layout};
use std::panic::{catch_unwind, AssertUnwindSafe};
use tool_palette_heap as heap;

#[global_allocator]
static ALLOC: heap::Allocator = heap::Allocator;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Mostly small sizes, some large, a few huge.
    fn size(&mut self) -> usize {
        match self.below(100) {
            0..=69 => 1 + self.below(200) as usize,
            70..=94 => 1 + self.below(20_000) as usize,
            95..=98 => 1 + self.below(400_000) as usize,
            _ => 1 + self.below(4_000_000) as usize,
        }
    }
}

#[derive(Clone, Copy)]
struct Live {
    ptr: *mut u8,
    size: usize,
    align: usize,
    seed: u8,
    /// The call depth it was allocated at (0: statics).
    depth: u32,
}

fn fill(p: *mut u8, size: usize, seed: u8) {
    for i in 0..size {
        unsafe { *p.add(i) = seed.wrapping_add((i % 251) as u8) };
    }
}

fn verify(l: &Live) {
    for i in 0..l.size {
        let b = unsafe { *l.ptr.add(i) };
        assert_eq!(
            b,
            l.seed.wrapping_add((i % 251) as u8),
            "byte {i} of a block of {}",
            l.size
        );
    }
}

fn used() -> u64 {
    let walked = heap::check().0;
    assert_eq!(
        walked,
        heap::used().1 as u64,
        "the heap's count of bytes in use"
    );
    walked
}

/// Random allocations, frees and reallocations, in calls opened and closed at random
/// (some rolled back): the model's blocks keep their bytes and the heap stays whole.
fn random_rounds(seed: u64, rounds: usize) {
    let mut rng = Rng(seed);
    let mut live: Vec<Live> = Vec::with_capacity(100_000);
    let mut marks: Vec<u32> = Vec::with_capacity(1000);
    let base = used();
    for round in 0..rounds {
        match rng.below(100) {
            0..=39 => {
                let size = rng.size();
                let align = [1, 2, 4, 8, 16][rng.below(5) as usize];
                let layout = Layout::from_size_align(size, align).unwrap();
                let zeroed = rng.below(4) == 0;
                let p = unsafe {
                    if zeroed {
                        ALLOC.alloc_zeroed(layout)
                    } else {
                        ALLOC.alloc(layout)
                    }
                };
                assert!(!p.is_null(), "out of memory at round {round}");
                assert_eq!(p as usize % align, 0);
                if zeroed {
                    assert!((0..size).all(|i| unsafe { *p.add(i) } == 0), "zeroed");
                }
                let seed = rng.next() as u8;
                fill(p, size, seed);
                live.push(Live {
                    ptr: p,
                    size,
                    align,
                    seed,
                    depth: heap::depth(),
                });
            }
            40..=64 if !live.is_empty() => {
                let i = rng.below(live.len() as u64) as usize;
                let l = live.swap_remove(i);
                verify(&l);
                unsafe { ALLOC.dealloc(l.ptr, Layout::from_size_align(l.size, l.align).unwrap()) };
            }
            65..=84 if !live.is_empty() => {
                let i = rng.below(live.len() as u64) as usize;
                let l = live[i];
                verify(&l);
                let size = rng.size();
                let p = unsafe {
                    ALLOC.realloc(
                        l.ptr,
                        Layout::from_size_align(l.size, l.align).unwrap(),
                        size,
                    )
                };
                assert!(!p.is_null());
                let kept = Live {
                    ptr: p,
                    size: l.size.min(size),
                    ..l
                };
                verify(&kept);
                fill(p, size, l.seed);
                live[i] = Live { ptr: p, size, ..l };
            }
            85..=91 if marks.len() < 200 => marks.push(heap::open(marks.is_empty())),
            92..=99 if !marks.is_empty() => {
                let mark = marks.pop().unwrap();
                let aborted = rng.below(3) == 0;
                heap::close(mark, aborted);
                // A returned call's blocks join its caller's; a rolled back one's are gone.
                let depth = heap::depth();
                if aborted {
                    live.retain(|l| l.depth <= depth);
                } else {
                    for l in live.iter_mut().filter(|l| l.depth > depth) {
                        l.depth = depth;
                    }
                }
            }
            _ => {}
        }
        if round % 500 == 0 {
            heap::check();
            live.iter().for_each(verify);
        }
    }
    while let Some(mark) = marks.pop() {
        heap::close(mark, false);
    }
    for l in live.drain(..) {
        verify(&l);
        unsafe { ALLOC.dealloc(l.ptr, Layout::from_size_align(l.size, l.align).unwrap()) };
    }
    assert_eq!(used(), base, "every block freed");
}

/// A call that never returned: what it allocated (at any nesting) is freed by its
/// caller's close, and the caller's own blocks stay.
fn abandoned_calls() {
    let base = used();
    let outer = heap::open(true);
    let kept: Vec<u64> = (0..1000).collect();
    let inner = heap::open(false);
    let mut lost: Vec<Vec<u8>> = Vec::new();
    for i in 0..500 {
        lost.push(vec![i as u8; 1 + i * 37]);
    }
    let deeper = heap::open(false);
    std::mem::forget(vec![7u8; 1 << 20]);
    let _ = deeper;
    std::mem::forget(lost); // the call is cut short: nothing of it is freed
    heap::close(inner, true);
    assert_eq!(heap::depth(), outer + 1);
    assert_eq!(kept.iter().sum::<u64>(), 499_500);
    drop(kept);
    heap::close(outer, false);
    assert_eq!(used(), base, "the abandoned call's blocks are freed");
    // An outermost call rolls back what an abandoned call left when nobody closed it.
    let _lost = heap::open(true);
    std::mem::forget(vec![1u32; 5000]);
    let again = heap::open(true);
    assert_eq!(again, 0);
    heap::close(again, false);
    assert_eq!(
        used(),
        base,
        "the next outermost call rolls back the abandoned one"
    );
}

#[derive(Clone)]
struct State {
    names: Vec<Vec<u16>>,
    step: u32,
}

fn state(n: usize) -> State {
    State {
        names: (0..n).map(|i| vec![i as u16; 1 + i % 40]).collect(),
        step: 0,
    }
}

/// Records: built, borrowed, replaced, released; a build, a borrow and a replacement cut
/// short (a panic) leave the record as it was, and nothing allocated for them stays.
fn records() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&"cut") {
            default(info);
        }
    }));
    // (The slot table, made with the first record, stays.)
    assert!(heap::build(0, false, || Some(0u8)));
    heap::release(0);
    let base = used();
    let mark = heap::open(true);
    assert!(heap::build(3, false, || Some(state(500))));
    assert!(heap::holds(3));
    heap::close(mark, false);
    let with_one = used();
    assert!(with_one > base);

    // A build cut short: the slot keeps its state; the half-built one is freed.
    let mark = heap::open(true);
    let r = catch_unwind(AssertUnwindSafe(|| {
        heap::build(3, false, || {
            let big = state(5000);
            std::mem::forget(big.clone());
            if big.step == 0 {
                panic!("cut");
            }
            Some(big)
        })
    }));
    assert!(r.is_err());
    drop(r); // (the panic's payload was allocated in the call)
    heap::close(mark, true);
    assert_eq!(used(), with_one, "the half-built state is freed");
    assert_eq!(heap::with(3, |s: &State| s.names.len()), Some(500));

    // A borrow cut short is given back: the record can be replaced and released later.
    let mark = heap::open(true);
    let r = catch_unwind(AssertUnwindSafe(|| {
        heap::with(3, |s: &State| {
            std::mem::forget(s.clone());
            panic!("cut")
        })
    }));
    assert!(r.is_err());
    drop(r);
    assert!(
        heap::replace(3, |s: &State| Some((s.clone(), ()))).is_none(),
        "in use until rolled back"
    );
    heap::close(mark, true);
    assert_eq!(used(), with_one);

    // Replaced: the new state in place, the old one's memory freed.
    let mark = heap::open(true);
    let step = heap::replace(3, |s: &State| {
        let mut n = s.clone();
        n.step += 1;
        n.names.push(vec![9; 100]);
        Some((n, 7))
    });
    heap::close(mark, false);
    assert_eq!(step, Some(7));
    assert_eq!(
        heap::with(3, |s: &State| (s.step, s.names.len())),
        Some((1, 501))
    );
    heap::check();

    // A replacement cut short leaves the old state.
    let before = used();
    let mark = heap::open(true);
    let r = catch_unwind(AssertUnwindSafe(|| {
        heap::replace(3, |s: &State| -> Option<(State, ())> {
            let n = s.clone();
            std::mem::forget(n);
            panic!("cut")
        })
    }));
    assert!(r.is_err());
    drop(r); // (the panic's payload was allocated in the call)
    heap::close(mark, true);
    assert_eq!(used(), before);
    assert_eq!(heap::with(3, |s: &State| s.step), Some(1));

    // within: what it allocates joins the state (kept after the call closes).
    let mark = heap::open(true);
    heap::within(3, |s: &mut State| s.names.push(vec![1; 1000]));
    heap::close(mark, true); // even rolled back: the state's memory is not the call's
    assert_eq!(heap::with(3, |s: &State| s.names[501].len()), Some(1000));
    heap::check();
    // with_mut: a buffer of the state that grows stays the state's; what it allocates
    // anew is the call's (a rolled back call takes it along).
    let before = used();
    let mark = heap::open(true);
    heap::with_mut(3, |s: &mut State| {
        s.names[0].extend_from_slice(&[5; 3000]);
        std::mem::forget(vec![0u8; 100_000]);
    });
    heap::close(mark, true);
    assert_eq!(heap::with(3, |s: &State| s.names[0].len()), Some(3001));
    assert!(
        used() < before + 10_000,
        "the call's own allocation is freed"
    );
    heap::check();

    // Released while borrowed: freed when the borrower is done.
    let mark = heap::open(true);
    heap::with(3, |s: &State| {
        heap::release(3);
        assert!(!heap::holds(3));
        assert_eq!(s.names.len(), 502, "still readable while borrowed");
    });
    heap::close(mark, false);
    assert_eq!(used(), base, "the record and its state are freed");

    // Released while borrowed by a call cut short: freed once the call is rolled back.
    let mark = heap::open(true);
    assert!(heap::build(4, false, || Some(state(100))));
    heap::close(mark, false);
    let mark = heap::open(true);
    let r = catch_unwind(AssertUnwindSafe(|| {
        heap::with(4, |_: &State| {
            heap::release(4);
            panic!("cut")
        })
    }));
    assert!(r.is_err());
    drop(r); // (the panic's payload was allocated in the call)
    heap::close(mark, true);
    assert_eq!(used(), base, "freed once the borrow is given back");

    // A buffer allocated in the call, adopted by a state's build, is the state's.
    let mark = heap::open(true);
    let given: Vec<u32> = (0..10_000).collect();
    assert!(heap::build(5, false, || {
        heap::adopt(&given);
        Some(given)
    }));
    heap::close(mark, true);
    assert_eq!(
        heap::with(5, |v: &Vec<u32>| v.iter().map(|&x| x as u64).sum::<u64>()),
        Some(49_995_000)
    );
    heap::check();
    let mark = heap::open(true);
    heap::release(5);
    heap::close(mark, false);
    assert_eq!(used(), base);

    // Slots far apart; a state of another type is not lent as this one.
    let mark = heap::open(true);
    assert!(heap::build(1000, false, || Some(5u64)));
    assert_eq!(heap::with(1000, |_: &State| ()), None);
    assert_eq!(heap::with(1000, |v: &u64| *v), Some(5));
    heap::release(1000);
    heap::close(mark, false);
    let _ = std::panic::take_hook();
}

/// Memory comes back whole: a large block freed is one free block again.
fn coalescing() {
    let base = used();
    let mut v: Vec<Vec<u8>> = (0..100).map(|i| vec![0u8; 10_000 + i]).collect();
    v.retain(|b| b.len() % 2 == 0);
    drop(v);
    let big = std::hint::black_box(vec![1u8; 200 << 20]);
    drop(big);
    let big = std::hint::black_box(vec![2u8; 200 << 20]);
    drop(big);
    assert_eq!(used(), base);
    let (used_now, free) = heap::check();
    assert!(free >= 200 << 20, "used {used_now}, free {free}");
}

fn main() {
    // (Output allocates: everything printed is printed here, outside any call.)
    println!("heap tests");
    abandoned_calls();
    println!("ok  abandoned calls");
    records();
    println!("ok  records");
    coalescing();
    println!("ok  coalescing");
    for seed in 1..=12 {
        random_rounds(0x9E37_79B9_7F4A_7C15 ^ seed, 20_000);
    }
    println!("ok  random rounds (12 x 20,000)");
    heap::check();
    // As libtest says it (scripts/test.mjs counts these lines); a failure panics before.
    println!("test result: ok. 4 passed; 0 failed");
}
