"""Notebooks: what ``Enhancer.enhance`` returns draws itself (``_repr_html_``) and is still the
plain text in every other way; ``eudify.render`` draws a spaCy Doc the component enhanced.

spaCy comes from python/requirements-test.txt; without it the Doc tests skip, and fail under CI.
"""

from __future__ import annotations

import copy
import importlib
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


def test_enhance_returns_the_text_as_a_str_that_draws_itself(en):
    enhanced = en.enhance(SENTENCE)
    plain, _ = en._inner.enhance(SENTENCE)
    assert isinstance(enhanced, str) and isinstance(enhanced, eudify.Enhanced)
    assert enhanced == plain and str(enhanced) == plain and "1:obl:to" in enhanced
    html = enhanced._repr_html_()
    # The drawing holds the sentence, its enhanced edge and the rule that made it.
    assert "s1" in html and "obl:to" in html and "case_label" in html
    assert "<html" not in html.lower()
    with_report, report = en.enhance_with_report(SENTENCE)
    assert isinstance(with_report, eudify.Enhanced) and report["sentences"] == 1


def test_the_result_pickles_and_copies_as_the_plain_text(en):
    enhanced = en.enhance(SENTENCE)
    for copied in (pickle.loads(pickle.dumps(enhanced)), copy.copy(enhanced), copy.deepcopy(enhanced)):
        assert type(copied) is str and copied == enhanced


def test_two_drawings_in_one_notebook_have_no_element_id_in_common(en):
    first = en.enhance(SENTENCE)._repr_html_()
    second = en.enhance(SENTENCE)._repr_html_()
    assert element_ids(first) and not element_ids(first) & element_ids(second)


def test_render_draws_conllu_with_its_own_deps_and_tells_bad_input_by_line(en):
    drawing = eudify.render(en.enhance(SENTENCE))
    assert isinstance(drawing, eudify.Drawing)
    assert drawing._repr_html_() == drawing.html == str(drawing)
    assert "obl:to" in drawing.html and "Prague" in drawing.html
    with pytest.raises(eudify.InputError) as error:
        eudify.render(SENTENCE.replace("\t1\tobl", "\t7\tobl"))
    assert error.value.line == 5


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"{module} is not installed ({error}): pip install -r python/requirements-test.txt")


def test_render_draws_a_spacy_doc_the_component_enhanced():
    spacy = _require("spacy")
    from spacy.tokens import Doc

    from eudify.spacy_component import EudifyComponent

    nlp = spacy.blank("en")
    words = ["go", "to", "Prague"]
    doc = Doc(nlp.vocab, words=words, heads=[0, 2, 0], deps=["ROOT", "case", "obl"], pos=["VERB", "ADP", "PROPN"], lemmas=words)
    with pytest.raises(ValueError, match="enhanced_conllu"):
        eudify.render(doc)
    EudifyComponent(nlp, lang="en")(doc)
    drawing = eudify.render(doc)
    assert "obl:to" in drawing.html and "Prague" in drawing.html
    assert drawing.html.replace(" ", "") != ""
    assert eudify.render(doc._.enhanced_conllu).html.count("obl:to") == drawing.html.count("obl:to")
