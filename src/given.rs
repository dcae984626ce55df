//! What the caller may give (SPEC 2 "Errors that do reject", 3, 4 and 6): the rule each
//! option is checked by, and how a mistake names what was given. The binding reads a
//! value's facts ([`Given`]) and asks [`check`]; it builds the message ("<where> must be
//! <what>, got <what it is>") from the answer, with the caller's own strings in it.

/// The facts of a value the caller gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Given {
    Undefined,
    Null,
    Boolean,
    Number(f64),
    /// A string, by its length in code units.
    String(usize),
    Function,
    Array,
    /// Any other object.
    Object,
    BigInt,
    Symbol,
}

impl Given {
    /// How a message names it ("…, got an object").
    pub fn described(self) -> &'static str {
        match self {
            Given::Undefined => "undefined",
            Given::Null => "null",
            Given::Boolean => "boolean",
            Given::Number(_) => "number",
            Given::String(_) => "string",
            Given::Function => "function",
            Given::Array => "an array",
            Given::Object => "an object",
            Given::BigInt => "bigint",
            Given::Symbol => "symbol",
        }
    }
}

/// What an option may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Anything here; what reads it checks it (a list of names, a signal, a model).
    Any,
    /// A function.
    Function,
    /// A function, or `undefined` (left out).
    OptionalFunction,
    /// A function, or `null` or `undefined` (left out).
    NullableFunction,
    /// The procedural layer: as [`Rule::NullableFunction`], and said so in the message.
    Layer,
    /// A budget in milliseconds: a finite number >= 0, or `undefined`.
    Budget,
    /// A number of hits: a positive integer below 2^32, or `undefined`.
    Limit,
    /// A boolean, or `undefined` (false).
    Flag,
    /// A policy's name: a non-empty string.
    Name,
    /// A redirect's target: a non-empty string, `null` or `undefined`.
    Target,
    /// An object (an array too; not `null`, not a function).
    Object,
    /// An options object, or `undefined` (every option left out).
    Options,
}

// The options (and a policy's fields) each call reads, by key.

/// The procedural layer and how its rows are read: the options `resolvePalette` and a
/// `ToolRouter` share, read first, in this order.
const LAYER: [&str; 6] = [
    "entries",
    "timeoutMs",
    "candidateOf",
    "isActive",
    "onDecision",
    "registered",
];

/// The layer's options, then one more.
const fn layer_and(last: &'static str) -> [&'static str; 7] {
    let mut keys = [last; 7];
    let mut i = 0;
    while i < LAYER.len() {
        keys[i] = LAYER[i];
        i += 1;
    }
    keys
}

/// `resolvePalette`'s options.
pub const ROUTING: &[&str] = &layer_and("signal");

/// A `ToolRouter`'s options.
pub const ROUTER: &[&str] = &layer_and("onWarning");

/// `ToolRouter.resolve`'s options.
pub const RESOLVE: &[&str] = &["signal", "context", "onDecision"];

/// What the binding reads of a signal to check it is one.
pub const SIGNAL: &[&str] = &["aborted", "addEventListener", "removeEventListener"];

/// A `ToolCallPolicy`'s fields, in the order the policy defines them.
pub const POLICY: [&str; 7] = [
    "name",
    "match",
    "whenTool",
    "redirectTo",
    "model",
    "argsTransform",
    "guard",
];

/// A `ToolPolicies`'s options.
pub const POLICIES: &[&str] = &[
    "modelResolver",
    "onToolCallDispatch",
    "onWarning",
    "registered",
];

/// A `PaletteRun`'s options (SPEC 8).
pub const RUN: &[&str] = &["registered", "cache", "pinned"];

/// A `ToolIndex`'s options (SPEC 6).
pub const INDEX: &[&str] = &["limit", "vectors", "embed", "onEmbedError", "explain"];

/// `ToolIndex.load`'s options: the constructor's (`vectors` and `explain` are refused),
/// and a signal.
pub const LOAD: &[&str] = &[
    "limit",
    "vectors",
    "embed",
    "onEmbedError",
    "explain",
    "signal",
];

/// `ToolIndex.search`'s options.
pub const SEARCH: &[&str] = &["limit", "vector"];

/// What `ToolIndex.entries` reads of a context object (SPEC 8).
pub const CONTEXT: &[&str] = &["message", "history"];

/// The rule of each option, by its key: one key means the same wherever it is taken
/// (`resolvePalette`, `ToolRouter`, `ToolCallPolicy`, `ToolPolicies`, `ToolIndex`).
pub fn rule_of(key: &str) -> Rule {
    match key {
        "entries" => Rule::Layer,
        "timeoutMs" => Rule::Budget,
        "limit" => Rule::Limit,
        "explain" => Rule::Flag,
        "name" => Rule::Name,
        "match" => Rule::Function,
        "redirectTo" => Rule::Target,
        "argsTransform" | "guard" => Rule::NullableFunction,
        "candidateOf" | "isActive" | "onDecision" | "onWarning" | "modelResolver"
        | "onToolCallDispatch" | "embed" | "onEmbedError" => Rule::OptionalFunction,
        _ => Rule::Any,
    }
}

