// The refusal reasons the READMEs quote are the core's, word for word (src/js/wire.js is
// generated from src/routing.rs; NAME and N stand for the parts a turn fills in): a change
// of wording in the core fails here until the READMEs say the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { REASONS } from "../../src/js/wire.js";

const ROOT = new URL("../..", import.meta.url);
const reasons = REASONS.map(([before, after], i) => `${before}${i === 1 ? "NAME" : i === 2 ? "N" : ""}${after}`);

for (const file of ["README.md", "pkg-template/README.md", "docs/SPEC.md"]) {
  test(`${file}: every refusal reason it quotes is the core's`, () => {
    const text = readFileSync(new URL(file, ROOT), "utf8");
    const quoted = [...text.matchAll(/`([^`\n]*allowing all tools)`/g)].map((m) => m[1]);
    assert.ok(quoted.length > 0, "it quotes refusal reasons");
    for (const q of quoted) assert.ok(reasons.includes(q), `${q} is not one of the core's reasons: ${reasons.join(" | ")}`);
  });
}

test("the README's refusal table lists the six reasons, in the rules' order", () => {
  const text = readFileSync(new URL("README.md", ROOT), "utf8");
  const table = text.slice(text.indexOf("## Refusals"), text.indexOf("## The layout"));
  const rows = [...table.matchAll(/^\| (\w+) \|.*\| `([^`]+)` \|$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, [["1", reasons[0]], ["2a", reasons[1]], ["2b", reasons[2]], ["3", reasons[3]], ["4", reasons[4]], ["5", reasons[5]]]);
});
