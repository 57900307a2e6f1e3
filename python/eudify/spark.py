"""Enhancing CoNLL-U corpora with Apache Spark: :func:`enhance` reads files from any Hadoop
path, cuts them only between sentences, and writes part files whose concatenation, in part
order, is what ``eudify enhance`` writes for the same files taken in name order.

    >>> from pyspark.sql import SparkSession
    >>> import eudify.spark
    >>> spark = SparkSession.builder.getOrCreate()
    >>> eudify.spark.enhance(spark, "hdfs:///corpora/cs/*.conllu", "hdfs:///out/cs", "cs")

Each file is read with Hadoop's ``TextInputFormat`` and a blank line (``"\\n\\n"``, or
``"\\r\\n\\r\\n"`` in a file whose first line ends in CRLF) as the record delimiter, so a file
larger than a split is read by several tasks, each starting at a sentence. Every executor
compiles the rules once (:func:`_enhancer` caches them per Python worker). See
``docs/spark.md`` for running on a cluster.

Needs classic Spark (a ``SparkContext``: RDDs are not available over Spark Connect).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import eudify

__all__ = ["enhance"]

_TEXT_INPUT_FORMAT = "org.apache.hadoop.mapreduce.lib.input.TextInputFormat"
_BOM = "\ufeff"
_BOM_BYTES = b"\xef\xbb\xbf"
# How much of each file the driver reads to tell its line ending and byte-order mark.
_PEEK_BYTES = 1 << 16
# Marks an executor's input error inside the traceback Spark hands the driver.
_MARK = "eudify-spark-input-error"
_MARKED = re.compile(_MARK + r"<([0-9a-f]+)>")

# One compiled Enhancer per (lang, rules) in each Python worker: Spark reuses workers across
# tasks (spark.python.worker.reuse), so the rules are compiled once per executor process.
_ENHANCERS: Dict[Tuple[str, Optional[str]], eudify.Enhancer] = {}


def _enhancer(lang: str, rules: Optional[str]) -> eudify.Enhancer:
    key = (lang, rules)
    enhancer = _ENHANCERS.get(key)
    if enhancer is None:
        # The driver has warned about a fallback profile already.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            enhancer = _ENHANCERS.setdefault(key, eudify.Enhancer(lang, rules))
    return enhancer


@dataclass(frozen=True)
class _File:
    """One input file, as the driver found it; shipped to the tasks that read it."""

    index: int
    path: str
    # Bytes, or -1 when a codec decompresses the file (its text's length is unknown).
    length: int
    # Bytes on disk.
    size: int
    delimiter: str
    # Hadoop's LineRecordReader drops a UTF-8 byte-order mark that starts the file; it is put
    # back so the output keeps it, as the CLI's does.
    bom: bool


class _InputErrorInTask(ValueError):
    """An input error in a task: where its batch starts, for the driver to find the line.
    `suspect`: the key of a record with replacement characters that the task could not check
    against the file's bytes, and where they are (see :func:`_suspects`)."""

    def __init__(
        self, file: _File, offset: int, line: int, message: str, suspect: Optional[Tuple[int, List[Tuple[int, int]]]] = None
    ) -> None:
        details = {"file": file.index, "offset": offset, "line": line, "message": message, "suspect": suspect}
        # Hex: the message survives any quoting in the traceback Spark passes on.
        super().__init__(f"{_MARK}<{json.dumps(details).encode('utf-8').hex()}>")


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _suspects(key: int, text: str) -> List[Tuple[int, int]]:
    """Where the replacement characters of the record at byte `key` are: (byte offset in the
    file, line of the record from 1), the first 100. Each offset holds if the ones before it
    are genuine U+FFFD, which is how the driver checks them, in order (:func:`_invalid_line`)."""
    found = []
    at = text.find("\ufffd")
    while at >= 0 and len(found) < 100:
        found.append((key + _utf8_len(text[:at]), text.count("\n", 0, at) + 1))
        at = text.find("\ufffd", at + 1)
    return found