/// Whether `given` may stand where `rule` holds: `Ok(true)` when it is given, `Ok(false)`
/// when it is left out, else `Err` with what it must be.
pub fn check(rule: Rule, given: Given) -> Result<bool, &'static str> {
    let absent = matches!(given, Given::Undefined)
        || (matches!(given, Given::Null)
            && matches!(rule, Rule::NullableFunction | Rule::Layer | Rule::Target));
    let fits = match (rule, given) {
        (Rule::Any, _) => return Ok(!matches!(given, Given::Undefined)),
        _ if absent && !matches!(rule, Rule::Function | Rule::Name | Rule::Object) => {
            return Ok(false)
        }
        (Rule::Function | Rule::OptionalFunction | Rule::NullableFunction | Rule::Layer, g) => {
            g == Given::Function
        }
        (Rule::Budget, Given::Number(n)) => n.is_finite() && n >= 0.0,
        (Rule::Limit, Given::Number(n)) => n >= 1.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX),
        (Rule::Flag, g) => g == Given::Boolean,
        (Rule::Name | Rule::Target, Given::String(len)) => len > 0,
        (Rule::Object | Rule::Options, g) => matches!(g, Given::Array | Given::Object),
        _ => false,
    };
    if fits {
        Ok(true)
    } else {
        Err(match rule {
            Rule::Layer => "a function, null or undefined",
            Rule::Budget => "a finite number >= 0",
            Rule::Limit => "a positive integer",
            Rule::Flag => "a boolean",
            Rule::Name => "a non-empty string",
            Rule::Target => "a non-empty string, null or undefined",
            Rule::Object | Rule::Options => "an object",
            _ => "a function",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_left_out_given_or_refused_by_their_rule() {
        let f = Given::Function;
        assert_eq!(check(rule_of("entries"), Given::Null), Ok(false));
        assert_eq!(
            check(rule_of("entries"), Given::Boolean),
            Err("a function, null or undefined")
        );
        assert_eq!(check(rule_of("onDecision"), Given::Undefined), Ok(false));
        assert_eq!(check(rule_of("onDecision"), Given::Null), Err("a function"));
        assert_eq!(check(rule_of("guard"), Given::Null), Ok(false));
        assert_eq!(check(rule_of("match"), Given::Undefined), Err("a function"));
        assert_eq!(check(rule_of("match"), f), Ok(true));
        for n in [f64::NAN, f64::INFINITY, -1.0] {
            assert!(check(rule_of("timeoutMs"), Given::Number(n)).is_err());
        }
        assert_eq!(check(rule_of("timeoutMs"), Given::Number(0.0)), Ok(true));
        assert_eq!(check(rule_of("explain"), Given::Boolean), Ok(true));
        assert_eq!(check(rule_of("explain"), Given::Undefined), Ok(false));
        assert_eq!(
            check(rule_of("explain"), Given::Number(1.0)),
            Err("a boolean")
        );
        for n in [0.0, 1.5, 4_294_967_296.0] {
            assert!(check(rule_of("limit"), Given::Number(n)).is_err());
        }
        assert_eq!(
            check(rule_of("name"), Given::String(0)),
            Err("a non-empty string")
        );
        assert_eq!(
            check(rule_of("name"), Given::Undefined),
            Err("a non-empty string")
        );
        assert_eq!(check(rule_of("redirectTo"), Given::Null), Ok(false));
        assert_eq!(check(Rule::Options, Given::Undefined), Ok(false));
        assert_eq!(check(Rule::Object, Given::Undefined), Err("an object"));
        assert_eq!(check(Rule::Object, Given::Array), Ok(true));
        assert_eq!(check(Rule::Any, Given::Null), Ok(true));
        assert_eq!(Given::Array.described(), "an array");
    }

    #[test]
    fn the_layer_options_come_first() {
        assert_eq!(ROUTING[..6], LAYER);
        assert_eq!(ROUTER[..6], LAYER);
        assert_eq!((ROUTING[6], ROUTER[6]), ("signal", "onWarning"));
    }

    #[test]
    fn every_option_read_has_its_rule() {
        // Only what the binding checks as it reads it goes without a rule here.
        let checked_where_read = [
            "registered",
            "signal",
            "context",
            "whenTool",
            "model",
            "cache",
            "pinned",
            "vectors",
            "vector",
        ];
        for keys in [
            ROUTING,
            ROUTER,
            RESOLVE,
            &POLICY[..],
            POLICIES,
            RUN,
            INDEX,
            LOAD,
            SEARCH,
        ] {
            for key in keys {
                assert_eq!(
                    rule_of(key) == Rule::Any,
                    checked_where_read.contains(key),
                    "{key}"
                );
            }
        }
    }
}
