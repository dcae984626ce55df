// Runs README snippets as written: their `import` lines bound to modules loaded in the
// consumer project, every other line unchanged.
import assert from "node:assert/strict";

const AsyncFunction = (async () => {}).constructor;

/** The fenced blocks of a README section (from its `## title` to the next `## `). */
export function blocks(readme, title, lang = "js") {
  const start = readme.indexOf(`## ${title}`);
  assert.ok(start >= 0, `a "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

/** Runs a snippet with `scope` as its free variables and `modules` for its imports; returns the values it declares. */
export async function runSnippet(code, scope, modules) {
  const body = code
    .replace(/^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?[ \t]*(\/\/.*)?$/gm, (_, names, spec) => {
      assert.ok(modules[spec], `the snippet imports ${spec}`);
      const bound = names.replace(/\btype\s+\w+\s*,?/g, "").replace(/\s+as\s+/g, ": ");
      return `const {${bound}} = __modules[${JSON.stringify(spec)}];`;
    })
    // A default import: the module's default export.
    .replace(/^import\s+(\w+)\s+from\s*"([^"]+)";?[ \t]*(\/\/.*)?$/gm, (_, name, spec) => {
      assert.ok(modules[spec], `the snippet imports ${spec}`);
      return `const ${name} = __modules[${JSON.stringify(spec)}].default;`;
    });
  const declared = [...body.matchAll(/^(?:const|let)\s+(\w+)/gm)].map((m) => m[1]);
  const names = Object.keys(scope);
  const fn = new AsyncFunction("__modules", ...names, `${body}\nreturn { ${declared.join(", ")} };`);
  return fn(modules, ...names.map((n) => scope[n]));
}
