// What the MCP examples share: an MCP server of the official SDK (@modelcontextprotocol/sdk)
// connected to a Client over InMemoryTransport, and tool lists made of verbs × nouns.
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

/** A connected Client of a server whose `tools` ([name, description]) take `{ target }` and answer `answer(tool, target)`. */
export async function server(name, tools, answer) {
  const server = new McpServer({ name, version: "1.0.0" });
  for (const [tool, description] of tools) {
    server.registerTool(tool, { description, inputSchema: { target: z.string() } }, async ({ target }) => ({
      content: [{ type: "text", text: answer(tool, target) }],
    }));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "example", version: "1.0.0" });
  await client.connect(a);
  return client;
}

/** Every verb with every noun: `[verb_noun, "verb a noun what"]`. */
export const cross = (verbs, nouns, what) => verbs.flatMap((v) => nouns.map((n) => [`${v}_${n}`, `${v} a ${n.replace(/_/g, " ")} ${what}`]));
