"""Shared fixtures: paths to the reference data, a CLI runner on a temporary ledger and
headless Chromium for the browser tests (tests/browser.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import settings

from ledger.store.threads import use_threads

#: No time limit on a hypothesis example: speed is measured in bench/, never asserted by a
#: test (hypothesis' default deadline of 200 ms fails pure functions on a loaded machine).
settings.register_profile("handledger", deadline=None)
settings.load_profile("handledger")

#: DuckDB on one thread in every process of the suite, the commands it starts and those it
#: runs in-process (``--threads``'s variable): its workers already keep both CPUs busy, and
#: DuckDB's threads would only hand each small query over between them (measured: a fifth
#: to a third less CPU for five files in one process, about 5 % less time for the suite).
os.environ["HANDLEDGER_THREADS"] = "1"
use_threads(1)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DATA = ROOT / "data"


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's modules to bytecode once, before the tests: hundreds of tests run
    ``handledger`` as a new process, and with ``PYTHONDONTWRITEBYTECODE`` set (as on the
    machines the suite runs on) each would compile every module it imports again (about
    0.13 s of CPU a process). Up-to-date files are left as they are; the workers of
    ``-n 2`` skip it."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    for package in ("cli", "engine", "ledger", "replay"):
        compileall.compile_dir(ROOT / package, quiet=1)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "t.duckdb")


@pytest.fixture
def run(db: str):  # noqa: ANN201
    """``run("replay", "--json")`` → click Result on the temporary ledger."""
    from cli.main import cli

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):  # noqa: A002, ANN202
        return runner.invoke(cli, ["--db", db, *args], input=input, catch_exceptions=False)

    return invoke


@pytest.fixture(scope="session")
def corrected_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of ``data/`` imported with its books corrected (:mod:`tests.corrected`),
    built once: a test copies it (:func:`tests.copies.copy_ledger`) before it changes it."""
    from cli.main import cli
    from tests.corrected import correct_the_books

    db = tmp_path_factory.mktemp("corrected") / "t.duckdb"
    runner = CliRunner()

    def run(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    assert run("import", str(DATA)).exit_code == 0
    correct_the_books(run, str(db))
    return db


@pytest.fixture
def user(db: str):  # noqa: ANN201
    """``user("hand", "start", ...)`` → ``(status, stdout, stderr)`` of the command run as the
    ``handledger`` console script runs it (:func:`cli.main.run`: usage errors are its one
    line too) on the temporary ledger."""
    from tests.console_run import handledger

    def invoke(*args: str, input: str | None = None):  # noqa: A002, ANN202
        return handledger(db, *args, input=input)

    return invoke


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium, started once for the module (:class:`tests.browser.Browser`)."""
    from tests.browser import Browser

    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.quit()
