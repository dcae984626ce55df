#!/usr/bin/env python3
"""How the hosts' YAML parsers read every SKILL.md of the corpus: the ground truth for the
parser's agreement measure (SPEC section 9).  See HOSTS.md for which host uses which parser.

    python3 bench/skills/read_hosts.py [--corpus FILE]... [--out READINGS.json] [--summary SUMMARY.json]

Defaults: the committed corpus-registry.json (and local/corpus-github.json when present, built by
build_corpus.py from the public repositories); readings-<corpus>.json and summary-<corpus>.json
beside each corpus unless --out/--summary are given (one corpus then).

Parsers, each given the same frontmatter text (the lines between a first line '---' and the next
line '---', a leading BOM dropped, line ends kept):
  yaml         npm yaml 2.9.1, YAML.parse (Cloudflare agents, OpenClaw)
  js-yaml      npm js-yaml 4.1.0, load (opencode, Kimi Code and many tools)
  bun-yaml     Bun 1.4.5 Bun.YAML.parse (Claude Code, by its error messages; HOSTS.md)
  serde-yaml   Rust serde_yaml 0.9.34 (OpenAI Codex), serde-reader/
  pyyaml       PyYAML 6.0.3 yaml.safe_load (LangChain deepagents)
  strictyaml   strictyaml 1.7.3 via skills-ref 0.1.1 (the specification's reference library)
and gray-matter 4.0.3 (js-yaml 3 inside; Mastra) given the whole text, as Mastra gives it.
Then each host's loading, emulated from its public source (HOSTS.md): whether the skill loads,
and the name, description and allowed-tools it reads.

Needs (nothing is fetched at run time):
  pip install PyYAML==6.0.3 skills-ref==0.1.1
  npm install --prefix /tmp/skills-js --ignore-scripts yaml@2.9.1 js-yaml4@npm:js-yaml@4.1.0 \
      gray-matter@4.0.3 @oven/bun-linux-x64@1.4.5
  CARGO_TARGET_DIR=/tmp/skills-serde cargo build --release --manifest-path bench/skills/serde-reader/Cargo.toml
and the environment SKILLS_JS=/tmp/skills-js (a folder with those node_modules) and
SKILLS_SERDE=/tmp/skills-serde/release/skills-serde-reader (defaults: those paths).
A parser that cannot be run is reported as missing, and the rest still run.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
JS = os.environ.get("SKILLS_JS", "/tmp/skills-js")
SERDE = os.environ.get("SKILLS_SERDE", "/tmp/skills-serde/release/skills-serde-reader")
BUN = os.environ.get("SKILLS_BUN", os.path.join(JS, "node_modules/@oven/bun-linux-x64/bin/bun"))
PARSERS = ["yaml", "js-yaml", "bun-yaml", "serde-yaml", "pyyaml", "strictyaml"]


# ---------------------------------------------------------------- the canonical split
def split(text):
    """(frontmatter or None, body, flags)."""
    flags = []
    if text.startswith("\ufeff"):
        flags.append("bom")
        text = text[1:]
    if "\r\n" in text:
        flags.append("crlf")
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r").rstrip() != "---":
        return None, text, flags + ["no-frontmatter"]
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r").rstrip() == "---":
            return "\n".join(lines[1:i]) + ("\n" if i > 1 else ""), "\n".join(lines[i + 1:]), flags
    return None, text, flags + ["unclosed-frontmatter"]


def features(fm):
    """Constructs in the frontmatter text that the parsers are known to treat differently."""
    f = []
    for line in fm.split("\n"):
        s = line.rstrip("\r")
        m = re.match(r"^([A-Za-z0-9_-]+):[ \t]+(.*)$", s)
        if m:
            v = m.group(2)
            if v and v[0] not in "'\"|>[{&*!" and re.search(r"\S: ", v):
                f.append("plain-value-with-colon-space")
            if v.startswith("["):
                f.append("flow-sequence-value")
                if re.match(r"^\[[^\]]*\]\s*\S", v):
                    f.append("flow-sequence-then-text")
            if v.startswith("{"):
                f.append("flow-mapping-value")
            if v[:1] in "|>":
                f.append("block-scalar")
            if re.search(r"\s#", v) and v[0] not in "'\"":
                f.append("plain-value-with-hash")
            if v[:1] in "*&!%@`":
                f.append("value-starts-with-indicator")

        n = re.match(r"^\s*(?:- )?[A-Za-z0-9_-]+:[ \t]+(.*)$", s)
        if n:
            if re.match(r"^\d{4}-\d\d-\d\d", n.group(1)):
                f.append("date-like-value")
            if re.match(r"^(yes|no|on|off|y|n)$", n.group(1), re.I):
                f.append("yaml11-boolean-word")
        if s.startswith("\t") or re.match(r"^ +\t", s):
            f.append("tab-indentation")
        if re.match(r"^[A-Za-z0-9_-]+:\s*$", s):
            f.append("empty-or-nested-value")
    return sorted(set(f))


# ---------------------------------------------------------------- the parsers
def jsonable(v):
    if isinstance(v, dict):
        return {str(k) if not isinstance(k, str) else k: jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, (datetime.date, datetime.datetime)):
        return {"$date": v.isoformat()}
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return str(v)
    if isinstance(v, bytes):
        return {"$bytes": len(v)}
    return v


def py_readers(fm, text):
    out = {}
    try:
        out["pyyaml"] = {"value": jsonable(yaml.safe_load(fm))}
    except yaml.YAMLError as e:
        out["pyyaml"] = {"error": str(e).replace("\n", " ")[:300]}
    try:
        import strictyaml
        try:
            out["strictyaml"] = {"value": jsonable(strictyaml.load(fm).data)}
        except strictyaml.YAMLError as e:
            out["strictyaml"] = {"error": str(e).replace("\n", " ")[:300]}
    except ImportError:
        pass
    return out


def run_lines(cmd, rows, env=None):
    """Feed JSON lines to a helper, read one JSON line back per row; None when it cannot run."""
    try:
        p = subprocess.run(cmd, input="".join(json.dumps(r) + "\n" for r in rows), text=True,
                           capture_output=True, env=env, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("  (not run: %s: %s)" % (cmd[0], e), file=sys.stderr)
        return None
    if p.returncode != 0:
        print("  (not run: %s: %s)" % (cmd[0], p.stderr.strip()[:300]), file=sys.stderr)
        return None
    return {o["id"]: o for o in map(json.loads, p.stdout.splitlines())}


# ---------------------------------------------------------------- the hosts' loading, emulated
def collapse(s):
    return " ".join(s.split())


def first_body_line(body):
    for line in body.split("\n"):
        line = line.strip().lstrip("#").strip()
        if line:
            return line
    return ""


def host_readings(f, fm, body, r, dirname):
    text = f["text"]
    h = {}

    def loaded(name, description, allowed=None, note=None):
        d = {"loads": True, "name": name, "description": description}
        if allowed is not None:
            d["allowed_tools"] = allowed
        if note:
            d["note"] = note
        return d

    def refused(why):
        return {"loads": False, "why": why}

    if fm is None:
        # no frontmatter (by the canonical split): every host but Claude Code refuses the file
        why = "no frontmatter"
        for hname in ("codex", "cloudflare-agents", "deepagents", "mastra"):
            h[hname] = refused(why)
        h["claude-code"] = loaded(dirname, first_body_line(body), None, "no frontmatter: directory name, body's first line")
    # OpenAI Codex: first line '---' (trimmed), closing '---', serde_yaml into optional strings
    lines = [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]
    cfm = None
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                cfm = lines[1:i] if i > 1 else None
                break
    s = r.get("serde-yaml")
    if "codex" in h:
        pass
    elif s is None:
        h["codex"] = {"missing": "serde-reader not run"}
    elif cfm is None:
        h["codex"] = refused("missing YAML frontmatter delimited by ---")
    elif s.get("typed_same_text") and s["typed_same_text"] != "ok":
        h["codex"] = refused("invalid YAML: " + s["typed_same_text"][:200])
    else:
        v = s.get("value") or {}
        # serde_yaml reads a plain scalar into a String field as written (2048 -> "2048")
        sv = lambda x: stringify(x) if isinstance(x, (str, int, float, bool)) else ""
        name = collapse(sv(v.get("name"))) or dirname
        desc = collapse(sv(v.get("description")))
        if not desc:
            h["codex"] = refused("missing field `description`")
        elif len(desc) > 1024:
            h["codex"] = refused("invalid description: exceeds maximum length of 1024 characters")
        elif len(name) > 64:
            h["codex"] = refused("invalid name: exceeds maximum length of 64 characters")
        else:
            h["codex"] = loaded(name, desc)

    # Cloudflare agents: /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/, then YAML.parse (throws)
    m = re.match(r"^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$", text)
    y = r.get("yaml")
    if "cloudflare-agents" in h:
        pass
    elif y is None:
        h["cloudflare-agents"] = {"missing": "yaml not run"}
    elif not m:
        h["cloudflare-agents"] = refused("no frontmatter matched: data {}, no name")
    elif "error" in r.get("yaml-cf", {}):
        h["cloudflare-agents"] = refused("YAML.parse threw: " + r["yaml-cf"]["error"][:200])
    else:
        v = r.get("yaml-cf", {}).get("value")
        v = v if isinstance(v, dict) else {}
        name = v.get("name").strip() if isinstance(v.get("name"), str) else ""
        desc = v.get("description").strip() if isinstance(v.get("description"), str) else ""
        at = v.get("allowed-tools")
        if not name or not desc:
            h["cloudflare-agents"] = refused("name or description not a non-empty string")
        else:
            h["cloudflare-agents"] = loaded(name, desc, at.strip() if isinstance(at, str) and at.strip() else None,
                                            None if at is None or isinstance(at, str) else "allowed-tools not a string: dropped")

    # LangChain deepagents 0.7.32: ^---\s*\n(.*?)\n---\s*\n, yaml.safe_load, str() of name/description
    m = re.match(r"^---\s*\n(.*?)\n---\s*\n", text, re.S)
    if "deepagents" in h:
        pass
    elif not m:
        h["deepagents"] = refused("no valid YAML frontmatter found")
    else:
        try:
            v = yaml.safe_load(m.group(1))
        except yaml.YAMLError as e:
            v = None
            h["deepagents"] = refused("Invalid YAML: " + str(e).split("\n")[0][:200])
        if "deepagents" not in h:
            if not isinstance(v, dict):
                h["deepagents"] = refused("frontmatter is not a mapping")
            else:
                name = str(v.get("name", "")).strip()
                desc = str(v.get("description", "")).strip()
                if not name or not desc:
                    h["deepagents"] = refused("missing required 'name' or 'description'")
                else:
                    at = v.get("allowed-tools")
                    tools = ([t for t in re.split(r"[\s,]+", at) if t] if isinstance(at, str) else
                             [t.strip() for t in at if isinstance(t, str) and t.strip()] if isinstance(at, list) else [])
                    h["deepagents"] = loaded(name, desc[:1024], tools,
                                             "description cut to 1024" if len(desc) > 1024 else None)

    # Mastra 1.71.0: gray-matter, then validateOnLoad (default true)
    g = r.get("gray-matter")
    if "mastra" in h:
        pass
    elif g is None:
        h["mastra"] = {"missing": "gray-matter not run"}
    elif "error" in g:
        h["mastra"] = refused("gray-matter threw: " + g["error"][:200])
    else:
        v = g["value"]["data"] if isinstance(g["value"].get("data"), dict) else {}
        name, desc = v.get("name"), v.get("description")
        errs = []
        if not isinstance(name, str) or not name:
            errs.append("name not a non-empty string")
        else:
            if len(name) > 64 or not re.match(r"^[a-z0-9-]+$", name) or name[0] == "-" or name[-1] == "-" or "--" in name:
                errs.append("name not lowercase letters, digits and single hyphens (64 at most)")
            if name != dirname:
                errs.append("name does not match the directory")
        if not isinstance(desc, str) or not desc.strip():
            errs.append("description not a non-empty string")
        elif len(desc) > 1024:
            errs.append("description over 1024 characters")
        h["mastra"] = refused("; ".join(errs)) if errs else loaded(name, desc)

    # Claude Code (closed source; HOSTS.md): Bun.YAML.parse; on a parse error the frontmatter is {}
    # (a warning), the name falls back to the directory and the description to the body's first line
    b = r.get("bun-yaml")
    if "claude-code" in h:
        pass
    elif b is None:
        h["claude-code"] = {"missing": "bun not run"}
    elif fm is None:
        h["claude-code"] = loaded(dirname, first_body_line(body), None, "no frontmatter: directory name, body's first line")
    elif "error" in b:
        h["claude-code"] = loaded(dirname, first_body_line(body), None,
                                  "YAML error, frontmatter dropped: directory name, body's first line")
    else:
        v = b.get("value") if isinstance(b.get("value"), dict) else {}
        name = v.get("name") if isinstance(v.get("name"), str) and v.get("name").strip() else dirname
        desc = v.get("description") if isinstance(v.get("description"), str) else first_body_line(body)
        at = v.get("allowed-tools")
        h["claude-code"] = loaded(name, desc, at if at is not None else None)

    # skills-ref 0.1.1 (the specification's reference library): parse, then validate
    try:
        from skills_ref.parser import parse_frontmatter
        from skills_ref.validator import validate_metadata
        from skills_ref.errors import ParseError
        from pathlib import Path
        try:
            meta, _ = parse_frontmatter(text)
            errs = validate_metadata(meta, Path(dirname))
            h["skills-ref"] = {"loads": True, "valid": not errs, "errors": errs[:5]} if errs else {"loads": True, "valid": True}
        except ParseError as e:
            h["skills-ref"] = refused(str(e).replace("\n", " ")[:200])
    except ImportError:
        h["skills-ref"] = {"missing": "skills-ref not installed"}
    return h


# ---------------------------------------------------------------- comparing
def canon(v):
    """A value for comparison: numbers as floats, keys sorted."""
    if isinstance(v, dict):
        return {k: canon(x) for k, x in sorted(v.items())}
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float)):
        return float(v)
    return v


def stringify(v):
    """Every scalar as strictyaml gives it: a string (null as '', booleans in YAML's words)."""
    if isinstance(v, dict):
        return {k: stringify(x) for k, x in v.items()}
    if isinstance(v, list):
        return [stringify(x) for x in v]
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def read_corpus(path, out_path, summary_path):
    corpus = json.load(open(path, encoding="utf-8"))
    files = corpus["files"]
    print("%s: %d files" % (os.path.basename(path), len(files)), file=sys.stderr)
    rows, pre = [], {}
    for f in files:
        fm, body, flags = split(f["text"])
        pre[f["id"]] = (fm, body, flags)
        if fm is not None:
            rows.append({"id": f["id"], "fm": fm, "text": f["text"]})
    # the JavaScript parsers; Cloudflare's own split gives YAML.parse its group 1 (yaml-cf)
    env = dict(os.environ, SKILLS_JS_MODULES=JS)
    js = run_lines(["node", os.path.join(HERE, "read_js.mjs")], rows, env) or {}
    cf_rows = []
    for f in files:
        m = re.match(r"^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$", f["text"])
        if m:
            cf_rows.append({"id": f["id"], "fm": m.group(1), "text": f["text"]})
    cf = run_lines(["node", os.path.join(HERE, "read_js.mjs")], cf_rows, env) or {}
    bun = run_lines([BUN, os.path.join(HERE, "read_js.mjs")], rows, env) or {}
    serde = run_lines([SERDE], rows) or {}
    # Codex gives serde_yaml its own split (lines() with '\r' dropped, joined by '\n')
    cx_rows = []
    for f in files:
        lines = [l[:-1] if l.endswith("\r") else l for l in f["text"].split("\n")]
        if lines and lines[0].strip() == "---":
            for i in range(1, len(lines)):
                if lines[i].strip() == "---":
                    if i > 1:
                        cx_rows.append({"id": f["id"], "fm": "\n".join(lines[1:i]), "text": ""})
                    break
    cx = run_lines([SERDE], cx_rows) or {}
    have = {"yaml": bool(js), "js-yaml": bool(js), "gray-matter": bool(js), "bun-yaml": bool(bun),
            "serde-yaml": bool(serde), "pyyaml": True}
    try:
        import strictyaml  # noqa: F401
        have["strictyaml"] = True
    except ImportError:
        have["strictyaml"] = False

    readings = []
    for f in files:
        fm, body, flags = pre[f["id"]]
        dirname = f["path"].split("/")[-2] if "/" in f["path"] else ""
        entry = {"id": f["id"], "source": f["source"], "path": f["path"], "flags": flags}
        r = {}
        if fm is not None:
            entry["features"] = features(fm)
            r.update(py_readers(fm, f["text"]))
            j = js.get(f["id"], {})
            for p in ("yaml", "js-yaml", "gray-matter"):
                if p in j:
                    r[p] = j[p]
            if f["id"] in bun:
                r["bun-yaml"] = bun[f["id"]]["bun-yaml"]
            if f["id"] in serde:
                s = serde[f["id"]]
                r["serde-yaml"] = {k: s[k] for k in ("value", "error") if k in s}
        else:
            gj = js.get(f["id"])
        if f["id"] in cf:
            r["yaml-cf"] = cf[f["id"]]["yaml"]
        if fm is None and f["id"] not in js:
            # gray-matter also reads texts without frontmatter
            pass
        rr = dict(r)
        if "serde-yaml" in rr or f["id"] in cx:
            rr.setdefault("serde-yaml", {})
            rr["serde-yaml"] = dict(rr["serde-yaml"], typed_same_text=cx.get(f["id"], {}).get("typed"))
            if f["id"] in cx and "value" in cx[f["id"]]:
                rr["serde-yaml"]["value"] = cx[f["id"]]["value"]
        entry["parsers"] = {p: r[p] for p in PARSERS + ["gray-matter"] if p in r}
        entry["hosts"] = host_readings(f, fm, body, rr, dirname)
        readings.append(entry)

    summary = summarise(readings, have)
    summary["corpus"] = os.path.basename(path)
    with open(out_path, "w", encoding="utf-8") as o:
        o.write('{"about": "Each file\'s reading by each parser ({value}|{error}) and each host\'s loading, emulated (HOSTS.md); read_hosts.py made it.",\n"files": [\n')
        o.write(",\n".join(json.dumps(e, ensure_ascii=False, sort_keys=False) for e in readings))
        o.write("\n]}\n")
    with open(summary_path, "w", encoding="utf-8") as o:
        json.dump(summary, o, ensure_ascii=False, indent=1)
        o.write("\n")
    print_summary(summary)


def summarise(readings, have):
    n = len(readings)
    with_fm = [e for e in readings if "features" in e]
    errors = {p: sum(1 for e in with_fm if "error" in e["parsers"].get(p, {})) for p in PARSERS + ["gray-matter"] if have.get(p)}
    pair = {}
    ps = [p for p in PARSERS if have.get(p)]
    for i, a in enumerate(ps):
        for b in ps[i + 1:]:
            both_ok = diff_value = one_fails = 0
            for e in with_fm:
                ra, rb = e["parsers"].get(a, {}), e["parsers"].get(b, {})
                if "value" in ra and "value" in rb:
                    both_ok += 1
                    if canon(ra["value"]) != canon(rb["value"]):
                        diff_value += 1
                elif ("value" in ra) != ("value" in rb):
                    one_fails += 1
            pair["%s vs %s" % (a, b)] = {"one_fails": one_fails, "both_read_but_differ": diff_value}
    # disagreement classes: which parsers fail together, by feature
    patterns = Counter()
    examples = defaultdict(list)
    by_feature = defaultdict(Counter)
    for e in with_fm:
        fails = tuple(p for p in ps if "error" in e["parsers"].get(p, {}))
        # strictyaml reads every scalar as a string: its values are compared as strings
        groups = defaultdict(list)
        for p in ps:
            if "value" in e["parsers"].get(p, {}):
                v = e["parsers"][p]["value"]
                groups[json.dumps(canon(stringify(v) if p == "strictyaml" or "strictyaml" in ps else v), sort_keys=True)].append(p)
        typed = defaultdict(list)
        for p in ps:
            if p != "strictyaml" and "value" in e["parsers"].get(p, {}):
                typed[json.dumps(canon(e["parsers"][p]["value"]), sort_keys=True)].append(p)
        if fails or len(typed) > 1 or len(groups) > 1:
            key = "fail: " + ",".join(fails) if fails else "all read"
            if len(typed) > 1:
                key += " | values differ: " + " vs ".join("{" + ",".join(g) + "}" for g in sorted(typed.values(), key=len, reverse=True))
            elif len(groups) > 1:
                key += " | strings differ: " + " vs ".join("{" + ",".join(g) + "}" for g in sorted(groups.values(), key=len, reverse=True))
            patterns[key] += 1
            if len(examples[key]) < 8:
                examples[key].append(e["id"])
            for ft in e["features"] or ["(none)"]:
                by_feature[ft][key] += 1
    hosts = defaultdict(Counter)
    for e in readings:
        for hname, hv in e["hosts"].items():
            hosts[hname]["missing" if "missing" in hv else "loads" if hv.get("loads") else "refused"] += 1
            if hv.get("note"):
                hosts[hname]["note: " + hv["note"]] += 1
            if hname == "skills-ref" and hv.get("loads"):
                hosts[hname]["valid" if hv.get("valid") else "invalid"] += 1
    # hosts that load a file but read different names or descriptions
    host_diff = Counter()
    host_diff_ex = defaultdict(list)
    hn = ["claude-code", "codex", "cloudflare-agents", "deepagents", "mastra"]
    for e in readings:
        got = {h: e["hosts"][h] for h in hn if e["hosts"].get(h, {}).get("loads")}
        loads = tuple(sorted(got))
        if len(loads) not in (0, len(hn)):
            k = "loaded only by: " + ",".join(loads)
            host_diff[k] += 1
            if len(host_diff_ex[k]) < 6:
                host_diff_ex[k].append(e["id"])
        descs = {h: collapse(str(v.get("description", ""))) for h, v in got.items()}
        if len(set(descs.values())) > 1:
            host_diff["description read differently"] += 1
            if len(host_diff_ex["description read differently"]) < 6:
                host_diff_ex["description read differently"].append(e["id"])
    feats = Counter(ft for e in with_fm for ft in e["features"])
    flags = Counter(fl for e in readings for fl in e["flags"])
    return {
        "files": n, "with_frontmatter": len(with_fm), "flags": dict(flags), "features": dict(feats),
        "parsers_run": [p for p in PARSERS + ["gray-matter"] if have.get(p)],
        "parse_errors": errors, "pairs": pair,
        "disagreements": {k: {"files": v, "examples": examples[k]} for k, v in patterns.most_common()},
        "disagreements_by_feature": {k: dict(v) for k, v in sorted(by_feature.items())},
        "hosts": {k: dict(v) for k, v in hosts.items()},
        "hosts_differ": {k: {"files": v, "examples": host_diff_ex[k]} for k, v in host_diff.most_common()},
    }


def print_summary(s):
    print("files %d (with frontmatter %d); flags %s" % (s["files"], s["with_frontmatter"], s["flags"]))
    print("parse errors by parser: %s" % s["parse_errors"])
    for k, v in s["disagreements"].items():
        print("  %4d  %s   e.g. %s" % (v["files"], k, " ".join(v["examples"][:4])))
    print("hosts:")
    for k, v in s["hosts"].items():
        print("  %-18s %s" % (k, v))
    for k, v in s["hosts_differ"].items():
        print("  %4d  %s   e.g. %s" % (v["files"], k, " ".join(v["examples"][:4])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--out")
    ap.add_argument("--summary")
    a = ap.parse_args()
    corpora = a.corpus or [p for p in (os.path.join(HERE, "corpus-registry.json"),
                                       os.path.join(HERE, "local", "corpus-github.json")) if os.path.exists(p)]
    for c in corpora:
        stem = os.path.basename(c).replace("corpus-", "").replace(".json", "")
        out = a.out or os.path.join(os.path.dirname(c), "readings-%s.json" % stem)
        summ = a.summary or os.path.join(os.path.dirname(c), "summary-%s.json" % stem)
        read_corpus(c, out, summ)


if __name__ == "__main__":
    main()
