// The shapes of tool-palette/providers passed straight into the official SDKs' requests: strict
// TypeScript must accept them against the SDKs' own parameter types.
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { FunctionCallingConfigMode, GoogleGenAI } from "@google/genai";
import { PaletteRun, ToolIndex, type RouterOutcome } from "tool-palette";
import {
  anthropicMessages,
  anthropicReveal,
  answerAnthropicToolSearch,
  answerOpenaiToolSearch,
  geminiConfig,
  openaiChat,
  openaiResponses,
  openaiResponsesReveal,
  type ToolDefinition,
} from "tool-palette/providers";

declare const outcome: RouterOutcome;
const tools: ToolDefinition[] = [{ name: "ls", description: "List files", parameters: { type: "object", properties: {} } }];
const record = { ls: { description: "List files" } };
const step = new PaletteRun({ registered: ["ls"], cache: "fixed" }).step(outcome);
const index = new ToolIndex(tools);

export async function requests(openai: OpenAI, anthropic: Anthropic, ai: GoogleGenAI) {
  await openai.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], ...openaiChat(step, tools) });
  const response = await openai.responses.create({ model: "gpt-5", input: [{ role: "user", content: "hi" }, ...openaiResponsesReveal(step, tools)], ...openaiResponses(step, record) });
  for (const item of response.output) {
    if (item.type === "tool_search_call") {
      await openai.responses.create({ model: "gpt-5", input: [item, answerOpenaiToolSearch(item, { step, index, tools })], ...openaiResponses(step, tools) });
    }
  }
  const message = await anthropic.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: "hi" }, ...anthropicReveal(step, tools)],
    ...anthropicMessages(step, tools, { search: { name: "find_tools" } }),
  });
  for (const block of message.content) {
    if (block.type === "tool_use") {
      await anthropic.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 1024,
        messages: [{ role: "assistant", content: [block] }, { role: "user", content: [answerAnthropicToolSearch(block, { step, index, tools })] }],
        ...anthropicMessages(step, tools),
      });
    }
  }
  await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { ...geminiConfig(step, tools, { mode: FunctionCallingConfigMode.VALIDATED }) } });
  await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: geminiConfig(step, record, { mode: FunctionCallingConfigMode.ANY }) });
}
