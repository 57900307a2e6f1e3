#!/usr/bin/env bash
# Dev ELAS when the parser wrote no lemmas: every treebank in ../shared/data/ud, its gold dev
# file enhanced with its profile as it is and with LEMMA blanked (`_` in column 3 of word and
# empty-node lines; every other column kept), both scored against the gold file.
# Usage: scripts/eval-dev-nolemma.sh [path/to/eudify] [path/to/older/eudify]
# With an older build, adds its ELAS on the blanked files and whether both builds' outputs on
# the lemmatised files are byte-identical.
set -euo pipefail
cd "$(dirname "$0")/.."
eudify=${1:-target/release/eudify}
before=${2:-}
data=../shared/data/ud
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A lang=([Bulgarian]=bg [Czech]=cs [Dutch]=nl [English]=en [Estonian]=et [Finnish]=fi [French]=fr
  [Italian]=it [Latvian]=lv [Lithuanian]=lt [Polish]=pl [Portuguese]=pt [Slovak]=sk [Swedish]=sv [Tamil]=ta [Ukrainian]=uk)
elas() { "$1" eval --json "$2" "$3" | python3 -c 'import json,sys; print("%.2f" % json.load(sys.stdin)["ELAS"]["f1"])'; }
if [ -n "$before" ]; then
  echo "| treebank | ELAS | ELAS no lemmas, before | loss before | ELAS no lemmas | loss | lemmatised output unchanged |"
  echo "|---|---|---|---|---|---|---|"
else
  echo "| treebank | ELAS | ELAS no lemmas | loss |"
  echo "|---|---|---|---|"
fi
for dir in "$data"/*/; do
  name=$(basename "$dir"); gold="$dir/dev.conllu"
  code="${lang[${name%%-*}]}_$(echo "${name#*-}" | tr 'A-Z' 'a-z')"
  # Word lines (ID n) and empty-node lines (ID n.m); multiword-token ranges have no lemma.
  awk -F'\t' -v OFS='\t' '$1 ~ /^[0-9]+(\.[0-9]+)?$/ && NF == 10 { $3 = "_" } { print }' "$gold" > "$tmp/blank.conllu"
  "$eudify" enhance --lang "$code" "$gold" > "$tmp/full.conllu" 2>/dev/null
  "$eudify" enhance --lang "$code" "$tmp/blank.conllu" > "$tmp/blank.out" 2>/dev/null
  full=$(elas "$eudify" "$gold" "$tmp/full.conllu")
  blank=$(elas "$eudify" "$gold" "$tmp/blank.out")
  loss=$(python3 -c "print('%.2f' % ($full - $blank))")
  if [ -n "$before" ]; then
    "$before" enhance --lang "$code" "$gold" > "$tmp/full.before" 2>/dev/null
    "$before" enhance --lang "$code" "$tmp/blank.conllu" > "$tmp/blank.before" 2>/dev/null
    old=$(elas "$eudify" "$gold" "$tmp/blank.before")
    old_loss=$(python3 -c "print('%.2f' % ($full - $old))")
    same=$(cmp -s "$tmp/full.conllu" "$tmp/full.before" && echo yes || echo NO)
    echo "| $name | $full | $old | $old_loss | $blank | $loss | $same |"
  else
    echo "| $name | $full | $blank | $loss |"
  fi
done
