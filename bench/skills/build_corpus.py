#!/usr/bin/env python3
"""Collect the SKILL.md parsing corpus from the sources in sources.json.

    python3 build_corpus.py registry PACKAGES_DIR OUT.json MANIFEST.json
    python3 build_corpus.py github   MIRRORS_DIR  OUT.json MANIFEST.json

registry: PACKAGES_DIR holds the unpacked packages (fetch_packages.sh makes it).
github:   MIRRORS_DIR holds one git directory (bare or not) per repository at
          MIRRORS_DIR/<owner>+<name>/repo (the layout the search tool's fetch gives).

A file is taken when its licence can be established and allows redistribution:
  1. the nearest LICENSE / LICENCE / COPYING file in its folder or a folder above it inside the
     source, classified by its text (Apache-2.0, MIT, BSD, ISC, CC-BY, CC0); a text that reserves
     all rights, or that none of these matches, keeps the file out;
  2. else the source's own licence (sources.json, with where it is stated), unless the file
     lies under a 'no_default_under' prefix;
and it is kept out anyway when its frontmatter 'license' says proprietary / all rights
reserved, or when it is a copy of one of Anthropic's document skills (pdf, docx, pptx, xlsx: all
rights reserved), recognised by name and wording.  Texts are deduplicated byte for byte (the
first source in sources.json order keeps it).  Standard library only.
"""
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from srcread import Source  # noqa: E402

LICENCE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING)(\.(txt|md|rst))?$", re.I)
DOC_SKILLS = ("pdf", "docx", "pptx", "xlsx")
# Anthropic's document skills, recognised by wording of their descriptions and bodies
ANTHROPIC_DOC_MARKERS = [
    "Comprehensive PDF manipulation toolkit for extracting text and tables",
    "Comprehensive document creation, editing, and analysis with support for tracked changes",
    "Presentation creation, editing, and analysis. When Claude needs to work with presentations",
    "Comprehensive spreadsheet creation, editing, and analysis with support for formulas, formatting, data analysis, and visualization",
    "Use this skill whenever the user wants to do anything with PDF files",
    "Use this skill whenever the user wants to create, read, edit, or manipulate Word documents",
    "Use this skill any time a .pptx file is involved",
    "Use this skill any time a spreadsheet file is the primary input or output",
    "© 2025 Anthropic, PBC. All rights reserved.",
]


def classify(text):
    t = re.sub(r"\s+", " ", text[:8000])
    if re.search(r"all rights reserved", t, re.I) and not re.search(r"permission is hereby granted|licensed under the apache|redistribution and use", t, re.I):
        return None, "reserves all rights"
    if re.search(r"Apache License", t) and re.search(r"Version 2\.0", t):
        return "Apache-2.0", None
    if re.search(r"Permission is hereby granted, free of charge", t):
        return "MIT", None
    if re.search(r"Permission to use, copy, modify, and/or distribute this software for any purpose", t):
        return "ISC", None
    if re.search(r"Redistribution and use in source and binary forms", t):
        return "BSD-3-Clause" if re.search(r"endorse or promote", t) else "BSD-2-Clause", None
    if re.search(r"CC0 1\.0|Creative Commons Zero", t):
        return "CC0-1.0", None
    m = re.search(r"Creative Commons Attribution(?:-ShareAlike)? 4\.0", t)
    if m:
        return ("CC-BY-SA-4.0" if "ShareAlike" in m.group(0) else "CC-BY-4.0"), None
    return None, "unrecognised licence text"


def frontmatter_licence(text):
    t = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not t.startswith("---"):
        return None
    end = t.find("\n---", 3)
    fm = t[3:end if end > 0 else len(t)]
    m = re.search(r"^license:\s*(.*)$", fm, re.M)
    return m.group(1).strip() if m else None


def frontmatter_name(text):
    t = text.lstrip("\ufeff").replace("\r\n", "\n")
    m = re.search(r"^name:\s*['\"]?([^'\"\n]*)", t[:2000], re.M)
    return m.group(1).strip().lower() if m else ""


def is_anthropic_doc_copy(text, path):
    name = frontmatter_name(text)
    folder = path.split("/")[-2].lower() if "/" in path else ""
    if not (name in DOC_SKILLS or folder in DOC_SKILLS or any(d in name for d in DOC_SKILLS)):
        return any(m in text for m in ANTHROPIC_DOC_MARKERS[-1:])
    return any(m in text for m in ANTHROPIC_DOC_MARKERS)


