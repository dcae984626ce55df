//! Stemmers of lower-case ASCII tokens, in place: they return the stem's length.
//!
//! `light` (the one built): plurals, -ing/-ed, a final -e. `porter`: M.F. Porter, "An
//! algorithm for suffix stripping" (1980), with the two changes of his reference
//! implementation (`-bli` -> `-ble`, `-logi` -> `-log`); it gives what NLTK's
//! `PorterStemmer(mode=MARTIN_EXTENSIONS)` gives (tested on the benchmark's 4,974 words).
//! On the benchmark Porter scores recall@5 0.894 against light's 0.886 (recall@1 0.644
//! against 0.647) and weighs about 700 gzip bytes more in the wasm: `PORTER` picks one at
//! compile time, the other is left out of the build. See DESIGN.md.

/// Porter instead of the light stemmer.
pub(crate) const PORTER: bool = false;

pub(crate) fn stem(w: &mut [u16]) -> usize {
    if PORTER {
        porter(w)
    } else {
        light(w)
    }
}

fn vowel(u: u16) -> bool {
    matches!(u, 0x61 | 0x65 | 0x69 | 0x6F | 0x75 | 0x79)
}

/// Plurals (`-ies` -> `-y`, `-(s|x|z|ch|sh)es`, `-s` but not `-ss -us -is`), then `-ing`
/// or `-ed` after a stem of three letters with a vowel (undoubling a final consonant),
/// then a final `-e`: `updates`, `updated`, `updating` and `update` all give `updat`.
fn light(w: &mut [u16]) -> usize {
    let mut n = w.len();
    if n < 4 {
        return n;
    }
    if ends(w, b"ies") || ends(w, b"ied") {
        return set_end(w, n - 3, b"y");
    }
    if ends(w, b"sses")
        || ends(w, b"xes")
        || ends(w, b"ches")
        || ends(w, b"shes")
        || ends(w, b"zes")
    {
        n -= 2;
    } else if ends(w, b"s") && !ends(w, b"ss") && !ends(w, b"us") && !ends(w, b"is") {
        n -= 1;
    }
    let cut = if ends(&w[..n], b"ing") {
        3
    } else if ends(&w[..n], b"ed") {
        2
    } else {
        0
    };
    if cut > 0 && n - cut >= 3 && w[..n - cut].iter().any(|&u| vowel(u)) {
        n -= cut;
        if w[n - 1] == w[n - 2] && !vowel(w[n - 1]) && !matches!(w[n - 1], 0x6C | 0x73 | 0x7A) {
            n -= 1;
        }
    }
    if n > 3 && w[n - 1] == 0x65 {
        n -= 1;
    }
    n
}

/// Whether `w[i]` is a consonant: not a vowel, and `y` only after a vowel or first.
#[inline(never)]
fn cons(w: &[u16], i: usize) -> bool {
    match w[i] {
        0x61 | 0x65 | 0x69 | 0x6F | 0x75 => false,
        0x79 => i == 0 || !cons(w, i - 1),
        _ => true,
    }
}

/// Porter's m: the number of vowel-consonant sequences in `w`.
#[inline(never)]
fn measure(w: &[u16]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    for i in 0..w.len() {
        let c = cons(w, i);
        m += usize::from(c && prev_vowel);
        prev_vowel = !c;
    }
    m
}

/// consonant-vowel-consonant at the end, the last not w, x or y.
#[inline(never)]
fn cvc(w: &[u16]) -> bool {
    let n = w.len();
    n >= 3
        && cons(w, n - 3)
        && !cons(w, n - 2)
        && cons(w, n - 1)
        && !matches!(w[n - 1], 0x77..=0x79)
}

#[inline(never)]
fn ends(w: &[u16], s: &[u8]) -> bool {
    w.len() >= s.len()
        && w[w.len() - s.len()..]
            .iter()
            .zip(s)
            .all(|(&a, &b)| a == u16::from(b))
}

