// @ts-check
// What the module calls back in the middle of a call (the `raw_module = "./calls.js"`
// imports of src/js/*.rs): each function hands its answer to the receiver the facade set
// for the call in progress, `calls.to` (a turn's `Decided`, a seam's `Frame`, a step's
// `Stepped`, an `Explaining`, a `Load`, a `Skilled`); the door puts back the receiver of the call it
// interrupted when a nested call ends. It imports nothing: the glue and the facade both
// import it, and no receiver is ever lent to the module (whose slot an unwind could keep).
/** @type {{ to: any }} the receiver of the call in progress (any of those above) */
export const calls = { to: undefined };

// routing.rs `decide`
export const decided = (rule, detail, names, unresolved, skills) => calls.to.decided(rule, detail, names, unresolved, skills);
export const reported = (fates, spans, hidden, skills) => calls.to.reported(fates, spans, hidden, skills);
// policies.rs: one seam call
export const asked = (policy, guard) => calls.to.asked(policy, guard);
export const redirect = (policy) => calls.to.redirect(policy);
export const resolve = () => calls.to.resolve();
export const callback = () => calls.to.callback();
export const dropped = (registered) => calls.to.dropped(registered);
export const failed = (policy, f, seam) => calls.to.failed(policy, f, seam);
// run.rs
export const stepped = (step, offered, listed, deferred, revealed, kept, fresh) => calls.to.stepped(step, offered, listed, deferred, revealed, kept, fresh);
export const revealed = (added) => calls.to.revealed(added);
export const text = (units) => calls.to.text(units);
// index.rs: `explain`, `load`
export const terms = (units, ends) => calls.to.terms(units, ends);
export const hit = (tool, score, rank) => calls.to.hit(tool, score, rank);
export const lexical = (score, rank) => calls.to.lexical(score, rank);
export const similar = (similarity, rank) => calls.to.similar(similarity, rank);
export const fused = (lexical, vector) => calls.to.fused(lexical, vector);
export const field = (f, score) => calls.to.field(f, score);
export const term = (t, score, count) => calls.to.term(t, score, count);
export const named = (units, ends) => calls.to.named(units, ends);
export const refused = (range, units) => calls.to.refused(range, units);
// skills.rs: a skill, a text's fault, a load's texts and tools
export const skill = (frontmatter, units, ends, shape) => calls.to.skill(frontmatter, units, ends, shape);
export const fault = (units) => calls.to.fault(units);
export const sources = (units, ends) => calls.to.sources(units, ends);
