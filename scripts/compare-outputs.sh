#!/usr/bin/env bash
# Are two eudify binaries' outputs byte-identical? Enhances, under every profile the first binary
# lists, the 23 dev treebanks (DEPS as they are: enhance ignores them), the sample files under
# tests/data and the eval-reference inputs, with both binaries, and compares them by md5; also
# `explain` and `eval --json` on a few files. Used before/after a restructuring that must not
# change any output.
#
# Usage: scripts/compare-outputs.sh OLD_EUDIFY NEW_EUDIFY
#   Exit 0 when every output is identical; otherwise lists the runs that differ and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: $0 OLD_EUDIFY NEW_EUDIFY}
new=${2:?usage: $0 OLD_EUDIFY NEW_EUDIFY}
shared=${EUDIFY_SHARED:-../shared}/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

inputs=(tests/data/sample.conllu tests/data/ud/*/*.conllu)
[ -d "$shared/ud" ] && inputs+=("$shared"/ud/*/dev.conllu)
[ -d "$shared/eval-reference" ] && inputs+=("$shared"/eval-reference/*/*.conllu)
mapfile -t profiles < <("$old" profiles | awk 'NF && $1 !~ /:$/ {print $1}')
[ "${#profiles[@]}" -gt 0 ] || { echo "$0: $old profiles listed none" >&2; exit 1; }

runs=0 differ=0
same() { # label, then the command's arguments after the binary
  local label=$1; shift
  local a b
  a=$("$old" "$@" 2>"$tmp/old.err" | md5sum; echo "exit ${PIPESTATUS[0]}"; md5sum <"$tmp/old.err")
  b=$("$new" "$@" 2>"$tmp/new.err" | md5sum; echo "exit ${PIPESTATUS[0]}"; md5sum <"$tmp/new.err")
  runs=$((runs + 1))
  if [ "$a" != "$b" ]; then differ=$((differ + 1)); echo "DIFFERS: $label"; fi
}
for profile in "${profiles[@]}"; do
  for input in "${inputs[@]}"; do
    same "enhance --lang $profile $input" enhance --lang "$profile" --threads 2 "$input"
  done
done
same "explain cs sample" explain --lang cs tests/data/sample.conllu
for gold in "$shared"/ud/*/dev.conllu; do
  [ -f "$gold" ] || continue
  "$old" enhance --lang basic "$gold" >"$tmp/basic.conllu"
  same "eval --json $gold" eval --json "$gold" "$tmp/basic.conllu"
done
echo "$runs runs, $differ differ (profiles: ${#profiles[@]}, inputs: ${#inputs[@]})"
[ "$differ" -eq 0 ]
