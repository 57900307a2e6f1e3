#!/usr/bin/env bash
# `eudify eval` against UD's own Python scorer (`udeval -v`, PyPI udtools) on the same pair in the
# same run: a >= 500k-token gold file (the shared dev files, concatenated) and a system file with
# different tokenization and segmentation (benches/eval_pair.py). Prints both tables, wall time
# and peak RSS of each, and the ratio. Not part of `cargo test`.
#
# Usage: benches/eval.sh [MIN_TOKENS [SEED]]   (default 500000 15; needs python3, /usr/bin/time
#        and udeval: pip install udtools)
set -euo pipefail
cd "$(dirname "$0")/.."
min_tokens=${1:-500000}
seed=${2:-15}
command -v udeval > /dev/null || { echo "needs udeval (pip install udtools)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 benches/eval_pair.py "$tmp" "$min_tokens" "$seed"
gold=$tmp/eval-gold.conllu
system=$tmp/eval-system.conllu

measure() { # OUT COMMAND... → "seconds peak_RSS_MiB"
    local out=$1
    shift
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" > "$out"
    awk '{ printf "%s %.1f", $1, $2 / 1024 }' "$tmp/time"
}

# eudify: the median of 5 runs (a shared machine has slow spells); udeval: one run.
runs=()
for _ in 1 2 3 4 5; do
    runs+=("$(measure "$tmp/eudify.txt" target/release/eudify eval "$gold" "$system")")
done
eudify=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p)
udeval=$(measure "$tmp/udeval.txt" udeval -v "$gold" "$system")

cat "$tmp/eudify.txt"
echo
cat "$tmp/udeval.txt"
echo
read -r e_s e_mb <<< "$eudify"
read -r u_s u_mb <<< "$udeval"
echo "eudify eval: ${e_s} s, ${e_mb} MiB peak (median of 5 runs, s MiB: $(printf "%s; " "${runs[@]}"))"
echo "udeval -v:   ${u_s} s, ${u_mb} MiB peak"
awk -v e="$e_s" -v u="$u_s" 'BEGIN { printf "udeval / eudify: %.0fx the time\n", u / e }'
