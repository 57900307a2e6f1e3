"""`eudify grep` counted against an independent count: a few lines of Python over the CoNLL-U of
every shared dev treebank (basic edges from HEAD/DEPREL, enhanced edges from DEPS, empty nodes as
nodes), for patterns on basic edges, enhanced edges, both, a `without` block and `--by e.label`.

The binary is `$EUDIFY_BIN` or `target/debug/eudify` (built by `cargo test`); the dev treebanks are
`$EUDIFY_SHARED/data/ud` or `../shared/data/ud`. Without them the tests skip, saying why; under
CI=true they fail.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))

Edge = Tuple[str, str, str]  # head id, dependent id, label


class Sentence:
    """The edges of one sentence: the basic tree and the enhanced graph of its DEPS."""

    def __init__(self, rows: List[List[str]]):
        self.upos: Dict[str, str] = {}
        self.basic: List[Edge] = []
        self.enhanced: List[Edge] = []
        for cols in rows:
            word_id = cols[0]
            if "-" in word_id:
                continue
            self.upos[word_id] = cols[3]
            if "." not in word_id and cols[6] != "_":
                self.basic.append((cols[6], word_id, cols[7]))
            if cols[8] != "_":
                for dep in cols[8].split("|"):
                    head, label = dep.split(":", 1)
                    self.enhanced.append((head, word_id, label))

    def basic_children(self, head: str, label: str) -> List[str]:
        return [d for h, d, lab in self.basic if h == head and lab == label]


def sentences(path: Path) -> Iterator[Sentence]:
    rows: List[List[str]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line:
            if rows:
                yield Sentence(rows)
            rows = []
        elif not line.startswith("#"):
            rows.append(line.split("\t"))
    if rows:
        yield Sentence(rows)


def is_label(label: str, universal: str) -> bool:
    """`obl:*`: the label or any subtype of it."""
    return label == universal or label.startswith(universal + ":")


def subject_and_object(s: Sentence) -> int:
    return sum(len(s.basic_children(h, "nsubj")) * len(s.basic_children(h, "obj")) for h in s.upos)


def case_of_a_noun(s: Sentence) -> int:
    return sum(1 for h, _, lab in s.basic if lab == "case" and s.upos.get(h) == "NOUN")


def subject_of_a_conjunct(s: Sentence) -> int:
    # Injective: the subject is never the conjunct's own parent.
    return sum(
        1
        for h, c, lab in s.enhanced
        if lab == "conj"
        for h2, subj, lab2 in s.enhanced
        if h2 == c and lab2 == "nsubj" and subj != h
    )


def marked_oblique(s: Sentence) -> int:
    return sum(
        1
        for h, n, lab in s.enhanced
        if is_label(lab, "obl")
        for c in s.basic_children(n, "case")
        if c != h
    )


def subject_only_in_deps(s: Sentence) -> int:
    basic = set(s.basic)
    return sum(1 for e in s.enhanced if e[2] == "nsubj" and e not in basic)


def into_an_empty_node(s: Sentence) -> int:
    return sum(1 for _, d, _ in s.enhanced if "." in d)


COUNTS: Dict[str, Callable[[Sentence], int]] = {
    "match { H -[nsubj]-> S; H -[obj]-> O; }": subject_and_object,
    "match { N [upos=NOUN]; N -[case]-> C; }": case_of_a_noun,
    "match { H =[conj]=> C; C =[nsubj]=> S; }": subject_of_a_conjunct,
    "match { H =[obl:*]=> N; N -[case]-> C; }": marked_oblique,
    "match { H =[nsubj]=> S; } without { H -[nsubj]-> S; }": subject_only_in_deps,
    "match { H =[*]=> E; E [empty]; }": into_an_empty_node,
}


def binary() -> Path:
    path = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert path.is_file(), f"{path}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    return path


def dev_treebanks() -> List[Path]:
    files = sorted((SHARED / "data" / "ud").glob("*/dev.conllu"))
    if not files:
        what = f"{SHARED / 'data' / 'ud'}: no dev treebanks (the shared data beside the checkout, or $EUDIFY_SHARED)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} (CI=true: not skipped)")
        pytest.skip(what)
    return files


def grep(*args: str) -> str:
    result = subprocess.run([str(binary()), "grep", *args], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("pattern", list(COUNTS))
def test_counts_equal_an_independent_count_on_every_dev_treebank(pattern):
    files = dev_treebanks()
    counted = {}
    for line in grep("--count", pattern, *map(str, files)).splitlines():
        name, count = line.rsplit(":", 1)
        counted[name] = int(count)
    expected = {str(f): sum(map(COUNTS[pattern], sentences(f))) for f in files}
    assert counted == expected
    # A pattern that never matches would prove nothing.
    assert sum(expected.values()) > 0


def test_counts_by_label_equal_an_independent_count():
    files = dev_treebanks()
    counted = Counter()
    for line in grep("--by", "e.label", "match { e: H =[nmod:*]=> N; }", *map(str, files)).splitlines():
        count, label = line.split("\t")
        counted[label] += int(count)
    expected = Counter(
        lab for f in files for s in sentences(f) for _, _, lab in s.enhanced if is_label(lab, "nmod")
    )
    assert counted == expected and len(expected) > 10
