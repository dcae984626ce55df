// MCP servers for tool-palette/mcp's skills (SPEC 9), built with the official SDK's low-level Server:
// a server that declares the Skills extension (io.modelcontextprotocol/skills) answers `skills/list`,
// `skills/get` and `resources/read` of its `skill://<name>/SKILL.md` resources, and its tools. Every
// request it answers is recorded in `requests` as [method, params]. `hostile` makes one skill lie or fail.
import { createHash } from "node:crypto";
import { connect } from "./mcp-servers.mjs";

export const EXTENSION = "io.modelcontextprotocol/skills";
const frontmatterOf = ({ name, description, tools }) => ({ name, description, ...(tools ? { "allowed-tools": tools.join(" ") } : {}) });
export const skillText = (s) => `---\nname: ${s.name}\ndescription: ${s.description}\n${s.tools ? `allowed-tools: ${s.tools.join(" ")}\n` : ""}---\n${s.body}\n`;
const entryOf = (s, text) => {
  const bytes = Buffer.from(text, "utf8");
  const uri = `skill://${s.name}/SKILL.md`;
  return { uri, frontmatter: frontmatterOf(s), resources: [{ uri, size: bytes.length, digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}` }] };
};

/**
 * A server of `tools` ([name, description]) and `skills` ([{ name, description, tools?, body }]), connected: { client,
 * requests }. `extension: false` declares no extension (and answers no skills/list). `hostile(s, entry, text)` may change
 * what is served for a skill: `{ entry, text, get, failRead, blob }` (`get`: what skills/get answers, default the entry; `blob`: raw
 * bytes served as a blob instead of the text).
 */
export async function skillServer(sdk, z, name, { tools = [], skills = [], extension = true, failList = false, hostile = () => ({}) } = {}) {
  const requests = [];
  const served = new Map(
    skills.map((s) => {
      const text = skillText(s);
      const entry = entryOf(s, text);
      return [entry.uri, { entry, text, get: entry, ...hostile(s, entry, text) }];
    }),
  );
  const capabilities = { tools: {}, resources: {}, ...(extension && { extensions: { [EXTENSION]: {} } }) };
  const server = new sdk.Server({ name, version: "1.0.0" }, { capabilities });
  const record = (method) => (request) => (requests.push([method, request.params ?? {}]), request.params ?? {});
  server.setRequestHandler(sdk.ListToolsRequestSchema, async (r) => (record("tools/list")(r), { tools: tools.map(([tool, description]) => ({ name: tool, description, inputSchema: { type: "object", properties: { target: { type: "string" } } } })) }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (r) => (record("tools/call")(r), { content: [{ type: "text", text: `${r.params.name} done on ${name}` }] }));
  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (r) => {
    const { uri } = record("resources/read")(r);
    const s = served.get(uri);
    if (!s) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `no resource ${uri}`);
    if (s.failRead) throw new sdk.McpError(sdk.ErrorCode.InternalError, `${uri} cannot be read`);
    // `blob`: the SKILL.md's raw bytes, sent base64 (a BOM, say).
    return { contents: [{ uri, mimeType: "text/markdown", ...(s.blob ? { blob: Buffer.from(s.blob).toString("base64") } : { text: s.text }) }] };
  });
  if (extension) {
    const params = z.object({ cursor: z.string().optional(), uri: z.string().optional() }).passthrough().optional();
    server.setRequestHandler(z.object({ method: z.literal("skills/list"), params }), async (r) => {
      record("skills/list")(r);
      if (failList) throw new sdk.McpError(sdk.ErrorCode.InternalError, `${name} cannot list its skills`);
      return { skills: [...served.values()].map((s) => s.entry) };
    });
    server.setRequestHandler(z.object({ method: z.literal("skills/get"), params }), async (r) => {
      const { uri } = record("skills/get")(r);
      const s = served.get(uri);
      if (!s) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `no skill ${uri}`);
      return { skill: s.get };
    });
  }
  return { client: await connect(sdk, server, name), requests };
}

// The scenario of mcp-skills.test.mjs (and its saved run's child process): a CRM server that declares the extension
// (two skills) and a billing server that does not, both with a find_customer tool; the host's own skill.
export const CRM_TOOLS = [["find_customer", "Find a customer record"], ["update_customer", "Update a customer record"], ["export_report", "Export a report"]];
export const CRM_SKILLS = [
  { name: "customer-lookup", description: "Look up a customer account in the CRM by company name.", tools: ["find_customer"], body: "Search by the company's legal name." },
  { name: "quarterly-export", description: "Export the quarterly CRM report as a spreadsheet.", tools: ["export_report"], body: "Export as CSV, one row per account." },
];
export const BILLING_TOOLS = [["find_customer", "Find a customer by billing id"], ["create_invoice", "Create an invoice"]];
export const HOST_SKILL = "---\nname: invoicing\ndescription: Create and send invoices to customers.\nallowed-tools: create_invoice\n---\nAlways attach the PDF.\n";

/** The crm and billing servers, connected: { crm, billing, servers: { crm, billing } (their clients) }. */
export async function crmAndBilling(sdk, z, crmOptions = {}) {
  const crm = await skillServer(sdk, z, "crm", { tools: CRM_TOOLS, skills: CRM_SKILLS, ...crmOptions });
  const billing = await skillServer(sdk, z, "billing", { extension: false, tools: BILLING_TOOLS });
  return { crm, billing, servers: { crm: crm.client, billing: billing.client } };
}
/** The palette's options over them: only the skills route (no index rows), one skill per turn. */
export const skillOptions = (servers) => ({ servers, skills: [HOST_SKILL], entries: () => [], skillIndex: { limit: 1 }, onWarning: () => {} });
