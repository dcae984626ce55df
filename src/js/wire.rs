//! The values that mean something on both sides of the binding, defined once here: each
//! is a Rust enum, and `src/js/wire.js` is generated from these definitions (the
//! test below fails when the two drift; `UPDATE_WIRE=1 cargo test wire` rewrites it).
//! JavaScript passes a variant as its index; the binding reads it back with `of`.

macro_rules! wire {
    ($($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident),* $(,)? })*) => {
        $(
            $(#[$m])*
            #[derive(Clone, Copy, PartialEq, Eq, Debug)]
            pub(crate) enum $name { $($(#[$vm])* $v),* }
            impl $name {
                /// The variant JavaScript passed by its index (`None`: none is).
                #[allow(dead_code)]
                pub fn of(code: u32) -> Option<$name> {
                    [$($name::$v),*].get(code as usize).copied()
                }
            }
        )*
        /// `src/js/wire.js`, as these definitions make it.
        #[cfg(test)]
        fn javascript() -> alloc::string::String {
            let mut js = alloc::string::String::from(
                "// Generated from src/js/wire.rs by `UPDATE_WIRE=1 cargo test wire`; do not edit.\n",
            );
            $(
                js.push_str(concat!("export const ", stringify!($name), " = Object.freeze({ "));
                let names: &[&str] = &[$(stringify!($v)),*];
                for (i, name) in names.iter().enumerate() {
                    js.push_str(&alloc::format!("{}{name}: {i}", if i == 0 { "" } else { ", " }));
                }
                js.push_str(" });\n");
            )*
            // How a selection names its source (`ModelSelection.source`), by `Source`.
            use crate::policy::seams::Selection;
            let sources = [Selection::Default, Selection::Resolver, Selection::Policy(0)];
            let texts: alloc::vec::Vec<_> = sources.iter().map(|s| alloc::format!("\"{}\"", s.source())).collect();
            js.push_str(&alloc::format!("export const sources = Object.freeze([{}]);\n", texts.join(", ")));
            js.push_str(&alloc::format!("export const KIND_BITS = {};\n", KIND_BITS));
            js.push_str(&alloc::format!("export const NO_SPAN = {};\n", NO_SPAN));
            // The routing core's texts (src/routing.rs): the refusals' reasons (the parts
            // before and after their detail), the report's rules and rows' fates.
            use crate::routing::{FATES, REASONS, RULES};
            let quoted = |texts: &[&str]| texts.iter().map(|t| alloc::format!("{t:?}")).collect::<alloc::vec::Vec<_>>().join(", ");
            let reasons: alloc::vec::Vec<_> = REASONS.iter().map(|(a, b)| alloc::format!("[{}]", quoted(&[a, b]))).collect();
            js.push_str(&alloc::format!("export const REASONS = Object.freeze([{}]);\n", reasons.join(", ")));
            js.push_str(&alloc::format!("export const RULES = Object.freeze([{}]);\n", quoted(&RULES)));
            js.push_str(&alloc::format!("export const FATES = Object.freeze([{}]);\n", quoted(&FATES)));
            // The options each facade reads, by key, in order (src/given.rs).
            use crate::given::{CONTEXT, INDEX, LOAD, POLICIES, POLICY, RESOLVE, ROUTER, ROUTING, RUN, SEARCH};
            let lists = [
                ("ROUTING", ROUTING), ("RESOLVE", RESOLVE), ("ROUTER", ROUTER), ("POLICY", &POLICY[..]), ("POLICIES", POLICIES), ("RUN", RUN),
                ("INDEX", INDEX), ("LOAD", LOAD), ("SEARCH", SEARCH), ("CONTEXT", CONTEXT),
            ];
            for (name, keys) in lists {
                let keys: alloc::vec::Vec<_> = keys.iter().map(|k| alloc::format!("\"{k}\"")).collect();
                js.push_str(&alloc::format!("export const {name} = Object.freeze([{}]);\n", keys.join(", ")));
            }
            // How host.js codes a row (src/routing/turn.rs `code`), and the record fields a
            // candidate is read from, in the core's order (one candidacy bit each).
            use crate::routing::turn::{code, CANDIDATE_FIELDS};
            let row = [
                ("TEXT", code::TEXT), ("RECORD_ON", code::RECORD_ON), ("RECORD_OFF", code::RECORD_OFF),
                ("OTHER", code::OTHER), ("SAID_YES", code::SAID_YES), ("SAID_NO", code::SAID_NO),
                ("SAID_TEXT", code::SAID_TEXT), ("SAID_OTHER", code::SAID_OTHER),
                ("RECORD", code::RECORD), ("NOT_READ", code::NOT_READ),
            ];
            let row: alloc::vec::Vec<_> = row.iter().map(|(k, v)| alloc::format!("{k}: {v}")).collect();
            js.push_str(&alloc::format!("export const ROW = Object.freeze({{ {} }});\n", row.join(", ")));
            let fields: alloc::vec::Vec<_> = CANDIDATE_FIELDS.iter().map(|k| alloc::format!("\"{k}\"")).collect();
            js.push_str(&alloc::format!("export const CANDIDATE_FIELDS = Object.freeze([{}]);\n", fields.join(", ")));
            // Which activities of a row are active (src/routing/turn.rs), by code.
            let active: alloc::vec::Vec<_> = crate::routing::turn::activity_table().iter().map(|a| a.to_string()).collect();
            js.push_str(&alloc::format!("export const ACTIVE = Object.freeze([{}]);\n", active.join(", ")));
            js
        }
    };
}

wire! {
    /// What kind of value the caller gave (read by `crate::given::Given`).
    Kind { Undefined, Null, Boolean, Number, String, Function, Array, Object, BigInt, Symbol }

    /// A dispatch's palette as the call's reading found it (`policy::gate::Handed`, and
    /// an object whose `kind` could not be read).
    Palette { Nothing, Routed, NotRouted, Names, Unreadable }

    /// A list of strings of the caller's as read: every item a string (`Strings`), or
    /// where the reading stopped (`Unreadable`: the value holding it could not be read).
    Listed { Strings, Unreadable, NotIterable, IteratorUnreadable, NotIterated, NotString }

    /// What a store's `entries` did (`routing::turn::Returned`): answered a value, a
    /// thenable, or threw.
    Returned { Value, Thenable, Threw }

    /// The first event of a turn that waits (`routing::turn::Event`), or the signal
    /// failing to let go of its listener.
    Event { Answered, Rejected, Elapsed, Aborted, SignalFailed }

    /// The error a message becomes, with its `cause` or without.
    Fault { Error, TypeError, RangeError, ErrorCaused, TypeErrorCaused, RangeErrorCaused }

    /// A store's answer as a turn read it: no rows (null or undefined), rows, not
    /// iterable, or reading it threw.
    Answer { None, Rows, NotIterable, Threw }

    /// What a predicate answered (host.js `verdict`): `false`, `true`, or anything else
    /// (a throw too), which host.js `answered` then hands over.
    Verdict { No, Yes, Other }

    /// What `ToolIndex.load`'s source is (host.js `sourceOf`): none of these (bytes), a
    /// stream, a body read already, a null body, a Blob.
    Stream { None, Readable, BodyUsed, NullBody, Blob }

    /// What `argsTransform` came to (host.js `Frame.transform`), asked in the order the
    /// core's rule asks: copying the args threw, it threw, reading its answer's `then`
    /// threw, its answer is a thenable, a plain object, or anything else.
    Transformed { ArgsUnreadable, Threw, ThenUnreadable, Thenable, Plain, Other }

    /// What a model selection came to (`policy::seams::Selection`); a policy's is
    /// `Policy` plus the policy's index.
    Source { Default, Resolver, Policy }
}

/// A row without a candidate, where a decision report's (string, start, end) triple
/// would name its string (host.js `report`).
pub(crate) const NO_SPAN: u32 = u32::MAX;

/// The bits a value's `Kind` takes in a word of kinds (host.js `kinds`).
pub(crate) const KIND_BITS: u32 = 4;

/// The `i`th kind of a word of kinds.
pub(crate) fn kinds_at(kinds: u32, i: usize) -> u32 {
    (kinds >> (KIND_BITS as usize * i)) & ((1 << KIND_BITS) - 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn wire_js_is_generated_from_these_definitions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/js/wire.js");
        let made = super::javascript();
        if std::env::var_os("UPDATE_WIRE").is_some() {
            std::fs::write(path, &made).unwrap();
        }
        let shipped = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(
            shipped, made,
            "src/js/wire.js drifted from src/js/wire.rs: run `UPDATE_WIRE=1 cargo test wire`"
        );
    }
}
