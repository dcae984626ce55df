//! The boundary buffers. The package's JavaScript writes a turn's names (UTF-16 code
//! units) and numbers straight into these buffers in wasm memory, calls one function,
//! and reads the answer from the output buffer: no allocation, no copy and no string
//! conversion per call. Each call that reads the buffers finishes before JavaScript
//! writes them again (no caller code runs in between), so one set is enough even when
//! calls nest.

use std::cell::RefCell;

thread_local! {
    static UNITS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
    static WORDS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static OUT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Makes room for `len` code units and returns where they go.
pub fn units_at(len: usize) -> u32 {
    UNITS.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0);
        v.as_ptr() as u32
    })
}

/// Makes room for `len` numbers and returns where they go.
pub fn words_at(len: usize) -> u32 {
    WORDS.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0);
        v.as_ptr() as u32
    })
}

/// Runs `f` over what JavaScript wrote, and stores its answer in the output buffer:
/// returns where the answer starts; its first number is the answer's length.
pub fn answer(f: impl FnOnce(&[u16], &[u32], &mut Vec<u32>)) -> u32 {
    UNITS.with_borrow(|units| {
        WORDS.with_borrow(|words| {
            OUT.with_borrow_mut(|out| {
                out.clear();
                out.push(0);
                f(units, words, out);
                out[0] = out.len() as u32;
                out.as_ptr() as u32
            })
        })
    })
}

/// Reads what JavaScript wrote, with no output.
pub fn read<T>(f: impl FnOnce(&[u16], &[u32]) -> T) -> T {
    UNITS.with_borrow(|units| WORDS.with_borrow(|words| f(units, words)))
}
