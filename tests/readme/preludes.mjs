// The free variables of the README code blocks that import tool-palette, declared per
// block (keyed by the block's first line) so that each block compiles as written: the
// snippets stay as users read them, and these declarations say what the snippet assumes
// the reader has. A block whose first line has no entry here fails the test, naming it.
// Frameworks' own names come from the frameworks (installed as devDependencies).

// The user's tools, store and models, as the README's prose describes them.
const USER = `
interface Skill { tool: string; content?: string }
declare const skills: { search(query: string): Promise<Skill[]> };
declare const tools: Record<string, { description: string; execute?: (args: unknown) => unknown }>;
declare const userMessage: string;
`;

// The policy snippet's context and model: what its match/guard/argsTransform read.
const POLICY = `
interface Model { id: string }
declare const cheapModel: Model;
declare const modelResolver: (ctx: Ctx) => Model;
declare const onToolCallDispatch: (event: unknown) => void;
declare const onWarning: (warning: Error) => void;
declare const tools: Record<string, unknown>;
declare const ctx: Ctx;
declare const emitted: { name: string; args: { q: string }; id: string };
declare const outcome: import("tool-palette").RouterOutcome;
`;

// What the framework snippets take from the application: a router and policies built as
// the README's earlier sections show, and the framework's model and tools.
const ADAPTER = `
import { ToolRouter, ToolPolicies } from "tool-palette";
declare const router: ToolRouter;
declare const policies: ToolPolicies<{ message: string }>;
declare const message: string;
`;

// The MCP snippets: two connected clients of the official SDK, and policies.
const MCP = `
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolPolicies } from "tool-palette";
declare const github: Client;
declare const files: Client;
declare const policies: ToolPolicies<{ message: string }>;
declare const message: string;
`;

