//! Natively, without the `global` feature (the core crate's own tests, the fuzz target):
//! the records over the process's allocator, with no groups (nothing there unwinds
//! without running destructors).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

struct Slots {
    lock: AtomicBool,
    slots: UnsafeCell<Vec<Option<Box<dyn Any>>>>,
}
// Safety: every access takes `lock` first.
unsafe impl Sync for Slots {}

static SLOTS: Slots = Slots {
    lock: AtomicBool::new(false),
    slots: UnsafeCell::new(Vec::new()),
};

/// `f` on the slot table, alone (a record's function must not use the table itself).
fn table<R>(f: impl FnOnce(&mut Vec<Option<Box<dyn Any>>>) -> R) -> R {
    while SLOTS
        .lock
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        core::hint::spin_loop();
    }
    // Safety: the lock is held.
    let r = f(unsafe { &mut *SLOTS.slots.get() });
    SLOTS.lock.store(false, Ordering::Release);
    r
}

fn take(slot: u32) -> Option<Box<dyn Any>> {
    table(|t| t.get_mut(slot as usize).and_then(Option::take))
}

fn put(slot: u32, value: Option<Box<dyn Any>>) {
    table(|t| {
        if t.len() <= slot as usize {
            t.resize_with(slot as usize + 1, || None);
        }
        t[slot as usize] = value;
    })
}

pub fn open(_outermost: bool) -> u32 {
    0
}

pub fn close(_mark: u32, _aborted: bool) {}

pub fn depth() -> u32 {
    0
}

pub fn used() -> (u32, u32) {
    (0, 0)
}

pub fn build<T: Any>(slot: u32, _owned: bool, make: impl FnOnce() -> Option<T>) -> bool {
    match make() {
        Some(v) => {
            put(slot, Some(Box::new(v)));
            true
        }
        None => false,
    }
}

// The state is taken out of the table while `f` runs (so `f` may use other slots).
pub fn with<T: Any, R>(slot: u32, f: impl FnOnce(&T) -> R) -> Option<R> {
    let value = take(slot)?;
    let r = value.downcast_ref::<T>().map(f);
    put(slot, Some(value));
    r
}

pub fn with_mut<T: Any, R>(slot: u32, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    let mut value = take(slot)?;
    let r = value.downcast_mut::<T>().map(f);
    put(slot, Some(value));
    r
}

pub fn within<T: Any, R>(slot: u32, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    with_mut(slot, f)
}

pub fn replace<T: Any, R>(slot: u32, f: impl FnOnce(&T) -> Option<(T, R)>) -> Option<R> {
    let value = take(slot)?;
    let made = value.downcast_ref::<T>().and_then(f);
    match made {
        Some((new, r)) => {
            put(slot, Some(Box::new(new)));
            Some(r)
        }
        None => {
            put(slot, Some(value));
            None
        }
    }
}

pub fn adopt<T>(_v: &Vec<T>) {}

pub fn release(slot: u32) {
    drop(take(slot));
}

pub fn holds(slot: u32) -> bool {
    table(|t| t.get(slot as usize).is_some_and(Option::is_some))
}
