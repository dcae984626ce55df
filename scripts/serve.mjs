// The demo server: `npm start` builds the package, then runs this file.
//
// Serves the demo page (www/) at `/` and the built package (dist/) at `/pkg/`, so the
// page imports the very files that get published (`/pkg/browser.js`). No dependencies:
// node:http and node:fs only. HOST and PORT are respected (defaults 127.0.0.1:8080);
// port 0 picks a free port, which is what the tests use.
//
// The tests import `serve` from here, so they exercise the same code path as `npm start`.
import { createServer } from "node:http";
import { stat, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".ts": "text/plain; charset=utf-8",
  ".cts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

// URL prefix → folder on disk. The longest prefix is tried first.
function mountsOf({ www, dist }) {
  return [
    { prefix: "/pkg/", dir: dist },
    { prefix: "/", dir: www },
  ];
}

// The file a request path maps to, or null when it escapes its folder or is malformed.
function resolvePath(pathname, mounts) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  for (const { prefix, dir } of mounts) {
    if (!decoded.startsWith(prefix)) continue;
    const rel = decoded.slice(prefix.length);
    const file = normalize(join(dir, rel));
    if (file !== dir && !file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return null;
    return file;
  }
  return null;
}

async function fileFor(pathname, mounts) {
  let file = resolvePath(pathname, mounts);
  if (!file) return null;
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      file = join(file, "index.html");
      info = await stat(file);
    }
    return info.isFile() ? file : null;
  } catch {
    return null;
  }
}

function send(res, status, body, type = "text/plain; charset=utf-8", head = false) {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(head ? undefined : body);
}

/**
 * Starts the demo server.
 * @param {{ port?: number|string, host?: string, www?: string, dist?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ server: import("node:http").Server, url: string, close: () => Promise<void> }>}
 */
export async function serve(options = {}) {
  const host = options.host ?? process.env.HOST ?? "127.0.0.1";
  const port = Number(options.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`serve: port must be 0..65535, got ${options.port ?? process.env.PORT}`);
  const www = options.www ?? join(root, "www");
  const dist = options.dist ?? join(root, "dist");
  const mounts = mountsOf({ www, dist });
  const log = options.log ?? (() => {});

  const server = createServer(async (req, res) => {
    const head = req.method === "HEAD";
    if (req.method !== "GET" && !head) {
      res.setHeader("allow", "GET, HEAD");
      return send(res, 405, "method not allowed\n", undefined, head);
    }
    let pathname;
    try {
      pathname = new URL(req.url, "http://localhost").pathname;
    } catch {
      return send(res, 400, "bad request\n", undefined, head);
    }
    if (pathname === "/pkg") {
      res.writeHead(301, { location: "/pkg/" });
      return res.end();
    }
    const file = await fileFor(pathname, mounts);
    if (!file) {
      log(`404 ${pathname}`);
      return send(res, 404, `not found: ${pathname}\n`, undefined, head);
    }
    let body;
    try {
      body = await readFile(file);
    } catch {
      // dist/ can be rebuilt while the server runs: a file may vanish between stat and read.
      return send(res, 404, `not found: ${pathname}\n`, undefined, head);
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": body.length,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    res.end(head ? undefined : body);
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });

  const address = server.address();
  const shownHost = address.family === "IPv6" || (typeof address.family === "number" && address.family === 6) ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}/`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  return { server, url, close };
}

// `node scripts/serve.mjs` (what `npm start` runs).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!existsSync(join(root, "dist", "browser.js"))) {
    console.error("dist/browser.js is missing: build the package first (npm run build, or node scripts/build.mjs)");
    process.exit(1);
  }
  try {
    const { url, close } = await serve({ log: (line) => console.log(line) });
    console.log(`tool-palette demo: ${url}`);
    console.log("Ctrl+C to stop");
    const stop = () => close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } catch (error) {
    console.error(`could not start the demo server: ${error.message}`);
    process.exit(1);
  }
}
