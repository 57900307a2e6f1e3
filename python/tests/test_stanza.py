"""The Stanza adapter against the CLI: Documents built from CoNLL-U text (no Stanza model) get
the DEPS and empty nodes `eudify enhance` writes for the same text.

The CLI binary is `$EUDIFY_BIN` or `target/debug/eudify`; the shared dev data is
`$EUDIFY_SHARED` or `../shared`. Without stanza installed the tests skip, visibly, and fail
under CI=true.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import eudify

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))


def required(what: str) -> None:
    """Skips, or fails under CI, when something the tests need is missing."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: not skipped)")
    pytest.skip(what)


try:
    import stanza  # noqa: F401
    from stanza.utils.conll import CoNLL
except ImportError:
    CoNLL = None

import eudify.stanza  # noqa: E402  (needs no stanza to import)

# Treebank codes fall back to their language's profile, with a warning that is not the point here.
pytestmark = pytest.mark.filterwarnings("ignore:no profile for treebank")


@pytest.fixture(autouse=True)
def _stanza_installed():
    if CoNLL is None:
        required("stanza is not installed (pip install stanza)")


def codes() -> Dict[str, str]:
    """The --lang code of each treebank, from the score file the Rust tests use too."""
    rows = [l.split("\t") for l in (REPO / "tests" / "dev-scores.tsv").read_text(encoding="utf-8").splitlines()]
    return {r[0]: r[1] for r in rows if len(r) > 1 and not r[0].startswith("#")}