export const PRELUDES = {
  // README.md, "Skills": the host's tool names, and the conversation it keeps.
  "// Skills from a folder, routed per turn, their instructions revealed once": `
declare const registered: string[];
declare const message: string;
declare const history: string[];
declare const messages: { role: "user" | "assistant"; content: string }[];
`,
  // pkg-template/README.md, "Tool search": tools as an array of definitions.
  'import { ToolIndex, ToolRouter } from "tool-palette";': `
declare const tools: { name: string; description: string; parameters: object }[];
declare const message: string;
`,
  // pkg-template/README.md, "Tool search": why a tool was picked.
  "// Why was this tool picked? (four tools: get_weather, send_email, sqlQuery, calendar.create-event)": `
declare const tools: { name: string; description: string; parameters: object }[];
`,
  // pkg-template/README.md, "Hybrid ranking" and "Snapshots": the host's embeddings.
  "// Hybrid tool search: embeddings from an OpenAI-compatible API": `
declare const tools: { name: string; description: string; parameters: object }[];
declare const apiKey: string;
`,
  '// Hybrid tool search in the browser: transformers.js (pipeline from "@huggingface/transformers")': `
declare const tools: { name: string; description: string; parameters: object }[];
declare const message: string;
// The part of @huggingface/transformers the snippet uses.
declare function pipeline(task: "feature-extraction", model: string): Promise<(text: string, options: { pooling: "mean"; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>>;
`,
  "// Hybrid tool search in a Cloudflare Worker: Workers AI embeddings, the index kept in KV": `
declare const tools: { name: string; description: string; parameters: object }[];
`,
  "// A snapshot streamed into the module: from fetch, or a Worker's R2 or KV binding": "",
  "// A run kept beside its conversation, and restored in the next request": "",
  // pkg-template/README.md, "Agent frameworks": routing by tool search with the AI SDK's toolSearch.
  "// The AI SDK's tool search, ranked and routed by tool-palette: tools declared with deferLoading: true wait for it": `
import type { LanguageModel, Tool } from "ai";
declare const tools: Record<string, Tool>;
declare const model: LanguageModel;
declare const prompt: string;
`,
  // pkg-template/README.md, the opening example.
  'import { resolvePalette, activeTools } from "tool-palette";': USER,
  // README.md, Usage.
  'import { ToolRouter, ToolPolicies, activeTools } from "tool-palette";': `
declare const skills: { search(query: string): Promise<string[]> };
declare const tools: Record<string, unknown>;
declare const cheap: { id: string };
declare const userMessage: string;
declare function callModel(model: unknown, tools: string[] | undefined): Promise<{ toolCall: { name: string; args: unknown; id: string } }>;
`,
  // pkg-template/README.md, the routing capability.
  'import { ToolRouter, bindPalette } from "tool-palette";': `
declare const entries: (ctx: { message: string }) => Promise<string[]>;
declare const tools: Record<string, { description: string }>;
declare const signal: AbortSignal;
declare const message: string;
`,
  // pkg-template/README.md, policies.
  'import { ToolCallPolicy, ToolPolicies } from "tool-palette";': POLICY,
  // The agent frameworks (both READMEs).
  "// Vercel AI SDK (ai 7)": `${ADAPTER}
import { generateText, stepCountIs, tool, type LanguageModel } from "ai";
import { z } from "zod";
declare const model: LanguageModel;
declare const prompt: string;
const tools = { web_search: tool({ description: "search the web", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q }) };
`,
  // pkg-template/README.md, "Skills and saved runs in the framework adapters": the skills' texts, the conversation's store.
  "// Skills and saved runs in an adapter: one adapter per conversation, its run kept beside it": `${ADAPTER}
import { generateText, stepCountIs, tool, type LanguageModel, type ModelMessage } from "ai";
import { z } from "zod";
declare const model: LanguageModel;
declare const messages: ModelMessage[];
declare const skillTexts: string[];
declare const conversationId: string;
declare const store: { get(id: string): Promise<string | null>; put(id: string, saved: string): Promise<void> };
const tools = { web_search: tool({ description: "search the web", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => q }) };
`,
  "// OpenAI Agents SDK (@openai/agents)": `${ADAPTER}
import { Agent, run, tool, type Model } from "@openai/agents";
import { z } from "zod";
declare const defaultModel: Model;
const tools = [tool({ name: "web_search", description: "search the web", parameters: z.object({ q: z.string() }), execute: async ({ q }) => q })];
`,
  "// LangChain.js v1 (langchain)": `${ADAPTER}
import { createAgent, tool } from "langchain";
import { HumanMessage } from "@langchain/core/messages";
import { z } from "zod";
declare const model: string;
const tools = [tool(async ({ q }: { q: string }) => q, { name: "web_search", description: "search the web", schema: z.object({ q: z.string() }) })];
`,
  // MCP (both READMEs): the clients the user connected, and the policies.
  "// MCP: one palette over the clients you connected (Client from @modelcontextprotocol/sdk)": `${MCP}
declare const toolCall: { name: string; arguments: Record<string, unknown> };
`,
  "// MCP with the Vercel AI SDK (ai 7)": `${MCP}
import { generateText, stepCountIs, type LanguageModel } from "ai";
declare const model: LanguageModel;
declare const prompt: string;
`,
  "// MCP with the OpenAI Agents SDK (@openai/agents)": `${MCP}
import { Agent, run, type Model } from "@openai/agents";
declare const defaultModel: Model;
`,
  "// MCP with LangChain.js v1 (langchain)": `${MCP}
import { createAgent, tool } from "langchain";
import { HumanMessage } from "@langchain/core/messages";
declare const model: string;
`,
  // pkg-template/README.md, Bundlers and runtimes: tool-palette/init, and the CSP example.
  'import { ready, ToolRouter } from "tool-palette/init";': "",
  "try {": "",
  "// A run in the package README: routed with its history, each step kept for the prompt cache": `
declare const tools: { name: string; description: string; namespace?: string }[];
declare const message: string;
declare const model: string;
`,
  "// Skills: route each turn by the relevant skills, and give the model their instructions once": `
declare const texts: [string, string][];
declare const toolNames: string[];
declare const message: string;
declare const history: string[];
declare const instructions: string[];
`,
  "// Providers: each step's tools list, for the OpenAI SDK": `
import type { RouterOutcome } from "tool-palette";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
declare const definitions: { name: string; description: string; parameters: { type: "object"; properties: Record<string, unknown> } }[];
declare const outcome: RouterOutcome;
declare const messages: ChatCompletionMessageParam[];
`,
  // pkg-template/README.md, Snapshots: shipping a snapshot to a Worker (the Worker blocks run as written in
  // tests/packaging/snapshots.test.mjs; "*.snapshot" is declared as the README says, in modules.d.ts).
  "// build-snapshot.mjs: run before `wrangler deploy` (e.g. as \"predeploy\" in package.json)": `/// <reference types="node" />
declare const tools: { name: string; description: string; parameters: object }[];
`,
  '// A snapshot shipped in the Worker as a Data module; wrangler.jsonc: "rules": [{ "type": "Data", "globs": ["**/*.snapshot"] }]': "",
  '// The same snapshot as a static asset, streamed in from its Response; wrangler.jsonc: "assets": { "directory": "./public", "binding": "ASSETS" }': "",
  "// A run: one conversation, routed with its history, each step kept for the prompt cache": `
declare const tools: { name: string; description: string; namespace?: string }[];
declare const message: string;
declare const model: string;
`,
};
