#!/usr/bin/env python3
"""Derives mcp-servers.json from LiveMCPBench (Apache-2.0): 70 MCP servers, 527 tools, 95 tasks.

Usage (Python 3.11, standard library and git only):
    python3 bench/tool-search/mcp/derive.py SRC [out.json]

The output (default `local/mcp-servers.json` beside this script) is derived from a fetched
repository and is never committed: `local/` is git-ignored. SRC is either the repository's git
directory (the mirror that the workplace's `fetch` brings, /work/.mirror/icip-cas+LiveMCPBench/repo:
the files are read at COMMIT below with `git show`, no checkout needed) or a checkout of the
LiveMCPBench repository at that commit (or any directory holding the same three files at the
same relative paths):

    tools/LiveMCPTool/tools.json                                  the servers and their tools/list
    annotated_data/all_annotations.json                           the 95 tasks and their annotated tools
    baseline/output/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json
                                                                  the MCP Copilot agent's trajectories
                                                                  (Claude Sonnet 4), one per task

It prints the SHA-256 of each input so a reader can check they hold the same bytes as the
LICENSE-NOTE.md records. Every text is copied exactly; nothing is edited. What is derived:

- servers: in file order, each with `name` (the key the benchmark's MCP config gives the
  server, the name its agent passes as `server_name`), `title`, `category` and `web` (the
  benchmark's: the server's display name, its category, its source's address), and `tools` as the server's tools/list answered them (`name`, `description`,
  `inputSchema`; a null or empty description stays so, as in the source);
  `annotations` and the SDK's `model_config` are left out.
- tasks: in file order, `id`, `category`, `query` (the task's `Question`, the user's message),
  `gold` and `agent_queries`, `agent_calls`.
  * `gold`: one item per distinct tool name the annotators listed ("Tools": "1. name\\n2. ..."),
    in their order: `{"name": as annotated, "tools": [[server, tool], ...]}`, the (server, tool)
    pairs that answer to that name. The annotators named tools, not servers: a name that several
    servers list (`write_file`: desktop-commander and filesystem) gives every pair, and a ranking
    finds the item when it finds any of them. Five annotated names are not a tool name of the set
    (an older or shortened name); MAPPED below gives each its tool, with the reason; a name with
    no such tool (`open_document`) is left out of `gold` and listed in `unmatched`.
  * `agent_queries`: the agent's own searches, a second query set: one item per call the agent
    made to its retrieval tool (`route`), in order, `{"query": the call's `query` argument,
    exact (written "<tool_assistant>\\nserver: ...\\ntool: ...\\n</tool_assistant>", the format
    the agent's prompt asks for), "calls": the distinct (server, tool) pairs of the agent's
    `execute-tool` calls after that search and before its next one}`: what that search was for.
  * `agent_calls`: the distinct (server, tool) pairs of all the agent's `execute-tool` calls, in
    order of first call: what the agent used (a second gold, the agent's, not the annotators').
    A call naming no tool of the set (3: a tool okppt does not have, and a server name the agent
    misspelt, `Asset Price MCP`) is left out of `calls` and `agent_calls` and listed in
    `agent_calls_unknown`; calls that failed or timed out are kept (the agent chose the tool).
"""
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
COMMIT = "a928e57d1ee7a25579b9a7036030faffff72d15b"  # LiveMCPBench, 2025-08-18 (LICENSE-NOTE.md)

TOOLS = "tools/LiveMCPTool/tools.json"
TASKS = "annotated_data/all_annotations.json"
TRAJ = "baseline/output/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json"

# Annotated names that are no tool name of the set, each mapped to the one tool it names.
MAPPED = {
    # biomcp lists trial_references_getter (the task: a research summary of a trial's references)
    "trial_references": ("biomcp", "trial_references_getter"),
    # the duckduckgo-search server's only tool
    "ddg-search": ("duckduckgo-search", "duckduckgo_web_search"),
    # desktop-commander's command runner (its former name was execute_command); the agent used it
    "execute_command": ("desktop-commander", "start_process"),
    # maven-deps-server's latest-version tool; the agent used it for this task
    "get_maven_latest_version": ("maven-deps-server", "get_latest_release"),
}

ITEM = re.compile(r"^\s*\d+\.\s*(\S+)\s*$")


def reader(src: Path):
    """The inputs' bytes by relative path: from a git directory at COMMIT, or from a checkout."""
    if (src / "objects").is_dir() and (src / "HEAD").is_file():
        return lambda rel: subprocess.run(["git", f"--git-dir={src}", "show", f"{COMMIT}:{rel}"],
                                          check=True, capture_output=True).stdout
    return lambda rel: (src / rel).read_bytes()


