// The run (SPEC 8) of an adapter: one PaletteRun over the tools the adapter is given, a new one
// when they change. The framework adapters and tool-palette/mcp keep their runs here. Internal.
import { PaletteRun } from "tool-palette";

/**
 * A run over the registered names of each step, kept while they stay the same. With `carry`, a new run
 * starts with what the previous one showed the model of the names still registered: a deferred run's
 * revealed tools stay revealed (the model loaded them), an appending run's listed tools stay listed.
 */
export class Runs {
  constructor(cache, pinnedOf, { carry = false } = {}) {
    Object.assign(this, { cache, pinnedOf, carry, names: null, run: null, last: null, revealed: [] });
  }

  /** The run's step for `outcome` over `registered` (a new run first when they changed). */
  step(registered, outcome) {
    const { cache } = this;
    let carried = [];
    if (!(this.names && this.names.length === registered.length && this.names.every((name, i) => name === registered[i]))) {
      const still = new Set(registered);
      if (this.carry) carried = (cache === "deferred" ? this.revealed : cache === "append" ? this.last?.listed ?? [] : []).filter((n) => still.has(n));
      this.run?.dispose();
      this.names = [...registered];
      this.run = new PaletteRun({ registered: this.names, cache, pinned: this.pinnedOf(this.names) });
      this.last = null;
      this.revealed = [];
      if (cache === "deferred") this.remember(this.run.reveal(carried));
    }
    const palette = cache === "append" && carried.length && outcome.kind === "routed" ? { kind: "routed", names: [...carried, ...outcome.names], unresolved: [] } : outcome;
    this.last = this.run.step(palette);
    this.remember(this.last.revealed);
    return this.last;
  }

  /** "deferred": tools the model loaded itself, offered from the next step on (the names newly revealed). */
  reveal(names) {
    return this.remember(this.run.reveal(names));
  }

  // (A loop, not push(...names): a list of 150,000 names overflows the stack.)
  remember(names) {
    for (const name of names) this.revealed.push(name);
    return names;
  }
}
