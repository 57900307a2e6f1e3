"""Enhanced UD for Stanza: :func:`enhance` fills each word's ``deps`` and each sentence's empty
words on a ``stanza.Document`` that has a basic tree (from Stanza's ``depparse``, or read from
CoNLL-U).

    >>> import stanza, eudify.stanza
    >>> nlp = stanza.Pipeline("cs", processors="tokenize,mwt,pos,lemma,depparse")
    >>> doc = eudify.stanza.enhance(nlp("Petr a Pavel přišli."), "cs")
    >>> print("{:C}".format(doc))  # CoNLL-U with DEPS and the empty nodes

The document goes to Rust as CoNLL-U (its words and multiword tokens; the enhanced graph is
recomputed from the basic tree, as ``eudify enhance`` does) in one call with the GIL released.
No Stanza model is needed: only ``stanza.models.common.doc``.
"""

from __future__ import annotations

import os
import threading
import warnings
from bisect import bisect_right
from typing import Any, Dict, List, Optional, Set, Tuple, Union

import eudify

__all__ = ["enhance"]

_ENHANCERS: Dict[Tuple[str, Optional[str]], eudify.Enhancer] = {}
_LOCK = threading.Lock()
# The (lang, rules) whose profile, taken from a Document's language, was said already.
_SAID_FROM_DOC: Set[Tuple[str, Optional[str]]] = set()


def _enhancer(lang: str, rules: Optional[str], from_doc: bool = False) -> eudify.Enhancer:
    """One compiled Enhancer per (lang, rules), shared by every call and thread. ``from_doc``:
    ``lang`` is the Document's, not the caller's: the profile it gives is said once with a
    :class:`eudify.ProfileWarning` (no silent profile)."""
    key = (lang, rules)
    with _LOCK:
        enhancer = _ENHANCERS.get(key)
        if enhancer is None:
            # Warns once (stacklevel: the caller of enhance) when lang falls back.
            enhancer = _ENHANCERS[key] = eudify.Enhancer(lang, rules)
        if from_doc and key not in _SAID_FROM_DOC:
            _SAID_FROM_DOC.add(key)
            warnings.warn(
                f"profile {enhancer.profile} (from the Stanza document's language {lang!r})",
                eudify.ProfileWarning,
                stacklevel=3,
            )
    return enhancer


# The repair kind counted in the report for a field whose tabs or line breaks became spaces.
FIELD_CLEANED = "tab or line break in a field → space"
_BREAKING = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


class _Fields:
    """Writes fields as CoNLL-U columns (``_`` when empty; a tab or line break, which would
    break the line, becomes a space) and counts the fields so cleaned."""

    __slots__ = ("cleaned",)

    def __init__(self) -> None:
        self.cleaned = 0

    def __call__(self, value: Any) -> str:
        if value is None or value == "":
            return "_"
        text = str(value)
        if "\t" in text or "\n" in text or "\r" in text:
            self.cleaned += 1
            text = text.translate(_BREAKING)
        return text


def _to_conllu(doc: Any) -> Tuple[str, List[int], List[str], int]:
    """The document's basic layer as CoNLL-U: one block per sentence, DEPS and empty nodes
    left out (eudify recomputes them). Also the line each sentence starts at and every line's
    text, to tell where an input error or a runaway is, and how many fields were cleaned."""
    _field = _Fields()
    lines: List[str] = []
    starts: List[int] = []
    for index, sentence in enumerate(doc.sentences):
        starts.append(len(lines) + 1)
        if not sentence.words:
            raise ValueError(f"sentence {index + 1}: no words")
        for token in sentence.tokens:
            if len(token.id) > 1:
                lines.append(f"{token.id[0]}-{token.id[-1]}\t{_field(token.text)}\t_\t_\t_\t_\t_\t_\t_\t_")
            for word in token.words:
                if word.head is None or word.deprel is None:
                    raise ValueError(
                        f"sentence {index + 1}, word {word.id} {word.text!r}: no basic tree (head and "
                        "deprel); run Stanza's depparse processor first"
                    )
                lines.append(
                    f"{word.id}\t{_field(word.text)}\t{_field(word.lemma)}\t{_field(word.upos)}\t"
                    f"{_field(word.xpos)}\t{_field(word.feats)}\t{word.head}\t{_field(word.deprel)}\t_\t{_field(word.misc)}"
                )
        lines.append("")
    return "\n".join(lines) + "\n", starts, lines, _field.cleaned


