"""The Python package against the CLI: same DEPS, same errors, same scores.

The CLI binary is `$EUDIFY_BIN`, or `target/debug/eudify` (built by `cargo test`); the shared
dev data is `$EUDIFY_SHARED` or `../shared` beside the repository, as for the Rust tests.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
import warnings
from pathlib import Path

import pytest

import eudify

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "data" / "sample.conllu"
CAC_SAMPLE = REPO / "tests" / "data" / "ud" / "Czech-CAC" / "dev.conllu"
BAD = REPO / "tests" / "data" / "bad" / "head_out_of_range.conllu"
SHARED = Path(os.environ.get("EUDIFY_SHARED", REPO.parent / "shared"))
SPACY = SHARED / "data" / "eval-reference" / "Czech-CAC-cs_core_news_sm" / "parsed.conllu"


def cli(*args: str) -> subprocess.CompletedProcess:
    binary = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert binary.is_file(), f"{binary}: no eudify binary; run `cargo build` or set EUDIFY_BIN"
    return subprocess.run([str(binary), *args], capture_output=True, text=True, check=False)


def cli_enhance(path: Path, lang: str) -> str:
    result = cli("enhance", "--lang", lang, str(path))
    assert result.returncode == 0, result.stderr
    return result.stdout


def first_sentences(path: Path, n: int) -> str:
    """The first `n` sentences of a CoNLL-U file of the shared data: as for the Rust tests,
    missing shared data skips the test, visibly, and fails it under CI."""
    if not path.is_file():
        message = f"{path} not found (the shared data beside the checkout, or $EUDIFY_SHARED)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    assert len(blocks) > n
    return "\n\n".join(blocks[:n]) + "\n\n"


@pytest.fixture(scope="module")
def cs() -> eudify.Enhancer:
    return eudify.Enhancer("cs")


@pytest.fixture(scope="module")
def spacy_file(tmp_path_factory) -> Path:
    """300 sentences of real spaCy output: root labelled ROOT, no enhanced layer."""
    path = tmp_path_factory.mktemp("spacy") / "parsed.conllu"
    path.write_text(first_sentences(SPACY, 300), encoding="utf-8")
    return path


def test_enhance_equals_the_cli_on_the_sample(cs):
    expected = cli_enhance(SAMPLE, "cs")
    assert cs.enhance(SAMPLE.read_text(encoding="utf-8")) == expected


def test_enhance_equals_the_cli_on_spacy_output(cs, spacy_file):
    text = spacy_file.read_text(encoding="utf-8")
    assert "\tROOT\t" in text
    enhanced = cs.enhance(text)
    assert enhanced == cli_enhance(spacy_file, "cs")
    deps = [line.split("\t")[8] for line in enhanced.splitlines() if line and not line.startswith("#")]
    assert deps and all(d != "_" and "ROOT" not in d for d in deps)


def test_enhance_file_with_any_thread_count_equals_the_cli(cs, spacy_file, tmp_path):
    expected = cli_enhance(spacy_file, "cs")
    outputs = []
    for threads in (None, 1, 2):
        dst = tmp_path / f"out-{threads}.conllu"
        summary = cs.enhance_file(spacy_file, dst, threads=threads)
        assert summary["sentences"] == 300
        assert summary["words"] > 300
        # The CLI's report: spaCy's root label `ROOT`, repaired in every sentence.
        assert summary["repairs"] == {"ROOT → root": 300}
        assert summary["runaways"] == []
        assert summary["summary"] == "eudify: 300 sentences; 300 labels repaired (ROOT → root)"
        outputs.append(dst.read_text(encoding="utf-8"))
    assert outputs == [expected] * 3


def test_input_error_has_file_and_line(cs, tmp_path):
    with pytest.raises(eudify.InputError) as caught:
        cs.enhance(BAD.read_text(encoding="utf-8"))
    assert (caught.value.file, caught.value.line) == ("<string>", 4)
    assert str(caught.value).startswith("<string>:4: ")
    # The same message as the CLI's, which names the file.
    result = cli("enhance", "--lang", "cs", str(BAD))
    assert result.returncode == 1
    with pytest.raises(eudify.InputError) as caught:
        cs.enhance_file(BAD, tmp_path / "out.conllu")
    assert (caught.value.file, caught.value.line) == (str(BAD), 4)
    assert f"{caught.value}" in result.stderr
    assert not (tmp_path / "out.conllu").exists()
    assert isinstance(caught.value, ValueError)


def test_a_missing_file_is_an_os_error_that_reads_as_python_s_own(cs, tmp_path):
    missing = tmp_path / "missing.conllu"
    with pytest.raises(FileNotFoundError) as caught:
        cs.enhance_file(missing, tmp_path / "out.conllu")
    assert (caught.value.errno, caught.value.filename) == (2, str(missing))
    assert str(caught.value) == f"[Errno 2] No such file or directory: '{missing}'"
    with pytest.raises(IsADirectoryError) as caught:
        cs.enhance_file(tmp_path, tmp_path / "out.conllu")
    assert str(caught.value) == f"[Errno 21] Is a directory: '{tmp_path}'"
    with pytest.raises(FileNotFoundError) as caught:
        eudify.validate(missing)
    assert str(caught.value) == f"[Errno 2] No such file or directory: '{missing}'"


def test_profiles_resolve_as_the_cli_does():
    assert eudify.Enhancer("CS").profile == eudify.Enhancer("cs").profile == "cs"
    assert eudify.Enhancer("cs").warning is None
    with pytest.warns(UserWarning, match="xx-none"):
        fallback = eudify.Enhancer("xx-none")
    assert fallback.warning and "xx-none" in fallback.warning
    with pytest.raises(eudify.RulesError):
        eudify.Enhancer("cs", rules=REPO / "no-such-rules")


def test_profiles_lists_what_the_cli_lists():
    names = [p.name for p in eudify.profiles()]
    listed = [line.split()[0] for line in cli("profiles").stdout.splitlines()]
    assert names == listed and "cs" in names
    cs = next(p for p in eudify.profiles() if p.name == "cs")
    assert cs.extends == "universal" and cs.description


def test_validate_finds_what_the_cli_finds(cs, tmp_path):
    enhanced = cs.enhance(SAMPLE.read_text(encoding="utf-8"))
    assert eudify.validate(enhanced) == []
    broken = tmp_path / "broken.conllu"
    # An enhanced head out of range in the first word of the first two sentences.
    lines = enhanced.splitlines(keepends=True)
    words = [i for i, line in enumerate(lines) if line.startswith("1\t")]
    for i, deps in zip(words[:2], ("99:nsubj", "42:obj")):
        cols = lines[i].split("\t")
        cols[8] = deps
        lines[i] = "\t".join(cols)
    broken.write_text("".join(lines), encoding="utf-8")
    problems = eudify.validate(broken)
    assert len(problems) >= 2 and all(p.file == str(broken) for p in problems)
    assert {p.line for p in problems} >= {words[0] + 1, words[1] + 1}
    result = cli("validate", str(broken))
    assert result.returncode == 1
    assert [str(p) for p in problems] == [l for l in result.stderr.splitlines() if l.startswith(str(broken))]
    from_text = eudify.validate("".join(lines))
    assert [(p.line, p.message) for p in from_text] == [(p.line, p.message) for p in problems]
    assert {p.file for p in from_text} == {"<string>"}


def test_evaluate_is_eval_json(cs, tmp_path):
    gold = tmp_path / "gold.conllu"
    gold.write_text(first_sentences(SHARED / "data" / "ud" / "Czech-CAC" / "dev.conllu", 100), encoding="utf-8")
    system = tmp_path / "system.conllu"
    system.write_text(cs.enhance(gold.read_text(encoding="utf-8")), encoding="utf-8")
    scores = eudify.evaluate(gold, system)
    result = cli("eval", "--json", str(gold), str(system))
    assert result.returncode == 0, result.stderr
    assert scores == json.loads(result.stdout)
    # The basic tree is the gold's own; the enhanced graph is eudify's.
    assert scores["LAS"]["f1"] == 100.0 and 50 < scores["ELAS"]["f1"] < 100.0
    with_phenomena = eudify.evaluate(gold, system, phenomena=True)
    result = cli("eval", "--json", "--phenomena", str(gold), str(system))
    assert with_phenomena == json.loads(result.stdout) != scores


def test_evaluate_raises_input_error_on_mismatched_words(tmp_path):
    system = tmp_path / "system.conllu"
    system.write_text(BAD.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(eudify.InputError) as caught:
        eudify.evaluate(SAMPLE, system)
    assert caught.value.file in (str(SAMPLE), str(system)) and caught.value.line >= 1


def explain_lines(path: Path, lang: str) -> dict:
    """`eudify explain`'s edges per sentence: {sent_id: [(id, "head:label", origin)]}."""
    result = cli("explain", "--lang", lang, str(path))
    assert result.returncode == 0, result.stderr
    sentences = {}
    for block in result.stdout.strip("\n").split("\n\n"):
        lines = block.splitlines()
        sent_id = lines[0].removeprefix("# sent_id = ")
        edges = []
        for line in lines:
            if line.startswith("#"):
                continue
            match = re.match(r"^(\S+)\s+.*?\s(\S+:\S+)\s+(basic|\S+ \(\S+:\d+\))$", line)
            assert match, line
            edges.append(match.groups())
        sentences[sent_id] = edges
    return sentences


