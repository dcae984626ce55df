// The consumer project the framework tests run in: the PACKED package (npm pack dist/)
// installed beside the frameworks, pinned to the exact versions of the root
// package.json's devDependencies (one source of truth for the examples and the tests).
//
// Cached in target/frameworks-consumer/ and reused while the tarball and the pins are
// the same; a fresh machine (or a changed build) installs again. Test files run in
// parallel processes, so the setup is guarded by a lock directory.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

export const root = new URL("../..", import.meta.url).pathname;
const dist = join(root, "dist");
export const dir = join(root, "target", "frameworks-consumer");

// The frameworks and their exact pins, read from the root devDependencies.
// The providers' SDKs are for tests/providers/ (tool-palette/providers against their requests and types).
export const FRAMEWORKS = ["ai", "@openai/agents", "langchain", "@langchain/core", "zod", "@modelcontextprotocol/sdk", "openai", "@anthropic-ai/sdk", "@google/genai"];
export function pins() {
  const dev = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies ?? {};
  return FRAMEWORKS.map((name) => {
    const version = dev[name];
    if (!/^\d+\.\d+\.\d+/.test(version ?? "")) throw new Error(`root package.json must pin ${name} to an exact version (devDependencies), got ${version}`);
    return `${name}@${version}`;
  });
}

const npm = (args, cwd) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });

async function withLock(fn) {
  const lock = join(root, "target", "frameworks-consumer.lock");
  mkdirSync(join(root, "target"), { recursive: true });
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      // A lock older than 5 minutes was left by a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

let ready;
/** Packs dist/, installs it and the frameworks into the consumer (when needed); returns the consumer. */
export function consumer() {
  return (ready ??= withLock(setup));
}

async function setup() {
  if (!existsSync(join(dist, "package.json"))) throw new Error("dist/ is not built: run `npm run build` first");
  mkdirSync(dir, { recursive: true });
  // Pack into a scratch folder, then name the tarball by its content hash so that npm
  // never reuses a stale copy of a tarball of the same name.
  const scratch = join(dir, "pack");
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  const packed = JSON.parse(npm(["pack", dist, "--json", "--pack-destination", scratch], root))[0];
  const bytes = readFileSync(join(scratch, packed.filename));
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const tarball = `tool-palette-${hash}.tgz`;
  const wanted = [`./${tarball}`, ...pins()];
  const stamp = join(dir, "installed.json");
  const installed = existsSync(stamp) ? readFileSync(stamp, "utf8") : "";
  if (installed !== JSON.stringify(wanted) || !existsSync(join(dir, "node_modules", "tool-palette"))) {
    for (const f of readdirSync(dir)) if (/^tool-palette-.*\.tgz$/.test(f)) rmSync(join(dir, f));
    writeFileSync(join(dir, tarball), bytes);
    if (!existsSync(join(dir, "package.json"))) {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tool-palette-framework-consumer", private: true, type: "module" }, null, 2));
    }
    npm(["install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", ...wanted], dir);
    writeFileSync(stamp, JSON.stringify(wanted));
  }
  rmSync(scratch, { recursive: true, force: true });
  // import() written inside the consumer resolves there: its node_modules, the exports
  // map with the "import" condition, exactly as the consumer's own code would.
  writeFileSync(join(dir, "load.mjs"), "export const load = (specifier) => import(specifier);\n");
  const { load } = await import(pathToFileURL(join(dir, "load.mjs")).href);
  return { dir, load, require: createRequire(join(dir, "package.json")) };
}
