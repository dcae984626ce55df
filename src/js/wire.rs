//! The texts and tables the facade reads by the places the module answers with, generated
//! into `src/js/wire.js` (`UPDATE_WIRE=1 cargo test wire`; the test fails on drift).

#[cfg(test)]
mod tests {
    use crate::policy::seams::{Function, Seam};
    use crate::routing::{Missing, FATES, REASONS, RULES, UNAVAILABLE};
    use crate::search::Field;
    use alloc::{format, string::String, vec::Vec};

    /// Each item as JavaScript reads it (Rust's debug form of a string, a bool, an array).
    fn q<T: core::fmt::Debug>(items: impl IntoIterator<Item = T>) -> Vec<String> {
        items.into_iter().map(|t| format!("{t:?}")).collect()
    }

    /// `src/js/wire.js`, as the definitions make it.
    fn javascript() -> String {
        let missing = [Missing::ProceduralLayer, Missing::NoRegisteredTools].map(Missing::as_str);
        let functions = [Function::Match, Function::Guard, Function::ArgsTransform];
        use Field::*;
        let fields = [Name, Description, ParamName, ParamDescription, ParamEnum];
        // By the places the module names them (policies.rs `Frame::failed`, index.rs
        // `Explaining::field`); a field as the public type names it (`ToolField`).
        assert!(
            functions.iter().enumerate().all(|(i, &f)| f as usize == i) && Seam::Post as u8 == 1
        );
        assert!(fields.iter().enumerate().all(|(i, &f)| f as usize == i));
        let field = |f| match f {
            Name => "name",
            Description => "description",
            ParamName => "parameterName",
            ParamDescription => "parameterDescription",
            ParamEnum => "parameterEnum",
        };
        let tables: [(&str, Vec<String>); 9] = [
            ("RULES", q(RULES)),
            ("FATES", q(FATES)),
            ("REASONS", q(REASONS.map(|(a, b)| [a, b]))),
            ("MISSING", q(missing)),
            ("ACTIVE", q(super::super::routing::active_table())),
            ("CACHES", q(crate::run::Cache::ALL.map(|(name, _)| name))),
            ("FUNCTIONS", q(functions.map(Function::as_str))),
            ("SEAMS", q([Seam::Pre, Seam::Post].map(Seam::as_str))),
            ("FIELDS", q(fields.map(field))),
        ];
        let mut js = String::from(
            "// Generated from src/js/wire.rs by `UPDATE_WIRE=1 cargo test wire`; do not edit.\n",
        );
        for (name, items) in tables {
            js += &format!(
                "export const {name} = Object.freeze([{}]);\n",
                items.join(", ")
            );
        }
        let no_span = super::super::routing::NO_SPAN;
        // The core's "no index" (`search::NONE`), one value that the facade imports under
        // the name of what each place means (one constant in the bundle): `NO_NAMESPACE`, a
        // tool without a namespace (index.rs `finish`); `NO_ALLOWED_TOOLS`, a skill without
        // the field, and `OWN_NAME`, an allowed tool that keeps its own name (skills.rs, which
        // names them so); `NO_TOOL`, a skill's row without a tool (skills.rs `skill_rows`).
        let none = crate::search::NONE;
        {
            use super::super::skills::{NO_ALLOWED_TOOLS, OWN_NAME};
            assert!(NO_ALLOWED_TOOLS == none && OWN_NAME == none);
        }
        let (exact, skill) = (super::super::routing::EXACT, super::super::routing::SKILL);
        // The longest wait a timer can hold (ms): a longer budget never runs out (the
        // adapters' own waits set no timer past it either).
        let longest = crate::routing::turn::LONGEST_TIMER;
        js + &format!(
            "export const NO_SPAN = {no_span};\nexport const UNAVAILABLE = {UNAVAILABLE};\nexport const NONE = {none};\nexport const EXACT = {exact};\nexport const SKILL = {skill};\nexport const LONGEST_TIMER = {longest};\n"
        )
    }

    #[test]
    fn wire_js_is_generated_from_these_definitions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/js/wire.js");
        let generated = javascript();
        if std::env::var_os("UPDATE_WIRE").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let shipped = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(
            shipped, generated,
            "src/js/wire.js drifted from src/js/wire.rs: run `UPDATE_WIRE=1 cargo test wire`"
        );
    }
}