def write_rows(path, doc, *row_keys):
    """JSON with one row of each list in row_keys a line (diffable, grep-able)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n")
        keys = list(doc)
        for n, k in enumerate(keys):
            f.write(json.dumps(k) + ": ")
            if k in row_keys:
                f.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in doc[k]) + "\n]")
            else:
                f.write(json.dumps(doc[k], ensure_ascii=False))
            f.write(",\n" if n < len(keys) - 1 else "\n")
        f.write("}\n")


def collect(kind, base, out_path, manifest_path):
    cfg = json.load(open(os.path.join(HERE, "sources.json"), encoding="utf-8"))
    seen = {}
    rows, skipped = [], []
    for src in cfg[kind]:
        if kind == "github":
            root = os.path.join(base, src["id"].replace("/", "+"), "repo")
            if not os.path.isdir(root):
                root = os.path.join(base, src["id"].replace("/", "+"))
        else:
            root = os.path.join(base, src["dir"])
        s = Source(root)
        paths = s.files()
        licence_files = {}
        for p in paths:
            if LICENCE_FILE.search(p):
                licence_files.setdefault(os.path.dirname(p), p)
        version = s.commit if kind == "github" else src["id"].split("@")[-1].split("==")[-1]
        for p in paths:
            if not (p == "SKILL.md" or p.endswith("/SKILL.md")):
                continue
            if "node_modules/" in p:
                continue
            if src.get("include_under") and not any(p.startswith(u) for u in src["include_under"]):
                continue
            raw = s.read(p)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                skipped.append({"source": src["id"], "path": p, "why": "not UTF-8"})
                continue
            h = hashlib.sha256(raw).hexdigest()
            # licence: nearest LICENSE file inside the source, else the source's own
            d = os.path.dirname(p)
            lic_file = None
            while True:
                if d in licence_files:
                    lic_file = licence_files[d]
                    break
                if not d:
                    break
                d = os.path.dirname(d)
            if lic_file:
                lic, why = classify(s.read(lic_file).decode("utf-8", "replace"))
                evidence = lic_file
            elif src.get("licence") and not any(p.startswith(u) for u in src.get("no_default_under", [])):
                lic, why, evidence = src["licence"], None, src["evidence"]
            else:
                lic, why, evidence = None, "no licence found", None
            fml = frontmatter_licence(text)
            if lic and fml and re.search(r"proprietary|all rights reserved", fml, re.I):
                lic, why = None, "frontmatter license: " + fml[:80]
            if lic and is_anthropic_doc_copy(text, p):
                lic, why = None, "a copy of an Anthropic document skill (all rights reserved)"
            entry = {"source": src["id"], "path": p, "version": version, "sha256": h}
            if not lic:
                skipped.append(dict(entry, why=why, licence_file=lic_file))
                continue
            if h in seen:
                seen[h]["also"].append({"source": src["id"], "path": p})
                continue
            row = dict(entry, licence=lic, licence_evidence=evidence, also=[])
            if fml:
                row["frontmatter_license"] = fml[:200]
            row["text"] = text
            seen[h] = row
            rows.append(row)
    for i, r in enumerate(rows):
        r["id"] = "%s%04d" % ("r" if kind == "registry" else "g", i)
    counts = {}
    for r in rows:
        counts[r["licence"]] = counts.get(r["licence"], 0) + 1
    by_source = {}
    for r in rows:
        by_source[r["source"]] = by_source.get(r["source"], 0) + 1
    why = {}
    for k in skipped:
        key = k["why"] if not k["why"].startswith("frontmatter") else "frontmatter license proprietary"
        why[key] = why.get(key, 0) + 1
    summary = {"files": len(rows), "by_licence": counts, "by_source": by_source,
               "left_out": len(skipped), "left_out_why": why}
    corpus = {"about": "SKILL.md texts (%s sources); see LICENSE-NOTE.md" % kind, "summary": summary,
              "files": [{k: r[k] for k in ("id", "source", "path", "version", "licence", "sha256", "text")} for r in rows]}
    manifest = {"about": "Provenance of every corpus file (no texts): source, path, version or commit, licence and where it is stated; 'also' lists byte-identical copies elsewhere; 'left_out' the files kept out and why.",
                "summary": summary,
                "files": [{k: v for k, v in r.items() if k != "text"} for r in rows],
                "left_out": skipped}
    write_rows(out_path, corpus, "files")
    write_rows(manifest_path, manifest, "files", "left_out")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    collect(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
