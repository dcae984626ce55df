#!/usr/bin/env python3
"""Build the SkillsBench skill-retrieval set (skillsbench.json) from a copy of SkillsBench's
tasks with the task -> gold-skill mapping of arXiv 2604.04323 ("How Well Do Agentic Skills Work
in the Wild", github.com/yujianll/skill-usage, data/task_skill_mapping.json).

    python3 derive_skillsbench.py SOURCE OUT.json [--full]

SOURCE is that repository, as a folder or a bare git directory (its HEAD is read).
Anthropic's document skills (licence "Proprietary", all rights reserved) keep their texts out:
they are listed by id only, with "withheld": true, unless --full is given (for a local
measurement only; a --full file is not to be redistributed).
Python 3.11 and PyYAML.  See LICENSE-NOTE.md.
"""
import collections
import hashlib
import json
import re
import sys

import yaml

from srcread import Source

HOST_TOOLS = ["Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "WebFetch",
              "WebSearch", "Task", "TodoWrite", "NotebookEdit", "Skill", "BashOutput", "KillShell"]
SHELL_LANGS = {"bash", "sh", "shell", "console", "zsh", "shell-session", "terminal"}
NOT_COMMANDS = {"cd", "echo", "export", "set", "source", "if", "then", "else", "fi", "for", "do",
                "done", "while", "case", "esac", "in", "true", "false", "exit", "return", "local",
                "#", "$", "}", "{", "(", ")", "[", "]", "&&", "||", "|", "\\", "sudo", "env", "time",
                "eval", "exec", "alias", "unset", "read", "printf", "test", "function", "let"}


def split_frontmatter(text):
    """(frontmatter text or None, body).  Accepts a BOM and CRLF."""
    t = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not t.startswith("---\n") and t.strip() != "---":
        return None, t
    lines = t.split("\n")
    for i in range(1, len(lines)):
        if lines[i].rstrip() == "---":
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1:])
    return None, t


def lenient(fm):
    """A host's fallback line reader: top-level 'key: value' lines, quotes stripped."""
    out = {}
    for line in fm.split("\n"):
        m = re.match(r"^([A-Za-z0-9_-]+):\s*(.*)$", line)
        if m:
            v = m.group(2).strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            out[m.group(1)] = v
    return out


def read_frontmatter(text):
    fm, body = split_frontmatter(text)
    if fm is None:
        return {}, body, "no frontmatter"
    try:
        data = yaml.safe_load(fm)
        if isinstance(data, dict):
            return data, body, None
        return lenient(fm), body, "frontmatter is not a mapping"
    except yaml.YAMLError as e:
        return lenient(fm), body, "PyYAML: " + str(e).split("\n")[0]


def allowed_tools(v):
    if v is None:
        return None
    items = v if isinstance(v, list) else re.findall(r"[^\s(,]+(?:\([^)]*\))?", str(v))
    out = []
    for it in items:
        it = str(it).strip().strip(",")
        m = re.match(r"^([^()]+)\((.*)\)$", it)
        out.append({"tool": m.group(1), "scope": m.group(2)} if m else {"tool": it, "scope": None})
    return out


def mentions(body):
    tools = sorted(t for t in HOST_TOOLS
                   if re.search(r"`%s`|\b%s tool\b|\buse %s\b" % (t, t, t), body))
    cmds = collections.Counter()
    for lang, block in re.findall(r"```([A-Za-z-]*)\n(.*?)```", body, flags=re.S):
        if lang.lower() not in SHELL_LANGS:
            continue
        for line in block.split("\n"):
            line = line.strip()
            if line.startswith("$ "):
                line = line[2:]
            if not line or line.startswith("#"):
                continue
            for seg in re.split(r"\s*(?:\|\||&&|\||;)\s*", line):
                words = seg.split()
                while words and (re.match(r"^[A-Z_]+=", words[0]) or words[0] in ("sudo", "env", "time", "nohup")):
                    words = words[1:]
                if words:
                    w = words[0]
                    if re.match(r"^[a-z][a-z0-9._+-]*$", w) and w not in NOT_COMMANDS:
                        cmds[w] += 1
    return tools, sorted(cmds)


def is_withheld(name, fm):
    """Anthropic's document skills, and any skill whose own 'license' field says proprietary."""
    lic = str(fm.get("license", ""))
    return bool(re.search(r"proprietary|all rights reserved", lic, re.I))


