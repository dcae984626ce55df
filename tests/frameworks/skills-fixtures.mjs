// Skills (SPEC 9) in the framework adapters: the SKILL.md texts of the scenario, and one driver per
// framework that plays a conversation in that framework's own loop and records what the model was
// sent at each model call (the names of its tools, and its messages as [role, text]). Shared by
// skills.test.mjs and saved-runs.test.mjs (whose child process plays the second turn in a new process).
import { aiText, aiToolCall } from "./fixtures.mjs";

export const SKILLS = [
  "---\nname: sales-report\ndescription: Report monthly sales figures from the revenue database.\nallowed-tools: sql_query\n---\nRun SQL against the sales table; group by month.\n",
  "---\nname: scheduling\ndescription: Book meetings in the calendar and email the invitations.\nallowed-tools: [calendar, send_email]\n---\nCheck the calendar first, then email each guest.\n",
  "---\nname: house-style\ndescription: How every answer about invoices is worded.\n---\nQuote invoice numbers in full.\n",
];
/** The instructions the adapters give the model for a skill of SKILLS (the kernel's element around its body). */
export const instructionsOf = (name, body) => `<skill name=${JSON.stringify(name)}>\n${body}\n</skill>`;
export const SALES_SKILL = instructionsOf("sales-report", "Run SQL against the sales table; group by month.\n");
export const SCHEDULING_SKILL = instructionsOf("scheduling", "Check the calendar first, then email each guest.\n");
export const TOOL_NAMES = ["web_search", "sql_query", "calendar", "send_email"];
export const SALES = "What were our monthly sales figures?";
export const MEETING = "Book a meeting in the calendar with the team and email the invitations.";

// One model call as [role, text] pairs: a text message's text, or the kind of a call or result and its tool.
const flat = (role, content) => [role, typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p.type === "text" ? p.text : `${p.type}:${p.toolName ?? ""}`)).join("|") : ""];

/**
 * The drivers: `play(palette, turns)` plays the conversation's `turns` (each: { message, answers, palette?, after? }) with the
 * adapter instance `palette` (built by `make(options)`), each turn's history being the earlier turns' messages as
 * the framework hands them back; answers: [tool, args] for a call, a string for text; a turn's own `palette` (another
 * instance, e.g. restored from a saved run) plays that turn, and `after()` is called once it is over. Returns
 * `{ sent: [{ tools, messages }], executed, outputs }`, one `sent` per model call.
 */