def cli_enhance(text: str, lang: str, tmp_path: Path) -> str:
    binary = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert binary.is_file(), f"{binary}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    src = tmp_path / "in.conllu"
    src.write_text(text, encoding="utf-8")
    result = subprocess.run([str(binary), "enhance", "--lang", lang, str(src)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def basic_only(text: str) -> str:
    """The text with DEPS blanked and empty nodes dropped: a parser's output."""
    out = []
    for line in text.splitlines():
        cols = line.split("\t")
        if len(cols) == 10:
            if "." in cols[0]:
                continue
            cols[8] = "_"
        out.append("\t".join(cols))
    return "\n".join(out) + "\n"


def first_sentences(path: Path, n: int) -> str:
    if not path.is_file():
        required(f"{path} not found (the shared data beside the checkout, or $EUDIFY_SHARED)")
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return "\n\n".join(blocks[:n]) + "\n\n"


Graph = List[Tuple[List[Tuple[str, str]], List[Tuple[str, ...]]]]


def graph_of_conllu(text: str) -> Graph:
    """Per sentence: (word id, DEPS) of every word, and the empty nodes' columns but MISC."""
    graph: Graph = []
    for block in text.split("\n\n"):
        lines = [l.split("\t") for l in block.splitlines() if l and not l.startswith("#")]
        if not lines:
            continue
        words = [(c[0], c[8]) for c in lines if "-" not in c[0] and "." not in c[0]]
        empty = [tuple(c[:9]) for c in lines if "." in c[0]]
        graph.append((words, empty))
    return graph


def graph_of_doc(doc) -> Graph:
    """The same, read from the Document's objects."""
    graph: Graph = []
    for sentence in doc.sentences:
        words = [(str(w.id), w.deps or "_") for w in sentence.words]
        empty = [
            (
                f"{e.id[0]}.{e.id[1]}",
                e.text,
                e.lemma or "_",
                e.upos or "_",
                e.xpos or "_",
                e.feats or "_",
                "_",
                "_",
                e.deps or "_",
            )
            for e in sentence.empty_words
        ]
        graph.append((words, empty))
    return graph


def samples() -> List[Tuple[str, str, str]]:
    """(name, lang, basic CoNLL-U): the repository's samples, and the first 150 sentences of
    shared dev files with multiword tokens, empty nodes and several languages."""
    table = codes()
    out = []
    for path in sorted((REPO / "tests" / "data" / "ud").glob("*/dev.conllu")):
        out.append((path.parent.name, table[path.parent.name], basic_only(path.read_text(encoding="utf-8"))))
    for treebank in ("Czech-FicTree", "English-GUM", "French-Sequoia", "Polish-PDB", "Finnish-TDT"):
        text = first_sentences(SHARED / "data" / "ud" / treebank / "dev.conllu", 150)
        out.append((treebank, table[treebank], basic_only(text)))
    return out


def test_deps_and_empty_nodes_equal_the_cli(tmp_path):
    checked_empty = checked_ranges = 0
    for name, lang, text in samples():
        expected = cli_enhance(text, lang, tmp_path)
        doc = CoNLL.conll2doc(input_str=text)
        assert eudify.stanza.enhance(doc, lang) is doc
        assert graph_of_doc(doc) == graph_of_conllu(expected), name
        # Written back by Stanza: the same DEPS column and empty-node lines.
        written = "{:C}".format(doc) + "\n\n"
        assert graph_of_conllu(written) == graph_of_conllu(expected), name
        checked_empty += sum(len(e) for _, e in graph_of_conllu(expected))
        checked_ranges += sum(1 for l in expected.splitlines() if l.split("\t", 1)[0].count("-") == 1)
    # The samples exercise what the adapter has to get right.
    assert checked_empty >= 5 and checked_ranges >= 20


def test_replaces_an_existing_enhanced_graph(tmp_path):
    """A Document read with its gold enhanced layer (empty nodes kept) gets eudify's instead."""
    gold = (REPO / "tests" / "data" / "ud" / "English-EWT" / "dev.conllu").read_text(encoding="utf-8")
    expected = cli_enhance(basic_only(gold), "en_ewt", tmp_path)
    doc = CoNLL.conll2doc(input_str=gold, ignore_gapping=False)
    assert any(s.empty_words for s in doc.sentences)
    before = graph_of_doc(doc)
    eudify.stanza.enhance(doc, "en_ewt")
    after = graph_of_doc(doc)
    assert after == graph_of_conllu(expected) != before
    # No edge of a replaced empty node is left in the sentences' graphs.
    for sentence in doc.sentences:
        nodes = {w.id for w in sentence.words} | {e.id for e in sentence.empty_words} | {0}
        assert set(sentence.enhanced_dependencies.nodes) <= nodes


def test_lang_defaults_to_the_documents(tmp_path):
    text = basic_only((REPO / "tests" / "data" / "ud" / "Czech-CAC" / "dev.conllu").read_text(encoding="utf-8"))
    doc = CoNLL.conll2doc(input_str=text)
    with pytest.raises(ValueError, match="no language"):
        eudify.stanza.enhance(doc)
    doc.lang = "cs_cac"
    # No silent profile: the Document's language is the evidence, said once.
    with pytest.warns(eudify.ProfileWarning, match=r"profile cs \(from the Stanza document's language 'cs_cac'\)"):
        eudify.stanza.enhance(doc)
    assert graph_of_doc(doc) == graph_of_conllu(cli_enhance(text, "cs_cac", tmp_path))


def test_one_enhancer_per_lang_and_rules():
    first = eudify.stanza._enhancer("cs", None)
    assert eudify.stanza._enhancer("cs", None) is first
    assert eudify.stanza._enhancer("en", None) is not first
    assert eudify.stanza._enhancer("cs", str(REPO / "rules")) is not first


def test_an_invalid_tree_is_an_input_error_naming_the_sentence():
    good = "1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n"
    bad = "# sent_id = broken\n1\tPetr\tPetr\tPROPN\t_\t_\t0\troot\t_\t_\n2\tspí\tspát\tVERB\t_\t_\t1\tdep\t_\t_\n\n"
    doc = CoNLL.conll2doc(input_str=good + bad)
    # Stanza checks heads when it reads CoNLL-U, not when a processor or a user sets them.
    doc.sentences[1].words[1].head = 7
    with pytest.raises(eudify.InputError) as caught:
        eudify.stanza.enhance(doc, "cs")
    error = caught.value
    assert error.file == "<stanza>" and error.line == 4
    assert "sentence 2 (broken)" in error.message and "'2\\tspí" in error.message
    assert str(error).startswith("<stanza>:4: sentence 2 (broken): ")


def test_a_document_without_a_parse_is_refused():
    doc = CoNLL.conll2doc(input_str="1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n")
    doc.sentences[0].words[0].head = None
    with pytest.raises(ValueError, match="depparse"):
        eudify.stanza.enhance(doc, "cs")


def test_tabs_and_line_breaks_in_fields_are_cleaned_and_counted():
    from stanza.models.common.doc import Document

    words = [
        {"id": 1, "text": "Ah\toj", "lemma": "ah\noj", "upos": "INTJ", "head": 0, "deprel": "root", "misc": "A=b\r"},
        {"id": 2, "text": "!", "lemma": "!", "upos": "PUNCT", "head": 1, "deprel": "punct"},
    ]
    # Written for eudify as `Ah oj`, `ah oj`, `A=b `: the sentence stays one of two words.
    doc = eudify.stanza.enhance(Document([words]), "cs")
    assert [w.deps for w in doc.sentences[0].words] == ["0:root", "1:punct"]
    # The Document's own fields are left as they were.
    assert doc.sentences[0].words[0].text == "Ah\toj"
    assert doc.eudify_report["repairs"] == {eudify.stanza.FIELD_CLEANED: 3}
    assert doc.eudify_report["sentences"] == 1 and doc.eudify_report["runaways"] == []


def test_a_runaway_names_the_documents_sentence(runaway_rules):
    doc = CoNLL.conll2doc(input_str="# sent_id = a\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n")
    with pytest.warns(eudify.RunawayWarning):
        eudify.stanza.enhance(doc, "test", runaway_rules)
    (runaway,) = doc.eudify_report["runaways"]
    assert (runaway["file"], runaway["line"], runaway["sent_id"], runaway["rule"]) == ("<stanza>", 1, "a", "grow")
    with pytest.raises(eudify.RunawayError):
        eudify.stanza.enhance(doc, "test", runaway_rules, strict=True)