def test_explain_tells_each_edges_rule_as_the_cli_does(cs):
    text = SAMPLE.read_text(encoding="utf-8")
    sentences = cs.explain(text)
    expected = explain_lines(SAMPLE, "cs")
    assert [s["sent_id"] for s in sentences] == list(expected)
    for sentence in sentences:
        edges = [
            (e["dependent"], f"{e['head']}:{e['label']}", "basic" if e["rule"] is None else f"{e['rule']} ({e['file']}:{e['line']})")
            for e in sentence["edges"]
        ]
        assert edges == expected[sentence["sent_id"]]
        assert sentence["runaway"] is None
    # The edges are what enhance writes: the DEPS of each word, rebuilt from them.
    enhanced = cs.enhance(text).split("\n\n")
    for sentence, block in zip(sentences, enhanced):
        deps = {}
        for e in sentence["edges"]:
            deps.setdefault(e["dependent"], set()).add(f"{e['head']}:{e['label']}")
        for line in block.splitlines():
            columns = line.split("\t")
            if len(columns) == 10 and "-" not in columns[0]:
                assert set(columns[8].split("|")) == deps[columns[0]], line


def test_explain_lists_rule_applications_in_order(cs):
    text = CAC_SAMPLE.read_text(encoding="utf-8")
    sentences = cs.explain(text)
    assert sentences[0]["line"] == 1
    applications = [a for s in sentences for a in s["applications"]]
    assert applications
    for a in applications:
        assert a["rule"] and a["file"].endswith(".rules") and a["line"] >= 1 and a["phase"]
        assert a["added"] or a["removed"] or a["relabelled"] or a["empty_nodes"], a
        assert all(set(e) == {"dependent", "head", "label", "old_label"} for e in a["relabelled"])
        assert all(set(e) == {"dependent", "head", "label"} for e in a["added"] + a["removed"])
    # Each edge a rule made was added or relabelled by an application of that rule, and the
    # last application that touched the edge is that rule's.
    for sentence in sentences:
        last = {}
        for a in sentence["applications"]:
            for e in a["added"] + a["relabelled"]:
                last[(e["dependent"], e["head"], e["label"])] = a["rule"]
        for e in sentence["edges"]:
            if e["rule"] is not None:
                assert last[(e["dependent"], e["head"], e["label"])] == e["rule"], (sentence["sent_id"], e)
    # Relabelled edges say what they were: the bare relation of a case-marked one.
    relabelled = [e for a in applications for e in a["relabelled"]]
    assert any(e["label"].startswith(e["old_label"] + ":") for e in relabelled)
    # An empty node of gapping: added by a rule, with edges into it.
    with_empty = [s for s in sentences if any(a["empty_nodes"] for a in s["applications"])]
    assert with_empty
    for sentence in with_empty:
        nodes = {n for a in sentence["applications"] for n in a["empty_nodes"]}
        assert all("." in n for n in nodes)
        assert nodes <= {e["dependent"] for e in sentence["edges"]} | {e["head"] for e in sentence["edges"]}


