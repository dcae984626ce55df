#!/usr/bin/env python3
"""Derives etom.json from ETOM (formerly MSC-Bench; MIT): 491 MCP servers, 2,375 tools, 2,075 queries.

Usage (Python 3.11, standard library and git only):
    python3 bench/tool-search/mcp/derive_etom.py SRC [out.json]

The output (default `local/etom.json` beside this script) is derived from a fetched repository
and is never committed: `local/` is git-ignored. SRC is either the repository's git directory
(the mirror that the workplace's `fetch` brings, /work/.mirror/snooow1029+ETOM/repo: the files
are read at COMMIT below with `git show`, no checkout needed) or a checkout of the ETOM
repository at that commit (or any directory holding the same files at the same relative paths):

    data/mcp_registry.json                 the servers and their tools (from glama.ai's registry)
    data/queries/level_1.json … level_5.json   the queries of the five levels and their ground truth

It prints the SHA-256 of each input. Every text is copied exactly; nothing is edited. What is
derived:

- servers: in file order, `name` (the registry's `server_name`, the name the ground truth
  uses), `description` (`server_description`), `url`, `categories`, and `tools` in listed order as
  `name`, `description`, `inputSchema` (the registry's `tool_name`, `tool_description`,
  `input_schema`, renamed to MCP's field names). `server_summary` (an LLM's summary of the
  server's README, made by the benchmark) and `source_file` are left out.
- queries: levels 1 to 5 in order, each file's queries in order: `id` ("L<level>-<query_id>"),
  `level`, `query`, and `gold`: the needed tools, one item per step, each item the list of
  (server, tool) pairs that do that step (any one will do):
  * level 1 (single tool): one item, one pair;
  * level 2 (a step several equivalent tools can do): one item, every pair of the ground truth's
    lists (the benchmark lists the equivalence set once per member, each list led by a
    different member; 96 of 773 queries' lists differ slightly, so the item is their union, in
    order of first appearance);
  * level 3 (steps on one server): one item per step, one pair each, in order;
  * level 4 (steps across servers): one item per step, its equivalent pairs, in order;
  * level 5 (infeasible with these tools): no item.
  For levels 3 and 4, `depends` gives each step's `dependencies` as the benchmark has them (the
  indices of earlier steps whose output it uses).
"""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
COMMIT = "3280849df74867ddfbd825d04682bf866c96f8ec"  # ETOM, 2026-02-02 (LICENSE-NOTE.md)
REGISTRY = "data/mcp_registry.json"
LEVELS = [f"data/queries/level_{n}.json" for n in range(1, 6)]


def reader(src: Path):
    """The inputs' bytes by relative path: from a git directory at COMMIT, or from a checkout."""
    if (src / "objects").is_dir() and (src / "HEAD").is_file():
        return lambda rel: subprocess.run(["git", f"--git-dir={src}", "show", f"{COMMIT}:{rel}"],
                                          check=True, capture_output=True).stdout
    return lambda rel: (src / rel).read_bytes()


def pair(t) -> list:
    """A ground-truth tool as (server, tool): its `server_name` and `tool_name` (its `tool_id`,
    "server::tool", says the same but for 3 ids with a stray space or a doubled word)."""
    return [t["server_name"], t["tool_name"]]


def dump(doc) -> str:
    """JSON with one line per tool and per query (readable diffs), exact strings (no escapes)."""
    one = lambda v: json.dumps(v, ensure_ascii=False)
    lines = ["{", f'"source": {one(doc["source"])},', f'"made_by": {one(doc["made_by"])},', '"servers": [']
    for i, s in enumerate(doc["servers"]):
        head = {k: v for k, v in s.items() if k != "tools"}
        lines.append(one(head)[:-1] + ', "tools": [')
        lines += [one(t) + ("," if j < len(s["tools"]) - 1 else "") for j, t in enumerate(s["tools"])]
        lines.append("]}" + ("," if i < len(doc["servers"]) - 1 else ""))
    lines.append("],")
    lines.append('"queries": [')
    lines += [one(q) + ("," if i < len(doc["queries"]) - 1 else "") for i, q in enumerate(doc["queries"])]
    lines += ["]", "}"]
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == doc
    return text


def main() -> None:
    read = reader(Path(sys.argv[1]))
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "local" / "etom.json"
    raw = {rel: read(rel) for rel in [REGISTRY, *LEVELS]}
    for rel, data in raw.items():
        print(f"{hashlib.sha256(data).hexdigest()}  {rel}")
    registry = json.loads(raw[REGISTRY].decode("utf-8"))
    servers = []
    for s in registry["servers"]:
        tools = [{"name": t["tool_name"], "description": t["tool_description"], "inputSchema": t["input_schema"]} for t in s["tools"]]
        assert len({t["name"] for t in tools}) == len(tools), s["server_name"]
        servers.append({"name": s["server_name"], "description": s["server_description"], "url": s["server_url"],
                        "categories": s["categories"], "tools": tools})
    assert len({s["name"] for s in servers}) == len(servers)
    assert registry["total_servers"] == len(servers)
    assert registry["total_tools"] == sum(len(s["tools"]) for s in servers)
    known = {(s["name"], t["name"]) for s in servers for t in s["tools"]}

    queries = []
    for level, rel in enumerate(LEVELS, 1):
        for q in json.loads(raw[rel].decode("utf-8")):
            gt = q["ground_truth_tools"]
            depends = None
            if level == 1:
                assert len(gt) == 1
                gold = [[pair(gt[0])]]
            elif level == 2:
                item = []
                for alternatives in gt:
                    for t in alternatives:
                        if pair(t) not in item:
                            item.append(pair(t))
                gold = [item]
            elif level == 3:
                gold = [[pair(t)] for t in gt]
                depends = [t["dependencies"] for t in gt]
            elif level == 4:
                gold = []
                for alternatives in gt:
                    item = []
                    for t in alternatives:
                        if pair(t) not in item:
                            item.append(pair(t))
                    gold.append(item)
                depends = [alternatives[0]["dependencies"] for alternatives in gt]
            else:
                assert gt == []
                gold = []
            for item in gold:
                for p in item:
                    assert tuple(p) in known, p
            entry = {"id": f"L{level}-{q['query_id']}", "level": level, "query": q["query"], "gold": gold}
            if depends is not None:
                entry["depends"] = depends
            queries.append(entry)
    assert len({q["id"] for q in queries}) == len(queries)

    doc = {
        "source": "ETOM / MSC-Bench (snooow1029/ETOM), MIT (as its README declares); see LICENSE-NOTE.md",
        "made_by": "bench/tool-search/mcp/derive_etom.py",
        "servers": servers,
        "queries": queries,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump(doc), encoding="utf-8")
    by_level = {}
    for q in queries:
        by_level[q["level"]] = by_level.get(q["level"], 0) + 1
    print(f"-> {out}: {len(servers)} servers, {len(known)} tools, {len(queries)} queries {by_level}")


if __name__ == "__main__":
    main()
