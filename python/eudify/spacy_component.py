"""The spaCy pipeline component ``"eudify"``: every parsed ``Doc`` gets its Enhanced UD graph.

    >>> import spacy
    >>> nlp = spacy.load("cs_core_news_sm")
    >>> nlp.add_pipe("eudify")            # or config={"lang": "cs"}; found through an entry point
    >>> doc = nlp("Petr a Pavel přišli a odešli.")
    >>> doc[0]._.enhanced_deps            # Petr: subject of both verbs, tokens 3 and 5
    [(3, 'nsubj'), (5, 'nsubj')]

The component writes each sentence of the Doc as CoNLL-U (:func:`doc_to_conllu`: spaCy's
labels as they are, the root's ``ROOT`` included, which eudify repairs to ``root`` in DEPS;
an empty lemma as ``_``, for which eudify reads the form), runs the language's rules in Rust
with the GIL released, and sets:

- ``token._.enhanced_deps``: the token's enhanced heads and labels, a list of ``(head, label)``
  in DEPS order. ``head`` is ``None`` for the root (DEPS head ``0``), an ``int`` for a token of
  the Doc (``doc[head]``, as ``token.head.i``), or a ``str`` for an empty node: its key in
  ``doc._.enhanced_empty_nodes``. ``None`` for whitespace tokens, which are no words of the graph.
- ``doc._.enhanced_empty_nodes``: the empty nodes eudify added (elided predicates), a ``dict``
  from key to node in the order of the CoNLL-U. The key is ``"<sent_id>/<id>"``, e.g.
  ``"2/8.1"``: the node ``8.1`` of the sentence ``# sent_id = 2`` of ``doc._.enhanced_conllu``.
  A node is a ``dict``: ``sent`` (index of its sentence in ``doc.sents``), ``id``, ``after``
  (index of the token it follows, ``None`` when it comes before the sentence's first word),
  ``form``, ``lemma``, ``upos``, ``xpos``, ``feats``, ``misc`` (the CoNLL-U columns as written,
  ``_`` when empty) and ``deps`` (its ``(head, label)`` list, heads as above).
- ``doc._.enhanced_conllu``: the Doc's sentences as CoNLL-U with DEPS filled.

All values are plain lists, tuples, dicts, strings and ints, so ``DocBin(store_user_data=True)``
and pickle keep them. The component has no state but its config (``lang``, ``rules``), so
``nlp.to_disk`` / ``spacy.load`` rebuild it from the config alone.

Whitespace tokens (spaCy's tokens whose text is only whitespace, ``token.is_space``: runs of
spaces, line breaks) are not UD words and are left out of the CoNLL-U, whatever tag and
relation the parser gave them. spacy-conll writes them as words, with a FORM of spaces or a line
break that breaks the file. Their text goes into the MISC column as UD's tokenizers write it:
``SpacesAfter=`` on the word before (``\\s`` space, ``\\t`` tab, ``\\n`` line feed, ``\\r``
carriage return, ``\\\\`` backslash, ``\\uXXXX`` other whitespace), ``SpacesBefore=`` on the
Doc's first word for leading whitespace; a word followed by exactly one space has no
attribute, one followed by nothing ``SpaceAfter=No``, as spacy-conll writes it. A word whose
head is a whitespace token is attached to the nearest word above it, with its own label. Where
none is left (the parser made a whitespace token the root), the first such word becomes the
root (DEPREL ``ROOT``) and the others attach to it; a sentence of whitespace tokens only is no
sentence. ``# text`` is the sentence's text with each run of whitespace as one space.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

# Absolute imports: this module lives in the package `eudify`, beside no module named `spacy`.
from spacy.language import Language
from spacy.tokens import Doc, Span, Token

import eudify

__all__ = ["EudifyComponent", "EnhancedDep", "Head", "doc_to_conllu", "make_eudify"]

Head = Union[int, str, None]
"""An enhanced head: ``None`` (the root), a token index of the Doc, or an empty node's key."""

EnhancedDep = Tuple[Head, str]
"""One enhanced edge into a token or empty node: ``(head, label)``."""

# Escapes of whitespace in UD's MISC attributes `SpacesAfter` / `SpacesBefore` (as UDPipe writes them).
_ESCAPES = {" ": "\\s", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}
# Characters that would break a CoNLL-U line or column.
_BREAKING = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def _register_extensions() -> None:
    if not Token.has_extension("enhanced_deps"):
        Token.set_extension("enhanced_deps", default=None)
    if not Doc.has_extension("enhanced_empty_nodes"):
        Doc.set_extension("enhanced_empty_nodes", default=None)
    if not Doc.has_extension("enhanced_conllu"):
        Doc.set_extension("enhanced_conllu", default=None)


