//! The two seams of one agent iteration. PRE-model ([`PolicySet::select_model`]): which
//! model reasons. POST-model ([`PolicySet::dispatch`]): where the emitted call goes.

use super::{gate, PolicySet};
use crate::names::Name;
use alloc::vec::Vec;

/// The caller's functions, asked by policy index, and the call being dispatched.
pub trait Hooks {
    type Error;
    /// `policies[i].match(ctx)`, read as truthy or falsy.
    fn matches(&mut self, policy: usize) -> Result<bool, Self::Error>;
    /// `policies[i].guard(ctx)`, read as truthy or falsy.
    fn guard(&mut self, policy: usize) -> Result<bool, Self::Error>;
    /// Rewrites the call to `policies[i].redirectTo`, applying its `argsTransform` if any.
    fn redirect(&mut self, policy: usize) -> Result<(), Self::Error>;
    /// Asks the adopter's `modelResolver`; `true` when it supplied a model.
    fn resolve_model(&mut self) -> Result<bool, Self::Error>;
    /// Runs the adopter's `onToolCallDispatch` on the call as it stands; the tool of the
    /// call it returned, if it returned one.
    fn on_dispatch(&mut self) -> Result<Option<Vec<u16>>, Self::Error>;
    /// Whether the palette this dispatch was given admits `tool`.
    fn allows(&mut self, tool: &Name) -> Result<bool, Self::Error>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seam {
    Pre,
    Post,
}

impl Seam {
    pub fn as_str(self) -> &'static str {
        match self {
            Seam::Pre => "PRE-model seam (selectModel)",
            Seam::Post => "POST-model seam (dispatch)",
        }
    }
}

/// The policy functions a seam asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    Match,
    Guard,
    ArgsTransform,
}

impl Function {
    pub fn as_str(self) -> &'static str {
        match self {
            Function::Match => "match",
            Function::Guard => "guard",
            Function::ArgsTransform => "argsTransform",
        }
    }
}

/// Why a seam failed. A policy's function failing is named (which policy, which
/// function, which seam); the adopter's own callbacks' errors pass through as they are.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure<E> {
    Policy {
        policy: usize,
        function: Function,
        seam: Seam,
        cause: E,
    },
    Adopter(E),
}

impl<E> Failure<E> {
    /// The policy, function and seam a failure names; none for the adopter's.
    pub fn blamed(&self) -> Option<(usize, Function, Seam)> {
        match *self {
            Failure::Policy {
                policy,
                function,
                seam,
                ..
            } => Some((policy, function, seam)),
            Failure::Adopter(_) => None,
        }
    }
}

/// Which model reasons this iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    Policy(usize),
    Resolver,
    Default,
}

/// Where the emitted call goes, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispatched {
    /// The policy that rewrote the call, if one did.
    pub redirected_by: Option<usize>,
    /// Set when the gate refused the final target (its name): the original dispatches.
    pub dropped: Option<Vec<u16>>,
}

fn asking<T, E>(
    r: Result<T, E>,
    policy: usize,
    function: Function,
    seam: Seam,
) -> Result<T, Failure<E>> {
    r.map_err(|cause| Failure::Policy {
        policy,
        function,
        seam,
        cause,
    })
}

impl PolicySet {
    /// PRE-model: the first policy, in declaration order, that has a model and whose
    /// `match` holds supplies it; only then is the adopter's resolver asked. `guard` is
    /// never consulted here: a missing data source must not change which model reasons.
    pub fn select_model<H: Hooks>(&self, hooks: &mut H) -> Result<Selection, Failure<H::Error>> {
        for (i, p) in self.policies.iter().enumerate() {
            if p.has_model && asking(hooks.matches(i), i, Function::Match, Seam::Pre)? {
                return Ok(Selection::Policy(i));
            }
        }
        if self.has_resolver && hooks.resolve_model().map_err(Failure::Adopter)? {
            return Ok(Selection::Resolver);
        }
        Ok(Selection::Default)
    }

    /// POST-model: the first redirect policy whose `match` holds, whose `whenTool` covers
    /// the emitted tool and whose `guard` (if any) passes rewrites the call; then the
    /// adopter's callback runs (it may rewrite again); then the palette gate, last.
    pub fn dispatch<H: Hooks>(
        &self,
        tool: &Name,
        hooks: &mut H,
    ) -> Result<Dispatched, Failure<H::Error>> {
        let post = Seam::Post;
        let mut redirected_by = None;
        for (i, p) in self.policies.iter().enumerate() {
            if p.redirect_to.is_none() || !asking(hooks.matches(i), i, Function::Match, post)? {
                continue;
            }
            if !p.when_tool.matches(tool) {
                continue;
            }
            if p.has_guard && !asking(hooks.guard(i), i, Function::Guard, post)? {
                continue;
            }
            asking(hooks.redirect(i), i, Function::ArgsTransform, post)?;
            redirected_by = Some(i);
            break;
        }
        let mut target = redirected_by
            .and_then(|i| self.policies[i].redirect_to.clone())
            .unwrap_or_else(|| tool.to_vec());
        if self.has_callback {
            if let Some(rewritten) = hooks.on_dispatch().map_err(Failure::Adopter)? {
                target = rewritten;
            }
        }
        let dropped = gate::drops(tool, &target, redirected_by.is_some(), |t| hooks.allows(t))
            .map_err(Failure::Adopter)?;
        Ok(Dispatched {
            redirected_by,
            dropped: dropped.then_some(target),
        })
    }
}
