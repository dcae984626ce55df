// Tool definitions `{ name, description, inputSchema }` in each framework's own shape, calls going to `run(name, args, { id, signal })`: an MCP run's
// tools and an adapter's load_skill tool (SPEC 9). Internal.
import { isObject, put } from "./values.js";

export const NO_TOOL_MATCHES = "No tool matches this query; try other words.";

// The AI SDK's schema brand (a registered symbol): a JSON schema the SDK takes as it is.
export const AI_SCHEMA = Symbol.for("vercel.ai.schema");
const EMPTY = () => ({ type: "object", properties: {} });

/** A record of AI SDK tools keyed by name (own data properties: "__proto__" too). */
export function aiSdkTools(defs, run) {
  const record = {};
  for (const t of defs) {
    const inputSchema = { [AI_SCHEMA]: true, _type: undefined, jsonSchema: t.inputSchema ?? EMPTY(), validate: undefined };
    put(record, t.name, { type: "function", description: t.description ?? "", inputSchema, execute: (input, o) => run(t.name, input, { id: o?.toolCallId, signal: o?.abortSignal }) });
  }
  return record;
}

export function openaiAgentsTools(defs, run, text = (v) => v) {
  return defs.map((t) => ({
    type: "function",
    name: t.name,
    description: t.description ?? "",
    parameters: t.inputSchema ?? EMPTY(),
    strict: false,
    needsApproval: async () => false,
    isEnabled: async () => true,
    invoke: async (_runContext, input, details) => text(await run(t.name, input, { id: details?.toolCall?.callId, signal: details?.signal })),
  }));
}

/** LangChain tools made with the `tool` function of "langchain" the caller passes. */
export function langchainTools(defs, run, tool, text = (v) => v) {
  return defs.map((t) =>
    tool(async (input, config) => text(await run(t.name, input, { id: config?.toolCall?.id, signal: config?.signal })), {
      name: t.name,
      description: t.description ?? "",
      schema: t.inputSchema ?? EMPTY(),
    }),
  );
}

/** A tool result (MCP's CallToolResult) as the text a framework's tool answers: its text parts, other parts as JSON. */
export const resultText = (result) =>
  (isObject(result) && Array.isArray(result.content) ? result.content : []).map((p) => (isObject(p) && p.type === "text" ? p.text : JSON.stringify(p))).join("\n");
