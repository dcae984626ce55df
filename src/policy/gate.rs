//! The palette gate: the last step of the POST-model seam.

use crate::names::{text, Name};
use alloc::vec::Vec;

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

/// Why the gate dropped a redirect, in words for the `Dispatch` and the warning: the
/// target is not in the routed palette (or the names handed over), or, when the palette
/// did not narrow, not a registered tool.
pub fn dropped_reason(target: &Name, original: &Name, admitted: Admits) -> Vec<u16> {
    let outside = match admitted {
        Admits::Registered => "\" is not a registered tool; dispatching the original call \"",
        _ => "\" is not in the routed palette; dispatching the original call \"",
    };
    let mut v = text(&["redirect target \""], target, &[outside]);
    v.extend_from_slice(original);
    v.push(u16::from(b'"'));
    v
}

/// The warning of a dropped redirect: who redirected (the policy's name, or the adopter's
/// `onToolCallDispatch`), then the reason.
pub fn dropped_warning(policy: Option<&Name>, reason: &[u16]) -> Vec<u16> {
    let mut v = match policy {
        Some(name) => text(&["ToolCallPolicy \""], name, &["\": "]),
        None => text(&["onToolCallDispatch: "], &[], &[]),
    };
    v.extend_from_slice(reason);
    v
}
