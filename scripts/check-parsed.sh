#!/usr/bin/env bash
# Cross-checks `eudify validate` against UD's own validator on real parser output: for each
# ${EUDIFY_SHARED:-../shared}/data/eval-reference/*/parsed.conllu (spaCy 3.8 output), runs
# `eudify enhance --lang LANG`, then `eudify validate` and `udvalidate --level 2 --lang LANG` on
# the result, and reports per file:
#   - eudify validate: its error count;
#   - udvalidate's errors in the enhanced graph (its ENHANCED class, by test id): eudify's to fix,
#     and whether both validators flag the same lines (up to the last line eudify validate shows);
#   - udvalidate's other level-2 errors (basic layer, features, metadata), in the enhanced file and
#     in the parser's input: eudify keeps every column but DEPS byte for byte, so these must be the
#     parser's own (spaCy's `ROOT` DEPREL, its feature order, restarting sent_id) and equal.
# Exits 1 when either validator finds an error in the enhanced graph, when the two disagree on
# whether there is one, or when the non-enhanced complaints differ from the input's.
#
# Usage: scripts/check-parsed.sh [path/to/eudify]   (default: target/release/eudify)
# Needs UD's validator: `pip install udtools` (a manual cross-check, not a test dependency).
set -euo pipefail
cd "$(dirname "$0")/.."
eudify=${1:-target/release/eudify}
reference=${EUDIFY_SHARED:-../shared}/data/eval-reference
[ -x "$eudify" ] || { echo "$0: $eudify not found: cargo build --release, or pass the binary" >&2; exit 1; }
command -v udvalidate >/dev/null || { echo "$0: udvalidate not found: pip install udtools" >&2; exit 1; }
[ -d "$reference" ] || { echo "$0: $reference not found (see README \"Test data\")" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# udvalidate's report on $1 (language $2), every incident shown.
udvalidate_report() { udvalidate --level 2 --lang "$2" --max-err 0 "$1" > "$3" 2>&1 || true; }
# Its incidents, `[Line N Sent S]: [L2 CLASS test-id] message`, counted as `CLASS test-id count`.
incidents() {
  sed -n 's/^\[Line [0-9]* Sent [^]]*\]: \[L[0-9] \([A-Z]*\) \([A-Za-z0-9-]*\)\].*/\1 \2/p' "$1" \
    | sort | uniq -c | awk '{print $2, $3, $1}'
}
# `CLASS test-id count` lines of $1 as `test-id count, …`, or `none`.
summary() { awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $3} END {if (NR == 0) printf "none"}' "$1"; }

status=0
found=0
for parsed in "$reference"/*/parsed.conllu; do
  [ -f "$parsed" ] || continue
  found=$((found + 1))
  name=$(basename "$(dirname "$parsed")")
  model=${name##*-}        # cs_core_news_sm
  lang=${model%%_*}        # cs
  enhanced="$tmp/$name.conllu"
  if ! "$eudify" enhance --lang "$lang" "$parsed" > "$enhanced" 2> "$tmp/enhance.err"; then
    echo "$name: eudify enhance failed:"; head -5 "$tmp/enhance.err"; status=1; continue
  fi
  # eudify validate checks the basic layer too, where the parser's own errors are (spaCy's
  # `ROOT`, its feature order, which udvalidate reports in the input as well, below): its
  # enhanced-layer messages are those about DEPS, the enhanced graph and empty nodes. (Lines are
  # not compared with the input's: the empty nodes eudify adds move the lines after them.)
  "$eudify" validate "$enhanced" > "$tmp/ours-raw.txt" 2>&1 || true
  sed -n 's/^[^:]*:\([0-9]*: \)/\1/p' "$tmp/ours-raw.txt" \
    | grep -E 'DEPS|enhanced|empty node|self-loop|reachable from the root' > "$tmp/ours.txt" || true
  ours=$(wc -l < "$tmp/ours.txt")
  udvalidate_report "$enhanced" "$lang" "$tmp/ud-out.txt"
  udvalidate_report "$parsed" "$lang" "$tmp/ud-in.txt"
  incidents "$tmp/ud-out.txt" > "$tmp/out.txt"
  incidents "$tmp/ud-in.txt" > "$tmp/in.txt"
  # The lines each validator flags in the enhanced graph; eudify's report may stop at its cap.
  sed -n 's/^\([0-9]*\): .*/\1/p' "$tmp/ours.txt" | sort -un > "$tmp/our-lines.txt"
  last=$(sort -n "$tmp/our-lines.txt" | tail -1)
  sed -n 's/^\[Line \([0-9]*\) Sent [^]]*\]: \[L[0-9] ENHANCED .*/\1/p' "$tmp/ud-out.txt" | sort -un \
    | awk -v last="${last:-0}" -v capped="$(grep -c ' in total)$' "$tmp/ours-raw.txt" || true)" \
      'capped == 0 || $1 <= last' > "$tmp/ud-lines.txt"
  grep '^ENHANCED ' "$tmp/out.txt" > "$tmp/out-enhanced.txt" || true
  grep -v '^ENHANCED ' "$tmp/out.txt" > "$tmp/out-basic.txt" || true
  grep -v '^ENHANCED ' "$tmp/in.txt" > "$tmp/in-basic.txt" || true
  theirs=$(awk '{n += $3} END {print n + 0}' "$tmp/out-enhanced.txt")
  sentences=$(grep -c '^$' "$parsed" || true)
  echo "== $name ($sentences sentences, --lang $lang)"
  echo "   eudify validate:                 $ours errors"
  echo "   udvalidate, enhanced graph:      $theirs errors ($(summary "$tmp/out-enhanced.txt"))"
  echo "   udvalidate, rest of the output:  $(summary "$tmp/out-basic.txt")"
  echo "   udvalidate, the parser's input:  $(summary "$tmp/in-basic.txt")"
  if [ "$ours" -gt 0 ] || [ "$theirs" -gt 0 ]; then status=1; fi
  if { [ "$ours" -eq 0 ] && [ "$theirs" -gt 0 ]; } || { [ "$ours" -gt 0 ] && [ "$theirs" -eq 0 ]; }; then
    echo "   DISAGREEMENT: one validator finds enhanced-graph errors, the other none"
  fi
  if cmp -s "$tmp/our-lines.txt" "$tmp/ud-lines.txt"; then
    echo "   lines flagged:                   the same $(wc -l < "$tmp/our-lines.txt") lines${last:+ (up to line $last)}"
  else
    echo "   lines flagged DIFFER: only eudify $(comm -23 <(sort "$tmp/our-lines.txt") <(sort "$tmp/ud-lines.txt") | sort -n | head -5 | tr '\n' ' ')" \
      "only udvalidate $(comm -13 <(sort "$tmp/our-lines.txt") <(sort "$tmp/ud-lines.txt") | sort -n | head -5 | tr '\n' ' ')"
    status=1
  fi
  if ! cmp -s "$tmp/out-basic.txt" "$tmp/in-basic.txt"; then
    echo "   the non-enhanced complaints differ from the input's: eudify changed more than DEPS"; status=1
  fi
done
[ "$found" -gt 0 ] || { echo "$0: no $reference/*/parsed.conllu" >&2; exit 1; }
exit $status
