"""A small run of the tamper matrix of ``bench/tamper.py`` (the README reports the big one):
each kind of tampering once, at a seeded place, in real processes. The chain broken is named
by ``verify``; a chain made again (a payload rewritten, a hand cut out, two hands swapped, a
rollback, another ledger) passes ``verify`` and is named by ``verify --against`` the
checkpoints; a forged row appended extends them and is named as after them; edited derived
tables leave ``audit`` and ``settle`` as they were; an altered signed checkpoint fails."""

from __future__ import annotations

from pathlib import Path

from bench import tamper


def test_each_kind_of_tampering_is_caught_as_the_matrix_says(tmp_path: Path) -> None:
    counts, failures = tamper.campaign(1, seed=4, work=tmp_path, kinds=list(tamper.KINDS))
    assert failures == []
    assert counts["trials"] == len(tamper.KINDS) == 14
    assert counts["tracebacks"] == 0
    assert all(counts[f"{k}:named"] == 1 for k in (
        "edit", "delete", "insert", "reorder", "rewrite", "cut", "swap", "rollback", "other",
        "forged"))
    assert counts["derived:books_unchanged"] == 1 and counts["signed:against:exit:1"] == 1