def main(argv):
    src, out_path = argv[1], argv[2]
    full = "--full" in argv
    s = Source(src)
    paths = s.files()
    mapping = json.loads(s.read("data/task_skill_mapping.json"))
    keyword_queries = json.loads(s.read("data/task_queries.json"))
    tasks = sorted({p.split("/")[1] for p in paths if re.match(r"^tasks/[^/]+/instruction\.md$", p)})

    # every SKILL.md of every task, in task order then path order
    files = collections.defaultdict(list)
    for p in paths:
        m = re.match(r"^tasks/([^/]+)/environment/skills/(.+)/SKILL\.md$", p)
        if m:
            files[m.group(1)].append(p)

    # a skill's id is its frontmatter name; a name with several distinct texts gets -1, -2, ...
    # in the order the texts first appear (tasks sorted by id, then paths sorted)
    texts = {}
    by_name = collections.OrderedDict()
    for t in tasks:
        for p in files[t]:
            raw = s.read(p).decode("utf-8")
            fm, body, err = read_frontmatter(raw)
            name = str(fm.get("name", p.split("/")[-2])).strip()
            h = hashlib.sha256(raw.encode()).hexdigest()
            texts[p] = (raw, fm, body, err, name, h)
            by_name.setdefault(name, [])
            if h not in by_name[name]:
                by_name[name].append(h)

    def sid(p):
        raw, fm, body, err, name, h = texts[p]
        hs = by_name[name]
        return name if len(hs) == 1 else "%s-%d" % (name, hs.index(h) + 1)

    skills = collections.OrderedDict()
    task_rows = []
    mismatches = []
    for t in tasks:
        gold = []
        for p in files[t]:
            i = sid(p)
            if i not in gold:
                gold.append(i)
            if i in skills:
                skills[i]["tasks"].append(t)
                continue
            raw, fm, body, err, name, h = texts[p]
            row = collections.OrderedDict(id=i, name=name, path=p, sha256=h, tasks=[t])
            withheld = is_withheld(name, fm)
            if withheld and not full:
                row["withheld"] = True
                row["licence"] = "frontmatter license: %s (text withheld)" % fm.get("license")
            else:
                if withheld:
                    row["withheld_when_redistributed"] = True
                row["description"] = str(fm.get("description", "")).strip()
                row["body"] = body.strip("\n")
                row["licence"] = str(fm["license"]) if "license" in fm else None
                row["allowed_tools"] = allowed_tools(fm.get("allowed-tools"))
                row["frontmatter_fields"] = sorted(map(str, fm))
                tools, cmds = mentions(body)
                row["host_tools_mentioned"] = tools
                row["commands"] = cmds
                if err:
                    row["frontmatter_note"] = err
            skills[i] = row
        if sorted(gold) != sorted(mapping.get(t, [])):
            mismatches.append((t, sorted(gold), sorted(mapping.get(t, []))))
        toml = s.read("tasks/%s/task.toml" % t).decode("utf-8")
        meta = {}
        for key in ("category", "difficulty"):
            m = re.search(r'^%s\s*=\s*"([^"]*)"' % key, toml, flags=re.M)
            meta[key] = m.group(1) if m else None
        task_rows.append(collections.OrderedDict(
            id=t, query=s.read("tasks/%s/instruction.md" % t).decode("utf-8").strip(),
            keyword_queries=keyword_queries.get(t, []), gold=sorted(gold), **meta))

    if mismatches:
        for m in mismatches:
            print("MISMATCH", m, file=sys.stderr)
        sys.exit(1)
    withheld = [k for k, v in skills.items() if v.get("withheld") or v.get("withheld_when_redistributed")]
    lose = [t["id"] for t in task_rows if any(g in withheld for g in t["gold"])]
    only = [t["id"] for t in task_rows if all(g in withheld for g in t["gold"])]
    doc = collections.OrderedDict(
        source=collections.OrderedDict(
            benchmark="SkillsBench (arXiv 2602.12670, github.com/benchflow-ai/skillsbench), Apache-2.0",
            copy="github.com/yujianll/skill-usage (arXiv 2604.04323) tasks/ and data/",
            commit=s.commit),
        full=full,
        counts=collections.OrderedDict(
            tasks=len(task_rows), skills=len(skills), gold_pairs=sum(len(t["gold"]) for t in task_rows),
            withheld_skills=len(withheld), tasks_with_a_withheld_gold=len(lose),
            tasks_with_only_withheld_gold=len(only)),
        skills=list(skills.values()), tasks=task_rows)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(json.dumps(doc["counts"]))


if __name__ == "__main__":
    main(sys.argv)
