"""A small run of the tamper matrix of ``bench/tamper.py`` (the README reports the big one):
each kind of tampering the other tests do not make, once, at a seeded place, on the ledger
with one session of the series (not three). The chain broken (its head moved, bytes garbled)
is named by ``verify``; a chain made again (a payload rewritten, a hand cut out, two hands
swapped) fails plain ``verify`` through the derived tables built from the rows before, a
rollback or another ledger fails it through the checkpoints file beside the ledger, and each
is named by ``verify --against`` the checkpoints; a forged row appended extends them and is
named as after them; an altered signed checkpoint fails both.

The ledger, its older copies, its checkpoints and the other ledger are built once for the
module (:func:`bench.tamper.template`), by the commands run as the console script runs them
in this process; each kind is a case of its own on its own copy. The commands on a tampered
copy run in real processes for the kinds of :data:`REAL` (garbled bytes: a damaged file must
not take the process down; a chain made again: the console script's output), and in this
process for the others (:func:`cli.main.run`: the same exit status and output; a traceback
raises in the test)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench import tamper

#: Covered elsewhere on an imported ledger, through the command: a row edited, deleted,
#: inserted or reordered (tests/test_hardening_faults.py), derived tables edited
#: (tests/test_verdicts.py), resealed (tests/test_verify_books.py).
ELSEWHERE = {"edit", "delete", "insert", "reorder", "derived", "resealed"}
KINDS = [k for k in tamper.KINDS if k not in ELSEWHERE]
#: The kinds whose commands run as real ``handledger`` processes.
REAL = {"bytes", "rewrite"}
#: What ``verify`` or ``verify --against`` must have named for each kind (the matrix's
#: ``KIND:named`` count), and for a signed checkpoint altered, ``--against``'s exit 1.
NAMED = {"rewrite", "cut", "swap", "rollback", "other", "forged"}
real_handledger = tamper.handledger


def handledger_here(db: Path, *args: str, keys: Path | None = None
                    ) -> subprocess.CompletedProcess:
    """:func:`bench.tamper.handledger` run in this process (:func:`cli.main.run`, as the
    console script runs it), with its environment: ``HANDLEDGER_NO_WAIT``, and
    ``HANDLEDGER_KEYS`` when ``keys``."""
    from cli.main import run

    env = {"HANDLEDGER_NO_WAIT": "1", "HANDLEDGER_KEYS": str(keys) if keys else None}
    with CliRunner().isolation(env=env) as (out, err, _):
        try:
            code = run(["--db", str(db), *args])
        except SystemExit as exc:  # a command's sys.exit, as the process ends with it
            code = exc.code
    return subprocess.CompletedProcess(args, code or 0, out.getvalue().decode(),
                                       err.getvalue().decode())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tamper.Template]:
    """The matrix's ledger with one session of the series (``s01``), built once; a trial
    changes only its own copy (:func:`bench.tamper.campaign` copies it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tamper, "handledger", handledger_here)
        yield tamper.template(tmp_path_factory.mktemp("tamper"), tamper.SERIES / "s01.jsonl")


def test_the_kinds_left_to_this_file() -> None:
    assert len(tamper.KINDS) == 15 and ELSEWHERE <= set(tamper.KINDS)
    assert len(KINDS) == 9 and REAL <= set(KINDS) and NAMED <= set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_tampering_is_caught_as_the_matrix_says(
        kind: str, tmp_path: Path, template: tamper.Template,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tamper, "template", lambda work, series: template)
    monkeypatch.setattr(tamper, "handledger",
                        real_handledger if kind in REAL else handledger_here)
    counts, failures = tamper.campaign(1, seed=4, work=tmp_path, kinds=[kind],
                                       series=tamper.SERIES / "s01.jsonl")
    assert failures == []
    assert counts["trials"] == counts[f"{kind}:trials"] == 1
    assert counts["tracebacks"] == 0
    if kind in NAMED:
        assert counts[f"{kind}:named"] == 1
    if kind == "signed":
        assert counts["signed:against:exit:1"] == 1
