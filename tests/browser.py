"""Headless Chromium for the browser tests (Debian's ``chromium`` and ``chromium-driver``,
installed by scripts/install-browser.sh), driven by selenium, and the helpers they share.

:class:`Browser` is started by the tests themselves (the ``browser`` fixture of
tests/conftest.py, one per module); when it cannot start, the test that asks for its driver
fails with the reason (never a skip).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", "--window-size=1200,1000")
#: Counts every alert() a page makes, installed before any of the page's own scripts run.
ALERT_HOOK = ("window.__alerts = []; window.alert = function (m) { window.__alerts.push("
              "String(m)); };")


class Browser:
    """Chromium started once for a module; ``driver`` fails the calling test with the
    reason when it could not start."""

    def __init__(self, profile: Path) -> None:
        self.error: str | None = None
        self._driver: Any = None
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        chromedriver = shutil.which("chromedriver")
        if not chromium or not chromedriver:
            self.error = ("Chromium or chromedriver is not installed: run "
                          "scripts/install-browser.sh (as root: apt-get install -y chromium "
                          "chromium-driver)")
            return
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in (*FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        try:
            self._driver = webdriver.Chrome(service=Service(chromedriver), options=options)
            self._driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                         {"source": ALERT_HOOK})
        except WebDriverException as exc:
            self.error = f"Chromium could not start: {exc.msg or exc}".strip()
        except OSError as exc:
            self.error = f"Chromium could not start: {exc}"

    @property
    def driver(self) -> Any:
        if self.error is not None:
            pytest.fail(self.error, pytrace=False)
        return self._driver

    def quit(self) -> None:
        if self._driver is not None:
            self._driver.quit()


def by_id(driver: Any, id_: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, id_)


def css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def text(element: Any) -> str:
    """What the element says, as written (textContent, before any text-transform)."""
    return element.get_attribute("textContent").strip()


def shoot(driver: Any, folder: Path, name: str) -> Path:
    """A screenshot of the whole page (the window made as tall as the page)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1200, min(height + 120, 6000))
    path = folder / f"shot-{name}.png"
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 10_000
    driver.set_window_size(1200, 1000)
    return path