def dump(doc) -> str:
    """JSON with one line per tool and per task (readable diffs), exact strings (no escapes)."""
    one = lambda v: json.dumps(v, ensure_ascii=False)
    lines = ["{", f'"source": {one(doc["source"])},', f'"made_by": {one(doc["made_by"])},', '"servers": [']
    for i, s in enumerate(doc["servers"]):
        head = {k: v for k, v in s.items() if k != "tools"}
        lines.append(one(head)[:-1] + ', "tools": [')
        lines += [one(t) + ("," if j < len(s["tools"]) - 1 else "") for j, t in enumerate(s["tools"])]
        lines.append("]}" + ("," if i < len(doc["servers"]) - 1 else ""))
    lines.append("],")
    lines.append('"tasks": [')
    lines += [one(t) + ("," if i < len(doc["tasks"]) - 1 else "") for i, t in enumerate(doc["tasks"])]
    lines += ["]", "}"]
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == doc
    return text


def main() -> None:
    read = reader(Path(sys.argv[1]))
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "local" / "mcp-servers.json"
    raw = {rel: read(rel) for rel in (TOOLS, TASKS, TRAJ)}
    for rel, data in raw.items():
        print(f"{hashlib.sha256(data).hexdigest()}  {rel}")
    raw_servers = json.loads(raw[TOOLS].decode("utf-8"))
    raw_tasks = json.loads(raw[TASKS].decode("utf-8"))
    trajectories = {t["task_id"]: t for t in json.loads(raw[TRAJ].decode("utf-8"))}

    servers = []
    for entry in raw_servers:
        (key, listed), = entry["tools"].items()  # one server per entry
        (config_key,) = entry["config"]["mcpServers"].keys()
        assert key == config_key == listed["server_name"], (key, config_key)
        tools = []
        for t in listed["tools"]:
            tool = {"name": t["name"]}
            if "description" in t:
                tool["description"] = t["description"]
            tool["inputSchema"] = t["inputSchema"]
            tools.append(tool)
        servers.append({"name": key, "title": entry["name"], "category": entry["category"], "web": entry["web"], "tools": tools})

    by_name = {}
    for s in servers:
        for t in s["tools"]:
            by_name.setdefault(t["name"], []).append([s["name"], t["name"]])
    known = [p for pairs in by_name.values() for p in pairs]
    for server, tool in MAPPED.values():
        assert [server, tool] in by_name.get(tool, []), (server, tool)

    tasks = []
    for a in raw_tasks:
        names = []
        for line in a["Annotator Metadata"]["Tools"].split("\n"):
            if not line.strip():
                continue
            m = ITEM.match(line)
            assert m, line
            if m.group(1) not in names:
                names.append(m.group(1))
        gold, unmatched = [], []
        for n in names:
            if n in by_name:
                gold.append({"name": n, "tools": by_name[n]})
            elif n in MAPPED:
                gold.append({"name": n, "tools": [list(MAPPED[n])]})
            else:
                unmatched.append(n)
        traj = trajectories[a["task_id"]]
        queries, calls, unknown = [], [], []
        for msg in traj["messages"]:
            if msg["role"] != "assistant":
                continue
            for call in msg.get("tool_calls") or []:
                args = json.loads(call["function"]["arguments"])
                if call["function"]["name"] == "route":
                    queries.append({"query": args["query"], "calls": []})
                elif call["function"]["name"] == "execute-tool":
                    pair = [args["server_name"], args["tool_name"]]
                    if pair not in known:
                        if pair not in unknown:
                            unknown.append(pair)
                        continue
                    if pair not in calls:
                        calls.append(pair)
                    if queries and pair not in queries[-1]["calls"]:
                        queries[-1]["calls"].append(pair)
        task = {"id": a["task_id"], "category": a["category"], "query": a["Question"], "gold": gold}
        if unmatched:
            task["unmatched"] = unmatched
        task["agent_queries"] = queries
        task["agent_calls"] = calls
        if unknown:
            task["agent_calls_unknown"] = unknown
        tasks.append(task)

    doc = {
        "source": "LiveMCPBench (icip-cas/LiveMCPBench), Apache-2.0; see LICENSE-NOTE.md",
        "made_by": "bench/tool-search/mcp/derive.py",
        "servers": servers,
        "tasks": tasks,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump(doc), encoding="utf-8")
    n_tools = sum(len(s["tools"]) for s in servers)
    n_gold = sum(len(t["gold"]) for t in tasks)
    n_q = sum(len(t["agent_queries"]) for t in tasks)
    print(f"-> {out}: {len(servers)} servers, {n_tools} tools, {len(tasks)} tasks, "
          f"{n_gold} gold items, {n_q} agent queries")


if __name__ == "__main__":
    main()
