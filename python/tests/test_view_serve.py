"""`eudify view --serve` in a real browser (headless Chromium, the ``browser`` fixture of
conftest.py): the served page updates after a rule file is edited — its drawn edges and the
banner of what changed —, shows the caret diagnostic of a rule file broken, and recovers when
it is fixed, scrolled where it was, without a console error.

The command is the one the package installed beside this interpreter, else ``$EUDIFY_BIN`` or
``target/debug/eudify``.
"""

from __future__ import annotations

import os
import subprocess
import sysconfig
from pathlib import Path
from typing import Iterator, List

import pytest

REPO = Path(__file__).resolve().parents[2]
SENTENCES = 120
# The universal rule `case_label` relabels each `obl` `obl:to`; the edit makes it `obl:xto`.
SENTENCE = """# sent_id = s{n}
# text = go to Prague
1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_
2\tto\tto\tADP\t_\t_\t3\tcase\t_\t_
3\tPrague\tPrague\tPROPN\t_\t_\t1\tobl\t_\t_

"""
LABEL = 'as "{e.label}:{marker(C)}{?feat(N, Case)'
EDITED_LABEL = 'as "{e.label}:x{marker(C)}{?feat(N, Case)'
WAIT = 20  # seconds a change may take to show (it takes well under one)


def command() -> List[str]:
    script = Path(sysconfig.get_path("scripts")) / "eudify"
    if script.is_file():
        return [str(script)]
    binary = Path(os.environ.get("EUDIFY_BIN", REPO / "target" / "debug" / "eudify"))
    assert binary.is_file(), f"{binary}: no eudify command; install the package or run `cargo build`"
    return [str(binary)]


@pytest.fixture
def served(tmp_path) -> Iterator[tuple]:
    """`eudify view --serve --port 0` on a copy of the rules and a file of SENTENCES sentences:
    (its address, the rule file to edit)."""
    rules = tmp_path / "rules"
    subprocess.run([*command(), "rules", "export", str(rules)], check=True, capture_output=True)
    data = tmp_path / "in.conllu"
    data.write_text("".join(SENTENCE.format(n=n) for n in range(1, SENTENCES + 1)), encoding="utf-8")
    server = subprocess.Popen(
        [*command(), "view", "--serve", "--port", "0", "--lang", "en", "--rules", str(rules), str(data)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        url = line[line.index("http://") :].split()[0]
        yield url, rules / "universal" / "case.rules"
    finally:
        server.terminate()
        server.wait(timeout=10)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path} lacks {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def drawn_labels(browser) -> set:
    """The labels of the edges drawn, read in one step (the page may be reloading)."""
    return set(browser.execute_script("return Array.from(document.querySelectorAll('[data-label]'), e => e.dataset.label)"))


def test_the_served_page_follows_rule_edits_and_shows_a_broken_rule(browser, served):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    url, rule_file = served
    browser.get(url)
    wait = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda b: "obl:to" in drawn_labels(b))
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    scrolled = browser.execute_script("return window.scrollY")

    edit(rule_file, LABEL, EDITED_LABEL)
    wait.until(lambda b: "obl:xto" in drawn_labels(b))
    assert "obl:to" not in drawn_labels(browser)
    banner = wait.until(lambda b: b.find_element("id", "eudify-live-changes"))
    assert f"+{SENTENCES} / −{SENTENCES} edges in {SENTENCES} sentences" in banner.text
    assert "case_label" in banner.text
    assert abs(browser.execute_script("return window.scrollY") - scrolled) < 5, "the reload lost the scroll position"

    edit(rule_file, "rule case_label {", "rule case_label { XX YY")
    error = wait.until(lambda b: b.find_element("id", "eudify-live-error"))
    assert "case.rules:" in error.text and "error:" in error.text and "^" in error.text
    assert "obl:xto" in drawn_labels(browser), "the last good drawing stays under the diagnostic"

    edit(rule_file, "rule case_label { XX YY", "rule case_label {")
    edit(rule_file, EDITED_LABEL, LABEL)
    wait.until(lambda b: "obl:to" in drawn_labels(b) and not b.find_elements("id", "eudify-live-error"))
    assert "obl:xto" not in drawn_labels(browser)

    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    # Leave the page before its server stops: its long poll would be cut off.
    browser.get("about:blank")
    assert not errors, errors
