// tool-palette/node: what only Node.js (and Deno and Bun, through node:fs) does for the
// package. readSkills loads a folder of Agent Skills (SPEC 9) laid out as
// <dir>/<name>/SKILL.md, the layout of .claude/skills and .agents/skills, in one call.
//
// It reads and waits; the package decides: each SKILL.md goes to parseSkill with its path
// (so the folder is checked against the skill's name, and every error names the file).
// One plan (`load`, a generator) is driven by node:fs's promises or by its sync calls, so
// readSkills and readSkillsSync cannot drift apart.
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSkill } from "tool-palette";

const FILE = "SKILL.md";
// A file larger than this is refused unread: the package reads texts of at most 8,388,608
// UTF-16 code units, at most 3 bytes of UTF-8 each (tests/packaging holds the two in step).
const MAX_BYTES = 32 * 1024 * 1024;
// O_NONBLOCK: a named pipe called SKILL.md opens at once (and is refused as no file)
// instead of waiting for a writer. Windows has no such flag, nor such pipes.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
// Files read at once by readSkills (a folder of thousands stays under the process's limit).
const AT_ONCE = 16;

const describe = (v) => (v === null ? "null" : typeof v !== "object" ? typeof v : Array.isArray(v) ? "an array" : "an object");
const mustBe = (where, what, v) => new TypeError(`${where} must be ${what}, got ${describe(v)}${typeof v === "number" ? ` (${v})` : ""}`);

// A caller's field, read once: what its getter or proxy throws is a TypeError naming it
// (the stack running out passes on as it is, as in the package's own readers).
function get(object, key, where) {
  try {
    return object?.[key];
  } catch (cause) {
    if (cause instanceof RangeError && String(cause.message).includes("call stack")) throw cause;
    throw new TypeError(`${where} could not be read`, { cause });
  }
}

/** The skills of `<dir>/<name>/SKILL.md`, in the code-unit order of the folders' names. */
export async function readSkills(dir, options) {
  const plan = load("readSkills", dir, options);
  let step = plan.next();
  while (!step.done) {
    const [what, arg] = step.value;
    step = plan.next(what === "list" ? await readdir(arg) : await pool(arg, readOne));
  }
  return step.value;
}

/** readSkills, synchronously. */
export function readSkillsSync(dir, options) {
  const plan = load("readSkillsSync", dir, options);
  let step = plan.next();
  while (!step.done) {
    const [what, arg] = step.value;
    step = plan.next(what === "list" ? readdirSync(arg) : arg.map(readOneSync));
  }
  return step.value;
}

// The plan: the arguments read, the folder listed ("list"), each folder's SKILL.md read
// ("read": null for a folder without one, else its bytes or why not), then each parsed.
function* load(where, dir, options) {
  const path = pathOf(dir, where);
  if (options !== undefined && (typeof options !== "object" || options === null)) throw mustBe(`${where}: options`, "an object", options);
  const onError = get(options, "onError", `${where}: options.onError`);
  if (onError !== undefined && typeof onError !== "function") throw mustBe(`${where}: options.onError`, "a function", onError);
  const names = (yield ["list", path]).slice().sort();
  if (names.includes(FILE)) throw new TypeError(`${where}: dir (${path}) holds a ${FILE} itself: pass the folder that holds the skills' folders, each <name>/${FILE}`);
  const files = names.map((name) => join(path, name, FILE));
  const read = yield ["read", files];
  const skills = [];
  for (let i = 0; i < files.length; i++) {
    if (read[i] === null) continue;
    try {
      if (read[i].error) throw read[i].error;
      skills.push(parse(read[i].bytes, files[i]));
    } catch (error) {
      if (!onError) throw error;
      onError(error, files[i]);
    }
  }
  return Object.freeze(skills);
}

function pathOf(dir, where) {
  if (typeof dir === "string" && dir !== "") return dir;
  // A URL (of any realm): read by its href.
  const href = typeof dir === "object" && dir !== null ? get(dir, "href", `${where}: dir.href`) : undefined;
  if (typeof href === "string") {
    try {
      return fileURLToPath(href);
    } catch (cause) {
      throw new TypeError(`${where}: dir must be a path or a file: URL, got the URL ${href}`, { cause });
    }
  }
  throw mustBe(`${where}: dir`, "a path (a non-empty string) or a file: URL", dir);
}

// A folder's SKILL.md: null when there is none (nothing at that path, or the entry is no
// folder); else its bytes, or the error that says why they cannot be read.
async function readOne(file) {
  let handle;
  try {
    handle = await open(file, FLAGS);
  } catch (error) {
    return absent(error) ? null : { error };
  }
  try {
    const refused = check(await handle.stat(), file);
    return refused ? { error: refused } : { bytes: await handle.readFile() };
  } catch (error) {
    return { error };
  } finally {
    await handle.close();
  }
}

function readOneSync(file) {
  let fd;
  try {
    fd = openSync(file, FLAGS);
  } catch (error) {
    return absent(error) ? null : { error };
  }
  try {
    const refused = check(fstatSync(fd), file);
    return refused ? { error: refused } : { bytes: readFileSync(fd) };
  } catch (error) {
    return { error };
  } finally {
    closeSync(fd);
  }
}

const absent = (error) => error?.code === "ENOENT" || error?.code === "ENOTDIR";

function check(info, file) {
  if (!info.isFile()) return new Error(`${file} is not a file (a folder, a pipe or a device): a skill's ${FILE} is a file`);
  if (info.size > MAX_BYTES) return new RangeError(`${file} is ${info.size} bytes: too large for a ${FILE} (refused unread above ${MAX_BYTES} bytes)`);
  return undefined;
}

// `f` over `items`, at most AT_ONCE at a time, the answers in order.
async function pool(items, f) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  return out;
}

// UTF-8 only (a leading BOM dropped): other bytes are a SyntaxError naming the line and
// offset of the first that is not UTF-8, never a guess with U+FFFD in it.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function parse(bytes, file) {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    const at = invalidAt(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    const bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) ? "; it begins with a UTF-16 byte order mark" : "";
    throw new SyntaxError(`${file}: line ${line}: the text is not UTF-8 (byte ${at} is not${bom})`, { cause });
  }
  try {
    return parseSkill(text, { path: file });
  } catch (error) {
    // parseSkill's SyntaxError names the path already; its RangeError (a text too large) does not.
    if (error instanceof RangeError) throw new RangeError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}

// The offset of the first byte that begins no valid UTF-8 sequence (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF).
function invalidAt(b) {
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const [n, lo, hi] = c < 0x80 ? [0] : c >= 0xc2 && c <= 0xdf ? [1, 0x80, 0xbf] : c === 0xe0 ? [2, 0xa0, 0xbf] : c === 0xed ? [2, 0x80, 0x9f] : c >= 0xe1 && c <= 0xef ? [2, 0x80, 0xbf] : c === 0xf0 ? [3, 0x90, 0xbf] : c === 0xf4 ? [3, 0x80, 0x8f] : c >= 0xf1 && c <= 0xf3 ? [3, 0x80, 0xbf] : [-1];
    if (n < 0 || i + n >= b.length) return i;
    if (n > 0) {
      if (b[i + 1] < lo || b[i + 1] > hi) return i;
      for (let k = 2; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    }
    i += n + 1;
  }
  return b.length;
}