def enhance(
    doc: Any, lang: Optional[str] = None, rules: Optional[Union[str, "os.PathLike[str]"]] = None, *, strict: bool = False
) -> Any:
    """Fills the enhanced graph of the ``stanza.Document`` ``doc`` in place and returns it: each
    word's ``deps`` (``"2:nsubj|4:nsubj"``, what ``"{:C}".format(doc)`` writes in DEPS) and each
    sentence's ``empty_words`` (the empty nodes of elided predicates, ids ``(i, j)`` for
    ``i.j``), replacing any there were.

    ``lang`` is a language code or profile name as for :class:`eudify.Enhancer` (``None``: the
    document's own ``doc.lang``); ``rules`` a rules directory to use instead of the built-in
    rules. The enhancer for each (lang, rules) is compiled once and reused.

    Sets ``doc.eudify_report``, the :class:`eudify.Report` of the call: its ``repairs`` count
    the labels repaired, and under ``"tab or line break in a field → space"`` the fields
    (form, lemma, tags, features, relation, misc) whose tabs or line breaks were written as
    spaces, which would have broken the CoNLL-U; each runaway names its sentence by the
    Document's ``sent_id`` (``file`` ``"<stanza>"``, ``line`` the line of the CoNLL-U the
    Document was written as) and gives a :class:`eudify.RunawayWarning`, or with ``strict``
    raises :class:`eudify.RunawayError`.

    Raises ``ValueError`` when a word has no head or deprel (no parse), and
    :class:`eudify.InputError` when a sentence is not a valid tree; its ``file`` is
    ``"<stanza>"``, its ``line`` the line of the document's CoNLL-U, and its message names the
    sentence and the line."""
    from stanza.models.common import doc as stanza_doc

    from_doc = lang is None
    if lang is None:
        lang = getattr(doc, "lang", None)
        if lang is None:
            raise eudify.NoProfileError("no language: pass lang, or a Document whose lang is set")
    enhancer = _enhancer(lang, None if rules is None else os.fspath(rules), from_doc)
    text, starts, lines, cleaned = _to_conllu(doc)
    try:
        enhanced, report = enhancer._inner.enhance(text)
    except eudify.InputError as error:
        index = bisect_right(starts, error.line) - 1
        where = f"sentence {index + 1} ({doc.sentences[index].sent_id or 'no sent_id'})"
        line_text = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
        message = f"{where}: {error.message}: {line_text!r}"
        raised = eudify.InputError(f"<stanza>:{error.line}: {message}")
        raised.file, raised.line, raised.message = "<stanza>", error.line, message
        raise raised from None
    blocks = enhanced.split("\n\n")
    # One block per sentence, and the empty string after the last one's blank line.
    if len(blocks) != len(doc.sentences) + 1:
        raise RuntimeError(f"eudify returned {len(blocks) - 1} sentences for {len(doc.sentences)}")
    for sentence, block in zip(doc.sentences, blocks):
        _fill(stanza_doc, sentence, block)
    if cleaned:
        report["repairs"][FIELD_CLEANED] = cleaned
        report["repairs"] = dict(sorted(report["repairs"].items(), key=lambda kind: (-kind[1], kind[0])))
    for runaway in report["runaways"]:
        runaway["file"] = "<stanza>"
        runaway["sent_id"] = doc.sentences[bisect_right(starts, runaway["line"]) - 1].sent_id
    doc.eudify_report = report
    eudify._tell(report, strict, stacklevel=2)
    return doc


def _fill(stanza_doc: Any, sentence: Any, block: str) -> None:
    """Sets one sentence's enhanced graph from its block of eudify's output: the DEPS of its
    words, in order, and its empty nodes."""
    deps: List[Optional[str]] = []
    empty = []
    for line in block.split("\n"):
        columns = line.split("\t")
        if "." in columns[0]:
            major, minor = columns[0].split(".")
            entry = {stanza_doc.ID: (int(major), int(minor)), stanza_doc.TEXT: columns[1], stanza_doc.DEPS: columns[8]}
            for key, column in ((stanza_doc.LEMMA, 2), (stanza_doc.UPOS, 3), (stanza_doc.XPOS, 4), (stanza_doc.FEATS, 5), (stanza_doc.MISC, 9)):
                if columns[column] != "_":
                    entry[key] = columns[column]
            empty.append(entry)
        elif "-" not in columns[0]:
            deps.append(None if columns[8] == "_" else columns[8])
    if len(deps) != len(sentence.words):
        raise RuntimeError(f"eudify returned {len(deps)} words for a sentence of {len(sentence.words)}")
    # The graph is rebuilt from nothing: the edges of empty words being replaced go too.
    sentence.enhanced_dependencies.clear()
    sentence.empty_words = [stanza_doc.Word(sentence, entry) for entry in empty]
    for word, value in zip(sentence.words, deps):
        word.deps = value
