"""``--jobs`` takes 1 to :data:`cli.context.MAX_JOBS` worker processes: a number beyond that is
refused in one line, exit 2, before anything is opened (a typo of ``--jobs 100000`` would
otherwise start that many processes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli.context import MAX_JOBS

HANDHQ = str(Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "handhq")


def test_the_bound_is_four_a_cpu_and_at_least_eight() -> None:
    assert MAX_JOBS == max(8, 4 * (os.cpu_count() or 1))


@pytest.mark.parametrize("args", [
    ("replay", "--jobs"), ("audit", "--jobs"), ("verify", "--jobs"),
    ("import", HANDHQ, "--jobs"),
])
def test_more_jobs_than_the_bound_are_refused_and_nothing_is_created(
        user, db: str, args: tuple[str, ...]) -> None:  # noqa: ANN001
    many = str(MAX_JOBS + 1)
    assert user(*args, many) == (
        2, "", f"error: Invalid value for '--jobs': {many} is not in the range "
        f"1<=x<={MAX_JOBS}. (`handledger {args[0]} -h` shows the usage)\n")
    assert not Path(db).exists()


def test_the_bound_itself_is_taken(run) -> None:  # noqa: ANN001
    assert run("import", HANDHQ, "--jobs", "1").exit_code == 0
    result = run("replay", "--jobs", str(MAX_JOBS))
    assert result.exit_code == 1  # the HandHQ rake: paid differently from the rules
    assert result.output.endswith(
        "39 hand(s) replayed: 16 paid differently from the rules, 2 showdown(s) not "
        "verifiable\n")
