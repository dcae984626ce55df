#!/bin/sh
# Downloads and unpacks the registry packages the committed corpus (corpus-registry.json) was
# read from, at their exact versions, into $1 (default /tmp/skills-packages); then
#   python3 bench/skills/build_corpus.py registry "$1" OUT.json MANIFEST.json
# rebuilds it.  npm and pip only; nothing in them is run.
set -eu
dir="${1:-/tmp/skills-packages}"
mkdir -p "$dir/npm" "$dir/pypi" "$dir/dl"
cd "$dir/dl"
for spec in openclaw@2026.9.6 specweave@1.0.593 ai-labs-claude-skills@2.0.1 cc-sdd@3.0.2 \
            @wednesday-solutions-eng/ai-agent-skills@1.1.0 dev3000@0.0.170 @n8n-as-code/skills@2.3.0-next.150; do
  tgz=$(npm pack "$spec" --silent --ignore-scripts | tail -1)
  name=$(basename "$tgz" .tgz)
  mkdir -p "$dir/npm/$name" && tar xzf "$tgz" -C "$dir/npm/$name"
done
pip download --no-deps --python-version 3.12 --only-binary=:all: adclaw==1.0.33 -d "$dir/dl" >/dev/null
mkdir -p "$dir/pypi/adclaw-1.0.33" && python3 -m zipfile -e "$dir/dl/adclaw-1.0.33-py3-none-any.whl" "$dir/pypi/adclaw-1.0.33"
echo "$dir"
