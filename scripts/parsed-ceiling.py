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
    label errors that LAS does not see (subtypes: `obl:arg`, a Case value, `expl:pv`), and the
    added edges the rules missed or gave another label.
The oracle is an upper bound only in spirit (an added edge may rest on other arcs than the
head's), but its ratio is what "ELAS / LAS" can reach with this parser's arcs and perfect labels.
"""
import sys


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


if __name__ == "__main__":
    main()
