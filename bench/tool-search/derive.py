#!/usr/bin/env python3
"""Derives bench/tool-search/bfcl-live.json from the bfcl-eval wheel (Apache-2.0).

Usage:
    pip download --no-deps bfcl-eval==2026.3.23 -d /tmp/bfcl
    python3 -m zipfile -e /tmp/bfcl/bfcl_eval-2026.3.23-py3-none-any.whl /tmp/bfcl/unpacked
    python3 bench/tool-search/derive.py /tmp/bfcl/unpacked [out.json]

The argument is the unpacked wheel (the directory holding bfcl_eval/); a .whl file works
too. Python 3.11 standard library only.

What it derives (see LICENSE-NOTE.md):
- tools: every distinct function (by name) of the four live_* categories (simple,
  multiple, parallel, parallel_multiple), in order of first appearance (categories in
  that order, questions in file order, functions in list order). When two definitions
  share a name the first is kept; the number of such names is printed.
- questions: one per BFCL question: its id, its query (the text of its user messages,
  joined by a newline; system messages are left out: they instruct the assistant and are
  not what a user would type; every live question is a single turn with one user
  message), and expected: the distinct function names of its ground truth in
  possible_answer/, in order.
"""
import json
import sys
import zipfile
from pathlib import Path

CATEGORIES = ["simple", "multiple", "parallel", "parallel_multiple"]


def reader(root: str):
    """A function reading `bfcl_eval/data/<rel>` from a directory or a wheel."""
    p = Path(root)
    if p.is_file():
        z = zipfile.ZipFile(p)
        return lambda rel: z.read(f"bfcl_eval/data/{rel}").decode("utf-8")
    base = p / "bfcl_eval" / "data"
    if not base.is_dir():
        sys.exit(f"no bfcl_eval/data under {root}")
    return lambda rel: (base / rel).read_text(encoding="utf-8")


def jsonl(text: str):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    read = reader(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).with_name("bfcl-live.json")

    tools: dict[str, dict] = {}
    clashed: set[str] = set()
    questions = []
    for cat in CATEGORIES:
        entries = jsonl(read(f"BFCL_v4_live_{cat}.json"))
        answers = {a["id"]: a for a in jsonl(read(f"possible_answer/BFCL_v4_live_{cat}.json"))}
        for q in entries:
            for f in q["function"]:
                kept = tools.get(f["name"])
                if kept is None:
                    tools[f["name"]] = {
                        "name": f["name"],
                        "description": f.get("description", ""),
                        "parameters": f.get("parameters", {}),
                    }
                elif kept["description"] != f.get("description", "") or kept["parameters"] != f.get("parameters", {}):
                    clashed.add(f["name"])
            users = [m["content"] for turn in q["question"] for m in turn if m["role"] == "user"]
            expected: list[str] = []
            for call in answers[q["id"]]["ground_truth"]:
                for name in call:
                    if name not in expected:
                        expected.append(name)
            missing = [n for n in expected if n not in tools]
            if missing:
                sys.exit(f"{q['id']}: expected {missing} not among the pooled tools")
            questions.append({"id": q["id"], "query": "\n".join(users), "expected": expected})

    # One tool or question per line: diffable, and still plain JSON.
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write('{\n"source": "bfcl-eval 2026.3.23 (PyPI), bfcl_eval/data, live_simple/multiple/parallel/parallel_multiple; Apache-2.0; derived by derive.py",\n')
        fh.write('"tools": [\n')
        fh.write(",\n".join(json.dumps(t, ensure_ascii=False) for t in tools.values()))
        fh.write('\n],\n"questions": [\n')
        fh.write(",\n".join(json.dumps(q, ensure_ascii=False) for q in questions))
        fh.write("\n]\n}\n")
    print(f"{len(tools)} tools ({len(clashed)} names defined more than once differently: first kept), "
          f"{len(questions)} questions -> {out}")


if __name__ == "__main__":
    main()
