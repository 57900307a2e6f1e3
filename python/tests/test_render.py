"""Notebooks: what ``Enhancer.enhance`` returns draws itself (``_repr_html_``) and is still the
plain text in every other way; ``eudify.render`` draws a spaCy Doc the component enhanced.

The drawings are checked in headless Chromium (conftest.py's ``browser``: the edges drawn, as
their ``data-*`` attributes tell them). spaCy and Selenium come from
python/requirements-test.txt; without them (or Chromium) those tests skip, and fail under CI.
"""

from __future__ import annotations

import copy
import os
import pickle
import re

import pytest

import eudify

# The universal rule `case_label` relabels the enhanced copy of `obl` as `obl:to`.
SENTENCE = """# sent_id = s1
# text = go to Prague
1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_
2\tto\tto\tADP\t_\t_\t3\tcase\t_\t_
3\tPrague\tPrague\tPROPN\t_\t_\t1\tobl\t_\t_

"""


@pytest.fixture(scope="module")
def en() -> eudify.Enhancer:
    return eudify.Enhancer("en")


def element_ids(html: str) -> set:
    return set(re.findall(r'\bid="([^"]+)"', html))


def drawn_edges(browser, html: str, tmp_path, sentences: int = 1) -> set:
    """The enhanced edges a drawing shows in Chromium, inserted in a page as a notebook
    inserts it: (sent_id, head, dep, label, the rule's name or None), once edges of
    `sentences` sentences are drawn (each drawing draws itself when seen, one after another)."""
    page = tmp_path / "notebook.html"
    page.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{html}</body></html>", encoding="utf-8")
    browser.get(page.as_uri())
    script = """return Array.from(document.querySelectorAll('[data-layer="enhanced"][data-label]'), e => [
        e.closest('[data-sent-id]').dataset.sentId, e.dataset.head, e.dataset.dep, e.dataset.label, e.dataset.rule || null])"""
    from selenium.webdriver.support.ui import WebDriverWait

    def all_drawn(b):
        edges = b.execute_script(script)
        return edges if len({edge[0] for edge in edges}) >= sentences else None

    return {tuple(edge) for edge in WebDriverWait(browser, 20).until(all_drawn)}


def test_enhance_returns_the_text_as_a_str_that_draws_itself(en):
    enhanced = en.enhance(SENTENCE)
    plain, _ = en._inner.enhance(SENTENCE)
    assert isinstance(enhanced, str) and isinstance(enhanced, eudify.Enhanced)
    assert enhanced == plain and str(enhanced) == plain and "1:obl:to" in enhanced
    html = enhanced._repr_html_()
    assert "<html" not in html.lower() and "<script" in html
    with_report, report = en.enhance_with_report(SENTENCE)
    assert isinstance(with_report, eudify.Enhanced) and report["sentences"] == 1


def test_the_drawing_shows_each_edge_with_its_rule_in_a_browser(en, browser, tmp_path):
    # Two drawings in one page, as two output cells of a notebook: each draws its own.
    html = en.enhance(SENTENCE)._repr_html_() + en.enhance(SENTENCE.replace("s1", "s2"))._repr_html_()
    edges = {("0", "1", "root", None), ("3", "2", "case", None), ("1", "3", "obl:to", "case_label")}
    assert drawn_edges(browser, html, tmp_path, sentences=2) == {(s, *e) for s in ("s1", "s2") for e in edges}


def test_the_result_pickles_and_copies_as_the_plain_text(en):
    enhanced = en.enhance(SENTENCE)
    for copied in (pickle.loads(pickle.dumps(enhanced)), copy.copy(enhanced), copy.deepcopy(enhanced)):
        assert type(copied) is str and copied == enhanced


def test_two_drawings_in_one_notebook_have_no_element_id_in_common(en):
    first = en.enhance(SENTENCE)._repr_html_()
    second = en.enhance(SENTENCE)._repr_html_()
    assert element_ids(first) and not element_ids(first) & element_ids(second)


def test_render_draws_conllu_with_its_own_deps_and_tells_bad_input_by_line(en, browser, tmp_path):
    drawing = eudify.render(en.enhance(SENTENCE))
    assert isinstance(drawing, eudify.Drawing)
    assert drawing._repr_html_() == drawing.html == str(drawing)
    # The text's own DEPS, no rules run.
    drawn = drawn_edges(browser, drawing.html, tmp_path)
    assert drawn == {("s1", "0", "1", "root", None), ("s1", "3", "2", "case", None), ("s1", "1", "3", "obl:to", None)}
    with pytest.raises(eudify.InputError) as error:
        eudify.render(SENTENCE.replace("\t1\tobl", "\t7\tobl"))
    assert error.value.line == 5


def test_render_draws_a_spacy_doc_the_component_enhanced(browser, tmp_path):
    # Under CI spaCy must be there (.ci/run installs python/requirements-test.txt).
    spacy = pytest.importorskip("spacy") if os.environ.get("CI") != "true" else __import__("spacy")
    from spacy.tokens import Doc

    from eudify.spacy_component import EudifyComponent

    nlp = spacy.blank("en")
    words = ["go", "to", "Prague"]
    doc = Doc(nlp.vocab, words=words, heads=[0, 2, 0], deps=["ROOT", "case", "obl"], pos=["VERB", "ADP", "PROPN"], lemmas=words)
    with pytest.raises(ValueError, match="enhanced_conllu"):
        eudify.render(doc)
    EudifyComponent(nlp, lang="en")(doc)
    drawing = eudify.render(doc)
    # The component writes `# sent_id = 1`, and the root's DEPS with UD's label.
    drawn = drawn_edges(browser, drawing.html, tmp_path)
    assert drawn == {("1", "0", "1", "root", None), ("1", "3", "2", "case", None), ("1", "1", "3", "obl:to", None)}
