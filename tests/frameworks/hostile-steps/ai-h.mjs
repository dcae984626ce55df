import { generateText, streamText, tool, stepCountIs, jsonSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
export const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
export const callResp = (calls) => ({ content: calls.map(([toolName, input, id]) => ({ type: "tool-call", toolCallId: id ?? "c-" + toolName + Math.random(), toolName, input: JSON.stringify(input) })), finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] });
export const textResp = (t = "done") => ({ content: [{ type: "text", text: t }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] });
export function scripted(script, seen) {
  let n = 0;
  return new MockLanguageModelV3({ doGenerate: async (opts) => { seen?.push((opts.tools ?? []).map((t) => t.name)); const s = script[n++]; return typeof s === "function" ? s(opts) : s ?? textResp(); } });
}
export const mkTools = (names, ran, schema) => Object.fromEntries(names.map((n) => [n, tool({ description: "tool " + n, inputSchema: jsonSchema(schema ?? { type: "object", properties: { q: { type: "string" } } }), execute: async (i) => { ran.push([n, i]); return n + " ran"; } })]));
export { generateText, streamText, stepCountIs, tool, jsonSchema };
