"""eudify: basic Universal Dependencies trees (CoNLL-U) to Enhanced UD graphs.

    >>> import eudify
    >>> enhancer = eudify.Enhancer("cs")
    >>> enhanced = enhancer.enhance(open("parsed.conllu").read())

Everything runs in Rust with the GIL released, so threads that enhance in parallel scale.
Input that is not valid CoNLL-U raises :class:`InputError`, which carries ``.file`` and ``.line``.

Nothing is changed silently: each call's :class:`Report` counts the sentences and the labels
repaired to UD's shape (by kind), and names each sentence whose rules ran away (written with
the basic tree's copy as DEPS) with its position, ``sent_id`` and rule; each runaway is also a
:class:`RunawayWarning`, and ``strict=True`` raises :class:`RunawayError` instead.

In Jupyter, what :meth:`Enhancer.enhance` returns draws itself as ``eudify view`` draws it (the
basic tree above the words, the enhanced graph below, the rule behind each edge a click away),
and :func:`render` draws a spaCy ``Doc`` that the ``"eudify"`` component enhanced.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple, TypedDict, Union

import threading

from . import _eudify
from ._eudify import InputError, NoProfileError, RulesError

__all__ = [
    "Enhancer",
    "Enhanced",
    "Drawing",
    "InputError",
    "RulesError",
    "NoProfileError",
    "ProfileWarning",
    "Report",
    "Runaway",
    "RunawayWarning",
    "RunawayError",
    "Problem",
    "Profile",
    "Explanation",
    "RuleApplication",
    "Edge",
    "RelabelledEdge",
    "ExplainedEdge",
    "validate",
    "evaluate",
    "fit",
    "Fit",
    "grep",
    "profiles",
    "render",
]
__version__: str = _eudify.__version__

PathLike = Union[str, "os.PathLike[str]"]


class Edge(TypedDict):
    """An enhanced edge in :meth:`Enhancer.explain`: node ids as CoNLL-U writes them."""

    dependent: str
    head: str
    label: str


class RelabelledEdge(Edge):
    """An edge given a new label (``label``); ``old_label`` is the label it had."""

    old_label: str


class RuleApplication(TypedDict):
    """One rule application in :meth:`Enhancer.explain`: the rule, where it is written, and
    what it changed."""

    rule: str
    file: str
    line: int
    phase: str
    added: List[Edge]
    removed: List[Edge]
    relabelled: List[RelabelledEdge]
    empty_nodes: List[str]


class ExplainedEdge(Edge):
    """An edge of the output with the rule that made it; the rule's fields are ``None`` for a
    basic edge, copied."""

    rule: Optional[str]
    file: Optional[str]
    line: Optional[int]
    phase: Optional[str]


class Explanation(TypedDict):
    """One sentence of :meth:`Enhancer.explain`."""

    sent_id: Optional[str]
    line: int
    applications: List[RuleApplication]
    edges: List[ExplainedEdge]
    runaway: Optional[str]


class Runaway(TypedDict):
    """A sentence whose rules ran away (reached the engine's limits): it was written with the
    basic tree's copy as DEPS. ``file`` and ``line`` (from 1) are where it starts in the input
    (``"<string>"`` for text), ``sent_id`` its ``# sent_id`` or ``None``; ``rule``,
    ``rule_file``, ``rule_line`` and ``phase`` name the rule applied or searched last;
    ``message`` is the CLI's report of it."""

    file: str
    line: int
    sent_id: Optional[str]
    rule: str
    rule_file: str
    rule_line: int
    phase: str
    message: str


class Report(TypedDict):
    """What an enhance call did, as ``eudify enhance`` reports it on stderr: ``sentences`` and
    ``words`` read, ``without_lemma`` (words whose lemma tests read the lower-cased form),
    ``repairs`` (labels repaired to UD's shape, count by kind, e.g. ``{"ROOT → root": 12}``),
    ``runaways`` (:class:`Runaway`, in input order) and ``summary``: the CLI's closing line
    (``"eudify: 12 sentences; 12 labels repaired (ROOT → root)"``), or ``None`` when everything
    went as given. A plain dict: JSON, pickle and spaCy's ``DocBin`` keep it."""

    sentences: int
    words: int
    without_lemma: int
    repairs: Dict[str, int]
    runaways: List[Runaway]
    summary: Optional[str]


class RunawayWarning(UserWarning):
    """A sentence's rules ran away; it was written with basic DEPS (see :class:`Runaway`)."""


class RunawayError(RuntimeError):
    """``strict=True`` and a sentence's rules ran away: ``.report`` is the call's
    :class:`Report`, whose ``runaways`` name them; the message names the first."""

    def __init__(self, message: str, report: Report) -> None:
        super().__init__(message)
        self.report = report


def _runaway_text(runaway: Runaway) -> str:
    return f"{runaway['file']}:{runaway['line']}: {runaway['message']} (sentence written with basic DEPS)"


def _tell(report: Report, strict: bool, stacklevel: int) -> None:
    """Raises :class:`RunawayError` (``strict``) or warns once per runaway of ``report``.
    ``stacklevel`` as for ``warnings.warn``, counted from the caller of this function."""
    runaways = report["runaways"]
    if not runaways:
        return
    if strict:
        more = f" (and {len(runaways) - 1} more)" if len(runaways) > 1 else ""
        raise RunawayError(_runaway_text(runaways[0]) + more, report)
    for runaway in runaways:
        warnings.warn(_runaway_text(runaway), RunawayWarning, stacklevel=stacklevel + 1)


class Enhanced(str):
    """The enhanced CoNLL-U :meth:`Enhancer.enhance` returns: a ``str`` in every way (compare,
    slice, write it), which a notebook shows drawn (``_repr_html_``): each sentence's basic tree
    above the words and enhanced graph below, the edges rules made set apart, and the rule behind
    each edge shown on a click, as ``eudify view`` draws them. Drawn from the text given to
    :meth:`Enhancer.enhance` with the same rules, so an input that has DEPS of its own is drawn
    against them as gold (as ``eudify view --lang`` does). Pickles and copies as a plain ``str``."""

    _source: str
    _enhancer: "_eudify.Enhancer"

    def __new__(cls, text: str, source: str, enhancer: "_eudify.Enhancer") -> "Enhanced":
        self = super().__new__(cls, text)
        self._source = source
        self._enhancer = enhancer
        return self

    def _repr_html_(self) -> str:
        """The drawing, as HTML for a notebook's output cell (styles and script inline)."""
        return self._enhancer.view_html(self._source)

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        return (str, (str(self),))


@dataclass(frozen=True)
class Drawing:
    """What :func:`render` returns: ``html`` is the drawing (styles and script inline, for a
    notebook's output cell or any HTML page), shown by Jupyter through ``_repr_html_``."""

    html: str

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html
class ProfileWarning(UserWarning):
    """Which profile was chosen for an input given without a language, and why: ``profile cs
    (from sent_id "cs_cac-s1")``, ``profile fr (identified from the text: …)``, the line
    ``eudify enhance`` prints on stderr without ``--lang``."""


class Enhancer:
    """A language profile's rules, compiled once; enhances any number of texts or files.

    ``lang`` is a language code (``"cs"``, ``"fr"``, ``"en"``...) or a profile name (``"cs_pdt"``,
    ``"universal"``...), resolved as ``eudify enhance --lang`` does: :func:`profiles` lists
    the names; a code without a profile of its own takes the one the language table names for
    it. Language names (``"Czech"``) are not codes: an unknown code or name falls back to the
    ``universal`` profile. A fallback says so in :attr:`warning` and with a ``UserWarning`` (the
    CLI's ``warning:``). ``rules`` is an edited copy of the
    repository's ``rules/`` directory to use instead of the rules built in. Raises
    :class:`RulesError` when the rules do not load. One object can be shared by threads.

    Without ``lang`` there is no default profile: the first input decides, as ``eudify
    enhance`` without ``--lang`` does — a UD treebank code in the file name, ``# newdoc id`` or
    ``# sent_id``, else the language its words show against the profiles' lexicons — and the
    choice is said with a :class:`ProfileWarning`; when the input shows too little,
    :class:`NoProfileError` is raised, asking for ``lang``. Every later input uses the same
    profile. :meth:`for_input` decides at once.
    """

    __slots__ = ("_inner", "_rules", "_lock")

    def __init__(self, lang: Optional[str] = None, rules: Optional[PathLike] = None) -> None:
        self._rules = None if rules is None else os.fspath(rules)
        self._lock = threading.Lock()
        self._inner: Any = None
        if lang is not None:
            self._inner = _eudify.Enhancer(lang, self._rules)
            if self._inner.warning is not None:
                warnings.warn(self._inner.warning, stacklevel=2)

    @classmethod
    def for_input(cls, path_or_text: Union[PathLike, str], rules: Optional[PathLike] = None) -> "Enhancer":
        """The enhancer for the profile ``path_or_text`` shows (a string containing a newline
        is CoNLL-U text, anything else a path, gzip or not), chosen now and said with a
        :class:`ProfileWarning`; raises :class:`NoProfileError` when it shows too little."""
        enhancer = cls(None, rules)
        if isinstance(path_or_text, str) and "\n" in path_or_text:
            enhancer._chosen(text=path_or_text, stacklevel=2)
        else:
            enhancer._chosen(path=path_or_text, stacklevel=2)
        return enhancer

    def _chosen(self, *, text: Optional[str] = None, path: Optional[PathLike] = None, stacklevel: int) -> Any:
        """The native enhancer, its profile chosen from this input if none is yet."""
        with self._lock:
            if self._inner is None:
                if path is not None and os.fspath(path) == "-":
                    raise NoProfileError("<stdin>: cannot be read twice to choose a profile: give lang")
                if path is not None:
                    _, profile, said = _eudify.detect_profile(os.fspath(path), path=os.fspath(path), rules=self._rules)
                else:
                    _, profile, said = _eudify.detect_profile("<string>", text=text, rules=self._rules)
                warnings.warn(said, ProfileWarning, stacklevel=stacklevel + 1)
                inner = _eudify.Enhancer(profile, self._rules)
                if inner.warning is not None:
                    warnings.warn(inner.warning, stacklevel=stacklevel + 1)
                self._inner = inner
            return self._inner

    @property
    def profile(self) -> Optional[str]:
        """The profile ``lang`` resolved to (``None`` while an enhancer made without ``lang``
        has seen no input)."""
        return None if self._inner is None else self._inner.profile

    @property
    def warning(self) -> Optional[str]:
        """Why ``lang`` was resolved to a fallback profile, or ``None``."""
        return None if self._inner is None else self._inner.warning

    def enhance(self, conllu: str, *, strict: bool = False) -> Enhanced:
        """Returns ``conllu`` with every sentence's DEPS column (and empty nodes) recomputed;
        every other column and comment is kept byte for byte: an :class:`Enhanced` ``str``,
        which a notebook shows drawn. Raises :class:`InputError`
        (``file`` is ``"<string>"``) on a sentence that is not valid CoNLL-U. A sentence whose
        rules ran away is written with basic DEPS and warned about (:class:`RunawayWarning`),
        or with ``strict`` raises :class:`RunawayError`. :meth:`enhance_with_report` also
        returns the :class:`Report`."""
        return self.enhance_with_report(conllu, strict=strict)[0]

    def enhance_with_report(self, conllu: str, *, strict: bool = False) -> Tuple[Enhanced, Report]:
        """:meth:`enhance`, and the :class:`Report` of what was done (its runaways' ``file`` is
        ``"<string>"``, ``line`` the line of ``conllu``)."""
        enhanced, report = self._chosen(text=conllu, stacklevel=2).enhance(conllu)
        _tell(report, strict, stacklevel=2)
        return Enhanced(enhanced, conllu, self._inner), report

    def enhance_file(self, src: PathLike, dst: PathLike, threads: Optional[int] = None, *, strict: bool = False) -> Report:
        """Enhances the CoNLL-U file ``src`` (gzip is read too; ``"-"`` is stdin) into ``dst``,
        which is replaced only on success. ``threads``: workers (``None``: one per core); the
        output is the same for any number. Returns the :class:`Report` (runaways' ``file`` is
        ``src``); runaways warn, or with ``strict`` raise :class:`RunawayError` after ``dst`` is
        written. Raises :class:`InputError` with ``file`` = ``src`` on invalid input,
        ``OSError`` (``FileNotFoundError``…, with ``filename``) when a file cannot be read or
        written."""
        report = self._chosen(path=src, stacklevel=2).enhance_file(os.fspath(src), os.fspath(dst), threads)
        _tell(report, strict, stacklevel=2)
        return report

    def explain(self, conllu: str) -> List[Explanation]:
        """Enhances ``conllu`` as :meth:`enhance` does and tells, per sentence, why the
        enhanced graph is what it is (``eudify explain``'s question, as data).

        Each sentence is a dict: ``sent_id`` (``None`` without one), ``line`` (where it starts,
        from 1), ``applications`` — the rule applications that changed the graph, in the order
        made, each with the rule (``rule``, ``file``, ``line``, ``phase``) and the edges it
        ``added``, ``removed`` and ``relabelled`` (edges are dicts of ``dependent``, ``head``,
        ``label``, relabelled ones also ``old_label``; node ids as in CoNLL-U: ``"0"`` the root,
        ``"5.1"`` an empty node) and the ``empty_nodes`` it added —, ``edges`` — every enhanced
        edge written out, with the rule that added it or last changed its label (``rule``,
        ``file``, ``line`` and ``phase`` are ``None`` for the basic tree's edges, copied) —, and
        ``runaway``: why the rules were stopped on this sentence, whose output is then the basic
        copy, or ``None``. Raises :class:`InputError` on a sentence that is not valid CoNLL-U."""
        return self._chosen(text=conllu, stacklevel=2).explain(conllu)

    def __repr__(self) -> str:
        return f"eudify.Enhancer({self.profile!r})"


@dataclass(frozen=True)
class Problem:
    """One finding of :func:`validate`: where, and what is wrong (``eudify validate``'s lines)."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Profile:
    """A language profile, as ``eudify profiles`` lists it."""

    name: str
    description: str
    extends: Optional[str]


def validate(path_or_text: Union[PathLike, str], basic: bool = True) -> List[Problem]:
    """Checks CoNLL-U as ``eudify validate`` does: UD's level-2 checks of the enhanced layer and,
    with ``basic`` (the default), of the basic layer's format (ids, heads, UPOS, FEATS, DEPREL).
    ``basic=False`` checks only the layer eudify writes, e.g. on a parser's output whose basic
    columns are the parser's own (spaCy's ``ROOT``, its feature order).

    A string containing a newline is taken as the text itself (problems name it
    ``"<string>"``); anything else as a path (gzip is read too). Returns the problems, empty
    when the input is valid. Raises ``OSError`` when the file cannot be read."""
    if isinstance(path_or_text, str) and "\n" in path_or_text:
        problems, _ = _eudify.validate(text=path_or_text, basic=basic)
    else:
        problems, _ = _eudify.validate(path=os.fspath(path_or_text), basic=basic)
    return [Problem(file, line, message) for file, line, message in problems]


def evaluate(gold: PathLike, system: PathLike, phenomena: bool = False) -> Dict[str, Any]:
    """Scores the system file against the gold file: the object ``eudify eval --json`` prints
    (CoNLL 2018 / IWPT 2021 metrics by name, each with ``p``, ``r``, ``f1``...; with
    ``phenomena``, enhanced edges broken down by phenomenon too). Raises :class:`InputError`
    when either file is not valid CoNLL-U or the system's words differ from the gold's."""
    return json.loads(_eudify.evaluate(os.fspath(gold), os.fspath(system), phenomena))


@dataclass(frozen=True)
class Fit:
    """A profile learned by :func:`fit`: its ``name``, the ``profile`` file's text (a profile
    extending the base, each choice with its evidence), the ``lexicon`` file's text (``None``
    when the gold evidenced no word the base lacks) and the ``report`` ``eudify fit`` prints."""

    name: str
    profile: str
    lexicon: Optional[str]
    report: str


def fit(
    gold: Union[PathLike, List[PathLike]],
    base: Optional[str] = None,
    lang: Optional[str] = None,
    name: Optional[str] = None,
    folds: int = 0,
    output: Optional[PathLike] = None,
) -> Fit:
    """Learns a profile from gold enhanced graphs, as ``eudify fit GOLD... -o DIR`` does: the
    settings, enhancements, shipped rule files and lexicons, rules switched off and lexicon
    entries of a profile extending ``base`` (default: the
    profile ``lang`` selects, else the one the gold shows as :class:`Enhancer` without ``lang``
    chooses it, else ``universal``) that
    reproduce the gold best. With ``folds`` the report gives cross-validated scores; with
    ``output`` the folder is written (``Enhancer(name, rules=output)`` then uses it). Raises
    :class:`InputError` for gold that is not valid CoNLL-U or has no enhanced graph."""
    paths = [gold] if isinstance(gold, (str, os.PathLike)) else list(gold)
    fitted = _eudify.fit(
        [os.fspath(p) for p in paths],
        base=base,
        lang=lang,
        name=name,
        folds=folds,
        output=None if output is None else os.fspath(output),
    )
    return Fit(*fitted)


def grep(
    pattern: str,
    path_or_text: Union[PathLike, str],
    lang: Optional[str] = None,
    rules: Optional[PathLike] = None,
) -> Iterator[Dict[str, Any]]:
    """Yields each match of a search pattern, as ``eudify grep --json`` prints them: a rule's
    ``match { ... }`` block and optional ``without { ... }`` blocks, over the basic tree
    (``-[..]->``) and the enhanced graph (``=[..]=>``) as the input's DEPS hold it, or with
    ``lang`` the graph that profile computes from the basic trees.

    ``path_or_text``: a string containing a newline is the CoNLL-U text itself, anything else a
    path (gzip is read too). Each match is a dict: ``sent_id``, ``line``, ``text`` (the words,
    matched ones marked ``[form/VAR]``), ``nodes`` (variable → ``id``, ``line``, ``form``,
    ``lemma``, ``upos``, ``xpos``, ``feats``, ``deprel``, ``misc``) and ``edges`` (edge variable →
    ``head``, ``dep``, ``label``). The input is searched as the matches are taken, a sentence
    at a time: stopping early reads no further. A pattern that does not check raises
    :class:`RulesError` at the call, a file that cannot be opened ``OSError``; invalid input
    raises :class:`InputError` when the iteration reaches it. Sentences whose search was cut
    short by the work budget (or, with ``lang``, whose rules ran away) give a
    ``RuntimeWarning`` with their count when the iteration ends."""
    rules_path = None if rules is None else os.fspath(rules)
    if isinstance(path_or_text, str) and "\n" in path_or_text:
        search = _eudify.Grep(pattern, text=path_or_text, lang=lang, rules=rules_path)
    else:
        search = _eudify.Grep(pattern, path=os.fspath(path_or_text), lang=lang, rules=rules_path)
    return _matches(search)


def _matches(search: Any) -> Iterator[Dict[str, Any]]:
    for sentence in search:
        yield from sentence
    counts = search.counts()
    if counts["cut_short"]:
        warnings.warn(f"{counts['cut_short']} sentence(s) searched only in part: the pattern's search spent its work budget", RuntimeWarning, stacklevel=2)
    if counts["runaways"]:
        warnings.warn(f"{counts['runaways']} sentence(s) searched in their basic copy: the rules ran away", RuntimeWarning, stacklevel=2)


def profiles(rules: Optional[PathLike] = None) -> List[Profile]:
    """The language profiles (those built in, or those of the rules directory ``rules``)."""
    return [Profile(*p) for p in _eudify.profiles(None if rules is None else os.fspath(rules))]


def render(doc: Any) -> Drawing:
    """Draws a spaCy ``Doc`` that the ``"eudify"`` component enhanced — each sentence's basic
    tree (spaCy's parse) above the words and the enhanced graph below, empty nodes as tokens —
    from ``doc._.enhanced_conllu``, as ``eudify view`` draws a file's own DEPS. A ``str`` is
    taken as CoNLL-U with DEPS and drawn the same way. Returns a :class:`Drawing`, which Jupyter
    shows. Raises ``ValueError`` for a Doc the component has not enhanced, :class:`InputError`
    for CoNLL-U that is not valid."""
    if isinstance(doc, str):
        conllu = doc
    else:
        extensions = getattr(doc, "_", None)
        conllu = getattr(extensions, "enhanced_conllu", None) if extensions is not None else None
        if conllu is None:
            raise ValueError(
                "eudify.render: the Doc has no enhanced graph (doc._.enhanced_conllu is not set): "
                "run it through a pipeline with the component, e.g. nlp.add_pipe('eudify')"
            )
    return Drawing(_eudify.view_html(conllu))
