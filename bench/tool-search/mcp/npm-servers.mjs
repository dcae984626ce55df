// Builds npm-servers.json: the tools of 43 public MCP servers published on the npm registry, as
// each one answers tools/list when started over stdio with no credentials and no network.
//
//   node bench/tool-search/mcp/npm-servers.mjs [--scratch DIR] [--only name,name] [--out FILE]
//
// For each server below (package and version pinned): `npm install --ignore-scripts` of that
// version into its own folder under the scratch folder (default: $TMPDIR/tool-palette-npm-servers,
// outside the repository; kept between runs, so a second run installs nothing), a check that the
// installed version and its licence are the ones recorded here, then the server started from
// its package's `bin` with node, inside a fresh network namespace (`unshare -n`: no interface
// but a loopback that is down, so nothing it does can reach any address, this machine's
// included), with HOME and the working directory in the scratch folder and no API key or other
// credential in its environment (the MCP SDK's stdio transport passes only HOME, LOGNAME, PATH,
// SHELL, TERM and USER, and `env` below). The MCP SDK's Client (the repository's own
// node_modules) connects, calls tools/list (every page) and closes. Each tool is kept as
// listed: `name`, `description` (left out where the server gives none) and `inputSchema`; the
// other fields (`title`, `annotations`, `outputSchema`, `execution`, `_meta`) are left out.
//
// Needs: Linux, root or unprivileged user namespaces (for `unshare -n`), the npm registry, node.
// The registry is the only thing reached, by npm; the servers reach nothing.
//
// Not in the set (each was installed and started the same way, and exited before answering):
// the credentials they ask for at start-up are not given here, so their tools cannot be listed
// without them: @modelcontextprotocol/server-gitlab 2025.4.25 (GITLAB_PERSONAL_ACCESS_TOKEN),
// -slack 2025.4.25 (SLACK_BOT_TOKEN), -google-maps 0.6.2 (GOOGLE_MAPS_API_KEY), -brave-search
// 0.6.2 (BRAVE_API_KEY), -gdrive 2025.1.14 (OAuth credentials), airtable-mcp-server 1.14.0,
// @roychri/mcp-server-asana 1.8.0, @zereight/mcp-gitlab 2.1.64, todoist-mcp 1.3.4,
// @line/line-bot-mcp-server 0.4.2, @cocal/google-calendar-mcp 2.6.3 (each an API key or OAuth
// file). Others: @modelcontextprotocol/server-redis 2025.4.25 and
// @benborla29/mcp-server-mysql 2.0.9 exit when their database is not there; @bytebase/dbhub
// 0.21.2 (--demo) needs better-sqlite3's native binding, which --ignore-scripts does not build;
// @heroku/mcp-server 1.2.8 fails to import its SDK; @codefuturist/email-mcp is LGPL-3.0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// name: the server's name in the set (a host's name for it); licence: as the package declares it
// (`license` in its package.json, or, where that field is missing, its LICENSE file's text).
// args and env: configuration, never a credential.
export const SERVERS = [
  // files, processes, code
  { name: 'filesystem', package: '@modelcontextprotocol/server-filesystem', version: '2026.1.14', licence: 'MIT', args: ['{home}/files'] },
  { name: 'desktop-commander', package: '@wonderwhy-er/desktop-commander', version: '0.2.52', licence: 'MIT' },
  { name: 'code-runner', package: 'mcp-server-code-runner', version: '0.1.8', licence: 'MIT' },
  { name: 'git', package: '@cyanheads/git-mcp-server', version: '2.15.3', licence: 'Apache-2.0' },
  { name: 'github', package: '@modelcontextprotocol/server-github', version: '2025.4.8', licence: 'MIT' },
  { name: 'eslint', package: '@eslint/mcp', version: '0.3.13', licence: 'Apache-2.0' },
  { name: 'circleci', package: '@circleci/mcp-server-circleci', version: '0.20.0', licence: 'Apache-2.0' },
  { name: 'kubernetes', package: 'mcp-server-kubernetes', version: '4.1.7', licence: 'MIT' },
  { name: 'mongodb', package: 'mongodb-mcp-server', version: '3.0.4', licence: 'Apache-2.0' },
  // a loopback address that nothing listens on (and that the namespace cannot reach): the server
  // takes its database URL as an argument and lists its one tool without connecting
  { name: 'postgres', package: '@modelcontextprotocol/server-postgres', version: '0.6.2', licence: 'MIT', args: ['postgresql://127.0.0.1:5432/db'] },
  // documentation
  { name: 'context7', package: '@upstash/context7-mcp', version: '4.1.1', licence: 'MIT' },
  { name: 'deepwiki', package: 'mcp-deepwiki', version: '0.0.10', licence: 'MIT' },
  { name: 'apple-docs', package: '@kimsungwhee/apple-docs-mcp', version: '1.0.26', licence: 'MIT' },
  { name: 'shadcn-ui', package: '@jpisnice/shadcn-ui-mcp-server', version: '2.0.0', licence: 'MIT' },
  // browsers and devices
  { name: 'puppeteer', package: '@modelcontextprotocol/server-puppeteer', version: '2025.5.12', licence: 'MIT' },
  { name: 'playwright', package: '@playwright/mcp', version: '0.0.86', licence: 'Apache-2.0' },
  { name: 'playwright-ea', package: '@executeautomation/playwright-mcp-server', version: '1.0.12', licence: 'MIT' },
  { name: 'chrome-devtools', package: 'chrome-devtools-mcp', version: '1.11.0', licence: 'Apache-2.0' },
  { name: 'mobile', package: '@mobilenext/mobile-mcp', version: '1.0.4', licence: 'Apache-2.0' },
  // web search and fetching
  { name: 'tavily', package: 'tavily-mcp', version: '0.2.22', licence: 'MIT' },
  { name: 'exa', package: 'exa-mcp-server', version: '3.4.1', licence: 'MIT' },
  { name: 'firecrawl', package: 'firecrawl-mcp', version: '3.22.2', licence: 'MIT' },
  { name: 'searxng', package: 'mcp-searxng', version: '1.16.0', licence: 'MIT' },
  { name: 'image-fetch', package: '@kazuph/mcp-fetch', version: '1.6.3', licence: 'MIT' },
  // knowledge sources
  { name: 'wikipedia', package: 'wikipedia-mcp', version: '1.0.3', licence: 'MIT' },
  { name: 'pubmed', package: '@cyanheads/pubmed-mcp-server', version: '2.7.4', licence: 'Apache-2.0' },
  { name: 'open-library', package: '@geobio/mcp-open-library', version: '0.1.6', licence: 'MIT' },
  { name: 'youtube-transcript', package: '@fabriqa.ai/youtube-transcript-mcp', version: '1.0.3', licence: 'MIT' },
  { name: 'reddit', package: 'reddit-mcp-buddy', version: '1.1.14', licence: 'MIT' },
  // notes, memory, documents
  { name: 'notion', package: '@notionhq/notion-mcp-server', version: '2.5.2', licence: 'MIT' },
  { name: 'memory', package: '@modelcontextprotocol/server-memory', version: '2026.1.26', licence: 'MIT' },
  { name: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking', version: '2025.12.18', licence: 'MIT' },
  { name: 'excel', package: '@negokaz/excel-mcp-server', version: '0.12.0', licence: 'MIT' },
  { name: 'pdf-reader', package: '@sylphx/pdf-reader-mcp', version: '2.4.0', licence: 'MIT' },
  // charts and diagrams
  { name: 'chart', package: '@antv/mcp-server-chart', version: '0.9.10', licence: 'MIT' },
  { name: 'mermaid', package: 'mcp-mermaid', version: '0.4.1', licence: 'MIT' },
  // small utilities
  { name: 'calc', package: '@coo-quack/calc-mcp', version: '2.1.1', licence: 'MIT' },
  { name: 'time', package: 'time-mcp', version: '1.0.6', licence: 'MIT' },
  // weather, travel, markets
  // ENABLED_TOOLS=all: the server's own preset of all its 17 tools (its default preset lists 6)
  { name: 'weather', package: '@dangahagan/weather-mcp', version: '1.23.0', licence: 'MIT', env: { ENABLED_TOOLS: 'all' } },
  { name: 'us-weather', package: '@h1deya/mcp-server-weather', version: '0.1.3', licence: 'MIT' },
  { name: 'airbnb', package: '@openbnb/mcp-server-airbnb', version: '0.3.0', licence: 'MIT' },
  { name: 'flightradar', package: 'flightradar-mcp-server', version: '0.1.2', licence: 'MIT' },
  { name: 'stocks', package: 'stockquotes-mcp', version: '1.0.29', licence: 'MIT' },
];

const PERMISSIVE = new Set(['MIT', 'Apache-2.0', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause']);

function option(flag, fallback) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : fallback;
}

// The licence the installed package declares: its package.json `license`, or, when that field is
// missing, the one its LICENSE file's first line names.
function declaredLicence(dir, pkg) {
  if (typeof pkg.license === 'string' && !pkg.license.startsWith('SEE LICENSE')) return pkg.license;
  const file = readdirSync(dir).find((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f));
  if (!file) return null;
  const text = readFileSync(join(dir, file), 'utf8');
  if (/^\W*(The )?MIT License/i.test(text.trim())) return 'MIT';
  if (/^\W*Apache License/i.test(text.trim())) return 'Apache-2.0';
  return null;
}

function install(scratch, s) {
  const dir = join(scratch, 'pkgs', s.package.replace(/[@/]/g, '_'));
  const root = join(dir, 'node_modules', ...s.package.split('/'));
  const installed = () => existsSync(join(root, 'package.json')) && JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version === s.version;
  if (!installed()) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private": true}\n');
    const r = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error', `${s.package}@${s.version}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || !installed()) throw new Error(`${s.package}@${s.version}: npm install failed`);
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const licence = declaredLicence(root, pkg);
  if (licence !== s.licence || !PERMISSIVE.has(licence)) throw new Error(`${s.package}@${s.version}: licence ${licence}, recorded ${s.licence}`);
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin)[0];
  return join(root, bin);
}

async function listTools(scratch, s, bin) {
  const home = join(scratch, 'home');
  mkdirSync(join(home, 'files'), { recursive: true });
  const args = (s.args ?? []).map((a) => a.replace('{home}', home));
  const transport = new StdioClientTransport({
    command: 'unshare', args: ['--net', process.execPath, bin, ...args],
    env: { HOME: home, ...(s.env ?? {}) }, cwd: home, stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'tool-palette-npm-servers', version: '1.0.0' });
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('no answer in 60 s')), 60_000); });
  try {
    const tools = [];
    await Promise.race([(async () => {
      await client.connect(transport);
      let cursor;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    })(), timeout]);
    return tools.map((t) => ({ name: t.name, ...(t.description != null ? { description: t.description } : {}), inputSchema: t.inputSchema }));
  } catch (e) {
    throw new Error(`${s.package}@${s.version}: ${e.message}\n${stderr.slice(0, 2000)}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

// JSON with one line per tool (readable diffs), as derive.py writes its files.
function dump(doc) {
  const one = (v) => JSON.stringify(v);
  const lines = ['{', `"source": ${one(doc.source)},`, `"made_by": ${one(doc.made_by)},`, `"note": ${one(doc.note)},`, '"servers": ['];
  doc.servers.forEach((s, i) => {
    const { tools, ...head } = s;
    lines.push(`${one(head).slice(0, -1)}, "tools": [`);
    tools.forEach((t, j) => lines.push(one(t) + (j < tools.length - 1 ? ',' : '')));
    lines.push(`]}${i < doc.servers.length - 1 ? ',' : ''}`);
  });
  lines.push(']', '}');
  const text = `${lines.join('\n')}\n`;
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(doc)) throw new Error('dump does not round-trip');
  return text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scratch = option('--scratch', join(tmpdir(), 'tool-palette-npm-servers'));
  const only = option('--only', null)?.split(',');
  const out = option('--out', fileURLToPath(new URL('npm-servers.json', import.meta.url)));
  if (spawnSync('unshare', ['--net', 'true']).status !== 0) {
    console.error('`unshare --net` does not work here (it needs root or user namespaces): the servers are not started without it');
    process.exit(1);
  }
  const servers = [];
  for (const s of SERVERS.filter((x) => !only || only.includes(x.name))) {
    const bin = install(scratch, s);
    const tools = await listTools(scratch, s, bin);
    if (new Set(tools.map((t) => t.name)).size !== tools.length) throw new Error(`${s.name}: a tool name twice`);
    servers.push({ name: s.name, package: s.package, version: s.version, licence: s.licence, tools });
    console.log(`${s.name} (${s.package}@${s.version}, ${s.licence}): ${tools.length} tools`);
  }
  const doc = {
    source: 'npm registry packages of public MCP servers (each server\'s package, version and licence below); tools as each server answers tools/list',
    made_by: 'bench/tool-search/mcp/npm-servers.mjs',
    note: 'Started over stdio with no credentials, in a network namespace without network, default configuration (weather: ENABLED_TOOLS=all); name, description (absent where the server gives none) and inputSchema exactly as listed. No tasks: see npm-tasks.json (written in this repository).',
    servers,
  };
  writeFileSync(out, dump(doc));
  console.log(`-> ${out}: ${servers.length} servers, ${servers.reduce((n, s) => n + s.tools.length, 0)} tools`);
}
