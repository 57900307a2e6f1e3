#!/usr/bin/env python3
"""How much of a parse's LAS any enhancer could keep as ELAS: the ceiling the rules work under.

Usage: parsed-ceiling.py GOLD.conllu PARSE.conllu ENHANCED.conllu

GOLD is a dev file with gold DEPS, PARSE a parser's basic trees of its text, ENHANCED eudify's
output on PARSE. Only sentences whose words are the gold's, one for one, are counted (a
different tokenization has no word-to-word alignment; `eudify eval` aligns those, this does not),
and empty nodes are left out on both sides. On those sentences it prints
  - the parse's LAS (DEPREL `ROOT` read as `root`),
  - the ELAS of an oracle enhancer that knows the gold graph but must build on the parse's arcs:
    for a word whose basic arc is LAS-right it writes the gold enhanced edges of that word — the
    basic one, and the added ones (conjunct parents, shared dependents, controlled subjects,
    ref) when the arc of its basic head is right too, since each of those is read through that
    second arc; for a word whose arc is wrong it writes the parse's arc, which is wrong,
  - eudify's ELAS, and both as a ratio to LAS,
  - the gold edges of LAS-right words that the oracle writes and eudify does not: the parse's
    label errors that LAS does not see, and the added edges the rules missed or gave another
    label;
  - the LAS-right words whose enhanced label from their (right) head differs from the gold's,
    by what differs: the argument subtype (`obl:arg`, Sequoia's `obl:mod`), the Case value, the
    voice (`expl:pv`/`expl:pass`, `nsubj:pass`), `:emph`, the marker, another subtype, or no
    such edge on one side.
The oracle is an upper bound only in spirit (an added edge may rest on other arcs than the
head's), but its ratio is what "ELAS / LAS" can reach with this parser's arcs and perfect labels.
"""
import sys
from collections import Counter

CASES = {"nom", "gen", "dat", "acc", "voc", "loc", "ins"}
ARGUMENT = {"arg", "mod"}
VOICE = {"pass", "pv"}


def sentences(path):
    """Word lines (10 columns, no multiword ranges or empty nodes) of each sentence."""
    sentence = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if not line:
                if sentence:
                    yield sentence
                sentence = []
            elif not line.startswith("#"):
                cols = line.split("\t")
                if "-" not in cols[0] and "." not in cols[0]:
                    sentence.append(cols)
    if sentence:
        yield sentence


def enhanced_edges(word):
    """`head:label` of the word's DEPS, edges from empty nodes left out."""
    return {d for d in word[8].split("|") if d != "_" and "." not in d.split(":", 1)[0]}


def label_difference(output, expected):
    """What differs between two enhanced labels with the same universal relation."""
    if output is None or expected is None:
        return "edge missing on one side"
    got, want = output.split(":")[1:], expected.split(":")[1:]
    differs = set(got) ^ set(want)
    for name, values in (("argument subtype", ARGUMENT), ("Case value", CASES), ("voice", VOICE)):
        if differs & values:
            return name
    if "emph" in differs:
        return ":emph"
    if got[:1] != want[:1] and output.split(":")[0] in ("obl", "nmod", "advcl", "acl"):
        return "marker"
    return "other subtype"


def label_from(edges, head):
    """The label of the edge from `head` among `head:label` edges, or None."""
    return next((d.split(":", 1)[1] for d in edges if d.split(":", 1)[0] == head), None)


def las_right(gold, parsed):
    label = "root" if parsed[7] == "ROOT" else parsed[7]
    return gold[6] == parsed[6] and gold[7].split(":")[0] == label.split(":")[0]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    gold_by_text = {}
    for sentence in sentences(sys.argv[1]):
        gold_by_text.setdefault(tuple(w[1] for w in sentence), sentence)
    words = las = gold_edges = oracle_made = oracle_right = made = right = labels = 0
    differences = Counter()
    for parsed, enhanced in zip(sentences(sys.argv[2]), sentences(sys.argv[3])):
        gold = gold_by_text.get(tuple(w[1] for w in parsed))
        if gold is None:
            continue
        arc_right = [las_right(g, p) for g, p in zip(gold, parsed)]
        for i, (g, p, e) in enumerate(zip(gold, parsed, enhanced)):
            words += 1
            las += arc_right[i]
            expected, output = enhanced_edges(g), enhanced_edges(e)
            gold_edges += len(expected)
            made += len(output)
            right += len(output & expected)
            if arc_right[i]:
                head_right = p[6] == "0" or arc_right[int(p[6]) - 1]
                kept = {d for d in expected if d.split(":", 1)[0] == g[6] or head_right}
                oracle_made += len(kept)
                oracle_right += len(kept)
                labels += len(kept - output)
                have, want = label_from(output, g[6]), label_from(expected, g[6])
                if have != want:
                    differences[label_difference(have, want)] += 1
            else:
                oracle_made += 1
    if not words:
        sys.exit(f"{sys.argv[2]}: no sentence tokenized as in {sys.argv[1]}")
    las_f = 100.0 * las / words
    oracle = 200.0 * oracle_right / (gold_edges + oracle_made)
    elas = 200.0 * right / (gold_edges + made)
    print(f"words\t{words}\nLAS\t{las_f:.2f}\noracle ELAS\t{oracle:.2f}\toracle/LAS\t{oracle / las_f:.3f}")
    print(f"eudify ELAS\t{elas:.2f}\teudify/LAS\t{elas / las_f:.3f}")
    print(f"oracle edges of LAS-right words eudify lacks\t{labels}")
    print(f"LAS-right words whose enhanced label differs\t{sum(differences.values())}")
    for difference, count in differences.most_common():
        print(f"  {difference}\t{count}")


if __name__ == "__main__":
    main()
