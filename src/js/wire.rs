//! The texts and tables JavaScript reads by the places the module answers with, generated
//! from the core's definitions into `src/js/wire.js` (the test below fails when the two
//! drift; `UPDATE_WIRE=1 cargo test wire` rewrites it). The codes both halves pass are
//! wasm-bindgen enums, which the glue exports itself.

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn list<T: core::fmt::Debug>(items: impl IntoIterator<Item = T>) -> String {
        let items: Vec<String> = items.into_iter().map(|t| format!("{t:?}")).collect();
        format!("Object.freeze([{}])", items.join(", "))
    }

    /// `src/js/wire.js`, as the definitions make it.
    fn javascript() -> String {
        use crate::policy::seams::{Function, Seam};
        use crate::routing::{Missing, FATES, REASONS, RULES, UNAVAILABLE};
        let reasons = REASONS.iter().map(|(a, b)| format!("[{a:?}, {b:?}]"));
        let missing = [Missing::ProceduralLayer, Missing::NoRegisteredTools].map(Missing::as_str);
        let functions = [Function::Match, Function::Guard, Function::ArgsTransform];
        // By the places the module names them (policies.rs `Frame::failed`).
        assert!(
            functions.iter().enumerate().all(|(i, &f)| f as usize == i) && Seam::Post as u8 == 1
        );
        // An explanation's fields as the public type names them (`ToolField`), by the place
        // the module names them (index.rs `Explaining::field`).
        use crate::search::Field;
        let fields = [
            Field::Name,
            Field::Description,
            Field::ParamName,
            Field::ParamDescription,
            Field::ParamEnum,
        ];
        assert!(fields.iter().enumerate().all(|(i, &f)| f as usize == i));
        let fields = fields.map(|f| match f {
            Field::Name => "name",
            Field::Description => "description",
            Field::ParamName => "parameterName",
            Field::ParamDescription => "parameterDescription",
            Field::ParamEnum => "parameterEnum",
        });
        let lines = [
            "// Generated from src/js/wire.rs by `UPDATE_WIRE=1 cargo test wire`; do not edit."
                .into(),
            format!("export const RULES = {};", list(RULES)),
            format!("export const FATES = {};", list(FATES)),
            format!(
                "export const REASONS = Object.freeze([{}]);",
                reasons.collect::<Vec<_>>().join(", ")
            ),
            format!("export const MISSING = {};", list(missing)),
            format!(
                "export const ACTIVE = {};",
                list(super::super::routing::active_table())
            ),
            format!("export const NO_SPAN = {};", super::super::routing::NO_SPAN),
            format!("export const UNAVAILABLE = {UNAVAILABLE};"),
            format!(
                "export const CACHES = {};",
                list(crate::run::Cache::ALL.map(|(name, _)| name))
            ),
            format!(
                "export const FUNCTIONS = {};",
                list(functions.map(Function::as_str))
            ),
            format!(
                "export const SEAMS = {};",
                list([Seam::Pre, Seam::Post].map(Seam::as_str))
            ),
            format!("export const FIELDS = {};", list(fields)),
        ];
        lines.join("\n") + "\n"
    }

    #[test]
    fn wire_js_is_generated_from_these_definitions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/js/wire.js");
        let made = javascript();
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