export function drivers(m) {
  const { ai, mock, z, agents, lc, testing } = m;
  let executed;
  return {
    "ai-sdk": {
      make: (options) => m.aiSdk.createToolPalette(options),
      async play(palette, turns) {
        const sent = [], outputs = [];
        executed = [];
        const tool = (name) => ai.tool({ description: name, inputSchema: z.object({ q: z.string().optional() }), execute: async (input) => (executed.push([name, input]), `${name} result`) });
        let messages = [];
        let n = 0;
        for (const { message, answers, palette: own, after } of turns) {
          const model = new mock.MockLanguageModelV3({ modelId: "m", doGenerate: answers.map((a) => (typeof a === "string" ? aiText(a) : aiToolCall(a[0], a[1], `call-${n++}`))) });
          messages = [...messages, { role: "user", content: message }];
          const result = await ai.generateText({ model, messages, tools: (own ?? palette).wrapTools(Object.fromEntries(TOOL_NAMES.map((t) => [t, tool(t)]))), prepareStep: (own ?? palette).prepareStep, stopWhen: ai.stepCountIs(6) });
          for (const call of model.doGenerateCalls) sent.push({ tools: (call.tools ?? []).map((t) => t.name), messages: call.prompt.map((p) => flat(p.role, p.content)) });
          messages = [...messages, ...result.responseMessages];
          outputs.push(result.steps.flatMap((s) => s.toolResults.map((r) => [r.toolName, r.output])));
          after?.();
        }
        return { sent, executed, outputs };
      },
    },
    "openai-agents": {
      make: (options) => m.openaiAgents.createToolPalette(options),
      async play(palette, turns) {
        const sent = [], outputs = [];
        executed = [];
        const tool = (name) => agents.tool({ name, description: name, parameters: z.object({ q: z.string() }), execute: async (input) => (executed.push([name, input]), `${name} result`) });
        let history = [];
        let n = 0;
        for (const { message, answers, palette: own, after } of turns) {
          const script = answers.map((a) => (typeof a === "string" ? [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: a }] }] : [{ type: "function_call", callId: `call-${n++}`, name: a[0], arguments: JSON.stringify(a[1]), status: "completed" }]));
          const model = {
            async getResponse(request) {
              sent.push({ tools: request.tools.map((t) => t.name), messages: (typeof request.input === "string" ? [{ role: "user", content: request.input }] : request.input).map((i) => (i.role ? flat(i.role, i.content) : [i.type, i.name ?? i.callId ?? ""])) });
              return { usage: new agents.Usage({ requests: 1, inputTokens: 3, outputTokens: 2, totalTokens: 5 }), output: script.shift(), responseId: `r-${sent.length}` };
            },
          };
          const agent = new agents.Agent({ name: "analyst", instructions: "Answer.", model: (own ?? palette).model(model), tools: (own ?? palette).tools(TOOL_NAMES.map(tool)) });
          const result = await agents.run(agent, [...history, { role: "user", content: message }]);
          history = result.history;
          outputs.push(result.newItems.filter((i) => i.type === "tool_call_output_item").map((i) => [i.rawItem.name, i.output]));
          after?.();
        }
        return { sent, executed, outputs };
      },
    },
    langchain: {
      make: (options) => m.langchain.toolPaletteMiddleware(options),
      async play(middleware, turns) {
        const sent = [], outputs = [];
        executed = [];
        const tool = (name) => lc.tool(async (input) => (executed.push([name, input]), `${name} result`), { name, description: name, schema: z.object({ q: z.string().optional() }) });
        let messages = [];
        let n = 0;
        for (const { message, answers, palette: own, after } of turns) {
          const model = new (class extends testing.FakeBuiltModel {
            bindTools(tools) {
              (this.offered ??= []).push(tools.map((t) => t.name ?? t.function?.name));
              return super.bindTools(tools);
            }
          })();
          for (const a of answers) {
            const id = `ai-${n++}`;
            model.respond(typeof a === "string" ? new lc.AIMessage({ content: a, id }) : new lc.AIMessage({ content: "", id, tool_calls: [{ name: a[0], args: a[1], id: `call-${id}`, type: "tool_call" }] }));
          }
          const agent = lc.createAgent({ model, tools: TOOL_NAMES.map(tool), middleware: [own ?? middleware] });
          const result = await agent.invoke({ messages: [...messages, new lc.HumanMessage(message)] });
          sent.push(...model.calls.map((call, i) => ({ tools: model.offered[i], messages: call.messages.map((x) => flat(roleOf(x), x.content)) })));
          outputs.push(result.messages.slice(messages.length).filter((x) => x._getType() === "tool").map((x) => [x.name, x.content]));
          messages = result.messages;
          after?.();
        }
        return { sent, executed, outputs };
      },
    },
  };
}

// LangChain's message types as the roles the other frameworks use.
const roleOf = (message) => ({ human: "user", ai: "assistant", tool: "tool", system: "system" })[message._getType()] ?? message._getType();

/** The frameworks and the adapters, loaded in the consumer project (`load`: its import()). */
export async function loadAll(load) {
  const agents = await load("@openai/agents");
  agents.setTracingDisabled(true);
  return {
    ai: await load("ai"),
    mock: await load("ai/test"),
    z: (await load("zod")).z,
    agents,
    lc: await load("langchain"),
    testing: await load("@langchain/core/testing"),
    core: await load("tool-palette"),
    aiSdk: await load("tool-palette/ai-sdk"),
    openaiAgents: await load("tool-palette/openai-agents"),
    langchain: await load("tool-palette/langchain"),
  };
}
