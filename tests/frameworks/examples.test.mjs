// The examples under examples/ run from the repo root (`node examples/<name>.mjs`, after
// `npm install` and `npm run build`) and print what was routed and dispatched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { root } from "./consumer.mjs";

const run = promisify(execFile);

for (const name of ["ai-sdk", "openai-agents", "langchain"]) {
  test(`node examples/${name}.mjs routes, selects the model and dispatches`, async () => {
    const { stdout } = await run(process.execPath, [join("examples", `${name}.mjs`)], { cwd: root, timeout: 60_000 });
    const [sales, calendar] = stdout.split("user: ").slice(1);
    // Sales: routed to two tools, the analytics model, web_search redirected to sql_query.
    assert.match(sales, /routed:? web_search, sql_query/);
    assert.match(sales, /analytics-model/);
    assert.doesNotMatch(sales, /general-model/);
    assert.match(sales, /dispatched: web_search -> sql_query \(redirected by sales-questions-use-sql\)/);
    assert.match(sales, /executed: +sql_query \{"query":"SELECT SUM\(units\) FROM sales WHERE month = '2026-03'"\}/);
    assert.doesNotMatch(sales, /executed: +web_search/);
    assert.match(sales, /March sales were 42 units\./);
    // Calendar: routed to one tool, the default model, dispatched as emitted.
    assert.match(calendar, /routed:? calendar/);
    assert.match(calendar, /general-model/);
    assert.doesNotMatch(calendar, /analytics-model/);
    assert.match(calendar, /dispatched: calendar -> calendar\n/);
    assert.match(calendar, /executed: +calendar \{"day":"friday"\}/);
    assert.match(calendar, /Friday is free\./);
  });
}
