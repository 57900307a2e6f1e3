"""Fixtures shared by the Python tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A rule that gives every enhanced edge a new empty node: the graph grows without end and the
# engine's growth limit stops it, on any sentence (the Rust tests' tests/limits.rs has it too).
GROWING = """phase grow

rule grow {
  match { A =[*]=> B; }
  do    { E = empty copy of B after B;  add A =[dep]=> E; }
}
"""


@pytest.fixture(scope="session")
def runaway_rules(tmp_path_factory) -> Path:
    """A rules folder whose profile `test` runs away on every sentence (rule `grow`, line 3 of
    `test/test.rules`)."""
    root = tmp_path_factory.mktemp("runaway")
    files = {
        "rules/test/test.rules": GROWING,
        "rules/profiles/test.toml": 'name = "test"\ndescription = "runs away"\nrules = ["test/*.rules"]\n',
        "lexicons/universal.toml": (REPO / "lexicons" / "universal.toml").read_text(encoding="utf-8"),
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root / "rules"
