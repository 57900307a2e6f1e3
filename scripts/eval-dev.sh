#!/usr/bin/env bash
# Dev ELAS/EULAS of every treebank in ${EUDIFY_SHARED:-../shared}/data/ud: the copy baseline
# (`--lang basic`) vs the treebank's profile, and whether the output validates.
#
# Usage: scripts/eval-dev.sh [--write] [path/to/eudify]   (default: target/release/eudify)
#   Prints the table. With --write it also refreshes the files the tests check against:
#   tests/dev-scores.tsv (the full dev treebanks), tests/sample-scores.tsv (the sample in
#   tests/data/ud) and the README's dev table, generated from tests/dev-scores.tsv.
#   tests/dev_scores.rs fails when an ELAS drops more than 0.05 below these files, or when the
#   README table differs from the file: commit improvements with the refreshed files.
set -euo pipefail
cd "$(dirname "$0")/.."
write=no
if [ "${1:-}" = --write ]; then write=yes; shift; fi
eudify=${1:-target/release/eudify}
data=${EUDIFY_SHARED:-../shared}/data/ud
sample=tests/data/ud
[ -x "$eudify" ] || { echo "$0: $eudify not found: cargo build --release, or pass the binary" >&2; exit 1; }
[ -d "$data" ] || { echo "$0: $data not found (the UD dev treebanks; see README \"Test data\")" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The one map from treebank folders to `--lang` codes: UD's language code + the treebank name,
# as in UD file names (Czech-CAC → cs_cac). The tests read the codes from the score files.
declare -A lang=([Bulgarian]=bg [Czech]=cs [Dutch]=nl [English]=en [Estonian]=et [Finnish]=fi [French]=fr
  [Italian]=it [Latvian]=lv [Lithuanian]=lt [Polish]=pl [Portuguese]=pt [Slovak]=sk [Swedish]=sv [Tamil]=ta [Ukrainian]=uk)
code_of() {
  local name=$1 language=${1%%-*}
  [ -n "${lang[$language]:-}" ] || { echo "$0: no language code for $name: add $language to the map" >&2; exit 1; }
  echo "${lang[$language]}_$(echo "${name#*-}" | tr 'A-Z' 'a-z')"
}
score() { "$eudify" eval --json "$1" "$2" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f" % (d["ELAS"]["f1"], d["EULAS"]["f1"]))'; }

# Writes the score file $2 for the treebanks under $1; prints the markdown table of it.
evaluate() {
  local root=$1 out=$2
  {
    echo "# Dev ELAS/EULAS F1 of each treebank under its profile (eudify enhance --lang CODE) and of the"
    echo "# copy baseline (--lang basic), with gold basic trees. Written by scripts/eval-dev.sh --write;"
    echo "# tests/dev_scores.rs fails if an ELAS drops more than 0.05 below it. Also the treebank → code map."
    printf 'treebank\tcode\tbasic_elas\tbasic_eulas\telas\teulas\n'
  } > "$out"
  echo "| treebank | code | basic ELAS | basic EULAS | profile ELAS | profile EULAS | valid |"
  echo "|---|---|---|---|---|---|---|"
  for dir in "$root"/*/; do
    local name gold code be bu pe pu valid
    name=$(basename "$dir"); gold="$dir/dev.conllu"
    [ -f "$gold" ] || continue
    code=$(code_of "$name")
    "$eudify" enhance --lang basic "$gold" > "$tmp/basic.conllu"
    "$eudify" enhance --lang "$code" "$gold" > "$tmp/profile.conllu" 2>/dev/null
    read -r be bu < <(score "$gold" "$tmp/basic.conllu")
    read -r pe pu < <(score "$gold" "$tmp/profile.conllu")
    valid=$("$eudify" validate "$tmp/profile.conllu" >/dev/null 2>&1 && echo yes || echo no)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$code" "$be" "$bu" "$pe" "$pu" >> "$out"
    echo "| $name | $code | $be | $bu | $pe | $pu | $valid |"
  done
}

# The README's table: two treebanks a row, filled column by column; tests/dev_scores.rs renders
# the same from the file and compares.
readme_table() {
  awk -F'\t' '
    BEGIN { n = 0 }
    /^#/ || $1 == "treebank" { next }
    { name[n] = $1; basic[n] = $3; elas[n] = $5; n++ }
    END {
      print "| treebank | basic | eudify | treebank | basic | eudify |"
      print "|---|---|---|---|---|---|"
      half = int((n + 1) / 2)
      for (i = 0; i < half; i++) {
        line = sprintf("| %s | %.2f | %.2f |", name[i], basic[i], elas[i])
        j = i + half
        if (j < n) line = line sprintf(" %s | %.2f | %.2f |", name[j], basic[j], elas[j])
        else line = line "  |  |  |"
        print line
      }
    }' "$1"
}

evaluate "$data" "$tmp/dev-scores.tsv"
if [ $write = yes ]; then
  echo
  echo "sample ($sample):"
  evaluate "$sample" "$tmp/sample-scores.tsv"
  cp "$tmp/dev-scores.tsv" tests/dev-scores.tsv
  cp "$tmp/sample-scores.tsv" tests/sample-scores.tsv
  readme_table tests/dev-scores.tsv > "$tmp/table.md"
  grep -q '^<!-- dev-table' README.md && grep -q '^<!-- /dev-table -->' README.md \
    || { echo "$0: README.md has no <!-- dev-table --> … <!-- /dev-table --> markers" >&2; exit 1; }
  awk -v table="$tmp/table.md" '
    /^<!-- \/dev-table -->/ { skip = 0 }
    !skip { print }
    /^<!-- dev-table/ { while ((getline line < table) > 0) print line; skip = 1 }
  ' README.md > "$tmp/README.md"
  cp "$tmp/README.md" README.md
  echo
  echo "wrote tests/dev-scores.tsv, tests/sample-scores.tsv and the README's dev table"
fi
