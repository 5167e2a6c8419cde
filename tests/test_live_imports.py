"""A live hand through real processes, as at the table: every ``act`` and ``state`` is a new
process, which loads neither the evaluator's library (pokerkit) nor the renderers (rich,
jinja2), the browser driver, Dask, numpy or the key store, nor the Python layer of the
``duckdb`` package (the store opens the ledger with DuckDB's compiled module alone); and what
they print and store is the hand as the rules have it (a hand checked by hand: blinds 1/2, an
all-in, side pot)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

#: Runs the CLI, then writes the top-level names of every module loaded to stderr's last line.
_CODE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted("
    "{m.split('.')[0] for m in sys.modules})) + '\\n'))\n"
    "sys.argv = ['handledger', *sys.argv[1:]]\n"
    "from cli.main import main\n"
    "main()\n"
)
HEAVY = {"pokerkit", "rich", "jinja2", "selenium", "dask", "distributed", "numpy", "pandas",
         "pyarrow", "cryptography", "matplotlib", "PIL", "fsspec"}
if importlib.util.find_spec("_duckdb") is not None:  # DuckDB's compiled module on its own
    HEAVY |= {"duckdb"}


def _cli(db: Path, *args: str) -> tuple[int, str, set[str]]:
    done = subprocess.run([sys.executable, "-c", _CODE, "--db", str(db), *args],
                          capture_output=True, text=True, timeout=120)
    *_, last = done.stderr.rstrip("\n").rsplit("\n", 1)
    assert last.startswith("MODULES "), done.stderr
    return done.returncode, done.stdout, set(last.split()[1:])


def test_act_and_state_load_only_what_they_use(tmp_path: Path) -> None:
    db = tmp_path / "live.duckdb"
    code, out, _ = _cli(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes",
                        "1/2", "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy")
    assert (code, out) == (0, "h1\n")
    printed = []
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy f", "Ann cbr 8",
                   "Bob cbr 150"):
        code, out, modules = _cli(db, "act", "h1", action)
        assert code == 0 and not modules & HEAVY, (action, modules & HEAVY)
        printed.append(out)
    # Cy (the button) acts first before the flop, three-handed; Ann raises to 8, Bob's 150
    # is all his chips: nobody can raise after Ann's call
    assert printed[2:] == [
        "6 cards_dealt; Cy to act: to call 2, raise to 4..300\n",
        "7 fold; Ann to act: to call 1, raise to 4..200\n",
        "8 bet_raise; Bob to act: to call 6, raise to 14..150\n",
        "9 all_in; Ann to act: to call 142 (no raise: every other player is all-in)\n"]
    code, out, modules = _cli(db, "state", "h1")
    assert code == 0 and not modules & HEAVY, modules & HEAVY
    # Ann's 8 against Bob's 150: a pot of 16 both can win, 142 of Bob's not yet called
    assert out.splitlines() == [
        "hand h1: NT, phase bet, status open",
        "Ann to act: to call 142 (no raise: every other player is all-in)",
        "current bet 150",
        "pot 0: 16 (Ann, Bob)",
        "pot 1: 142 (Bob)",
        "stacks: Ann 192 bet 8, Bob 0 bet 150, Cy 300 (folded)"]
    code, out, modules = _cli(db, "act", "h1", "Bob cc")  # refused: not his turn
    assert code == 2 and out == "" and not modules & HEAVY
    code, out, _ = _cli(db, "act", "h1", "Ann cc")
    assert out == "10 call; phase deal, next: d db CARDS (3 cards)\n"
    code, out, _ = _cli(db, "state", "h1")
    assert "pot 0: 300 (Ann, Bob)" in out.splitlines()
