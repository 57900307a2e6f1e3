"""``eudify enhance`` as a Spark job: a script for ``spark-submit`` (or ``python -m``).

    spark-submit --master yarn "$(python -c 'import eudify.spark_job as j; print(j.__file__)')" \\
        --lang cs 'hdfs:///corpora/cs/*.conllu' hdfs:///out/cs

Writes ``OUTPUT/part-*`` (see :func:`eudify.spark.enhance`) and prints a summary line (files,
bytes, partitions, sentences, words, labels repaired by kind, runaways; each runaway is also a
warning on stderr); exits
with 1 and a ``FILE:LINE: message`` on stderr when the input is not CoNLL-U.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="eudify.spark_job",
        description="Enhance CoNLL-U files on a Spark cluster; the part files, concatenated in "
        "order, are what `eudify enhance` writes for the inputs in name order.",
    )
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="Hadoop paths, globs or directories")
    parser.add_argument("output", metavar="OUTPUT", help="the output directory (must not exist)")
    parser.add_argument("--lang", required=True, help="language code or profile name, as for `eudify enhance`")
    parser.add_argument("--rules", help="a rules directory every executor can read, instead of the built-in rules")
    parser.add_argument("--split-mb", type=float, help="largest split in MB (default: the file system's block size)")
    parser.add_argument("--compress", action="store_true", help="gzip the part files")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    import eudify.spark

    # A session already running (main() called from a program) is left running.
    own = SparkSession.getActiveSession() is None
    spark = SparkSession.builder.appName("eudify enhance").getOrCreate()
    try:
        summary = eudify.spark.enhance(
            spark,
            args.inputs,
            args.output,
            args.lang,
            args.rules,
            split_bytes=None if args.split_mb is None else int(args.split_mb * 1e6),
            compression="org.apache.hadoop.io.compress.GzipCodec" if args.compress else None,
        )
    except (eudify.InputError, eudify.RulesError, FileNotFoundError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        if own:
            spark.stop()
    repairs = sum(summary["repairs"].values())
    kinds = ", ".join(f"{n} {kind}" for kind, n in summary["repairs"].items())
    print(
        f"eudify: {summary['files']} files, {summary['bytes']} bytes, {summary['partitions']} partitions, "
        f"{summary['sentences']} sentences, {summary['words']} words; {repairs} labels repaired"
        + (f" ({kinds})" if kinds else "")
        + f"; {len(summary['runaways'])} sentences with runaway rules written with basic DEPS -> {args.output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
