"""The PySpark job against the CLI, in local mode (`local[2]`): the part files, concatenated in
order, are byte for byte what `eudify enhance` writes for the inputs in name order, whatever
the split size.

The CLI binary is `$EUDIFY_BIN` or `target/debug/eudify`; the shared dev data is
`$EUDIFY_SHARED` or `../shared`. Without pyspark installed the tests skip, visibly, and fail
under CI=true.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

import eudify

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))
SAMPLE = REPO / "tests" / "data" / "ud" / "Czech-CAC" / "dev.conllu"

try:
    import pyspark  # noqa: F401
except ImportError:
    pyspark = None

import eudify.spark  # noqa: E402


def required(what: str) -> None:
    """Skips, or fails under CI, when something the tests need is missing."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: not skipped)")
    pytest.skip(what)


@pytest.fixture(scope="module")
def spark():
    if pyspark is None:
        required("pyspark is not installed (pip install pyspark)")
    from pyspark.sql import SparkSession

    # The executors' Python is this one, with eudify installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("eudify tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def cli(*args: str) -> subprocess.CompletedProcess:
    binary = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert binary.is_file(), f"{binary}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    return subprocess.run([str(binary), *args], capture_output=True, check=False)


def cli_enhance(files: List[Path], lang: str) -> bytes:
    result = cli("enhance", "--lang", lang, *map(str, files))
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def parts(output: Path) -> bytes:
    """The part files concatenated in numeric order."""
    names = sorted(output.glob("part-*"), key=lambda p: int(p.name.split("-")[1].split(".")[0]))
    assert (output / "_SUCCESS").exists() and names
    return b"".join(gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes() for p in names)


def shared_dev(treebank: str) -> Path:
    path = SHARED / "data" / "ud" / treebank / "dev.conllu"
    if not path.is_file():
        required(f"{path} not found (the shared data beside the checkout, or $EUDIFY_SHARED)")
    return path