def test_explain_raises_input_error_with_the_line(cs):
    with pytest.raises(eudify.InputError) as caught:
        cs.explain(BAD.read_text(encoding="utf-8"))
    assert (caught.value.file, caught.value.line) == ("<string>", 4)


def test_the_gil_is_released_while_enhancing(cs):
    text = first_sentences(SPACY, 300) * 8
    span = {}

    def work():
        span["start"] = time.perf_counter()
        cs.enhance(text)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    start, end = span["start"], span["end"]
    assert end - start > 0.02, "too little work to tell"
    # Held GIL: this thread could not run at all while the call lasted.
    middle = [t for t in ticks if start + 0.25 * (end - start) < t < start + 0.75 * (end - start)]
    assert middle


def test_the_gil_is_released_while_explaining(cs):
    text = first_sentences(SPACY, 300) * 4
    span = {}

    def work():
        span["start"] = time.perf_counter()
        cs.explain(text)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    start, end = span["start"], span["end"]
    assert end - start > 0.02, "too little work to tell"
    # Enhancing comes first, without the GIL (about a third of the call); the dicts are built
    # after it, with the GIL.
    early = [t for t in ticks if start + 0.02 * (end - start) < t < start + 0.2 * (end - start)]
    assert early


def test_threads_share_one_enhancer(cs, spacy_file):
    from concurrent.futures import ThreadPoolExecutor

    text = spacy_file.read_text(encoding="utf-8")
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(cs.enhance, [text] * 4))
    assert results == [cli_enhance(spacy_file, "cs")] * 4


