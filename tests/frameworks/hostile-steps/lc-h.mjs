import { AIMessage, HumanMessage, createAgent, tool } from "langchain";
import { FakeBuiltModel } from "@langchain/core/testing";
import { z } from "zod";
export function fakeModel(script, seen, gate) {
  const model = new (class extends FakeBuiltModel {
    bindTools(tools) { seen?.push(tools.map((t) => t.name ?? t.function?.name)); return super.bindTools(tools); }
  })();
  script.forEach((answer, i) => model.respond(typeof answer === "string" ? new AIMessage({ content: answer, id: `m-${Math.random()}` }) : new AIMessage({ content: "", id: `m-${Math.random()}`, tool_calls: [{ ...answer, id: answer.id ?? `call-${i}`, type: "tool_call" }] })));
  return model;
}
export const mkTools = (names, ran) => names.map((n) => tool(async (i) => (ran.push([n, i]), `${n} ran`), { name: n, description: n, schema: z.object({ q: z.string() }) }));
export { AIMessage, HumanMessage, createAgent, tool, z };
