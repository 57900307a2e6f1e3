"""Type stubs of the native module; use the wrappers in :mod:`eudify`."""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

class InputError(ValueError):
    """Input that is not valid CoNLL-U: ``file`` and ``line`` (from 1) tell where."""

    file: str
    line: int
    message: str

class RulesError(ValueError):
    """Rules or a profile that do not load; the message holds every diagnostic."""

class NoProfileError(ValueError):
    """No language was given and the input does not show which profile it needs."""

class Enhancer:
    def __new__(cls, lang: str, rules: Optional[str] = None) -> "Enhancer": ...
    @property
    def profile(self) -> str: ...
    @property
    def warning(self) -> Optional[str]: ...
    def enhance(self, conllu: str) -> Tuple[str, Dict[str, Any]]: ...
    def enhance_spacy(
        self, table: bytes, sents: List[Tuple[int, int]], store: Any, cache: SpacyStrings
    ) -> Tuple[str, Dict[str, Any], Dict[Any, Any], Dict[str, Dict[str, Any]]]: ...
    def enhance_file(self, src: str, dst: str, threads: Optional[int] = None) -> Dict[str, Any]: ...
    def explain(self, conllu: str) -> List[Dict[str, Any]]: ...
    def view_html(self, conllu: str) -> str: ...

class SpacyStrings:
    """The strings of spaCy's hashes, kept from Doc to Doc."""

    def __new__(cls) -> "SpacyStrings": ...

def validate(
    path: Optional[str] = None,
    text: Optional[str] = None,
    name: str = "<string>",
    basic: bool = True,
) -> Tuple[List[Tuple[str, int, str]], int]: ...
def evaluate(gold: str, system: str, phenomena: bool = False) -> str: ...
def grep(
    pattern: str,
    path: Optional[str] = None,
    text: Optional[str] = None,
    lang: Optional[str] = None,
    rules: Optional[str] = None,
) -> Tuple[List[Dict[str, Any]], Dict[str, int]]: ...
def profiles(rules: Optional[str] = None) -> List[Tuple[str, str, Optional[str]]]: ...
def run_cli(argv: List[str]) -> int: ...
def view_html(conllu: str) -> str: ...
def detect_profile(
    name: str, text: Optional[str] = None, path: Optional[str] = None, rules: Optional[str] = None
) -> Tuple[str, str, str]: ...
def spacy_conllu(table: bytes, sents: List[Tuple[int, int]], store: Any, cache: SpacyStrings) -> str: ...
