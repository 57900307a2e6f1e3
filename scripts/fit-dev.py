#!/usr/bin/env python3
"""The fit check on the dev treebanks: for each ${EUDIFY_SHARED:-../shared}/data/ud/*/dev.conllu,
fit a profile on its first half (from `universal`, and from the treebank's hand-written profile)
and score both on the second half beside the hand-written profile itself.

Usage: scripts/fit-dev.py [path/to/eudify] [TREEBANK...]   (default: target/release/eudify, all)
Prints a markdown table (ELAS F1 on the second half; the user CPU time and peak RSS of the fit from
universal) and the mean differences. The halves are cut at the middle sentence.
"""
import json, os, subprocess, sys, tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
eudify = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target/release/eudify")
only = set(sys.argv[2:])
data = os.path.join(os.environ.get("EUDIFY_SHARED", os.path.join(root, "../shared")), "data/ud")
# The treebank → code map of tests/dev-scores.tsv (written by scripts/eval-dev.sh).
codes = {}
for line in open(os.path.join(root, "tests/dev-scores.tsv")):
    if line.startswith("#") or line.startswith("treebank\t"):
        continue
    name, code = line.split("\t")[:2]
    codes[name] = code

def elas(gold, system):
    out = subprocess.run([eudify, "eval", "--json", gold, system], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["ELAS"]["f1"]

def enhance(args, gold, out):
    with open(out, "w") as f:
        subprocess.run([eudify, "enhance", *args, gold], check=True, stdout=f, stderr=subprocess.DEVNULL)

def fit(base, train, outdir):
    run = subprocess.run(["/usr/bin/time", "-f", "%U %M", eudify, "fit", "--base", base, "--name", "fitted", "-o", outdir, train],
                         check=True, capture_output=True, text=True)
    seconds, rss = run.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(rss)

tmp = tempfile.mkdtemp(prefix="fit-dev-")
print("| treebank | sentences (fit half) | hand-written | fit from universal | Δ | fit from hand-written | Δ | fit CPU time (s) | peak RSS (MB) |")
print("|---|---|---|---|---|---|---|---|---|")
deltas_u, deltas_h = [], []
for name in sorted(os.listdir(data)):
    gold = os.path.join(data, name, "dev.conllu")
    if not os.path.isfile(gold) or (only and name not in only) or name not in codes:
        continue
    code = codes[name]
    blocks = [b for b in open(gold, encoding="utf-8").read().split("\n\n") if b.strip()]
    half = len(blocks) // 2
    train, test = os.path.join(tmp, name + ".a.conllu"), os.path.join(tmp, name + ".b.conllu")
    open(train, "w", encoding="utf-8").write("\n\n".join(blocks[:half]) + "\n\n")
    open(test, "w", encoding="utf-8").write("\n\n".join(blocks[half:]) + "\n\n")
    out = os.path.join(tmp, "out.conllu")
    enhance(["--lang", code], test, out)
    hand = elas(test, out)
    row = []
    for base in ["universal", code]:
        folder = os.path.join(tmp, name + "-" + base)
        seconds, rss = fit(base, train, folder)
        enhance(["--rules", folder, "--lang", "fitted"], test, out)
        row.append((elas(test, out), seconds, rss))
    (u, us, urss), (h, _, _) = row
    deltas_u.append(u - hand)
    deltas_h.append(h - hand)
    print(f"| {name} | {half} | {hand:.2f} | {u:.2f} | {u - hand:+.2f} | {h:.2f} | {h - hand:+.2f} | {us:.1f} | {urss / 1024:.0f} |", flush=True)
if deltas_u:
    print(f"\nmean Δ from universal {sum(deltas_u) / len(deltas_u):+.2f} (lowest {min(deltas_u):+.2f}); "
          f"from hand-written {sum(deltas_h) / len(deltas_h):+.2f} (lowest {min(deltas_h):+.2f}) over {len(deltas_u)} treebanks")
