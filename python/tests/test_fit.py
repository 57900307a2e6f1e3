"""`eudify.fit`: the profile learned from a gold sample is the one `eudify fit` writes, the folder
it writes is one an `Enhancer` loads, and the fitted profile reproduces the sample better than the
profile it started from."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import eudify
from test_cli import script

REPO = Path(__file__).resolve().parents[2]
# Latvian marks case subtypes without the marker (obl:loc, obl:uz): `universal` misses them.
SAMPLE = REPO / "tests" / "data" / "ud" / "Latvian-LVTB" / "dev.conllu"


def elas(enhancer: eudify.Enhancer, tmp_path: Path, name: str) -> float:
    out = tmp_path / f"{name}.conllu"
    enhancer.enhance_file(str(SAMPLE), str(out))
    return eudify.evaluate(SAMPLE, out)["ELAS"]["f1"]


def test_fit_writes_the_profile_the_command_writes_and_it_scores_better(tmp_path):
    fitted = eudify.fit(SAMPLE, base="universal", name="lv_fit", output=tmp_path / "py")
    assert fitted.name == "lv_fit"
    assert fitted.profile.count('extends = "universal"') == 1, fitted.profile
    assert (tmp_path / "py" / "profiles" / "lv_fit.toml").read_text(encoding="utf-8") == fitted.profile
    assert "ELAS" in fitted.report

    command = [str(script()), "fit", "--base", "universal", "--name", "lv_fit", "-o", str(tmp_path / "cli"), str(SAMPLE)]
    subprocess.run(command, check=True, capture_output=True)
    assert (tmp_path / "cli" / "profiles" / "lv_fit.toml").read_text(encoding="utf-8") == fitted.profile

    before = elas(eudify.Enhancer("universal"), tmp_path, "before")
    after = elas(eudify.Enhancer("lv_fit", rules=tmp_path / "py"), tmp_path, "after")
    assert after > before + 1.0, (before, after)


def test_fit_refuses_gold_without_enhanced_graphs(tmp_path):
    basic = tmp_path / "basic.conllu"
    basic.write_text("1\tw\tw\tNOUN\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(eudify.InputError):
        eudify.fit(basic, base="universal")
