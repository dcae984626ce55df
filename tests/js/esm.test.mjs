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

const entry = new URL("../../dist/node.mjs", import.meta.url).pathname;
routing(tp);
router(tp, { entry, format: "esm" });
policies(tp);
decisions(tp);
toolIndex(tp);

// The published types declare exactly the values the entry exports: no export without its
// declaration, no declaration of something the package does not export (wasm-bindgen's
// own, such as its start function).
test("index.d.ts declares exactly the entry's exports", () => {
  const types = readFileSync(new URL("../../dist/index.d.ts", import.meta.url), "utf8");
  const declared = [...types.matchAll(/^export (?:declare )?(?:function|class|const|let|var) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(tp).sort());
});
