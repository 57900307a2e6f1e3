#!/usr/bin/env bash
# ELAS of eudify on real parser output: for each ${EUDIFY_SHARED:-../shared}/data/eval-reference/
# <Treebank>-<spaCy model>/parsed.conllu (spaCy 3.8 on the dev text; gold: the treebank's dev file
# in ../data/ud), enhanced with the language's profile (`--lang cs`, `--lang fr`: the model's
# language, not the treebank's profile, as a user of the parser would run it), prints
#   - LAS of the parse as written, and LAS with spaCy's root label `ROOT` read as `root` (the
#     official scorer compares DEPREL case-sensitively, so raw LAS counts every root as wrong while
#     eudify writes `0:root` in DEPS: the honest denominator is the repaired LAS), the copy
#     baseline's ELAS (`--lang basic`), eudify's ELAS and EULAS, and ELAS / LAS with root (how
#     much of the parse's quality survives enhancement);
#   - per added-edge class of `eval --phenomena` (docs/phenomena.md: P conj parent, S conj shared
#     dependent, X xcomp subject, R relative clause, C case label, G empty node) the precision of
#     the edges of that class, on the parse and on the gold tree (the same profile on the dev
#     file's own basic trees), and the precision of all edges the rules made (`eval --by-rule`:
#     on the parse a rule edge over a wrong arc lands in class E, so only this column counts it).
#
# Usage: scripts/eval-parsed.sh [--write] [path/to/eudify]   (default: target/release/eudify)
#   With --write it also refreshes tests/parsed-scores.tsv and the table in docs/parsed-input.md;
#   tests/parsed_scores.rs fails when a parsed ELAS drops more than 0.05 below the file.
#   EUDIFY_PARSES=DIR adds the parses DIR/<Treebank>-<model>/parsed.conllu to the printed table
#   (made with scripts/parse-dev-text.py; not with --write: the test reads the shared data only).
set -euo pipefail
cd "$(dirname "$0")/.."
write=no
if [ "${1:-}" = --write ]; then write=yes; shift; fi
eudify=${1:-target/release/eudify}
shared=${EUDIFY_SHARED:-../shared}/data
[ -x "$eudify" ] || { echo "$0: $eudify not found: cargo build --release, or pass the binary" >&2; exit 1; }
[ -d "$shared/eval-reference" ] || { echo "$0: $shared/eval-reference not found (see README \"Test data\")" >&2; exit 1; }
extra=${EUDIFY_PARSES:-}
[ -z "$extra" ] || [ $write = no ] || { echo "$0: --write records the shared parses only: unset EUDIFY_PARSES" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

classes="P S X R C G"
# `eudify enhance --lang $1 $2 > $3`; its summary line (`… labels repaired (ROOT → root)`) is
# expected on spaCy's output and not shown, its errors are.
enhance() {
  "$eudify" enhance --lang "$1" "$2" > "$3" 2> "$tmp/enhance.err" \
    || { echo "$0: eudify enhance --lang $1 $2 failed:" >&2; cat "$tmp/enhance.err" >&2; exit 1; }
}
# `eval --json` of gold $1 and system $2 as `LAS ELAS EULAS`, then `class:precision` for each
# added-edge class (`-` when the system has no edge of that class).
scores() {
  "$eudify" eval --json --phenomena "$1" "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
out = ["%.2f" % d[m]["f1"] for m in ("LAS", "ELAS", "EULAS")]
for c in sys.argv[1].split():
    p = d["phenomena"][c]
    out.append("%.2f" % (100.0 * p["correct"] / p["system"]) if p["system"] else "-")
print(" ".join(out))' "$classes"
}
# Precision of the edges every rule but `basic` made, `eval --by-rule` of $1 [$2] under --lang $3.
rule_precision() {
  local gold=$1 lang=$2; shift 2
  "$eudify" eval --by-rule --json --lang "$lang" "$gold" "$@" 2> "$tmp/by-rule.err" | python3 -c '
import json, sys
rules = [r for r in json.load(sys.stdin)["by_rule"]["rules"] if r["rule"] != "basic"]
made = sum(r["produced"] for r in rules)
print("%.2f" % (100.0 * sum(r["correct"] for r in rules) / made) if made else "-")'
}

header="parsed	code	las	las_root	basic_elas	elas	eulas	elas_las_root"
for c in $classes; do header="$header	${c}_parsed	${c}_gold"; done
header="$header	rules_parsed	rules_gold"
{
  echo "# eudify on spaCy's parses of dev texts (eval-reference/*/parsed.conllu; gold: the dev file):"
  echo "# LAS of the parse as written and with ROOT read as root, copy-baseline ELAS (--lang basic),"
  echo "# eudify ELAS/EULAS under the model's language, ELAS / LAS with root, and per added-edge class"
  echo "# (docs/phenomena.md) and for all rule edges the precision on the parse and on the gold tree."
  echo "# Written by scripts/eval-parsed.sh --write;"
  echo "# tests/parsed_scores.rs fails if an ELAS drops more than 0.05 below it."
  echo "$header"
} > "$tmp/parsed-scores.tsv"

table="| parsed file | LAS | LAS with root | copy ELAS | eudify ELAS | EULAS | ELAS / LAS with root |"
rule="|---|---|---|---|---|---|---|"
for c in $classes; do table="$table $c parse / gold |"; rule="$rule---|"; done
table="$table rule edges parse / gold |
$rule---|"
found=0
for parsed in "$shared"/eval-reference/*/parsed.conllu ${extra:+"$extra"/*/parsed.conllu}; do
  [ -f "$parsed" ] || continue
  found=$((found + 1))
  name=$(basename "$(dirname "$parsed")")   # Czech-CAC-cs_core_news_sm
  model=${name##*-}                          # cs_core_news_sm
  lang=${model%%_*}                          # cs
  gold="$shared/ud/${name%-*}/dev.conllu"
  [ -f "$gold" ] || { echo "$0: $name: no gold $gold" >&2; exit 1; }
  # The one repair the scorer needs to read spaCy's root as UD's: DEPREL `ROOT` → `root`.
  awk -F'\t' 'BEGIN { OFS = "\t" } NF == 10 && $8 == "ROOT" { $8 = "root" } { print }' \
    "$parsed" > "$tmp/rooted.conllu"
  enhance basic "$parsed" "$tmp/basic.conllu"
  enhance "$lang" "$parsed" "$tmp/parsed.conllu"
  enhance "$lang" "$gold" "$tmp/gold.conllu"
  # Assigned first, so that a failing `eval` stops the script (set -e).
  line=$(scores "$gold" "$tmp/parsed.conllu"); read -r -a sys <<< "$line"
  line=$(scores "$gold" "$tmp/basic.conllu"); read -r -a base <<< "$line"
  line=$(scores "$gold" "$tmp/gold.conllu"); read -r -a ref <<< "$line"
  line=$(scores "$gold" "$tmp/rooted.conllu"); read -r -a rooted <<< "$line"
  las=${sys[0]} las_root=${rooted[0]} elas=${sys[1]} eulas=${sys[2]} basic_elas=${base[1]}
  ratio=$(python3 -c "print('%.3f' % ($elas / $las_root))")
  row="$name	$lang	$las	$las_root	$basic_elas	$elas	$eulas	$ratio"
  line="| $name (\`--lang $lang\`) | $las | $las_root | $basic_elas | $elas | $eulas | $ratio |"
  i=3
  for c in $classes; do
    row="$row	${sys[$i]}	${ref[$i]}"
    line="$line ${sys[$i]} / ${ref[$i]} |"
    i=$((i + 1))
  done
  rp=$(rule_precision "$gold" "$lang" "$parsed") || { cat "$tmp/by-rule.err" >&2; exit 1; }
  rg=$(rule_precision "$gold" "$lang") || { cat "$tmp/by-rule.err" >&2; exit 1; }
  echo "$row	$rp	$rg" >> "$tmp/parsed-scores.tsv"
  table="$table
$line $rp / $rg |"
done
[ "$found" -gt 0 ] || { echo "$0: no $shared/eval-reference/*/parsed.conllu" >&2; exit 1; }
echo "$table"
if [ $write = yes ]; then
  cp "$tmp/parsed-scores.tsv" tests/parsed-scores.tsv
  doc=docs/parsed-input.md
  grep -q '^<!-- parsed-table' $doc && grep -q '^<!-- /parsed-table -->' $doc \
    || { echo "$0: $doc has no <!-- parsed-table --> … <!-- /parsed-table --> markers" >&2; exit 1; }
  echo "$table" > "$tmp/table.md"
  awk -v table="$tmp/table.md" '
    /^<!-- \/parsed-table -->/ { skip = 0 }
    !skip { print }
    /^<!-- parsed-table/ { while ((getline line < table) > 0) print line; skip = 1 }
  ' $doc > "$tmp/doc.md"
  cp "$tmp/doc.md" $doc
  echo
  echo "wrote tests/parsed-scores.tsv and the table in $doc"
fi
