import { Agent, Usage, run, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
setTracingDisabled(true);
export const fakeModel = (name, script, seen, delay = 0) => ({
  name,
  async getResponse(request) {
    seen?.push(request.tools.map((t) => t.name));
    if (delay) await delay();
    return { usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }), output: script.shift(), responseId: `${name}-${Math.random()}` };
  },
  async *getStreamedResponse() { throw new Error("no stream"); },
});
export const callTool = (name, args, id) => [{ type: "function_call", callId: id ?? `call-${name}`, name, arguments: JSON.stringify(args), status: "completed" }];
export const say = (text) => [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }];
export const mkTools = (names, ran) => names.map((n) => tool({ name: n, description: n, parameters: z.object({ q: z.string() }), execute: async (i) => (ran.push([n, i]), `${n} ran`) }));
export { Agent, run, tool, z };