def test_dev_treebanks_byte_identical_to_the_cli(spark, tmp_path):
    """Three Czech dev treebanks (4 MB), files larger than a split: each read by several tasks."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    # Named so that name order differs from the order they are listed in.
    for name, treebank in (("c.conllu", "Czech-CAC"), ("a.conllu", "Czech-FicTree"), ("b.conllu", "Czech-CLTT")):
        shutil.copy(shared_dev(treebank), inputs / name)
    files = sorted(inputs.iterdir())
    summary = eudify.spark.enhance(spark, str(inputs), str(tmp_path / "out"), "cs", split_bytes=300_000)
    assert summary["files"] == 3 and summary["bytes"] == sum(f.stat().st_size for f in files)
    assert summary["partitions"] >= 3 + 9, "every file is larger than one split"
    assert parts(tmp_path / "out") == cli_enhance(files, "cs")


def odd_files(directory: Path) -> List[Path]:
    """Files shaped as corpora are in the wild, in name order, from the Czech sample."""
    text = SAMPLE.read_bytes()
    blocks = text.split(b"\n\n")[:-1]
    assert len(blocks) > 50
    first, rest = blocks[:20], blocks[20:50]
    directory.mkdir()
    shapes = {
        # Several blank lines between sentences, and before the first.
        "01-blank-lines.conllu": b"\n\n" + b"\n\n\n".join(first) + b"\n\n\n\n",
        # CRLF line endings.
        "02-crlf.conllu": (b"\n\n".join(rest) + b"\n\n").replace(b"\n", b"\r\n"),
        # A byte-order mark, and the last sentence with no blank line after it.
        "03-bom.conllu": b"\xef\xbb\xbf" + b"\n\n".join(first) + b"\n",
        # Compressed (one split: gzip is not splittable).
        "04-gzip.conllu.gz": gzip.compress(b"\n\n".join(rest) + b"\n\n"),
        # Hadoop's glob characters in the name.
        "05-glob[1]{a}.conllu": b"\n\n".join(first[:3]) + b"\n\n",
        # Empty, and blank lines only.
        "06-empty.conllu": b"",
        "07-blank.conllu": b"\n\n\n",
    }
    for name, data in shapes.items():
        (directory / name).write_bytes(data)
    return sorted(directory.iterdir())


@pytest.mark.parametrize("split_bytes", [997, 4096, None])
def test_odd_files_at_any_split_size(spark, tmp_path, split_bytes):
    files = odd_files(tmp_path / "in")
    # Hidden files (as Hadoop's) are not input.
    (tmp_path / "in" / "_ignored.conllu").write_bytes(b"not CoNLL-U\n")
    (tmp_path / "in" / ".ignored.conllu").write_bytes(b"not CoNLL-U\n")
    out = tmp_path / "out"
    eudify.spark.enhance(spark, str(tmp_path / "in"), str(out), "cs", split_bytes=split_bytes, batch_bytes=3000)
    assert parts(out) == cli_enhance(files, "cs")


def test_a_file_without_a_final_newline_gets_one(spark, tmp_path):
    """The one difference from the CLI, which copies the missing line break as missing."""
    src = tmp_path / "in.conllu"
    text = SAMPLE.read_bytes().rstrip(b"\n")
    src.write_bytes(text)
    eudify.spark.enhance(spark, str(src), str(tmp_path / "out"), "cs", split_bytes=5000)
    expected = cli_enhance([src], "cs")
    assert not expected.endswith(b"\n")
    assert parts(tmp_path / "out") == expected + b"\n"


def test_globs_lists_and_gzip_output(spark, tmp_path):
    files = odd_files(tmp_path / "in")
    out = tmp_path / "out"
    inputs = [str(tmp_path / "in" / "0[4-7]*"), str(tmp_path / "in" / "01-*"), str(files[1])]
    summary = eudify.spark.enhance(spark, inputs, str(out), "cs", compression="org.apache.hadoop.io.compress.GzipCodec")
    picked = [files[0], files[1]] + files[3:]
    assert summary["files"] == len(picked) and summary["bytes"] == sum(f.stat().st_size for f in picked)
    assert any(p.suffix == ".gz" for p in out.glob("part-*"))
    assert parts(out) == cli_enhance(picked, "cs")


def cli_error(path: Path) -> str:
    result = cli("enhance", "--lang", "cs", str(path))
    assert result.returncode == 1
    return result.stderr.decode().strip().splitlines()[-1]


@pytest.mark.parametrize("where", ["middle", "last"])
def test_invalid_input_is_an_input_error_at_the_clis_line(spark, tmp_path, where):
    blocks = SAMPLE.read_bytes().split(b"\n\n")[:-1]
    broken = blocks[37].replace(b"\t0\troot\t", b"\t99\troot\t", 1)
    assert broken != blocks[37]
    blocks[37] = broken
    if where == "last":
        blocks = blocks[:38]
    src = tmp_path / "in.conllu"
    src.write_bytes(b"\n\n".join(blocks) + b"\n\n")
    out = tmp_path / "out"
    with pytest.raises(eudify.InputError) as caught:
        eudify.spark.enhance(spark, str(src), str(out), "cs", split_bytes=2000, batch_bytes=1500)
    error = caught.value
    expected = cli_error(src)
    assert str(error) == expected.replace(str(src), "file:" + str(src), 1)
    assert error.file == "file:" + str(src) and error.line > 100
    assert not out.exists(), "the partial output is removed"


@pytest.mark.parametrize("where", [10, 37, 49])
def test_invalid_utf8_is_an_input_error_at_the_clis_line(spark, tmp_path, where):
    """Hadoop decodes text with replacement characters; the job checks them against the bytes,
    within a split and at its end, and fails as the CLI does."""
    blocks = SAMPLE.read_bytes().split(b"\n\n")[:50]
    blocks[where] = blocks[where].replace(b"\t", b"\xe9\t", 3)
    src = tmp_path / "in.conllu"
    src.write_bytes(b"\n\n".join(blocks) + b"\n\n")
    with pytest.raises(eudify.InputError) as caught:
        eudify.spark.enhance(spark, str(src), str(tmp_path / "out"), "cs", split_bytes=4000)
    expected = cli_error(src)
    assert "invalid UTF-8" in expected
    assert (caught.value.line, "invalid UTF-8") == (int(expected.split(":")[1]), caught.value.message[:13])


def test_a_genuine_replacement_character_passes(spark, tmp_path):
    text = SAMPLE.read_text(encoding="utf-8")
    assert "\tzávazek\t" in text
    text = text.replace("\tzávazek\t", "\tzáva\ufffdzek\t")
    src = tmp_path / "in.conllu"
    src.write_text(text, encoding="utf-8")
    eudify.spark.enhance(spark, str(src), str(tmp_path / "out"), "cs", split_bytes=3000)
    assert parts(tmp_path / "out") == cli_enhance([src], "cs")


def test_refusals(spark, tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such"):
        eudify.spark.enhance(spark, str(tmp_path / "no-such*.conllu"), str(tmp_path / "out"), "cs")
    (tmp_path / "out").mkdir()
    with pytest.raises(FileExistsError):
        eudify.spark.enhance(spark, str(SAMPLE), str(tmp_path / "out"), "cs")
    with pytest.raises(eudify.RulesError):
        eudify.spark.enhance(spark, str(SAMPLE), str(tmp_path / "out2"), "cs", rules=tmp_path / "no-rules")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a,b.conllu").write_bytes(SAMPLE.read_bytes())
    with pytest.raises(ValueError, match="a,b.conllu: a comma"):
        eudify.spark.enhance(spark, str(tmp_path / "in"), str(tmp_path / "out3"), "cs")
    assert not (tmp_path / "out2").exists() and not (tmp_path / "out3").exists()


def test_one_enhancer_per_worker():
    first = eudify.spark._enhancer("cs", None)
    assert eudify.spark._enhancer("cs", None) is first
    assert eudify.spark._enhancer("en", None) is not first


def test_the_script_in_process(spark, tmp_path, capsys):
    """eudify.spark_job's main() in this session: arguments, summary, errors as FILE:LINE."""
    from eudify.spark_job import main

    assert main(["--lang", "cs", "--split-mb", "0.02", str(SAMPLE), str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "1 files" in out and " sentences, " in out and "0 sentences with runaway rules" in out
    assert parts(tmp_path / "out") == cli_enhance([SAMPLE], "cs")
    bad = tmp_path / "bad.conllu"
    bad.write_bytes(SAMPLE.read_bytes().replace(b"\t0\troot\t", b"\t99\troot\t", 1))
    assert main(["--lang", "cs", str(bad), str(tmp_path / "out2")]) == 1
    assert capsys.readouterr().err == f"error: file:{cli_error(bad)}\n"
    # The session it found running is still running.
    assert spark.sparkContext._jsc is not None and spark.range(3).count() == 3


def test_spark_submit_runs_the_script(spark, tmp_path):
    """The script as a cluster runs it: spark-submit, a JVM and Python workers of its own."""
    submit = Path(sys.executable).parent / "spark-submit"
    if not submit.exists():
        required(f"{submit}: no spark-submit beside this Python")
    import eudify.spark_job

    out = tmp_path / "out"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    args = [str(submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false", eudify.spark_job.__file__]
    result = subprocess.run(
        [*args, "--lang", "cs", "--split-mb", "0.02", str(SAMPLE), str(out)], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "1 files" in result.stdout
    assert parts(out) == cli_enhance([SAMPLE], "cs")


def test_the_summary_counts_what_eudify_reports(spark, tmp_path, runaway_rules):
    text = SAMPLE.read_text(encoding="utf-8")
    _, report = eudify.Enhancer("cs").enhance_with_report(text)
    summary = eudify.spark.enhance(spark, str(SAMPLE), str(tmp_path / "out"), "cs", split_bytes=20_000)
    assert summary["partitions"] > 1
    for count in ("sentences", "words", "without_lemma", "repairs", "runaways"):
        assert summary[count] == report[count], count
    with pytest.warns(eudify.RunawayWarning):
        summary = eudify.spark.enhance(spark, str(SAMPLE), str(tmp_path / "away"), "test", runaway_rules, split_bytes=20_000)
    assert len(summary["runaways"]) == summary["sentences"] == report["sentences"]
    assert {(r["file"].endswith(SAMPLE.name), r["rule"], r["line"]) for r in summary["runaways"]} == {(True, "grow", None)}
    with pytest.raises(eudify.RunawayError):
        eudify.spark.enhance(spark, str(SAMPLE), str(tmp_path / "strict"), "test", runaway_rules, strict=True)
