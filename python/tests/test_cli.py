"""The `eudify` command the wheel installs against the Rust binary: same stdout, stderr and exit
code, byte for byte.

The installed command is the script beside this interpreter (`pip install .` into the venv that
runs pytest); the binary is `$EUDIFY_BIN` or `target/debug/eudify` (built by `cargo test`).
"""

from __future__ import annotations

import os
import subprocess
import sysconfig
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
SAMPLE = DATA / "sample.conllu"
BAD = DATA / "bad" / "head_out_of_range.conllu"


def script() -> Path:
    """The console script pip installed with the package."""
    path = Path(sysconfig.get_path("scripts")) / ("eudify.exe" if os.name == "nt" else "eudify")
    assert path.is_file(), f"{path}: no `eudify` command; install the package with `pip install .`"
    return path


def binary() -> Path:
    path = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert path.is_file(), f"{path}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    return path


def run(program: Path, args: List[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    # From the repository, so relative paths in messages read the same for both.
    return subprocess.run([str(program), *args], input=stdin, capture_output=True, cwd=REPO, check=False)


def same(args: List[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Runs both commands; asserts identical exit code, stdout and stderr; returns the script's."""
    ours = run(script(), args, stdin)
    theirs = run(binary(), args, stdin)
    assert ours.returncode == theirs.returncode, (ours.stderr, theirs.stderr)
    assert ours.stderr == theirs.stderr
    assert ours.stdout == theirs.stdout
    return ours


def test_the_script_is_the_packages_not_the_binary():
    # The test would prove nothing if the script were the binary itself (or a copy of it).
    text = script().read_bytes()
    assert b"eudify._cli" in text and text != binary().read_bytes()


def test_enhance_the_sample():
    result = same(["enhance", "--lang", "cs", str(SAMPLE.relative_to(REPO))])
    assert result.returncode == 0
    assert b"\t0:root\t" in result.stdout


def test_enhance_from_stdin_with_threads():
    result = same(["enhance", "--lang", "en", "--threads", "2", "-"], stdin=SAMPLE.read_bytes() * 50)
    assert result.returncode == 0
    assert result.stdout.count(b"\n\n") == SAMPLE.read_bytes().count(b"\n\n") * 50


def test_enhance_to_a_file(tmp_path):
    ours, theirs = tmp_path / "ours.conllu", tmp_path / "theirs.conllu"
    a = run(script(), ["enhance", "--lang", "cs", "-o", str(ours), str(SAMPLE)])
    b = run(binary(), ["enhance", "--lang", "cs", "-o", str(theirs), str(SAMPLE)])
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)
    assert a.returncode == 0 and a.stdout == b""
    assert ours.read_bytes() == theirs.read_bytes() != b""


def test_bad_input_is_file_line_message_and_exit_1():
    name = str(BAD.relative_to(REPO))
    result = same(["enhance", "--lang", "cs", name])
    assert result.returncode == 1
    assert result.stderr.decode().startswith(f"{name}:"), result.stderr
    line = result.stderr.decode().split(":")[1]
    assert line.isdigit(), result.stderr


def test_a_missing_file_is_exit_2():
    result = same(["enhance", "--lang", "cs", "no/such/file.conllu"])
    assert result.returncode == 2
    assert result.stderr.startswith(b"no/such/file.conllu")


def test_an_unknown_language_warns_and_falls_back():
    result = same(["enhance", "--lang", "xx-none", str(SAMPLE)])
    assert result.returncode == 0
    assert b"warning:" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["--version"], ["--help"], ["enhance", "--help"], ["profiles"]],
    ids=["version", "help", "enhance-help", "profiles"],
)
def test_informational_commands(args):
    result = same(args)
    assert result.returncode == 0
    assert result.stdout and not result.stderr


def test_version_is_the_packages():
    import eudify

    assert same(["--version"]).stdout.decode().split() == ["eudify", eudify.__version__]


@pytest.mark.parametrize(
    "args", [[], ["enhance", "--no-such-flag"], ["no-such-command"]], ids=["nothing", "bad-flag", "bad-command"]
)
def test_usage_errors_exit_2(args):
    result = same(args)
    assert result.returncode == 2
    assert result.stderr and not result.stdout


def test_validate_and_eval(tmp_path):
    enhanced = tmp_path / "enhanced.conllu"
    assert run(binary(), ["enhance", "--lang", "cs", "-o", str(enhanced), str(SAMPLE)]).returncode == 0
    assert same(["validate", str(enhanced)]).returncode == 0
    assert same(["validate", str(BAD)]).returncode == 1
    result = same(["eval", str(SAMPLE), str(enhanced)])
    assert result.returncode == 0 and b"ELAS" in result.stdout


def test_a_closed_pipe_ends_quietly(tmp_path):
    # Far more output than a pipe buffer holds, so the writer meets the closed pipe.
    big = tmp_path / "big.conllu"
    big.write_bytes(SAMPLE.read_bytes() * 2000)
    codes = []
    for program in (script(), binary()):
        process = subprocess.Popen(
            [str(program), "enhance", "--lang", "cs", str(big)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert process.stdout.readline().startswith(b"#")
        process.stdout.close()
        stderr = process.stderr.read()
        codes.append((process.wait(timeout=120), stderr))
    assert codes[0] == codes[1] == (0, b"")


def test_run_cli_returns_the_exit_code(capfd):
    from eudify import _eudify

    assert _eudify.run_cli(["eudify", "validate", str(BAD)]) == 1
    out, err = capfd.readouterr()
    assert out == f"{BAD}: 1 sentence, 1 error\n"
    assert err.startswith(f"{BAD}:4: ")
    assert _eudify.run_cli(["eudify", "profiles"]) == 0
    assert "universal" in capfd.readouterr().out

