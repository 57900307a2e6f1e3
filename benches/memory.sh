#!/usr/bin/env bash
# Peak memory of `eudify enhance --lang PROFILE` on a ~1 GB input, against a one-copy baseline.
#
# The pipeline reads, enhances and writes in chunks of sentences, so peak RSS must not grow
# with the input: the two figures below should be close. Not part of `cargo test`.
#
# Usage: benches/memory.sh [SIZE_MB [PROFILE...]]   (default 1024 MB, profiles basic en cs;
#        needs /usr/bin/time: apt-get install time)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1024}
shift || true
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(basic en cs)
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

cargo build --release --quiet
bin=target/release/eudify
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every shared dev file ends with a blank line, so concatenation keeps sentences apart.
cat ../shared/data/ud/*/dev.conllu > "$tmp/once.conllu"
target=$((size_mb * 1024 * 1024))
: > "$tmp/big.conllu"
while [ "$(stat -c %s "$tmp/big.conllu")" -lt "$target" ]; do
    cat "$tmp/once.conllu" >> "$tmp/big.conllu"
done

measure() { # FILE PROFILE → "peak RSS MiB, seconds"
    /usr/bin/time -v "$bin" enhance --lang "$2" "$1" 2> "$tmp/time.txt" > /dev/null
    awk -F': ' '/Maximum resident set size/ { rss = $2 }
                /Elapsed \(wall clock\)/ { wall = $2 }
                END { printf "peak RSS %.1f MiB, wall %s\n", rss / 1024, wall }' "$tmp/time.txt"
}

for profile in "${profiles[@]}"; do
    printf '%-10s %-16s %s\n' "$profile" "once $(du -h "$tmp/once.conllu" | cut -f1):" "$(measure "$tmp/once.conllu" "$profile")"
    printf '%-10s %-16s %s\n' "$profile" "large $(du -h "$tmp/big.conllu" | cut -f1):" "$(measure "$tmp/big.conllu" "$profile")"
done
