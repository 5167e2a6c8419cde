"""A small run of the tamper matrix of ``bench/tamper.py`` (the README reports the big one):
each kind of tampering the other tests do not make, once, at a seeded place, in real
processes, on the ledger with one session of the series (not three). The chain broken (its
head moved, bytes garbled) is named by ``verify``; a chain made again (a payload rewritten, a
hand cut out, two hands swapped) fails plain ``verify`` through the derived tables built from
the rows before, a rollback or another ledger passes it, and each is named by ``verify
--against`` the checkpoints; a forged row appended extends them and is named as
after them; an altered signed checkpoint fails."""

from __future__ import annotations

from pathlib import Path

from bench import tamper

#: Covered elsewhere on an imported ledger, through the command: a row edited, deleted,
#: inserted or reordered (tests/test_hardening_faults.py), derived tables edited
#: (tests/test_verdicts.py), resealed (tests/test_verify_books.py).
ELSEWHERE = {"edit", "delete", "insert", "reorder", "derived", "resealed"}


def test_each_kind_of_tampering_is_caught_as_the_matrix_says(tmp_path: Path) -> None:
    kinds = [k for k in tamper.KINDS if k not in ELSEWHERE]
    assert len(tamper.KINDS) == 15 and ELSEWHERE <= set(tamper.KINDS)
    counts, failures = tamper.campaign(1, seed=4, work=tmp_path, kinds=kinds,
                                       series=tamper.SERIES / "s01.jsonl")
    assert failures == []
    assert counts["trials"] == len(kinds) == 9
    assert counts["tracebacks"] == 0
    assert all(counts[f"{k}:named"] == 1 for k in (
        "rewrite", "cut", "swap", "rollback", "other", "forged"))
    assert counts["signed:against:exit:1"] == 1
