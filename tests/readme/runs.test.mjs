// The READMEs' Runs snippet, run as written (issue 39, item 11): a "deferred" run whose
// requests tool-palette/providers builds, sent by the official Anthropic SDK to a local
// server (127.0.0.1) that answers as the Messages API does. The TypeScript is only
// transpiled (its types are checked by readme.test.mjs); its imports are bound to the
// built package (dist/) and the SDK, every other line runs unchanged. It shows how the
// providers' own search tool fits a run (not registered, not pinned), where the reveal goes
// (after the turn's user message), and that what the model's own search found is offered
// at the turn's next model call.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { runSnippet } from "../frameworks/snippets.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const DIST = process.env.TOOL_PALETTE_PACKAGE_DIR || join(ROOT, "dist");
const SNIPPETS = {
  "README.md": "// A run: one conversation, routed with its history, each step kept for the prompt cache",
  "pkg-template/README.md": "// A run in the package README: routed with its history, each step kept for the prompt cache",
};

const TOOLS = [
  { name: "ls", description: "List the entries of a folder", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "cd", description: "Change the working folder", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "cat", description: "Print a file", parameters: { type: "object", properties: { file: { type: "string" } } } },
  { name: "sort", description: "Sort the lines of a text" },
];

let server, modules;
const bodies = [];
// The model: first it searches for a tool ("print a file"), then it answers in text.
const replies = [
  { content: [{ type: "tool_use", id: "toolu_9", name: "tool_search", input: { query: "print a file" } }], stop_reason: "tool_use" },
  { content: [{ type: "text", text: "done" }], stop_reason: "end_turn" },
];

before(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      bodies.push(JSON.parse(text));
      const reply = replies[(bodies.length - 1) % replies.length];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `msg_${bodies.length}`, type: "message", role: "assistant", model: "m", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 }, ...reply }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  // `new Anthropic()` as written: its key and address from the environment.
  process.env.ANTHROPIC_API_KEY = "test";
  process.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${server.address().port}`;
  modules = {
    "tool-palette": await import(pathToFileURL(join(DIST, "node.mjs")).href),
    "tool-palette/providers": await import(pathToFileURL(join(DIST, "adapters", "providers.js")).href),
    "@anthropic-ai/sdk": await import("@anthropic-ai/sdk"),
  };
});
after(() => server?.close());

function snippet(file, first) {
  const text = readFileSync(join(ROOT, file), "utf8");
  const start = text.indexOf("```ts\n" + first + "\n");
  assert.ok(start >= 0, `${file} has the Runs snippet`);
  const code = text.slice(start + 6, text.indexOf("```\n", start + 6));
  return ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
}

for (const [file, first] of Object.entries(SNIPPETS)) {
  test(`${file}: the Runs snippet runs as written: the providers' search tool fits the run, the reveal follows the turn's message, the search's finds are offered at the next call`, async () => {
    bodies.length = 0;
    const declared = await runSnippet(snippet(file, first), { tools: TOOLS, message: "list the entries", model: "m" }, modules);
    assert.equal(bodies.length, 2, "two requests: the turn, and the model's call after its search");
    const [firstBody, secondBody] = bodies;
    // One search tool, the request's own; every tool of yours deferred.
    assert.deepEqual(firstBody.tools.map((t) => [t.name, t.defer_loading ?? false]), [["tool_search", false], ...TOOLS.map((t) => [t.name, true])]);
    // The turn's message first, then the reveal of what routing found ("ls").
    assert.deepEqual(firstBody.messages, [
      { role: "user", content: "list the entries" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_palette_reveal_1", name: "tool_search", input: { query: "ls" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_palette_reveal_1", content: [{ type: "tool_reference", tool_name: "ls" }] }] },
    ]);
    // The model's own search, answered from the index; the next step offers what it found, without revealing it again.
    assert.deepEqual(declared.found, [{ type: "tool_result", tool_use_id: "toolu_9", content: [{ type: "tool_reference", tool_name: "cat" }] }]);
    assert.deepEqual([declared.step.step, [...declared.step.offered], [...declared.step.revealed], declared.step.kept], [2, ["ls", "cat"], [], true]);
    // The same prefix (tools, then the history), the search's answer after it.
    assert.deepEqual(secondBody.tools, firstBody.tools);
    assert.deepEqual(secondBody.messages.slice(0, 3), firstBody.messages);
    assert.deepEqual(secondBody.messages.slice(3), [
      { role: "assistant", content: replies[0].content },
      { role: "user", content: declared.found },
    ]);
    assert.equal(declared.reply.content[0].text, "done");
  });
}
