#!/usr/bin/env bash
# Rebuilds tests/data/ud, the small sample of UD dev data that `cargo test` uses when the full dev
# treebanks (../shared/data/ud) are not beside the checkout: for each treebank below, the first
# 100 sentences of its dev split plus up to 20 later sentences that have an empty node (gapping),
# in their original order and byte for byte, with the treebank's LICENSE.txt and a SOURCE.txt.
# The three differ in convention: English labels cases by lemma (obl:in), Czech by lemma and case
# (obl:v:loc) with empty nodes, Latvian has many empty nodes and no relative-clause `ref`.
# Usage: scripts/make-test-sample.sh   (reads ${EUDIFY_SHARED:-../shared}/data/ud)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${EUDIFY_SHARED:-../shared}/data/ud
out=tests/data/ud
# Only treebanks whose licence allows redistribution with attribution (CC BY-SA 4.0 here).
treebanks=(English-EWT Czech-CAC Latvian-LVTB)
first=100 gapped=20
rm -rf "$out"
for tb in "${treebanks[@]}"; do
  mkdir -p "$out/$tb"
  # Paragraph mode: one record per sentence; UD files end every sentence with one blank line.
  awk -v RS= -v ORS='\n\n' -v first=$first -v gapped=$gapped \
    'NR <= first { print; next } /\n[0-9]+\.[0-9]+\t/ && extra < gapped { extra++; print }' \
    "$data/$tb/dev.conllu" > "$out/$tb/dev.conllu"
  cp "$data/$tb/LICENSE.txt" "$out/$tb/LICENSE.txt"
  sentences=$(grep -c '^$' "$out/$tb/dev.conllu")
  {
    echo "A sample of the UD dev split described below, made by scripts/make-test-sample.sh:"
    echo "its first $first sentences and up to $gapped later sentences that have an empty node, in their"
    echo "original order and byte for byte ($sentences sentences). Licence: LICENSE.txt, unchanged."
    echo "sha256 of this dev.conllu: $(sha256sum "$out/$tb/dev.conllu" | cut -d' ' -f1)"
    echo
    echo "Source of the full dev split:"
    cat "$data/$tb/SOURCE.txt"
  } > "$out/$tb/SOURCE.txt"
done
ls -l "$out"/*/dev.conllu
