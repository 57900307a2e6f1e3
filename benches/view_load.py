#!/usr/bin/env python3
"""How long a page of `eudify view` takes to load and draw its first sentences in headless
Chromium: a benchmark that reports figures, not a test.

    python3 benches/view_load.py PAGE.html... [--runs N] [--screenshot PNG]

Makes no page itself: build one first, e.g. a 20,000-sentence page of EWT's dev set ten times
over (see docs/view.md). Needs Selenium (python/requirements-test.txt) and Debian's chromium
and chromium-driver. Prints, per page and run, the time from navigation to the load event and
to the first drawn sentence, from the browser's own clock, and the browser's console errors (a
page with any makes the script exit 1). With --screenshot, then saves the window
as the README shows it: errors only, the first edge a rule got wrong clicked.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def browser(profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--window-size=1400,900", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def screenshot(driver: webdriver.Chrome, png: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    errors = driver.find_elements(By.ID, "filter-errors")
    if errors:
        errors[0].click()
    time.sleep(0.5)
    edges = (driver.find_elements(By.CSS_SELECTOR, "g.edge.wrong[data-rule]")
             or driver.find_elements(By.CSS_SELECTOR, "g.edge[data-rule]"))
    if edges:
        driver.execute_script("arguments[0].closest('section').scrollIntoView()", edges[0])
        ActionChains(driver).move_to_element(edges[0].find_element(By.CSS_SELECTOR, "text")).click().perform()
        time.sleep(0.3)
    driver.save_screenshot(str(png))
    print(f"{png}: saved")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--screenshot", type=Path, help="save the window, an error clicked, here")
    args = parser.parse_args()
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must download nothing.
    failed = False
    with tempfile.TemporaryDirectory() as profile:
        driver = browser(profile)
        try:
            for page in args.pages:
                failed |= measure(driver, page, args.runs)
            if args.screenshot:
                screenshot(driver, args.screenshot)
        finally:
            driver.quit()
    raise SystemExit(1 if failed else 0)


def measure(driver: webdriver.Chrome, page: Path, runs: int) -> bool:
    """Loads `page` `runs` times; prints the figures; returns whether the console had errors."""
    url = page.resolve().as_uri()
    loads, firsts, errors = [], [], []
    for run in range(runs):
        driver.get("about:blank")
        driver.get(url)  # returns after the load event, the page's script having run
        deadline = time.time() + 60
        while not driver.execute_script("return document.querySelector('.drawing.drawn') !== null"):
            if time.time() > deadline:
                raise SystemExit(f"{page}: no sentence drawn after 60 s")
            time.sleep(0.01)
        load, first, sentences = driver.execute_script("""
            const nav = performance.getEntriesByType('navigation')[0];
            return [nav.loadEventEnd, performance.now(),
                    Number(document.getElementById('shown-count').textContent.split(' ')[0])];""")
        errors += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        loads.append(load / 1000)
        firsts.append(first / 1000)
        print(f"{page.name} run {run + 1}: load event {load / 1000:.2f} s, first sentence drawn by "
              f"{first / 1000:.2f} s ({sentences} sentences)")
    size = page.stat().st_size
    print(f"{page.name}: {size / 1e6:.1f} MB; median load {statistics.median(loads):.2f} s, "
          f"first drawn by {statistics.median(firsts):.2f} s; console errors: {len(errors)}")
    for message in errors:
        print(f"  {message}")
    return bool(errors)

if __name__ == "__main__":
    main()
