#!/usr/bin/env python3
"""The spaCy component's cost, as a share of the pipeline's own time on the same text.

    python benches/spacy_component.py [PIPELINE] [ROUNDS]

Needs the Python package installed with spaCy and the pipeline (default ``cs_core_news_sm``):
``pip install -r python/requirements-test.txt`` and ``maturin develop --release`` (or the wheel
.ci/run builds). Reads the ``# text`` lines of ../shared/data/ud/Czech-*/dev.conllu (or
``$EUDIFY_SHARED/data/ud``) and says it skipped when they are absent.

Each text is one Doc. The pipeline's time is ``nlp.pipe`` over every text, without the
component; the component's time is the component called on each parsed Doc, as ``nlp.pipe``
would call it after the parser (``EudifyComponent.__call__``: the Doc handed to Rust, enhanced,
the results written back). Both are the best of ROUNDS runs (default 3), as CPU time of the
process (every thread: the figure a busy machine disturbs least) and as wall time. It prints
both per sentence and their ratio; the CPU ratio is the figure kept at or under 3 %. A benchmark, not a
test: it reports figures and checks nothing.
"""

from __future__ import annotations

import glob
import os
import sys
import time


def texts(root: str) -> list:
    found = []
    for path in sorted(glob.glob(os.path.join(root, "Czech-*", "dev.conllu"))):
        with open(path, encoding="utf-8") as f:
            found.extend(line[len("# text = ") :].rstrip("\n") for line in f if line.startswith("# text = "))
    return found


def best(rounds: int, run) -> tuple:
    """The least CPU time (this process, all threads) and the least wall time of ROUNDS runs."""
    cpu, wall = [], []
    for _ in range(rounds):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return min(cpu), min(wall)


def main() -> int:
    pipeline = sys.argv[1] if len(sys.argv) > 1 else "cs_core_news_sm"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    shared = os.environ.get("EUDIFY_SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
    root = os.path.join(shared, "data", "ud")
    sample = texts(root)
    if not sample:
        print(f"skipped: no # text lines in {root}/Czech-*/dev.conllu", file=sys.stderr)
        return 0
    import spacy

    import eudify.spacy_component  # noqa: F401  (registers the factory)

    nlp = spacy.load(pipeline)
    component = eudify.spacy_component.EudifyComponent(nlp, lang=nlp.lang)
    docs = list(nlp.pipe(sample))  # warm-up, and the Docs the component is timed on
    pipeline_time = best(rounds, lambda: list(nlp.pipe(sample)))

    def enhance_all() -> None:
        for doc in docs:
            component(doc)

    enhance_all()  # warm-up
    component_time = best(rounds, enhance_all)
    n = len(sample)
    words = sum(len(doc) for doc in docs)
    print(f"{pipeline} on {n} texts ({words} tokens) of {root}/Czech-*/dev.conllu, best of {rounds}:")
    for name, column in (("CPU", 0), ("wall", 1)):
        spent, own = component_time[column], pipeline_time[column]
        print(f"  {name:4}  pipeline {own / n * 1000:.3f} ms, component {spent / n * 1000:.3f} ms per sentence: ratio {spent / own * 100:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
