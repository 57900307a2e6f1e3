"""The spaCy pipeline component ``"eudify"``: every parsed ``Doc`` gets its Enhanced UD graph.

    >>> import spacy
    >>> nlp = spacy.load("cs_core_news_sm")
    >>> nlp.add_pipe("eudify")            # or config={"lang": "cs"}; found through an entry point
    >>> doc = nlp("Petr a Pavel přišli a odešli.")
    >>> doc[0]._.enhanced_deps            # Petr: subject of both verbs, tokens 3 and 5
    [(3, 'nsubj'), (5, 'nsubj')]

The component hands the Doc to Rust as arrays (``Doc.to_array``: one row of string hashes per
token, the strings of the hashes, the sentences' token ranges), where each sentence is written
as CoNLL-U (:func:`doc_to_conllu`: spaCy's labels as they are, the root's ``ROOT`` included,
which eudify repairs to ``root`` in DEPS; an empty lemma as ``_``, for which eudify reads the
form) and enhanced with the GIL released; the values below are built there too, in bulk. It
sets:

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
- ``doc._.eudify_report``: the :class:`eudify.Report` of the Doc: sentences, words, labels
  repaired by kind (spaCy's root label ``ROOT`` is one, ``ROOT → root``, in every sentence),
  and each sentence whose rules ran away (``sent_id`` is its position in ``doc.sents``, from 1;
  ``line`` the line of :func:`doc_to_conllu`'s text), which also gives a
  :class:`eudify.RunawayWarning`, or with ``config={"strict": True}`` raises
  :class:`eudify.RunawayError`.

All values are plain lists, tuples, dicts, strings and ints, so ``DocBin(store_user_data=True)``
and pickle keep them. The component has no state but its config (``lang``, ``rules``, ``strict``), so
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

import warnings
from typing import Any, List, Optional, Tuple, Union

# Absolute imports: this module lives in the package `eudify`, beside no module named `spacy`.
from spacy.attrs import DEP, HEAD, IDX, IS_SPACE, LEMMA, MORPH, ORTH, POS, SPACY, TAG
from spacy.language import Language
from spacy.tokens import Doc, Token

import eudify

__all__ = ["EudifyComponent", "EnhancedDep", "Head", "doc_to_conllu", "make_eudify"]

Head = Union[int, str, None]
"""An enhanced head: ``None`` (the root), a token index of the Doc, or an empty node's key."""

EnhancedDep = Tuple[Head, str]
"""One enhanced edge into a token or empty node: ``(head, label)``."""

# The token table handed to Rust, one row per token (`python/src/spacy.rs`, `Column`, reads
# the columns in this order): hashes of the strings (POS: a symbol id, which the StringStore
# maps to its name too), the head as an offset, whether a space follows, whether the token is
# whitespace, and its character offset (its key in `Doc.user_data`).
_ATTRS = [ORTH, LEMMA, POS, TAG, MORPH, HEAD, DEP, SPACY, IS_SPACE, IDX]
# The strings of the hashes, kept from Doc to Doc (a hash names the same string in any
# StringStore): a Doc's strings are looked up in Python only the first time they are seen.
_STRINGS = eudify._eudify.SpacyStrings()


def _register_extensions() -> None:
    if not Token.has_extension("enhanced_deps"):
        Token.set_extension("enhanced_deps", default=None)
    for name in ("enhanced_empty_nodes", "enhanced_conllu", "eudify_report"):
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)


def _arrays(doc: Doc) -> Tuple[bytes, List[Tuple[int, int]], Any, Any]:
    """The Doc as Rust takes it: the token table of :data:`_ATTRS` (native-endian uint64,
    row-major), each sentence of ``doc.sents`` as (start, end) token indices, the StringStore
    and the cache of its strings. Nothing runs in Python per token, only per sentence."""
    sents = [(sent.start, sent.end) for sent in doc.sents] if len(doc) else []
    return doc.to_array(_ATTRS).tobytes(), sents, doc.vocab.strings, _STRINGS


def doc_to_conllu(doc: Doc) -> str:
    """The parsed ``doc`` as the component writes it for eudify: CoNLL-U, one block per
    sentence of ``doc.sents`` that has a word (``# sent_id`` is its position in ``doc.sents``,
    from 1), DEPS ``_``. See the module's documentation for whitespace tokens. Raises
    ``ValueError`` when ``doc`` has tokens but no dependency parse."""
    _check_parsed(doc)
    return eudify._eudify.spacy_conllu(*_arrays(doc))


def _check_parsed(doc: Doc) -> None:
    if len(doc) and not doc.has_annotation("DEP"):
        raise ValueError(
            "eudify: the Doc has no dependency parse (no token has a DEP label): "
            "add the component after a parser, e.g. nlp.add_pipe('eudify', last=True)"
        )


class EudifyComponent:
    """The ``"eudify"`` pipeline component: one :class:`eudify.Enhancer` (rules compiled once),
    applied to every Doc. Put it after the parser; see the module for what it sets."""

    def __init__(
        self, nlp: Language, name: str = "eudify", lang: Optional[str] = None, rules: Optional[str] = None, strict: bool = False
    ) -> None:
        """``lang``: a language code or profile name as :class:`eudify.Enhancer` takes it,
        ``None`` for the pipeline's language (``nlp.lang``). ``rules``: a rules directory to
        use instead of the rules built in. ``strict``: a sentence whose rules run away raises
        :class:`eudify.RunawayError` instead of a :class:`eudify.RunawayWarning`. Raises
        :class:`eudify.RulesError` when the rules do not load."""
        _register_extensions()
        self.name = name
        self.lang = lang if lang is not None else nlp.lang
        self.rules = rules
        self.strict = strict
        self.enhancer = eudify.Enhancer(self.lang, rules)
        if lang is None:
            # No silent profile: the pipeline's language is the evidence, said as the CLI says it.
            warnings.warn(
                f"profile {self.enhancer.profile} (from the spaCy pipeline's language {self.lang!r})",
                eudify.ProfileWarning,
                stacklevel=2,
            )

    def __call__(self, doc: Doc) -> Doc:
        """Enhances ``doc`` in place and returns it. Raises ``ValueError`` when ``doc`` has
        no dependency parse."""
        _check_parsed(doc)
        enhanced, report, values, empty = self.enhancer._inner.enhance_spacy(*_arrays(doc))
        # Each token's `enhanced_deps`, set at once: the entries `token._.enhanced_deps = ...`
        # would write one by one.
        doc.user_data.update(values)
        doc._.enhanced_empty_nodes = empty
        doc._.enhanced_conllu = enhanced
        doc._.eudify_report = report
        eudify._tell(report, self.strict, stacklevel=2)
        return doc

    def __repr__(self) -> str:
        return f"EudifyComponent(lang={self.lang!r}, profile={self.enhancer.profile!r})"


@Language.factory(
    "eudify",
    default_config={"lang": None, "rules": None, "strict": False},
    assigns=["token._.enhanced_deps", "doc._.enhanced_empty_nodes", "doc._.enhanced_conllu", "doc._.eudify_report"],
    requires=["token.dep", "token.head"],
)
def make_eudify(nlp: Language, name: str, lang: Optional[str], rules: Optional[str], strict: bool) -> EudifyComponent:
    """The factory behind ``nlp.add_pipe("eudify", config={"lang": ..., "rules": ...,
    "strict": ...})``, registered through the ``spacy_factories`` entry point."""
    return EudifyComponent(nlp, name, lang=lang, rules=rules, strict=strict)
