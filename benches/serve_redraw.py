"""Save → redrawn: how long `eudify view --serve` takes from a rule file's save to the new drawing
in headless Chromium (Debian's chromium and chromedriver, Selenium), on the first N sentences of
a CoNLL-U file. Edits the label of the universal rule `case_label` back and forth in a copy of
the rules; prints each time and the median. A benchmark, not a test.

Usage: python benches/serve_redraw.py EUDIFY FILE.conllu LANG [--sentences 2000] [--runs 5] [--gold]
       [--screenshot PNG]

With --screenshot, saves the window once the first edit is drawn (the page's panel of what the
edit changed; docs/serve.png).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

LABEL = 'as "{e.label}:{marker(C)}{?feat(N, Case)'
EDITED = 'as "{e.label}:x{marker(C)}{?feat(N, Case)'


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("eudify")
    parser.add_argument("file")
    parser.add_argument("lang")
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gold", action="store_true", help="keep the file's DEPS (drawn as gold)")
    parser.add_argument("--screenshot", type=Path, help="save the window after the first edit here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    blocks = Path(args.file).read_text(encoding="utf-8").split("\n\n")[: args.sentences]
    text = "\n\n".join(blocks) + "\n\n"
    if not args.gold:
        text = "\n".join(
            "\t".join(c[:8] + ["_", c[9]]) if len(c := line.split("\t")) == 10 else line
            for line in text.split("\n")
        )
    sample = work / "sample.conllu"
    sample.write_text(text, encoding="utf-8")
    subprocess.run([args.eudify, "rules", "export", str(work / "rules")], check=True, capture_output=True)
    rule_file = work / "rules" / "universal" / "case.rules"
    original = rule_file.read_text(encoding="utf-8")
    assert LABEL in original, f"{rule_file} lacks {LABEL}"
    server = subprocess.Popen(
        [args.eudify, "view", "--serve", "--port", "0", "--lang", args.lang, "--rules", str(work / "rules"), str(sample)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    line = server.stdout.readline()
    url = line[line.index("http://"):].split()[0]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                 f"--user-data-dir={work / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService("/usr/bin/chromedriver"), options=options)
    times = []
    try:
        driver.get(url)
        labels = "return Array.from(document.querySelectorAll('[data-label]'), e => e.dataset.label)"
        WebDriverWait(driver, 60).until(lambda d: any(l.startswith("obl:") for l in d.execute_script(labels)))
        for run in range(args.runs):
            marker = "x" if run % 2 == 0 else ""
            edited = original.replace(LABEL, EDITED, 1) if marker else original
            start = time.perf_counter()
            rule_file.write_text(edited, encoding="utf-8")
            WebDriverWait(driver, 60, poll_frequency=0.01).until(
                lambda d: any(l.startswith("obl:x") for l in d.execute_script(labels)) == (marker == "x")
            )
            times.append(time.perf_counter() - start)
            if run == 0 and args.screenshot:
                time.sleep(0.5)  # the panel of changes is drawn after the edges
                driver.save_screenshot(str(args.screenshot))
            print(f"run {run + 1}: {times[-1] * 1000:.0f} ms", flush=True)
    finally:
        driver.quit()
        server.terminate()
    print(f"median save → redrawn: {statistics.median(times) * 1000:.0f} ms over {len(times)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
