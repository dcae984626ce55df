// An MCP server in a process of its own, spoken to over stdio by tests/frameworks/mcp.test.mjs.
// Run from the framework consumer project (its cwd), whose node_modules hold the SDK.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(join(process.cwd(), "package.json"));
const load = (specifier) => import(pathToFileURL(require.resolve(specifier)).href);
const { McpServer } = await load("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = await load("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = await load("zod");

const server = new McpServer({ name: "weather", version: "1.0.0" });
const city = { city: z.string().describe("the city") };
server.registerTool("get_forecast", { description: "Weather forecast for the next days in a city", inputSchema: city }, async ({ city }) => ({
  content: [{ type: "text", text: `forecast for ${city} from process ${process.pid}` }],
}));
server.registerTool("get_weather", { description: "Current weather conditions in a city", inputSchema: city }, async ({ city }) => ({
  content: [{ type: "text", text: `sunny in ${city}` }],
}));
server.registerTool("air_quality", { description: "Air quality index of a city", inputSchema: city }, async ({ city }) => ({
  content: [{ type: "text", text: `good in ${city}` }],
}));
await server.connect(new StdioServerTransport());
