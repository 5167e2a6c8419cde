"""What a fresh user met recording a live evening with ``hand start``, ``act`` and ``table``,
each now refused or said as the table means it: a big blind forgotten in ``--stakes`` (RULES.md
§4.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.conftest import SHARED

EVENING = ("--game", "NT", "--seats", "Ann:293,Bob:197,Cy:186,Dee:47,Eve:348", "--button", "Cy")
ONE_BLIND = ("error: --stakes '2' is one blind, no big blind: {game} posts a small and a big "
             "blind (RULES.md §4.2): give both, like --stakes 1/2 (small/big, a straddle "
             "third: 1/2/4), or no --stakes for a game of antes alone (--antes, --min-bet)\n")


def _rows(db: str) -> list[tuple[str | None, int, str]]:
    with Ledger(db, read_only=True) as ledger:
        return [(r.stream, r.seq, r.event.type) for r in ledger.stored()]


def test_the_evening_s_single_blind_is_refused_and_no_ledger_is_made(user, db: str  # noqa: ANN001
                                                                     ) -> None:
    """The host's command, the big blind forgotten: it started the hand with Dee's small
    blind alone and told Eve "to call 2, raise to 4"."""
    assert user("hand", "start", "--stakes", "2", *EVENING) == (2, "",
                                                               ONE_BLIND.format(game="NT"))
    assert not Path(db).exists()


@pytest.mark.parametrize(("game", "more"), [
    ("FO/8", ("--small-bet", "2", "--big-bet", "4")),  # fixed limit: the bets are given apart
    ("N5D", ()),  # a draw game with blinds
])
def test_one_blind_is_refused_in_flop_and_draw_games(user, db: str, game: str,  # noqa: ANN001
                                                     more: tuple[str, ...]) -> None:
    Ledger(db).close()
    assert user("hand", "start", "--hand", "h", "--game", game, "--stakes", "2", *more,
                "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy") == (
        2, "", ONE_BLIND.format(game=game))
    assert _rows(db) == []


def test_antes_alone_and_both_blinds_still_start(user, db: str) -> None:  # noqa: ANN001
    """No --stakes with antes and a minimum bet, and a stud hand, are what they were; two
    blinds and a straddle post each."""
    assert user("hand", "start", "--hand", "a", "--antes", "1", "--min-bet", "2", *EVENING
                )[:2] == (0, "a\n")
    assert user("hand", "start", "--hand", "b", "--game", "F7S", "--antes", "1", "--bring-in",
                "1", "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100")[:2] \
        == (0, "b\n")
    assert user("hand", "start", "--hand", "c", "--stakes", "1/2/4", *EVENING)[:2] == (0, "c\n")
    with Ledger(db, read_only=True) as ledger:
        posted = [(r.event.player, r.event.kind, r.event.amount) for r in ledger.read("c")
                  if r.event.type == "forced_bet"]
    assert posted == [("Dee", "small_blind", 1), ("Eve", "big_blind", 2), ("Ann", "straddle", 4)]


def test_a_hand_file_with_one_blind_imports_as_before(user, db: str, tmp_path: Path  # noqa: ANN001
                                                      ) -> None:
    """Real files post a single blind: limit Omaha hi-lo with one blind, short deck's button
    blind (FORMATS.md §1); and the same hands as JSON lines."""
    files = [SHARED / "phh" / "televised" / "test_2023_43_5" / "test_76_03_22_08.phh",
             SHARED / "phh" / "televised" / "test_papers" / "test_phua_xuan_2019.phh"]
    code, out, err = user("import", *map(str, files))
    assert (code, err) == (0, "")
    assert out.startswith("imported 2 hand(s)")
    lines = tmp_path / "one-blind.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(lines))[0] == 0
    code, out, err = user("--db", str(tmp_path / "again.duckdb"), "import", str(lines))
    assert (code, err) == (0, "")
    assert out.startswith("imported 2 hand(s)")
