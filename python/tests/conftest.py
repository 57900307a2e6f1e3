"""Fixtures shared by the Python tests."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A rule that gives every enhanced edge a new empty node: the graph grows without end and the
# engine's growth limit stops it, on any sentence (the Rust tests' tests/limits.rs has it too).
GROWING = """phase grow

rule grow {
  match { A =[*]=> B; }
  do    { E = empty copy of B after B;  add A =[dep]=> E; }
}
"""


@pytest.fixture(scope="session")
def runaway_rules(tmp_path_factory) -> Path:
    """A rules folder whose profile `test` runs away on every sentence (rule `grow`, line 3 of
    `test/test.rules`)."""
    root = tmp_path_factory.mktemp("runaway")
    files = {
        "rules/test/test.rules": GROWING,
        "rules/profiles/test.toml": 'name = "test"\ndescription = "runs away"\nrules = ["test/*.rules"]\n',
        "lexicons/universal.toml": (REPO / "lexicons" / "universal.toml").read_text(encoding="utf-8"),
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root / "rules"


# Debian's Chromium and its driver (`apt-get install chromium chromium-driver`; .ci/run installs
# them): nothing is downloaded at run time.
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Headless Chromium driven by Selenium, its console kept (``browser.get_log("browser")``).
    Without Chromium, its driver or Selenium the test skips, saying why; under CI it fails."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.is_file()]
    try:
        from selenium import webdriver
    except ImportError as error:
        missing.append(f"selenium ({error})")
    if missing:
        why = f"no browser to test with: {', '.join(missing)} missing (apt-get install chromium chromium-driver; pip install -r python/requirements-test.txt)"
        if os.environ.get("CI", "") not in ("", "0", "false"):
            pytest.fail(f"{why}; CI must run the browser tests (.ci/run installs them)", pytrace=False)
        # A skip's reason shows only with -rs; a warning shows in every run's summary.
        warnings.warn(f"the browser tests are skipped: {why}")
        pytest.skip(why)
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must fetch nothing
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,1000",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
