#!/usr/bin/env python3
"""Writes edge-cases.json: hand-written SKILL.md texts (this project's own, MIT like the
project) for the constructs that real hosts read differently; read_hosts.py reads them like the
corpora.  Each has an id, the directory it would sit in (the path) and what it exercises."""
import json
import os

LONG = "Use this skill to " + "review, refactor and document code across many languages " * 20
CASES = [
    ("plain", "plain name and description", "---\nname: plain\ndescription: Formats tables.\n---\n# Plain\n"),
    ("bom", "a leading byte order mark", "\ufeff---\nname: bom\ndescription: Has a BOM.\n---\n# Bom\n"),
    ("crlf", "CRLF line ends", "---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\n# Crlf\r\n"),
    ("bom-crlf", "a BOM and CRLF", "\ufeff---\r\nname: bom-crlf\r\ndescription: Both.\r\n---\r\n# X\r\n"),
    ("colon-space", "an unquoted ': ' inside the description", "---\nname: colon-space\ndescription: Deploys the app. Use when: the user asks to ship.\n---\n# X\n"),
    ("colon-end", "a description ending in ':'", "---\nname: colon-end\ndescription: Does these things:\n---\n# X\n"),
    ("hash", "an unquoted ' #' inside the description (a comment to YAML)", "---\nname: hash\ndescription: Ranks issues #1 first\n---\n# X\n"),
    ("argument-hint", "argument-hint: [x] (optional)", "---\nname: argument-hint\ndescription: Runs a report.\nargument-hint: [file] (optional)\n---\n# X\n"),
    ("argument-hint-colon", "argument-hint: [optional: value]", "---\nname: argument-hint-colon\ndescription: Runs a report.\nargument-hint: [optional: value]\n---\n# X\n"),
    ("glob", "an unquoted glob starting with '*'", "---\nname: glob\ndescription: Lints TypeScript.\npaths: **/*.ts\n---\n# X\n"),
    ("glob-quoted", "a quoted glob", "---\nname: glob-quoted\ndescription: Lints TypeScript.\npaths: \"**/*.ts\"\n---\n# X\n"),
    ("flow-tools", "allowed-tools as a flow list", "---\nname: flow-tools\ndescription: Reads code.\nallowed-tools: [Read, Grep]\n---\n# X\n"),
    ("block-tools", "allowed-tools as a block list", "---\nname: block-tools\ndescription: Reads code.\nallowed-tools:\n  - Read\n  - Bash(git diff:*)\n---\n# X\n"),
    ("string-tools", "allowed-tools as a space-delimited string with scopes", "---\nname: string-tools\ndescription: Reads code.\nallowed-tools: Read Bash(git status:*) Bash(npm test)\n---\n# X\n"),
    ("comma-tools", "allowed-tools as a comma-separated string", "---\nname: comma-tools\ndescription: Reads code.\nallowed-tools: Read, Grep, Glob\n---\n# X\n"),
    ("literal", "a literal block scalar description", "---\nname: literal\ndescription: |\n  First line.\n  Second line.\n---\n# X\n"),
    ("folded", "a folded block scalar description", "---\nname: folded\ndescription: >-\n  First line\n  continues here.\n---\n# X\n"),
    ("multiline-plain", "a plain description over two lines", "---\nname: multiline-plain\ndescription: First line\n  continues here.\n---\n# X\n"),
    ("multiline-double", "a double-quoted description over two lines with escapes", "---\nname: multiline-double\ndescription: \"Says \\\"hi\\\",\n  twice.\"\n---\n# X\n"),
    ("capitals", "a name with capitals and spaces", "---\nname: My Skill\ndescription: Capitals.\n---\n# X\n"),
    ("long-description", "a description over 1,024 characters", "---\nname: long-description\ndescription: %s\n---\n# X\n" % LONG.strip()),
    ("unknown-fields", "fields hosts add", "---\nname: unknown-fields\ndescription: Host fields.\nwhen_to_use: When asked.\ndisable-model-invocation: true\nmodel: opus\nuser-invocable: false\n---\n# X\n"),
    ("metadata", "a metadata mapping with numbers and a date", "---\nname: metadata\ndescription: Metadata.\nmetadata:\n  version: 1.0\n  updated: 2025-10-01\n  tags: [a, b]\n---\n# X\n"),
    ("yes-no", "YAML 1.1 boolean words", "---\nname: yes-no\ndescription: Words.\nenabled: yes\nmode: on\n---\n# X\n"),
    ("number-name", "a name that is a number", "---\nname: 2048\ndescription: A number for a name.\n---\n# X\n"),
    ("tab-indent", "a tab-indented continuation", "---\nname: tab-indent\ndescription: Tabs.\nmetadata:\n\tauthor: me\n---\n# X\n"),
    ("anchor", "an anchor and an alias", "---\nname: anchor\ndescription: &d Anchored.\nsummary: *d\n---\n# X\n"),
    ("duplicate-key", "a key given twice", "---\nname: duplicate-key\ndescription: First.\ndescription: Second.\n---\n# X\n"),
    ("dashes-in-value", "'---' inside a value", "---\nname: dashes-in-value\ndescription: Splits on --- markers.\n---\n# X\n"),
    ("no-close", "frontmatter never closed", "---\nname: no-close\ndescription: Never closed.\n# X\n"),
    ("no-frontmatter", "no frontmatter", "# Just markdown\n\nDoes things.\n"),
    ("empty-frontmatter", "an empty frontmatter", "---\n---\n# X\n"),
    ("leading-blank", "a blank line before the first '---'", "\n---\nname: leading-blank\ndescription: Blank first line.\n---\n# X\n"),
    ("trailing-space", "'--- ' with a trailing space", "--- \nname: trailing-space\ndescription: Trailing space.\n--- \n# X\n"),
    ("missing-description", "no description", "---\nname: missing-description\n---\n# X\n"),
    ("empty-description", "an empty description", "---\nname: empty-description\ndescription:\n---\n# X\n"),
    ("quoted-single", "a single-quoted description with ''", "---\nname: quoted-single\ndescription: 'It''s quoted: fine.'\n---\n# X\n"),
    ("tag", "an explicit tag", "---\nname: tag\ndescription: !!str Tagged.\n---\n# X\n"),
    ("json-metadata", "metadata as multi-line JSON (OpenClaw's style)", "---\nname: json-metadata\ndescription: JSON.\nmetadata:\n  {\n    \"openclaw\": { \"emoji\": \"x\", \"requires\": { \"bins\": [\"op\"] } },\n  }\n---\n# X\n"),
    ("document-end", "a '...' line before the closing '---'", "---\nname: document-end\ndescription: Ends.\n...\n---\n# X\n"),
]


def main():
    files = [{"id": "e%02d-%s" % (i, cid), "source": "tool-palette (hand-written)", "path": "%s/SKILL.md" % cid,
              "version": None, "licence": "MIT", "sha256": None, "what": what, "text": text}
             for i, (cid, what, text) in enumerate(CASES)]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "edge-cases.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"about": "Hand-written SKILL.md texts for the constructs hosts read differently (make_edge_cases.py).",
                   "files": files}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(out, len(files))


if __name__ == "__main__":
    main()
