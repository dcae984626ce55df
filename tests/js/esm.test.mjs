// The JS suites against the built package's ESM entry (dist/node.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as tp from "../../dist/node.mjs";
import { routing } from "./suites/routing.mjs";
import { router } from "./suites/router.mjs";
import { policies } from "./suites/policies.mjs";
import { decisions } from "./suites/decisions.mjs";
import { toolIndex } from "./suites/index.mjs";
import { streamedLoad } from "./suites/load.mjs";
import { runs } from "./suites/runs.mjs";
import { skills } from "./suites/skills.mjs";

const entry = new URL("../../dist/node.mjs", import.meta.url).pathname;
routing(tp);
router(tp, { entry, format: "esm" });
policies(tp);
decisions(tp);
toolIndex(tp);
streamedLoad(tp);
runs(tp);
skills(tp);

// The published types declare exactly the values the entry exports: no export without its
// declaration, no declaration of something the package does not export (wasm-bindgen's
// own, such as its start function).
test("index.d.ts declares exactly the entry's exports", () => {
  const types = readFileSync(new URL("../../dist/index.d.ts", import.meta.url), "utf8");
  const declared = [...types.matchAll(/^export (?:declare )?(?:function|class|const|let|var) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(tp).sort());
});

// Every member a class's prototype has is declared, and every method declared is there
// (the glue's own, such as free() or an internal method, stays out of sight).
test("the classes' prototypes hold exactly what index.d.ts declares", () => {
  const types = readFileSync(new URL("../../dist/index.d.ts", import.meta.url), "utf8");
  for (const [, name, body] of types.matchAll(/^export declare class (\w+)[^{]*\{\n([\s\S]*?)\n\}/gm)) {
    const methods = [...body.matchAll(/^ {4}(?!static )(\w+)\(/gm)].map((m) => m[1]);
    const props = [...body.matchAll(/^ {4}readonly (\w+)/gm)].map((m) => m[1]);
    const statics = [...new Set([...body.matchAll(/^ {4}static (\w+)\(/gm)].map((m) => m[1]))];
    const proto = tp[name].prototype;
    const own = Object.getOwnPropertyNames(proto).filter((k) => k !== "constructor");
    assert.deepEqual(own.filter((k) => !methods.includes(k) && !props.includes(k)), [], `${name}: undeclared members`);
    for (const m of methods) assert.equal(typeof proto[m], "function", `${name}.${m}`);
    const ownStatics = Object.getOwnPropertyNames(tp[name]).filter((k) => !["length", "name", "prototype"].includes(k) && !k.startsWith("__"));
    assert.deepEqual(ownStatics.sort(), statics.sort(), `${name}: statics`);
  }
});

test("instances show only their declared fields (the wasm pointer is not enumerable)", () => {
  const policy = new tp.ToolCallPolicy({ name: "p", match: () => true, redirectTo: "b" });
  assert.deepEqual(Object.keys(policy), ["name", "match", "whenTool", "redirectTo", "model", "argsTransform", "guard"]);
  assert.deepEqual(JSON.parse(JSON.stringify(new tp.ToolRouter({ registered: ["a"] }))), { registered: ["a"], unavailable: { kind: "unavailable", missing: ["procedural-layer"] } });
  assert.deepEqual(Object.keys(new tp.ToolIndex([{ name: "a" }])), []);
});