def test_the_readme_example_runs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    import sys

    result = subprocess.run([sys.executable, "-c", example], cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert 50 < float(result.stdout) <= 100


ONE = "# text = Ahoj\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\tROOT\t_\t_\n\n"


def test_the_report_counts_what_was_read_and_repaired():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a repair is reported, not warned about
        enhanced, report = eudify.Enhancer("cs").enhance_with_report(ONE + ONE.replace("Ahoj", "Nazdar"))
    assert enhanced.count("\t0:root\t") == 2
    assert report == {
        "sentences": 2,
        "words": 2,
        "without_lemma": 0,
        "repairs": {"ROOT → root": 2},
        "runaways": [],
        "summary": "eudify: 2 sentences; 2 labels repaired (ROOT → root)",
    }


def test_a_runaway_is_reported_with_its_position_sent_id_and_rule_and_warned(runaway_rules, tmp_path):
    enhancer = eudify.Enhancer("test", runaway_rules)
    text = ONE + "# sent_id = s2\n" + ONE
    with pytest.warns(eudify.RunawayWarning) as warned:
        enhanced, report = enhancer.enhance_with_report(text)
    assert report["sentences"] == 2 and len(report["runaways"]) == 2
    second = report["runaways"][1]
    assert {k: second[k] for k in ("file", "line", "sent_id", "rule", "rule_line", "phase")} == {
        "file": "<string>",
        "line": 4,
        "sent_id": "s2",
        "rule": "grow",
        "rule_line": 3,
        "phase": "grow",
    }
    assert Path(second["rule_file"]) == runaway_rules / "test" / "test.rules"
    assert second["message"].startswith("sentence s2: rules do not terminate: growth limit")
    assert [str(w.message).split(": ")[0] for w in warned] == ["<string>:1", "<string>:4"]
    assert str(warned[1].message).endswith("(sentence written with basic DEPS)")
    # The sentences are written with the basic copy as DEPS.
    assert enhanced.count("\t0:ROOT\t") == 0 and enhanced.count("\t0:root\t") == 2
    src = tmp_path / "in.conllu"
    src.write_text(text, encoding="utf-8")
    with pytest.warns(eudify.RunawayWarning):
        report = enhancer.enhance_file(src, tmp_path / "out.conllu")
    assert [(r["file"], r["line"], r["sent_id"], r["rule"]) for r in report["runaways"]] == [
        (str(src), 1, None, "grow"),
        (str(src), 4, "s2", "grow"),
    ]


def test_strict_raises_on_a_runaway(runaway_rules, tmp_path):
    enhancer = eudify.Enhancer("test", runaway_rules)
    with pytest.raises(eudify.RunawayError) as caught:
        enhancer.enhance(ONE + ONE, strict=True)
    assert str(caught.value).startswith("<string>:1: rules do not terminate: growth limit")
    assert str(caught.value).endswith("(sentence written with basic DEPS) (and 1 more)")
    assert caught.value.report["sentences"] == 2 and len(caught.value.report["runaways"]) == 2
    src = tmp_path / "in.conllu"
    src.write_text(ONE, encoding="utf-8")
    with pytest.raises(eudify.RunawayError):
        enhancer.enhance_file(src, tmp_path / "out.conllu", strict=True)


def test_grep_finds_what_the_cli_finds_in_the_files_deps_and_the_computed_graph():
    pattern = "match { e: H =[nsubj:xsubj]=> S; }"
    # The sample's DEPS are empty: only the graph eudify computes has the edge.
    assert list(eudify.grep(pattern, SAMPLE)) == []
    computed = list(eudify.grep(pattern, SAMPLE, lang="en"))
    enhanced = eudify.Enhancer("en").enhance(SAMPLE.read_text())
    from_text = list(eudify.grep(pattern, enhanced))
    assert computed and [m["nodes"] for m in computed] == [m["nodes"] for m in from_text]
    first = computed[0]
    assert first["sent_id"] == "s1" and first["nodes"]["S"]["form"] == "She"
    assert first["edges"]["e"] == {"head": first["nodes"]["H"]["id"], "dep": first["nodes"]["S"]["id"], "label": "nsubj:xsubj"}
    assert first["text"].startswith("[She/S] wants to [buy/H]")


def test_grep_reads_the_input_as_the_matches_are_taken():
    good = "# sent_id = a\n1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t2:nsubj\t_\n2\tbark\tbark\tVERB\t_\t_\t0\troot\t0:root\t_\n\n"
    bad = "# sent_id = b\n1\tDogs\tdog\tNOUN\t_\t_\t7\tnsubj\t7:nsubj\t_\n2\tbark\tbark\tVERB\t_\t_\t0\troot\t0:root\t_\n\n"
    matches = eudify.grep("match { H =[nsubj]=> S; }", good + bad)
    assert next(matches)["sent_id"] == "a"
    # The invalid sentence is met only when the iteration reaches it.
    with pytest.raises(eudify.InputError) as caught:
        next(matches)
    assert caught.value.line == 6


def test_grep_warns_of_runaways_when_the_iteration_ends(runaway_rules):
    matches = eudify.grep("match { H -[nsubj]-> S; }", SAMPLE, lang="test", rules=runaway_rules)
    with pytest.warns(RuntimeWarning, match=r"sentence\(s\) searched in their basic copy: the rules ran away"):
        found = list(matches)
    assert found


def test_grep_pattern_mistakes_raise_rules_error_with_a_caret():
    with pytest.raises(eudify.RulesError) as error:
        eudify.grep("match { H -[nsubjj]-> S; }", SAMPLE)
    assert "<pattern>:1:13" in str(error.value) and "^" in str(error.value)


def _without_ids(text: str) -> str:
    """The text without ``# sent_id`` and ``# newdoc id``: only its words can tell its language."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith(("# sent_id", "# newdoc id")))


def test_without_lang_the_first_input_chooses_the_profile_and_says_why():
    text = _without_ids("\n\n".join(CAC_SAMPLE.read_text(encoding="utf-8").split("\n\n")[:30]) + "\n\n")
    enhancer = eudify.Enhancer()
    assert enhancer.profile is None
    with pytest.warns(eudify.ProfileWarning, match=r"^profile cs \(identified from the text: \d+ of \d+ distinctive"):
        enhanced = enhancer.enhance(text)
    assert enhancer.profile == "cs"
    assert enhanced == eudify.Enhancer("cs").enhance(text)
    # Decided once: later inputs use the same profile, in silence.
    with warnings.catch_warnings():
        warnings.simplefilter("error", eudify.ProfileWarning)
        enhancer.enhance(text)


def test_for_input_reads_a_treebank_code_in_the_file_name(tmp_path):
    path = tmp_path / "cs_cac-ud-dev.conllu"
    path.write_text(_without_ids(CAC_SAMPLE.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.warns(eudify.ProfileWarning, match=r'profile cs \(from file name "cs_cac-ud-dev.conllu"; no profile for treebank `cs_cac`: using the language profile `cs`\)'):
        enhancer = eudify.Enhancer.for_input(path)
    assert enhancer.profile == "cs"
    assert enhancer.enhance_file(path, tmp_path / "out.conllu")["sentences"] > 0


def test_without_lang_weak_evidence_raises_asking_for_it():
    one = "1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n"
    with pytest.raises(eudify.NoProfileError, match="cannot tell which language profile"):
        eudify.Enhancer().enhance(one)
    assert issubclass(eudify.NoProfileError, ValueError)
    with pytest.raises(eudify.NoProfileError, match="stdin"):
        eudify.Enhancer().enhance_file("-", "out.conllu")


def test_a_given_lang_is_used_in_silence():
    with warnings.catch_warnings():
        warnings.simplefilter("error", eudify.ProfileWarning)
        assert eudify.Enhancer("cs").enhance(CAC_SAMPLE.read_text(encoding="utf-8"))
