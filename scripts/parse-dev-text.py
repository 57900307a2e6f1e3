#!/usr/bin/env python3
"""Parse the `# text` lines of a CoNLL-U file with a spaCy pipeline and write CoNLL-U, as
spacy-conll 4.0 writes it (the format of ../shared/data/eval-reference/*/parsed.conllu): one
sentence per `# text` line (the gold's segmentation: a component before the parser marks every
token but the first as no sentence start, and the parser keeps that), `sent_id` 1 each,
spaCy's own tokenization, root labelled `ROOT`, FEATS in spaCy's order, `SpaceAfter=No` in MISC,
DEPS `_`. Written so that new parses need no spacy-conll; the scores of a parse come from
scripts/eval-parsed.sh (which reads `<Treebank>-<model>/parsed.conllu` folders).

Usage: parse-dev-text.py MODEL GOLD.conllu > parsed.conllu   (in a venv with spaCy and MODEL)
All lines go through one `nlp.pipe`, the cheapest way for a shared CPU.
"""
import sys

import spacy
from spacy.language import Language


@Language.component("one_sentence_per_line")
def one_sentence_per_line(doc):
    for token in doc[1:]:
        token.is_sent_start = False
    return doc


def texts(path):
    with open(path, encoding="utf-8") as gold:
        for line in gold:
            if line.startswith("# text = "):
                yield line[len("# text = "):].rstrip("\n")


def field(value):
    return value if value else "_"


def sentence_lines(sent):
    start = sent.start
    for token in sent:
        head = 0 if token.head.i == token.i else token.head.i - start + 1
        misc = "_" if token.whitespace_ else "SpaceAfter=No"
        yield "\t".join([
            str(token.i - start + 1), token.text, field(token.lemma_), field(token.pos_),
            field(token.tag_), field(str(token.morph)), str(head), field(token.dep_), "_", misc,
        ])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    model, gold = sys.argv[1], sys.argv[2]
    nlp = spacy.load(model)
    nlp.add_pipe("one_sentence_per_line", before="parser")
    out = sys.stdout
    for doc in nlp.pipe(texts(gold), batch_size=64):
        for number, sent in enumerate(doc.sents, start=1):
            out.write(f"# sent_id = {number}\n# text = {sent.text}\n")
            for line in sentence_lines(sent):
                out.write(line + "\n")
            out.write("\n")


if __name__ == "__main__":
    main()