def _column(text: str) -> str:
    """A CoNLL-U column: ``_`` when empty, no tab or line break inside."""
    if not text:
        return "_"
    return text.translate(_BREAKING)


def _spaces(text: str) -> str:
    """``text`` (whitespace) escaped for ``SpacesAfter`` / ``SpacesBefore``."""
    return "".join(_ESCAPES.get(c) or (c if not c.isspace() else f"\\u{ord(c):04X}") for c in text)


def _misc(after: str, before: str) -> str:
    parts = []
    if after == "":
        parts.append("SpaceAfter=No")
    elif after != " ":
        parts.append("SpacesAfter=" + _spaces(after))
    if before:
        parts.append("SpacesBefore=" + _spaces(before))
    return "|".join(parts) or "_"


class _Sentence:
    """One sentence written as CoNLL-U: its ``sent_id``, its index in ``doc.sents`` and the
    token index of each word (word ``k`` is ``words[k - 1]``)."""

    __slots__ = ("sent_id", "index", "words")

    def __init__(self, sent_id: int, index: int, words: List[int]) -> None:
        self.sent_id = sent_id
        self.index = index
        self.words = words


def _heads(sent: Span, words: List[Token]) -> List[Tuple[int, str]]:
    """(HEAD, DEPREL) of each word: spaCy's, with whitespace tokens skipped (see the module)."""
    position = {t.i: k for k, t in enumerate(words, 1)}
    out: List[Tuple[int, str]] = []
    root = 0
    orphans: List[int] = []  # positions in `out` of words left without a word above them
    for token in words:
        if token.head.i == token.i:
            if root == 0:
                root = position[token.i]
                out.append((0, token.dep_))
            else:
                # A second root (a sentence splitter that disagrees with the parser).
                orphans.append(len(out))
                out.append((0, "dep"))
            continue
        head = token.head
        while head.is_space and head.head.i != head.i:
            head = head.head
        k = position.get(head.i)
        if k is None:
            # A whitespace root above, or a head outside the sentence.
            orphans.append(len(out))
            out.append((0, token.dep_))
        else:
            out.append((k, token.dep_))
    if orphans:
        if root == 0:
            first = orphans.pop(0)
            root = first + 1
            out[first] = (0, "ROOT")
        for i in orphans:
            out[i] = (root, out[i][1])
    return out


def _conllu(doc: Doc) -> Tuple[str, List[_Sentence]]:
    """The Doc as CoNLL-U, and where each of its words is in the Doc."""
    # The whitespace after each word, whitespace tokens included; and before the first one.
    after: Dict[int, str] = {}
    before = ""
    last: Optional[int] = None
    for token in doc:
        if token.is_space:
            if last is None:
                before += token.text_with_ws
            else:
                after[last] += token.text_with_ws
        else:
            after[token.i] = token.whitespace_
            last = token.i
    lines: List[str] = []
    sentences: List[_Sentence] = []
    first_word = True
    for index, sent in enumerate(doc.sents):
        words = [t for t in sent if not t.is_space]
        if not words:
            continue
        sent_id = index + 1
        text = " ".join(doc.text[words[0].idx : words[-1].idx + len(words[-1])].split())
        lines.append(f"# sent_id = {sent_id}")
        lines.append(f"# text = {text}")
        for k, (token, (head, deprel)) in enumerate(zip(words, _heads(sent, words)), 1):
            misc = _misc(after[token.i], before if first_word else "")
            first_word = False
            lines.append(
                "\t".join(
                    (
                        str(k),
                        _column(token.text),
                        _column(token.lemma_),
                        _column(token.pos_),
                        _column(token.tag_),
                        _column(str(token.morph)),
                        str(head),
                        _column(deprel),
                        "_",
                        misc,
                    )
                )
            )
        lines.append("")
        sentences.append(_Sentence(sent_id, index, [t.i for t in words]))
    return ("\n".join(lines) + "\n" if lines else ""), sentences


