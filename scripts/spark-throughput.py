"""Tokens per second of eudify.spark.enhance in local mode against the CLI's (one and two
threads), on COPIES files each holding all the shared dev treebanks (universal profile), and
that the outputs are byte-identical.

    target/venv/bin/python scripts/spark-throughput.py [COPIES] [EUDIFY_BIN]

Run with the venv that has eudify and pyspark installed; EUDIFY_BIN defaults to
target/release/eudify (`cargo build --release`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))


def main() -> None:
    copies = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    binary = sys.argv[2] if len(sys.argv) > 2 else str(REPO / "target" / "release" / "eudify")
    work = Path(tempfile.mkdtemp(prefix="eudify-spark-"))
    try:
        corpus = work / "in"
        corpus.mkdir()
        # Large files, as corpora come: each the 23 dev files one after another (36 MB), read in
        # splits of the local file system's block size (32 MB). Tiny files would measure
        # Spark's cost per task (about 0.1 s here) instead.
        devs = sorted((SHARED / "data" / "ud").glob("*/dev.conllu"))
        for copy in range(copies):
            with open(corpus / f"{copy}.conllu", "wb") as out:
                for dev in devs:
                    out.write(dev.read_bytes())
        files = sorted(corpus.iterdir())
        size = sum(f.stat().st_size for f in files)
        tokens = sum(
            1
            for f in files
            for line in f.read_text(encoding="utf-8").splitlines()
            if line[:1].isdigit() and line.split("\t", 1)[0].isdigit()
        )
        print(f"{len(files)} files, {size / 1e6:.1f} MB, {tokens} tokens")
        expected = None
        for threads in (1, 2):
            start = time.perf_counter()
            out = subprocess.run(
                [binary, "enhance", "--lang", "universal", "--threads", str(threads), *map(str, files)],
                capture_output=True,
                check=True,
            ).stdout
            took = time.perf_counter() - start
            expected = out
            print(f"CLI, {threads} thread(s): {took:.2f} s, {tokens / took:,.0f} tokens/s")

        os.environ["PYSPARK_PYTHON"] = sys.executable
        from pyspark.sql import SparkSession

        import eudify.spark

        for cores in (1, 2):
            start = time.perf_counter()
            spark = (
                SparkSession.builder.master(f"local[{cores}]")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.driver.memory", "2g")
                .getOrCreate()
            )
            spark.sparkContext.setLogLevel("ERROR")
            started = time.perf_counter() - start
            # The Python workers start and compile the rules in the first job: warm them up.
            eudify.spark.enhance(spark, str(files[0]), str(work / f"warm-{cores}"), "universal")
            start = time.perf_counter()
            summary = eudify.spark.enhance(spark, str(corpus), str(work / f"out-{cores}"), "universal")
            took = time.perf_counter() - start
            spark.stop()
            parts = sorted((work / f"out-{cores}").glob("part-*"), key=lambda p: int(p.name.split("-")[1]))
            same = b"".join(p.read_bytes() for p in parts) == expected
            print(
                f"Spark local[{cores}]: {took:.2f} s, {tokens / took:,.0f} tokens/s "
                f"({summary['partitions']} partitions; session start {started:.1f} s; identical to the CLI: {same})"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
