"""`eudify view`'s page in a real browser: Debian's headless Chromium driven by Selenium through
Debian's chromedriver (nothing is downloaded at run time). The page is written by the installed
`eudify` command (the package's console script), opened from file://, and read through the
attributes it promises: every drawn edge has data-layer, data-head, data-dep and data-label,
every sentence data-sent-id.

The browser is conftest.py's `browser` fixture: without /usr/bin/chromium or /usr/bin/chromedriver
(Debian's `chromium`, `chromium-driver`) or Selenium the tests are skipped, saying so; under
CI=true they fail instead (.ci/run installs them).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sysconfig
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
EWT = REPO / "tests" / "data" / "ud" / "English-EWT" / "dev.conllu"
WAIT = 20  # seconds for anything the page does


def eudify(*args: str) -> subprocess.CompletedProcess:
    """The console script pip installed with the package, run from the repository."""
    script = Path(sysconfig.get_path("scripts")) / ("eudify.exe" if os.name == "nt" else "eudify")
    assert script.is_file(), f"{script}: no `eudify` command; install the package with `pip install .`"
    result = subprocess.run([str(script), *args], capture_output=True, cwd=REPO, check=False)
    assert result.returncode == 0, result.stderr.decode()
    return result


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Dict[str, Path]:
    """`own`: the sample's own DEPS; `rules`: the `en` rules' graph, the sample's DEPS as gold."""
    root = tmp_path_factory.mktemp("pages")
    made = {"own": root / "own.html", "rules": root / "rules.html"}
    eudify("view", str(EWT.relative_to(REPO)), "-o", str(made["own"]))
    eudify("view", "--lang", "en", str(EWT.relative_to(REPO)), "-o", str(made["rules"]))
    return made


def open_page(driver, page: Path):
    # The browser is shared: what an earlier test's page logged (a live page's poll cut off when
    # its server stopped) is drained first.
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get(page.as_uri())
    wait(driver, "document.querySelector('section.sentence .drawing.drawn') !== null")


def wait(driver, condition: str):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return " + condition))


def graphs(conllu: str) -> Dict[str, Tuple[List[tuple], List[tuple]]]:
    """sent_id → (basic edges, DEPS edges), each (head, dep, label), sorted."""
    result = {}
    for block in conllu.split("\n\n"):
        sent_id, basic, deps = None, [], []
        for line in block.splitlines():
            if line.startswith("# sent_id = "):
                sent_id = line[len("# sent_id = "):]
            cols = line.split("\t")
            if len(cols) != 10 or "-" in cols[0]:
                continue
            if "." not in cols[0]:
                basic.append((cols[6], cols[0], cols[7]))
            for dep in cols[8].split("|"):
                if dep != "_":
                    head, label = dep.split(":", 1)
                    deps.append((head, cols[0], label))
        if sent_id:
            result[sent_id] = (sorted(basic), sorted(deps))
    return result


def show_sentence(driver, sent_id: str):
    """Filters the list down to `sent_id` and waits until it is drawn; returns its element."""
    from selenium.webdriver.common.by import By

    search = driver.find_element(By.ID, "filter-text")
    search.clear()
    search.send_keys(sent_id)
    wait(driver, "document.getElementById('shown-count').textContent.startsWith('1 of')")
    section = driver.find_element(By.CSS_SELECTOR, "section.sentence")
    assert section.get_attribute("data-sent-id") == sent_id
    driver.execute_script("arguments[0].scrollIntoView()", section)
    wait(driver, "document.querySelector('section.sentence .drawing.drawn svg') !== null")
    return section


def drawn_edges(driver, section, layer: str) -> List[tuple]:
    return sorted(tuple(e) for e in driver.execute_script(
        "return Array.from(arguments[0].querySelectorAll('g.edge[data-layer=\"' + arguments[1] + '\"]'))"
        ".map(g => [g.dataset.head, g.dataset.dep, g.dataset.label])", section, layer))