def doc_to_conllu(doc: Doc) -> str:
    """The parsed ``doc`` as the component writes it for eudify: CoNLL-U, one block per
    sentence of ``doc.sents`` that has a word (``# sent_id`` is its position in ``doc.sents``,
    from 1), DEPS ``_``. See the module's documentation for whitespace tokens. Raises
    ``ValueError`` when ``doc`` has tokens but no dependency parse."""
    _check_parsed(doc)
    return _conllu(doc)[0]


def _check_parsed(doc: Doc) -> None:
    if len(doc) and not doc.has_annotation("DEP"):
        raise ValueError(
            "eudify: the Doc has no dependency parse (no token has a DEP label): "
            "add the component after a parser, e.g. nlp.add_pipe('eudify', last=True)"
        )


def _head(field: str, sentence: _Sentence) -> Head:
    if field == "0":
        return None
    if "." in field:
        return f"{sentence.sent_id}/{field}"
    return sentence.words[int(field) - 1]


def _deps(column: str, sentence: _Sentence) -> List[EnhancedDep]:
    deps: List[EnhancedDep] = []
    for edge in column.split("|"):
        head, _, label = edge.partition(":")
        deps.append((_head(head, sentence), label))
    return deps


def _read_enhanced(doc: Doc, enhanced: str, sentences: List[_Sentence]) -> Dict[str, Dict[str, Any]]:
    """Sets each word's ``enhanced_deps`` from ``enhanced`` and returns the empty nodes."""
    empty: Dict[str, Dict[str, Any]] = {}
    blocks = iter(sentences)
    sentence: Optional[_Sentence] = None
    for line in enhanced.split("\n"):
        if not line:
            sentence = None
            continue
        if line.startswith("#"):
            continue
        if sentence is None:
            sentence = next(blocks)
        cols = line.split("\t")
        word_id = cols[0]
        if "." in word_id:
            k = int(word_id.split(".", 1)[0])
            empty[f"{sentence.sent_id}/{word_id}"] = {
                "sent": sentence.index,
                "id": word_id,
                "after": sentence.words[k - 1] if k else None,
                "form": cols[1],
                "lemma": cols[2],
                "upos": cols[3],
                "xpos": cols[4],
                "feats": cols[5],
                "misc": cols[9],
                "deps": _deps(cols[8], sentence),
            }
        elif "-" not in word_id:
            doc[sentence.words[int(word_id) - 1]]._.enhanced_deps = _deps(cols[8], sentence)
    return empty


class EudifyComponent:
    """The ``"eudify"`` pipeline component: one :class:`eudify.Enhancer` (rules compiled once),
    applied to every Doc. Put it after the parser; see the module for what it sets."""

    def __init__(self, nlp: Language, name: str = "eudify", lang: Optional[str] = None, rules: Optional[str] = None) -> None:
        """``lang``: a language code or profile name as ``eudify enhance --lang`` takes it,
        ``None`` for the pipeline's language (``nlp.lang``). ``rules``: a rules directory to
        use instead of the rules built in. Raises :class:`eudify.RulesError` when the rules do
        not load."""
        _register_extensions()
        self.name = name
        self.lang = lang if lang is not None else nlp.lang
        self.rules = rules
        self.enhancer = eudify.Enhancer(self.lang, rules)

    def __call__(self, doc: Doc) -> Doc:
        """Enhances ``doc`` in place and returns it. Raises ``ValueError`` when ``doc`` has
        no dependency parse."""
        _check_parsed(doc)
        conllu, sentences = _conllu(doc)
        enhanced = self.enhancer.enhance(conllu) if conllu else ""
        for token in doc:
            if token.is_space:  # words are all set below
                token._.enhanced_deps = None
        doc._.enhanced_empty_nodes = _read_enhanced(doc, enhanced, sentences)
        doc._.enhanced_conllu = enhanced
        return doc

    def __repr__(self) -> str:
        return f"EudifyComponent(lang={self.lang!r}, profile={self.enhancer.profile!r})"


@Language.factory(
    "eudify",
    default_config={"lang": None, "rules": None},
    assigns=["token._.enhanced_deps", "doc._.enhanced_empty_nodes", "doc._.enhanced_conllu"],
    requires=["token.dep", "token.head"],
)
def make_eudify(nlp: Language, name: str, lang: Optional[str], rules: Optional[str]) -> EudifyComponent:
    """The factory behind ``nlp.add_pipe("eudify", config={"lang": ..., "rules": ...})``,
    registered through the ``spacy_factories`` entry point."""
    return EudifyComponent(nlp, name, lang=lang, rules=rules)