def _enhance_partition(
    file: _File,
    lang: str,
    rules: Optional[str],
    batch_chars: int,
    extents: Any,
    reports: Any,
    records: Iterator[Tuple[int, str]],
) -> Iterator[str]:
    """Enhances one split's records (sentences, as Hadoop cut them at the delimiter) in batches
    of about `batch_chars`, yielding each batch's output without its final newline (the text
    output format writes one after each element)."""
    enhancer = _enhancer(lang, rules)
    delimiter = file.delimiter
    checked = file.length >= 0
    pieces: List[str] = []
    size = 0
    batch_start = -1
    first = -1
    end = -1

    def flush(last: Optional[Tuple[int, str, int]] = None) -> str:
        """Enhances the batch. `last`: the partition's last record, which no later record has
        checked, if it is in this batch: its key, text, and where it starts in the batch."""
        nonlocal pieces, size
        text = "".join(pieces)
        pieces, size = [], 0
        # A byte-order mark starts the input for the CLI only at the start of the file: later,
        # a blank line before it keeps it a character of the line, as the CLI reads it.
        shifted = text.startswith(_BOM) and batch_start > 0
        try:
            out, report = enhancer._inner.enhance("\n" + text if shifted else text)
        except eudify.InputError as error:
            line = error.line - shifted
            suspect = None
            if last is not None and checked and "\ufffd" in last[1] and line > text.count("\n", 0, last[2]):
                # The CLI reports invalid UTF-8 in a sentence before anything else in it.
                suspect = (last[0], _suspects(last[0], last[1]))
            raise _InputErrorInTask(file, batch_start, line, error.message, suspect) from None
        out = out[1:] if shifted else out
        for runaway in report["runaways"]:
            # Where the batch starts is a byte offset: its line is not known here.
            runaway.update(file=file.path, line=None)
        reports.add({(file.index, batch_start): report})
        return out[:-1] if out.endswith("\n") else out

    def add(key: int, text: str, followed: bool) -> Iterator[str]:
        nonlocal size, batch_start, end
        if not pieces:
            batch_start = key
        pieces.append(text)
        size += len(text)
        if followed:
            pieces.append(delimiter)
            size += len(delimiter)
        end = key + _utf8_len(text) + (len(delimiter) if followed else 0)
        if size >= batch_chars:
            yield flush()

    previous: Optional[Tuple[int, str]] = None
    for key, text in records:
        if file.bom and key == 0:
            text = _BOM + text
        if previous is not None:
            prev_key, prev_text = previous
            # A record that Hadoop decoded with replacement characters is checked against the
            # bytes it came from: invalid UTF-8 is an input error, as for the CLI.
            if checked and "\ufffd" in prev_text and prev_key + _utf8_len(prev_text) + len(delimiter) != key:
                suspects = _suspects(prev_key, prev_text)
                raise _InputErrorInTask(file, prev_key, suspects[0][1], "invalid UTF-8", (prev_key, suspects))
            yield from add(prev_key, prev_text, True)
        else:
            first = key
        previous = (key, text)
    if previous is None:
        return
    key, text = previous
    if checked:
        # The last record of the file is followed by the delimiter only if bytes are left.
        followed = key + _utf8_len(text) != file.length
    else:
        # Compressed: a record never ends with a line break when the delimiter follows it.
        followed = not text.endswith(delimiter[: len(delimiter) // 2])
    # Added by hand, not by add(): the batch it ends is flushed knowing it holds the last record.
    if not pieces:
        batch_start = key
    start = size
    pieces.extend((text, delimiter) if followed else (text,))
    end = key + _utf8_len(text) + (len(delimiter) if followed else 0)
    yield flush((key, text, start))
    # The last record is checked by the driver, which knows where the next partition starts.
    extents.add({(file.index, first): (end, key, _suspects(key, text))})


class _MergeDicts:
    """Accumulates what each partition read: {(file, first record's offset): (offset after
    its last record, that record's offset, its replacement characters)}, or each batch's
    report {(file, batch's offset): report}. Keyed, so that a task run twice counts once."""

    def zero(self, value: Dict) -> Dict:
        return {}

    def addInPlace(self, a: Dict, b: Dict) -> Dict:
        a.update(b)
        return a


def _total(reports: Dict[Tuple[int, int], Dict[str, Any]]) -> Dict[str, Any]:
    """The batches' reports added up, in input order: sentences, words, without_lemma,
    repairs by kind, runaways."""
    total: Dict[str, Any] = {"sentences": 0, "words": 0, "without_lemma": 0, "repairs": {}, "runaways": []}
    for _, report in sorted(reports.items()):
        for count in ("sentences", "words", "without_lemma"):
            total[count] += report[count]
        for kind, n in report["repairs"].items():
            total["repairs"][kind] = total["repairs"].get(kind, 0) + n
        total["runaways"].extend(report["runaways"])
    total["repairs"] = dict(sorted(total["repairs"].items(), key=lambda kind: (-kind[1], kind[0])))
    return total


def _hadoop_literal(path: str) -> str:
    """`path` with Hadoop's glob characters escaped, so it names one file."""
    return re.sub(r"([\\*?\[\]{}])", r"\\\1", path)


def _list_files(spark: Any, inputs: Sequence[str]) -> List[_File]:
    """The files the inputs name (paths, globs, directories, read recursively except for names
    starting with `_` or `.` as Hadoop skips), in name order, each peeked at for its line
    ending and byte-order mark."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    codecs = jvm.org.apache.hadoop.io.compress.CompressionCodecFactory(conf)
    found: Dict[str, Tuple[Any, Any]] = {}
    for pattern in inputs:
        path = jvm.org.apache.hadoop.fs.Path(pattern)
        fs = path.getFileSystem(conf)
        statuses = fs.globStatus(path)
        if not statuses:
            raise FileNotFoundError(f"{pattern}: no such file or directory")
        stack = list(statuses)
        while stack:
            status = stack.pop()
            if status.isDirectory():
                for child in fs.listStatus(status.getPath()):
                    if not child.getPath().getName().startswith(("_", ".")):
                        stack.append(child)
            else:
                name = status.getPath().toString()
                if "," in name:
                    # FileInputFormat splits its path at commas, escaped or not.
                    raise ValueError(f"{name}: a comma in a file name is not supported (Hadoop reads it as a list)")
                found[name] = (fs, status)
    if not found:
        raise FileNotFoundError(f"{', '.join(inputs)}: no input files")
    files = []
    for index, name in enumerate(sorted(found)):
        fs, status = found[name]
        codec = codecs.getCodec(status.getPath())
        head = _peek(fs, codec, status.getPath()) if status.getLen() > 0 else b""
        newline = head.find(b"\n")
        crlf = newline > 0 and head[newline - 1 : newline] == b"\r"
        files.append(
            _File(
                index=index,
                path=name,
                length=-1 if codec is not None else status.getLen(),
                size=status.getLen(),
                delimiter="\r\n\r\n" if crlf else "\n\n",
                bom=head.startswith(_BOM_BYTES),
            )
        )
    return files


def _peek(fs: Any, codec: Any, path: Any) -> bytes:
    stream = fs.open(path)
    try:
        if codec is not None:
            stream = codec.createInputStream(stream)
        return bytes(stream.readNBytes(_PEEK_BYTES))
    finally:
        stream.close()


def _lines_before(spark: Any, file: _File, offset: int) -> int:
    """How many lines of `file` start before byte `offset` (a line start): a job of its own,
    run only to report an error's line."""
    if offset <= 0:
        return 0
    lines = spark.sparkContext.newAPIHadoopFile(
        _hadoop_literal(file.path),
        _TEXT_INPUT_FORMAT,
        "org.apache.hadoop.io.LongWritable",
        "org.apache.hadoop.io.Text",
        conf={"textinputformat.record.delimiter": "\n"},
    )
    return lines.filter(lambda record: record[0] < offset).count()


def _input_error(spark: Any, file: _File, offset: int, line: int, message: str) -> eudify.InputError:
    line += _lines_before(spark, file, offset)
    error = eudify.InputError(f"{file.path}:{line}: {message}")
    error.file, error.line, error.message = file.path, line, message
    return error


def _invalid_line(spark: Any, file: _File, suspects: List[Tuple[int, int]]) -> Optional[int]:
    """The line (of its record) of the first replacement character that is not U+FFFD in the
    file's bytes, read there, or None."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(file.path)
    stream = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).open(path)
    try:
        for offset, line in suspects:
            stream.seek(offset)
            if bytes(stream.readNBytes(3)) != "\ufffd".encode("utf-8"):
                return line
    finally:
        stream.close()
    return None


def _task_error(spark: Any, file: _File, details: Dict[str, Any]) -> eudify.InputError:
    """The input error a task raised, with its line in the file."""
    if details["suspect"] is not None:
        key, suspects = details["suspect"]
        line = _invalid_line(spark, file, [tuple(s) for s in suspects])
        if line is not None:
            return _input_error(spark, file, key, line, "invalid UTF-8")
    return _input_error(spark, file, details["offset"], details["line"], details["message"])


def _check_extents(spark: Any, files: List[_File], extents: Dict[Tuple[int, int], Tuple[int, int, List]]) -> None:
    """Checks that the partitions' records cover every byte of each file once. A partition's
    last record is checked only here, against where the next partition starts: text that was
    not UTF-8 (decoding replaced it, and the bytes no longer match) fails the job, as would
    anything Hadoop's reader lost at the edge of a split."""
    by_file: Dict[int, List[Tuple[int, Tuple[int, int, List]]]] = {}
    for (index, first), extent in extents.items():
        by_file.setdefault(index, []).append((first, extent))
    for file in files:
        if file.length < 0:
            # Compressed: the keys count the codec's positions, not the text's bytes.
            continue
        parts = sorted(by_file.get(file.index, []))
        ends = [first for first, _ in parts[1:]] + [file.length]
        if parts and parts[0][0] != 0:
            raise _input_error(spark, file, 0, 1, "the first sentences of the file were not read")
        for (first, (end, last, suspects)), expected in zip(parts, ends):
            if end != expected:
                line = _invalid_line(spark, file, suspects)
                if line is not None:
                    raise _input_error(spark, file, last, line, "invalid UTF-8")
                raise _input_error(spark, file, last, 1, "the sentences read here are not the file's bytes")


def enhance(
    spark: Any,
    input: Union[str, Sequence[str]],
    output: str,
    lang: str,
    rules: Optional[Union[str, "os.PathLike[str]"]] = None,
    *,
    split_bytes: Optional[int] = None,
    batch_bytes: int = 1 << 20,
    compression: Optional[str] = None,
    strict: bool = False,
) -> Dict[str, Any]:
    """Enhances the CoNLL-U files ``input`` names into the directory ``output``, which must not
    exist.

    ``input``: a Hadoop path (``hdfs://``, ``s3a://``, ``file:``, or relative to the default
    file system), a glob, a directory (read recursively, skipping names that start with ``_``
    or ``.``), or a list of these. Files a Hadoop codec knows (``.gz``, ``.bz2``…) are
    decompressed. ``lang`` and ``rules`` are as for :class:`eudify.Enhancer`; ``rules`` must be a
    directory every executor can read.

    The output's part files (``part-00000``…), concatenated in numeric order, are what
    ``eudify enhance --lang LANG`` writes for the input files in name order, byte for byte, with
    one exception: a file whose last line has no line break gets one. ``split_bytes`` caps the
    size of a split (Hadoop's ``mapreduce.input.fileinputformat.split.maxsize``; the default is
    the file system's block size); ``batch_bytes`` is how much text each call into Rust
    enhances; ``compression`` is a Hadoop codec class for the output, e.g.
    ``"org.apache.hadoop.io.compress.GzipCodec"``.

    Raises :class:`eudify.InputError` (``file`` is the Hadoop path, ``line`` from 1) when a
    sentence is not valid CoNLL-U, and then removes ``output``; :class:`eudify.RulesError`
    when the rules do not load; ``FileNotFoundError`` when no file matches;
    ``FileExistsError`` when ``output`` exists. Returns ``files``, ``partitions`` and ``bytes``
    (the input's size on disk), and what ``eudify enhance`` reports, added up over the tasks
    (each batch counted once, retried or not): ``sentences``, ``words``, ``without_lemma``,
    ``repairs`` (labels repaired, count by kind) and ``runaways`` (:class:`eudify.Runaway`:
    ``file`` is the Hadoop path, ``sent_id`` and the rule name the sentence; ``line`` is
    ``None``, a task knowing where its batch starts in bytes only). Each runaway gives a
    :class:`eudify.RunawayWarning` on the driver, or with ``strict`` raises
    :class:`eudify.RunawayError` once the output is written.
    """
    inputs = [input] if isinstance(input, str) else list(input)
    rules_dir = None if rules is None else os.fspath(rules)
    # Loads the rules in the driver first: a bad profile or rules directory fails here, once,
    # and an unknown language warns once (the executors keep quiet).
    eudify.Enhancer(lang, rules_dir)
    sc = spark.sparkContext
    conf = sc._jsc.hadoopConfiguration()
    out_path = sc._jvm.org.apache.hadoop.fs.Path(output)
    out_fs = out_path.getFileSystem(conf)
    if out_fs.exists(out_path):
        raise FileExistsError(f"{output}: the output directory exists")
    files = _list_files(spark, inputs)
    extents = sc.accumulator({}, _MergeDicts())
    reports = sc.accumulator({}, _MergeDicts())
    parts = []
    for file in files:
        hadoop_conf = {"textinputformat.record.delimiter": file.delimiter}
        if split_bytes is not None:
            hadoop_conf["mapreduce.input.fileinputformat.split.maxsize"] = str(int(split_bytes))
        records = sc.newAPIHadoopFile(
            _hadoop_literal(file.path),
            _TEXT_INPUT_FORMAT,
            "org.apache.hadoop.io.LongWritable",
            "org.apache.hadoop.io.Text",
            conf=hadoop_conf,
        )
        parts.append(records.mapPartitions(partial(_enhance_partition, file, lang, rules_dir, batch_bytes, extents, reports)))
    enhanced = parts[0] if len(parts) == 1 else sc.union(parts)
    try:
        enhanced.saveAsTextFile(output, compression)
        _check_extents(spark, files, extents.value)
    except Exception as error:
        marked = _MARKED.search(str(error))
        out_fs.delete(out_path, True)
        if marked is None:
            raise
        details = json.loads(bytes.fromhex(marked.group(1)))
        raise _task_error(spark, files[details["file"]], details) from None
    summary: Dict[str, Any] = {
        "files": len(files),
        "partitions": enhanced.getNumPartitions(),
        "bytes": sum(f.size for f in files),
    }
    summary.update(_total(reports.value))
    for runaway in summary["runaways"]:
        if strict:
            raise eudify.RunawayError(_runaway_text(runaway), summary)  # type: ignore[arg-type]
        warnings.warn(_runaway_text(runaway), eudify.RunawayWarning, stacklevel=2)
    return summary


def _runaway_text(runaway: Dict[str, Any]) -> str:
    where = f"sentence {runaway['sent_id']}" if runaway["sent_id"] is not None else "a sentence"
    return f"{runaway['file']}: {where}: {runaway['message']} (sentence written with basic DEPS)"