def severe_console_messages(driver) -> List[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_pages_load_without_console_errors(browser, pages):
    for page in pages.values():
        open_page(browser, page)
        count = browser.find_element("id", "shown-count").text
        assert re.fullmatch(r"(\d+) of \1 sentences", count), count
        assert severe_console_messages(browser) == [], page.name


def test_drawn_edges_are_the_files_deps_on_sampled_sentences(browser, pages):
    expected = graphs(EWT.read_text(encoding="utf-8"))
    open_page(browser, pages["own"])
    for sent_id in random.Random(26).sample(sorted(expected), 6):
        section = show_sentence(browser, sent_id)
        basic, deps = expected[sent_id]
        assert drawn_edges(browser, section, "basic") == basic, sent_id
        assert drawn_edges(browser, section, "enhanced") == deps, sent_id
    assert severe_console_messages(browser) == []


def test_drawn_edges_under_rules_are_what_enhance_writes(browser, pages):
    enhanced = graphs(eudify("enhance", "--lang", "en", str(EWT.relative_to(REPO))).stdout.decode())
    open_page(browser, pages["rules"])
    for sent_id in random.Random(27).sample(sorted(enhanced), 4):
        section = show_sentence(browser, sent_id)
        assert drawn_edges(browser, section, "enhanced") == enhanced[sent_id][1], sent_id


def test_clicking_an_edge_shows_its_rule(browser, pages):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    open_page(browser, pages["rules"])
    edge = browser.find_element(By.CSS_SELECTOR, "g.edge[data-layer=enhanced][data-rule]")
    rule = edge.get_attribute("data-rule")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", edge)
    ActionChains(browser).move_to_element(edge.find_element(By.CSS_SELECTOR, "text.label")).click().perform()
    details = browser.find_element(By.CSS_SELECTOR, ".panel .details")
    wait(browser, "document.querySelector('.panel .details .rule-name') !== null")
    assert details.find_element(By.CLASS_NAME, "rule-name").text.startswith(f"rule {rule} ")
    assert re.search(r"\.rules:\d+$", details.find_element(By.CLASS_NAME, "rule-location").text)
    assert details.find_element(By.CLASS_NAME, "rule-source").text.startswith(f"rule {rule}")
    assert "selected" in edge.get_attribute("class")


def shown(driver) -> int:
    return int(driver.find_element("id", "shown-count").text.split()[0])


def test_filters_change_the_list(browser, pages):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(browser, pages["rules"])
    total = shown(browser)
    errors = browser.find_element(By.ID, "filter-errors")
    errors.click()
    with_errors = shown(browser)
    assert 0 < with_errors < total
    first = browser.find_element(By.CSS_SELECTOR, "section.sentence")
    assert "wrong" in first.find_element(By.CSS_SELECTOR, ".head").text or \
        float(first.find_element(By.CSS_SELECTOR, ".elas").text.split()[1]) < 100
    errors.click()
    assert shown(browser) == total
    rules = Select(browser.find_element(By.ID, "filter-rule"))
    case = next(o for o in rules.options if o.text == "case_label")
    rules.select_by_visible_text(case.text)
    with_rule = shown(browser)
    assert 0 < with_rule < total
    section = browser.find_element(By.CSS_SELECTOR, "section.sentence")
    browser.execute_script("arguments[0].scrollIntoView()", section)
    wait(browser, "document.querySelector('section.sentence .drawing.drawn') !== null")
    assert section.find_elements(By.CSS_SELECTOR, "g.edge[data-rule=case_label]")
    rules.select_by_index(0)
    phenomenon = Select(browser.find_element(By.ID, "filter-phenomenon"))
    phenomenon.select_by_value("S")
    assert 0 < shown(browser) < total
    phenomenon.select_by_index(0)
    assert shown(browser) == total


def test_keyboard_moves_from_sentence_to_sentence(browser, pages):
    from selenium.webdriver.common.by import By

    open_page(browser, pages["own"])
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    body.send_keys("j")
    current = browser.find_element(By.CSS_SELECTOR, "section.sentence.current")
    assert current.get_attribute("data-index") == "1"
    body.send_keys("k")
    current = browser.find_element(By.CSS_SELECTOR, "section.sentence.current")
    assert current.get_attribute("data-index") == "0"


# "Marie likes tea and Paul coffee": gold has the gapped conjunct's empty node 5.1; the file
# drawn has only the basic copy, without it.
GAPPING_GOLD = """# sent_id = g1
# text = Marie likes tea and Paul coffee
1\tMarie\tMarie\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_
2\tlikes\tlike\tVERB\t_\t_\t0\troot\t0:root\t_
3\ttea\ttea\tNOUN\t_\t_\t2\tobj\t2:obj\t_
4\tand\tand\tCCONJ\t_\t_\t5\tcc\t5.1:cc\t_
5\tPaul\tPaul\tPROPN\t_\t_\t2\tconj\t5.1:nsubj\t_
5.1\tlikes\tlike\tVERB\t_\t_\t_\t_\t2:conj\t_
6\tcoffee\tcoffee\tNOUN\t_\t_\t5\torphan\t5.1:obj\t_

"""


def test_gold_empty_nodes_the_output_lacks_are_drawn_with_their_edges(browser, tmp_path):
    from selenium.webdriver.common.by import By

    gold = tmp_path / "gold.conllu"
    gold.write_text(GAPPING_GOLD, encoding="utf-8")
    copy = re.sub(r"^5\.1\t.*\n", "", GAPPING_GOLD, flags=re.M)
    copy = copy.replace("5.1:cc", "5:cc").replace("5.1:nsubj", "2:conj").replace("5.1:obj", "5:orphan")
    drawn = tmp_path / "copy.conllu"
    drawn.write_text(copy, encoding="utf-8")
    page = tmp_path / "page.html"
    eudify("view", "--gold", str(gold), str(drawn), "-o", str(page))
    open_page(browser, page)
    node = browser.find_element(By.CSS_SELECTOR, 'g.word.gold-only[data-id="5.1"]')
    assert node.get_attribute("data-gold") == "missing"
    # Placed by id, between Paul (5) and coffee (6).
    order = browser.execute_script(
        "return Array.from(document.querySelectorAll('section.sentence g.word'), g => g.dataset.id)")
    assert order == ["1", "2", "3", "4", "5", "5.1", "6"]
    missing = {
        (e.get_attribute("data-head"), e.get_attribute("data-dep"), e.get_attribute("data-label"))
        for e in browser.find_elements(By.CSS_SELECTOR, 'g.edge[data-layer="gold-missing"]')
    }
    assert {("5.1", "4", "cc"), ("5.1", "5", "nsubj"), ("2", "5.1", "conj"), ("5.1", "6", "obj")} <= missing
    assert severe_console_messages(browser) == []
