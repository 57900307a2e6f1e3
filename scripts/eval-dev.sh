#!/usr/bin/env bash
# Dev ELAS/EULAS table: every treebank in ../shared/data/ud, basic baseline vs its profile.
# Usage: scripts/eval-dev.sh [path/to/eudify]   (default: target/release/eudify)
set -euo pipefail
cd "$(dirname "$0")/.."
eudify=${1:-target/release/eudify}
data=../shared/data/ud
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# UD treebank codes: language code + treebank name, as in UD file names.
declare -A lang=([Bulgarian]=bg [Czech]=cs [Dutch]=nl [English]=en [Estonian]=et [Finnish]=fi [French]=fr
  [Italian]=it [Latvian]=lv [Lithuanian]=lt [Polish]=pl [Portuguese]=pt [Slovak]=sk [Swedish]=sv [Tamil]=ta [Ukrainian]=uk)
score() { "$eudify" eval --json "$1" "$2" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f" % (d["ELAS"]["f1"], d["EULAS"]["f1"]))'; }
echo "| treebank | code | basic ELAS | basic EULAS | profile ELAS | profile EULAS | valid |"
echo "|---|---|---|---|---|---|---|"
for dir in "$data"/*/; do
  name=$(basename "$dir"); gold="$dir/dev.conllu"
  code="${lang[${name%%-*}]}_$(echo "${name#*-}" | tr 'A-Z' 'a-z')"
  "$eudify" enhance --lang basic "$gold" > "$tmp/basic.conllu"
  "$eudify" enhance --lang "$code" "$gold" > "$tmp/profile.conllu" 2>/dev/null
  read -r be bu < <(score "$gold" "$tmp/basic.conllu")
  read -r pe pu < <(score "$gold" "$tmp/profile.conllu")
  valid=$("$eudify" validate "$tmp/profile.conllu" >/dev/null 2>&1 && echo yes || echo no)
  echo "| $name | $code | $be | $bu | $pe | $pu | $valid |"
done
