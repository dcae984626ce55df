#!/usr/bin/env python3
"""Derives bench/tool-search/bfcl-pool.json: BFCL's other tools, the harder variant's distractors.

Usage (the same unpacked bfcl-eval 2026.3.23 wheel as derive.py):
    python3 bench/tool-search/pool.py /tmp/bfcl/unpacked [out.json]

Every distinct function (by name) offered in the other BFCL v4 categories that have
functions (irrelevance, live_irrelevance, live_relevance, multiple, parallel,
parallel_multiple, simple_java, simple_javascript, simple_python), in that order, first
definition kept, leaving out every name already in bfcl-live.json. No questions: in the
harder variant the live questions retrieve from the live tools pooled with these.
Python 3.11 standard library only.
"""
import json
import sys
from pathlib import Path

from derive import jsonl, reader

CATEGORIES = ["irrelevance", "live_irrelevance", "live_relevance", "multiple", "parallel",
              "parallel_multiple", "simple_java", "simple_javascript", "simple_python"]


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    read = reader(sys.argv[1])
    here = Path(__file__).parent
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else here / "bfcl-pool.json"
    live = {t["name"] for t in json.loads((here / "bfcl-live.json").read_text(encoding="utf-8"))["tools"]}
    tools: dict[str, dict] = {}
    for cat in CATEGORIES:
        for q in jsonl(read(f"BFCL_v4_{cat}.json")):
            functions = q["function"] if isinstance(q["function"], list) else [q["function"]]
            for f in functions:
                if f["name"] in live or f["name"] in tools:
                    continue
                tools[f["name"]] = {
                    "name": f["name"],
                    "description": f.get("description", ""),
                    "parameters": f.get("parameters", {}),
                }
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write('{\n"source": "bfcl-eval 2026.3.23 (PyPI), bfcl_eval/data, the other categories\' functions not in bfcl-live.json; Apache-2.0; derived by pool.py",\n')
        fh.write('"tools": [\n')
        fh.write(",\n".join(json.dumps(t, ensure_ascii=False) for t in tools.values()))
        fh.write("\n]\n}\n")
    print(f"{len(tools)} tools -> {out}")


if __name__ == "__main__":
    main()
