//! The palette gate: the last step of the POST-model seam.

use crate::names::Name;

/// The gate's one rule. It is asked only when the call's target changed: a policy
/// redirected it, or the adopter's callback moved it to another tool. Then the change is
/// dropped (and the original call dispatches) unless `allows` admits the final target.
/// A call nobody redirected is never the gate's business, even outside the palette.
pub fn drops<E>(
    original: &Name,
    target: &Name,
    by_policy: bool,
    allows: impl FnOnce(&Name) -> Result<bool, E>,
) -> Result<bool, E> {
    if !by_policy && target == original {
        return Ok(false);
    }
    Ok(!allows(target)?)
}

/// What `dispatch` was handed as the palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handed {
    /// `null`, `undefined` or nothing.
    Nothing,
    /// An outcome of routing, by its `kind`: a `Routed`, or a refusal or
    /// `RoutingUnavailable`.
    Routed,
    NotRouted,
    /// Anything else: an iterable of names.
    Names,
}

/// Which names the gate admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admits {
    /// Every tool.
    Every,
    /// The registered names the policies were given.
    Registered,
    /// The routed names.
    Routed,
    /// The names handed over.
    Handed,
}

/// SPEC 4: a `Routed` narrows to its names and an iterable to its own; a refusal,
/// `RoutingUnavailable` or no palette lets every registered tool pass: the registered
/// names when the host gave them, else every tool.
pub fn admits(handed: Handed, has_registered: bool) -> Admits {
    match handed {
        Handed::Routed => Admits::Routed,
        Handed::Names => Admits::Handed,
        Handed::Nothing | Handed::NotRouted if has_registered => Admits::Registered,
        Handed::Nothing | Handed::NotRouted => Admits::Every,
    }
}
