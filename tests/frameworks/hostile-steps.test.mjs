// Faults a hostile pass found in the adapter kernel, each a script (hostile-steps/) run in the consumer project
// (the packed package beside the frameworks) that prints PASS or FAIL: generations in parallel through one adapter
// whose models emit the same tool-call id each keep their own step (the kernel's calls by id), a later step reusing an
// id is not taken for an earlier one; a redirect to a tool
// the framework lacks, on a step whose routing refused, is dropped with a warning and the call runs (SPEC 4).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { consumer } from "./consumer.mjs";

let at;
before(async () => {
  const c = await consumer();
  at = join(c.dir, "hostile-steps");
  cpSync(new URL("./hostile-steps", import.meta.url), at, { recursive: true });
});

for (const [script, what, flags] of [
  ["parallel-callid-ai-sdk.mjs", "tool-palette/ai-sdk: two generations in parallel, one call id: each call runs through its own step (offered, redirected, reported)"],
  ["parallel-callid-openai-agents.mjs", "tool-palette/openai-agents: two runs in parallel, one call id: each call runs through its own turn"],
  ["parallel-callid-langchain.mjs", "tool-palette/langchain: two agents in parallel, one call id: each call runs through its own step"],
  ["redirect-unregistered.mjs", "every adapter: a redirect to a tool the framework lacks is dropped with a warning, on a routed step and on a refused one; the call runs"],
  ["stale-step-ai-sdk.mjs", "tool-palette/ai-sdk: a model that reuses a call id every step (a call the SDK never ran, a prepareStep returning messages): the later call is its own step's"],
  ["stale-step-langchain.mjs", "tool-palette/langchain: a call id reused by a later step whose earlier call never ran: the later call is its own step's"],
  ["silent-step-openai-agents.mjs", "tool-palette/openai-agents: tools without palette.model(): the call runs after the warning (a step the model never saw refuses nothing)"],
  ["dup-id-langchain.mjs", "tool-palette/langchain: one model answer emitting two calls of one id: both run through that step (append: neither refused), both reported"],
  ["dup-id-ai-sdk.mjs", "tool-palette/ai-sdk: generations in parallel, one emitting a call id twice: each call runs through its own generation's step, both reported"],
  ["retention-ai-sdk.mjs", "tool-palette/ai-sdk: a finished step leaves the calls' table (generations whose calls never ran are not kept)", ["--expose-gc"]],
]) {
  test(what, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...(flags ?? []), join(at, script)], { cwd: at, timeout: 120_000 });
    assert.equal(stdout.trim().split("\n").at(-1), "PASS", stdout);
  });
}
