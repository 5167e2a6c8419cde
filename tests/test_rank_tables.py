"""The evaluator's snapshot of pokerkit's five-card rankings (engine/ranks, written by
``python -m engine.rank_tables``): pokerkit is the oracle, so the committed files are
regenerated from it here and compared key for key; and a process that ranks a showdown reads
the snapshot and never imports pokerkit (badugi alone asks pokerkit itself)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files

import pytest

from engine.evaluate import TABLE_FILES
from engine.rank_tables import hands, render, snapshot

#: Prints the names of every module loaded on stderr's last line once the code has run.
_MODULES = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules)"
            " + '\\n'))\n")


def _run(code: str, *args: str) -> tuple[int, str, set[str]]:
    """Exit status, standard output and the modules loaded of ``python -c code args``."""
    done = subprocess.run([sys.executable, "-c", _MODULES + code, *args],
                          capture_output=True, text=True, timeout=120)
    *_, last = done.stderr.rstrip("\n").rsplit("\n", 1)
    assert last.startswith("MODULES "), done.stderr
    return done.returncode, done.stdout, set(last.split()[1:])


@pytest.mark.parametrize("lookup", list(TABLE_FILES))
def test_the_committed_snapshot_is_pokerkits_answer_for_every_key(lookup: str) -> None:
    text = files("engine").joinpath("ranks").joinpath(TABLE_FILES[lookup]).read_text("utf-8")
    committed = json.loads(text)
    fresh = snapshot(lookup)
    entries = dict(zip(committed["keys"], zip(committed["index"], committed["label"],
                                              strict=True), strict=True))
    for key, index, label in zip(fresh["keys"], fresh["index"], fresh["label"], strict=True):
        assert entries.pop(key) == (index, label), (lookup, key)
    assert not entries  # no key pokerkit was not asked
    assert committed == fresh and text == render(fresh)


def test_every_five_card_memo_key_is_asked_once() -> None:
    # rank multisets of five with at most four of a rank: C(17, 5) - 13 = 6175, and 1287
    # (C(13, 5)) of five distinct ranks once more suited; short deck, nine ranks: 1278 + 126
    counts = {lookup: len(list(hands(lookup))) for lookup in ("high", "short")}
    assert counts == {"high": 6175 + 1287, "short": 1278 + 126}
    high = snapshot("high")
    assert sorted(high["index"]) == list(range(7462))  # pokerkit's 7,462 classes
    assert [len(snapshot(lookup)["keys"]) for lookup in TABLE_FILES] == [
        7462, 1404, 7462, 7462, 7462, 7462]


def test_show_of_a_showdown_ranks_the_hands_without_pokerkit(run, db: str) -> None:  # noqa: ANN001
    out = run("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
              "Ann:200,Bob:150", "--button", "Bob")
    assert out.exit_code == 0, out.output
    for action in ("d dh Ann AsAd", "d dh Bob KsKd", "Bob cc", "Ann cc", "d db 2c3h9s",
                   "Ann cc", "Bob cc", "d db Td", "Ann cc", "Bob cc", "d db 4s", "Ann cc",
                   "Bob cc", "Ann sm AsAd", "Bob sm KsKd", "pay Ann 4", "end"):
        assert run("act", "h1", action).exit_code == 0, action
    code, out, modules = _run("sys.argv = ['handledger', *sys.argv[1:]]\n"
                              "from cli.main import main\nmain()\n", "--db", db, "show", "h1")
    assert code == 0
    assert out.splitlines()[-1] == (
        "    Main pot 4 (Ann, Bob): Ann wins 4 with pair of aces, T-9-4 kickers.")
    assert "engine.evaluate" in modules and "pokerkit" not in modules


def test_rankings_read_the_snapshot_and_only_badugi_imports_pokerkit() -> None:
    code, out, modules = _run(
        "from engine.evaluate import best_for_game, best_low\n"
        "from engine.games import game\n"
        "print(best_for_game(game('NT'), ['As', 'Ad'], '2c 3h 9s Td 4s'.split()).label)\n"
        "print(best_for_game(game('NS'), ['6h', '7h'], '8h 9h Kh Tc Jd'.split()).label)\n"
        "print(best_for_game(game('FR'), 'As 2d 3c 4h 7s Kd Kc'.split(), []).label)\n"
        "print(best_for_game(game('N2L1D'), '7s 5d 4c 3h 2s'.split(), []).label)\n"
        "print(best_low(game('FO/8'), 'As 2d Kc Kh'.split(), '3c 4h 8s Jd Qc'.split(),"
        " 'A-5', '8_or_better').label)\n"
        "print(best_low(game('FO/8'), 'As 2d Kc Kh'.split(), '3c 4h 9s Jd Qc'.split(),"
        " 'A-5', '8_or_better'))\n"
        "print('pokerkit' in sys.modules)\n"
        "print(best_for_game(game('FB'), 'As 2d 3c 4h'.split(), []).label)\n")
    assert code == 0
    assert out.splitlines() == [
        "pair of aces, T-9-4 kickers",
        "flush, K-9-8-7-6",  # short deck: the flush, not the straight to the jack
        "7-4-3-2-A low",
        "7-5-4-3-2 low",
        "8-4-3-2-A low",
        "None",  # no three board cards of eight or under
        "False",
        "badugi, 4-3-2-A",
    ]
    assert "pokerkit" in modules  # badugi asks pokerkit itself