/// Writes `s` at `w[len..]`, returns the new length (never longer than `w`: every
/// replacement is shorter than the suffix it replaces, or follows a longer removal).
#[inline(never)]
fn set_end(w: &mut [u16], len: usize, s: &[u8]) -> usize {
    for (d, &b) in w[len..].iter_mut().zip(s) {
        *d = u16::from(b);
    }
    len + s.len()
}

/// Rules `suffix/replacement` (no `/`: removal), space-separated. The first rule whose
/// suffix ends `w[..n]` applies if the stem's measure exceeds `min_m`; later rules never.
#[inline(never)]
fn rules(w: &mut [u16], n: usize, table: &[u8], min_m: usize) -> usize {
    for rule in table.split(|&b| b == b' ') {
        let (suffix, repl) = match rule.iter().position(|&b| b == b'/') {
            Some(i) => (&rule[..i], &rule[i + 1..]),
            None => (rule, &rule[..0]),
        };
        if ends(&w[..n], suffix) {
            let stem = n - suffix.len();
            return if measure(&w[..stem]) > min_m {
                set_end(w, stem, repl)
            } else {
                n
            };
        }
    }
    n
}

const STEP2: &[u8] = b"ational/ate tional/tion enci/ence anci/ance izer/ize bli/ble alli/al entli/ent eli/e ousli/ous ization/ize ation/ate ator/ate alism/al iveness/ive fulness/ful ousness/ous aliti/al iviti/ive biliti/ble logi/log";
const STEP3: &[u8] = b"icate/ic ative alize/al iciti/ic ical/ic ful ness";
const STEP4: &[u8] = b"al ance ence er ic able ible ant ement ment ent ou ism ate iti ous ive ize";

fn porter(w: &mut [u16]) -> usize {
    let mut n = w.len();
    if n <= 2 {
        return n;
    }
    // Step 1a: plurals.
    if ends(w, b"sses") || ends(w, b"ies") {
        n -= 2;
    } else if ends(w, b"s") && !ends(w, b"ss") {
        n -= 1;
    }
    // Step 1b: -eed, -ed, -ing.
    if ends(&w[..n], b"eed") {
        if measure(&w[..n - 3]) > 0 {
            n -= 1;
        }
    } else {
        let cut = if ends(&w[..n], b"ed") {
            2
        } else if ends(&w[..n], b"ing") {
            3
        } else {
            0
        };
        if cut > 0 && has_vowel(&w[..n - cut]) {
            n -= cut;
            let v = &w[..n];
            if ends(v, b"at") || ends(v, b"bl") || ends(v, b"iz") {
                n = set_end(w, n, b"e");
            } else if n >= 2
                && v[n - 1] == v[n - 2]
                && cons(v, n - 1)
                && !matches!(v[n - 1], 0x6C | 0x73 | 0x7A)
            {
                n -= 1;
            } else if measure(v) == 1 && cvc(v) {
                n = set_end(w, n, b"e");
            }
        }
    }
    // Step 1c: y -> i after a vowel.
    if ends(&w[..n], b"y") && has_vowel(&w[..n - 1]) {
        w[n - 1] = 0x69;
    }
    // Steps 2 to 4: derivational suffixes. Step 4's -ion needs s or t before it.
    n = rules(w, n, STEP2, 0);
    n = rules(w, n, STEP3, 0);
    if n >= 4 && ends(&w[..n], b"ion") && matches!(w[n - 4], 0x73 | 0x74) {
        if measure(&w[..n - 3]) > 1 {
            n -= 3;
        }
    } else {
        n = rules(w, n, STEP4, 1);
    }
    // Step 5: a final -e, a final -ll.
    if w[n - 1] == 0x65 {
        let m = measure(&w[..n - 1]);
        if m > 1 || (m == 1 && !cvc(&w[..n - 1])) {
            n -= 1;
        }
    }
    if ends(&w[..n], b"ll") && measure(&w[..n]) > 1 {
        n -= 1;
    }
    n
}

/// Whether `w` contains a vowel.
fn has_vowel(w: &[u16]) -> bool {
    (0..w.len()).any(|i| !cons(w, i))
}
