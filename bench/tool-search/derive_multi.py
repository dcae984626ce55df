#!/usr/bin/env python3
"""Derives bench/tool-search/bfcl-multi-turn.json from the bfcl-eval wheel (Apache-2.0).

Usage (the same unpacked bfcl-eval 2026.3.23 wheel as derive.py):
    python3 bench/tool-search/derive_multi.py /tmp/bfcl/unpacked [out.json]

Python 3.11 standard library only. What it derives (see LICENSE-NOTE.md):
- tools: the functions of BFCL's 8 multi-turn API classes (multi_turn_func_doc/, the files
  of MULTI_TURN_FUNC_DOC_FILE_MAPPING for the classes the conversations involve), in class
  order then file order, each {name, description, parameters, namespace} with namespace =
  its class (BFCL's `response` schema is left out: a model is not sent it). Names must be
  unique across the classes (they are: 128 names). The multi-turn harness pools them with
  bfcl-live.json's tools, leaving out the live tools whose names these already have (the
  multi-turn definition is kept).
- conversations, per category (multi_turn_base, the tuning set, then multi_turn_miss_param,
  multi_turn_long_context, multi_turn_miss_func, kept for checks), in file order: id,
  category, classes (BFCL's involved_classes), and turns: per turn, `user` (the texts of the
  turn's user messages; [] for a miss_func turn that only adds a function) and `calls` (the
  turn's ground-truth call strings from possible_answer/, as BFCL writes them, e.g.
  "cd(folder='document')"; [] for a turn without calls), and `names` (the distinct function
  names of those calls, parsed with ast, in order of first call).
"""
import ast
import json
import sys
from pathlib import Path

from derive import jsonl, reader

CATEGORIES = ["multi_turn_base", "multi_turn_miss_param", "multi_turn_long_context", "multi_turn_miss_func"]
# bfcl_eval/constants/executable_backend_config.py, MULTI_TURN_FUNC_DOC_FILE_MAPPING (the 8 API classes).
CLASSES = {
    "GorillaFileSystem": "gorilla_file_system.json",
    "MathAPI": "math_api.json",
    "MessageAPI": "message_api.json",
    "TwitterAPI": "posting_api.json",
    "TicketAPI": "ticket_api.json",
    "TradingBot": "trading_bot.json",
    "TravelAPI": "travel_booking.json",
    "VehicleControlAPI": "vehicle_control.json",
}


def name_of(call: str) -> str:
    """The function name of one BFCL ground-truth call string."""
    node = ast.parse(call, mode="eval").body
    if not isinstance(node, ast.Call):
        sys.exit(f"not a call: {call!r}")
    return ast.unparse(node.func)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    read = reader(sys.argv[1])
    here = Path(__file__).parent
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else here / "bfcl-multi-turn.json"

    tools: dict[str, dict] = {}
    for cls, file in CLASSES.items():
        for f in jsonl(read(f"multi_turn_func_doc/{file}")):
            if f["name"] in tools:
                sys.exit(f"{f['name']} is defined by {tools[f['name']]['namespace']} and {cls}")
            tools[f["name"]] = {"name": f["name"], "description": f.get("description", ""), "parameters": f.get("parameters", {}), "namespace": cls}

    conversations = []
    for cat in CATEGORIES:
        try:
            entries = jsonl(read(f"BFCL_v4_{cat}.json"))
        except (FileNotFoundError, KeyError):
            print(f"{cat}: not in this wheel, skipped")
            continue
        answers = {a["id"]: a["ground_truth"] for a in jsonl(read(f"possible_answer/BFCL_v4_{cat}.json"))}
        for q in entries:
            truth = answers[q["id"]]
            if len(truth) != len(q["question"]):
                sys.exit(f"{q['id']}: {len(q['question'])} turns, {len(truth)} ground-truth turns")
            unknown = [c for c in q["involved_classes"] if c not in CLASSES]
            if unknown:
                sys.exit(f"{q['id']}: classes {unknown} not among the 8")
            turns = []
            for messages, calls in zip(q["question"], truth):
                names = list(dict.fromkeys(name_of(c) for c in calls))
                missing = [n for n in names if n not in tools]
                if missing:
                    sys.exit(f"{q['id']}: calls {missing}, not among the classes' functions")
                turns.append({"user": [m["content"] for m in messages if m["role"] == "user"], "calls": calls, "names": names})
            conversations.append({"id": q["id"], "category": cat, "classes": q["involved_classes"], "turns": turns})

    live = {t["name"] for t in json.loads((here / "bfcl-live.json").read_text(encoding="utf-8"))["tools"]}
    shared = [n for n in tools if n in live]
    # One tool or conversation per line: diffable, compact, and still plain JSON.
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write('{\n"source": "bfcl-eval 2026.3.23 (PyPI), bfcl_eval/data, multi_turn_func_doc/ (8 API classes) and ' + ", ".join(CATEGORIES) + ' with possible_answer/; Apache-2.0; derived by derive_multi.py",\n')
        fh.write('"tools": [\n')
        fh.write(",\n".join(json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in tools.values()))
        fh.write('\n],\n"conversations": [\n')
        fh.write(",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in conversations))
        fh.write("\n]\n}\n")
    per = {c: sum(1 for x in conversations if x["category"] == c) for c in CATEGORIES}
    print(f"{len(tools)} tools of {len(CLASSES)} classes ({len(shared)} names also in bfcl-live.json, kept from the classes: {', '.join(shared)}; "
          f"pool {len(tools) + len(live) - len(shared)}), conversations {per} -> {out}")


if __name__ == "__main__":
    main()
