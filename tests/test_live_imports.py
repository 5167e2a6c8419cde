"""A live hand through real processes, as at the table: every ``hand start``, ``act`` and
``state`` is a new process, which loads neither the evaluator's library (pokerkit) nor the
renderers (rich, jinja2), the browser driver, Dask, numpy or the key store, nor the Python
layer of the ``duckdb`` package (the store opens the ledger with DuckDB's compiled module
alone) or the file readers (``ledger.formats``), and an ``act`` not even the settlement (nor,
with no checkpoints file, the checkpoints' module, nor the words of a warning it has none
for), a ``state`` not the hash chain's modules (a read links nothing); and what they print
and store is the hand as the rules have it (a hand checked by hand: blinds 1/2, an all-in,
side pot). ``--help``, which loads every command's module, still lists every command and
loads neither the event model (pydantic) nor DuckDB."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

#: Runs the CLI, then writes the name of every module loaded to stderr's last line.
_CODE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules))"
    " + '\\n'))\n"
    "sys.argv = ['handledger', *sys.argv[1:]]\n"
    "from cli.main import main\n"
    "main()\n"
)
HEAVY = {"pokerkit", "rich", "jinja2", "selenium", "dask", "distributed", "numpy", "pandas",
         "pyarrow", "cryptography", "matplotlib", "PIL", "fsspec"}
if importlib.util.find_spec("_duckdb") is not None:  # DuckDB's compiled module on its own
    HEAVY |= {"duckdb"}
#: What settles a hand: ``state`` needs it, an ``act`` only folds the hand.
SETTLEMENT = {"engine.settle", "engine.awards", "engine.evaluate", "engine.declare.award",
              "replay.compare"}


def _cli(db: Path, *args: str) -> tuple[int, str, set[str]]:
    """Exit status, standard output and the top-level names of the modules loaded, of the
    CLI run on ``db`` with ``args``."""
    code, out, modules = _cli_modules(["--db", str(db), *args])
    return code, out, {m.split(".")[0] for m in modules}


def _cli_modules(args: list[str]) -> tuple[int, str, set[str]]:
    """Exit status, standard output and every module loaded (full names), of the CLI run
    with ``args``."""
    done = subprocess.run([sys.executable, "-c", _CODE, *args],
                          capture_output=True, text=True, timeout=120)
    *_, last = done.stderr.rstrip("\n").rsplit("\n", 1)
    assert last.startswith("MODULES "), done.stderr
    return done.returncode, done.stdout, set(last.split()[1:])


def test_act_and_state_load_only_what_they_use(tmp_path: Path) -> None:
    db = tmp_path / "live.duckdb"
    code, out, modules = _cli(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes",
                              "1/2", "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy")
    assert (code, out) == (0, "h1\n") and not modules & HEAVY, modules & HEAVY
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
    # Ann's 8 against Bob's all-in 150, Cy folded: Ann can still match 150, so all 158 is one
    # pot both can win (142 of it not yet called: back to Bob if Ann folds)
    assert out.splitlines() == [
        "hand h1: NT, phase bet, status open",
        "Ann to act: to call 142 (no raise: every other player is all-in)",
        "current bet 150",
        "Main pot: 158 (Ann, Bob)",
        "stacks: Ann 192 bet 8, Bob 0 bet 150, Cy 300 (folded)",
        "seats as pN: p1 Ann, p2 Bob, p3 Cy (p1 sits left of the button: PHH's order, "
        "not --seats')"]
    code, out, modules = _cli(db, "act", "h1", "Bob cc")  # refused: not his turn
    assert code == 2 and out == "" and not modules & HEAVY
    code, out, _ = _cli(db, "act", "h1", "Ann cc")
    assert out == "10 call; phase deal, next: d db CARDS (3 cards)\n"
    code, out, _ = _cli(db, "state", "h1")
    assert "Main pot: 300 (Ann, Bob)" in out.splitlines()


def test_an_act_does_not_load_the_settlement_and_state_does(tmp_path: Path) -> None:
    db = tmp_path / "live.duckdb"
    start = ["--db", str(db), "hand", "start", "--hand", "h1", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:200,Bob:150", "--button", "Bob"]
    assert _cli_modules(start)[:2] == (0, "h1\n")
    code, out, modules = _cli_modules(["--db", str(db), "act", "h1", "d dh Ann AsKs"])
    assert (code, out) == (0, "4 cards_dealt; phase deal, next: d dh Bob CARDS (2 cards, ?? for "
                           "each unseen card)\n")
    assert not modules & SETTLEMENT, modules & SETTLEMENT
    # nor the file readers (a typed JSON event loads what it needs of them), nor, with no
    # checkpoints file beside the ledger, the checkpoints' module (the write looks for the file)
    assert not {m for m in modules if m.startswith("ledger.formats")}
    assert "ledger.store.checkpoint" not in modules and "ledger.store.rolledback" in modules
    # it links its row (the chain) but proves nothing by queries and prepares no columns
    assert "ledger.store.chain" in modules and not modules & {
        "ledger.store.chainsql", "ledger.store.headcheck", "ledger.store.columns",
        "ledger.store.blocks"}, modules
    assert "cli.dispute_text" not in modules  # a warning's words: for an end paid otherwise
    code, out, modules = _cli_modules(["--db", str(db), "state", "h1"])
    # heads-up, Bob on the button posts the small blind (1), Ann the big (2): both can still
    # bet, so the 3 chips are one pot for both; Ann is dealt, Bob not yet
    assert code == 0 and out.splitlines()[2:] == [
        "Main pot: 3 (Ann, Bob)", "stacks: Ann 198 bet 2, Bob 149 bet 1",
        "seats as pN: p1 Ann, p2 Bob (p1 sits left of the button: PHH's order, "
        "not --seats')"], out
    # the pots come from the settlement, a cards-speak hand's: no declaration modules
    assert modules >= {"engine.settle", "engine.awards", "engine.evaluate"}
    assert "engine.declare.award" not in modules
    assert not {m for m in modules if m.startswith("ledger.formats")}
    # a read hashes the hand's own rows alone (ledger.store.rowhash), nothing else: neither
    # the chain, its proof by queries, the columns' preparation nor the canonical JSON, nor
    # the names of a damaged block
    assert not modules & {"ledger.store.chain", "ledger.store.chainsql", "ledger.store.headcheck",
                          "ledger.store.tail", "ledger.store.columns", "ledger.model.canonical",
                          "ledger.store.blocks"}, modules
    # nor what `act` checks an action with and `hand start` a start: the hand as it stands
    assert "replay.live.state" in modules
    assert not modules & {"replay.live.acting", "replay.live.spec", "replay.live.declaring",
                          "replay.show_rules", "replay.board_rules"}


def test_help_lists_every_command_without_the_event_model_or_duckdb() -> None:
    from cli.main import COMMAND_MODULES

    code, out, modules = _cli_modules(["--help"])
    assert code == 0
    listed = out.split("Commands:\n", 1)[1].split()
    assert set(COMMAND_MODULES) <= set(listed), set(COMMAND_MODULES) - set(listed)
    # every command module was loaded (each command's line is its own docstring's first
    # sentence) ...
    assert set(COMMAND_MODULES.values()) <= modules
    # ... and none of them loads the event model, the store or the renderers to say so
    tops = {m.split(".")[0] for m in modules}
    assert not tops & (HEAVY | {"pydantic", "pydantic_core", "duckdb", "_duckdb"}), (
        tops & (HEAVY | {"pydantic", "pydantic_core", "duckdb", "_duckdb"}))
    assert "ledger.model.events" not in modules and "ledger.store.store" not in modules


def test_reads_of_the_books_load_neither_the_duckdb_package_nor_numpy(
        corrected_data: Path, tmp_path: Path) -> None:
    """``balances`` and ``standings`` (each a new process, as typed between hands) read the
    derived tables with DuckDB's compiled module alone: neither the ``duckdb`` package's
    Python layer nor numpy (which only the blocks check and the bulk inserts use) is loaded,
    nor anything else of HEAVY."""
    from tests.copies import copy_ledger

    db = copy_ledger(corrected_data, tmp_path / "t.duckdb")
    assert _cli(db, "replay")[0] in (0, 1)  # the derived tables saved: the reads only read
    for args in (("balances",), ("standings",), ("balances", "--json")):
        code, out, modules = _cli(db, *args)
        assert code == 0 and "Ann" in out and not modules & HEAVY, (args, modules & HEAVY)
    # the audit and an export open no key store: cryptography is loaded where a key is used
    for args in (("audit",), ("export", "--format", "jsonl", "-o", str(tmp_path / "o.jsonl"))):
        code, out, modules = _cli(db, *args)
        assert code in (0, 1) and out and not modules & HEAVY, (args, modules & HEAVY)


#: The console script (:mod:`cli.entry`) with a hook that writes a line on stderr for every
#: collection begun once the command's body has loaded the live modules (with the collector
#: paused): what an action's process would spend on objects its end frees anyway.
_COLLECTIONS = (
    "import gc, sys\n"
    "gc.callbacks.append(lambda phase, info: phase == 'start' and 'replay.live' in sys.modules"
    " and sys.stderr.write('collection after the action began\\n'))\n"
    "sys.argv = ['handledger', *sys.argv[1:]]\n"
    "from cli.entry import main\n"
    "main()\n"
)


def test_an_action_in_its_own_process_collects_nothing_once_begun(tmp_path: Path) -> None:
    """``hand start``, ``act`` and ``state`` as their console script runs them: no collection
    after the action began (the first, after it, passed over every object it made: about 7 ms
    of CPU), and the same output."""
    import os

    db = str(tmp_path / "gc.duckdb")
    env = {**os.environ, "HANDLEDGER_NO_SERVE": "1"}
    printed = []
    for args in (("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
                  "Ann:200,Bob:150", "--button", "Bob"), ("act", "h1", "d dh Ann AsKs"),
                 ("state", "h1")):
        done = subprocess.run([sys.executable, "-c", _COLLECTIONS, "--db", db, *args],
                              capture_output=True, text=True, timeout=120, env=env)
        assert (done.returncode, done.stderr) == (0, ""), (args, done.stderr)
        printed.append(done.stdout.splitlines()[0])
    assert printed == ["h1", "4 cards_dealt; phase deal, next: d dh Bob CARDS (2 cards, ?? for "
                       "each unseen card)", "hand h1: NT, phase deal, status open"]


def test_one_action_restores_the_collector_unless_the_process_ends_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in a process that goes on after it (a test's runner, a ``table`` session), an
    action leaves the collector as it found it, and DuckDB's instance is made ready for a next
    ledger as ever; in its own (the console script, a served command's fork:
    :func:`cli.context.own_process`) the collector stays paused to the end, and the last
    ledger's detach puts no setting back (:func:`ledger.store.duck.ending_with_process`)."""
    import gc
    import os

    from cli import context
    from ledger.store import duck

    monkeypatch.setattr(duck, "_ENDING", [None])
    assert gc.isenabled()
    monkeypatch.setattr(context, "_at_once", False)
    with context.one_action():
        assert not gc.isenabled() and context.exits_at_once()
    assert gc.isenabled() and duck._ENDING == [None]
    monkeypatch.setattr(context, "_own", True)
    try:
        with context.one_action():
            pass
        assert not gc.isenabled() and duck._ENDING == [os.getpid()]
    finally:
        gc.enable()


def _entry_modules(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str,
                                                                                set[str]]:
    """Exit status, standard output and every module imported, of the console script's own
    entry (:func:`cli.entry.main`, which ends the process at once: the modules are read from
    Python's ``-X importtime`` lines)."""
    import os

    code = ("import sys\nsys.argv = ['handledger', *sys.argv[1:]]\n"
            "from cli.entry import main\nmain()\n")
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return done.returncode, done.stdout, modules


@pytest.mark.parametrize("command", [["act", "h1", "d dh Ann AsKs"], ["state", "h1"]])
def test_a_live_action_does_not_search_for_pydantic_plugins(tmp_path: Path,
                                                            command: list[str]) -> None:
    # pydantic's plugin loader imports importlib.metadata (and with it email, socket, zipfile)
    # even with every plugin off; the console script answers "no plugins" without it
    db = tmp_path / "live.duckdb"
    start = ["--db", str(db), "hand", "start", "--hand", "h1", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:200,Bob:150", "--button", "Bob"]
    env = {"PYDANTIC_DISABLE_PLUGINS": "__all__"}
    assert _entry_modules(start, env)[:2] == (0, "h1\n")
    code, out, modules = _entry_modules(["--db", str(db), *command], env)
    assert code == 0 and out.split()[0] in {"4", "hand"}, out
    assert not {"importlib.metadata", "email", "zipfile"} & modules


def test_plugins_wanted_keep_pydantic_s_own_loader(tmp_path: Path) -> None:
    # a user who set the variable to keep some plugins gets pydantic's search as ever
    db = tmp_path / "live.duckdb"
    start = ["--db", str(db), "hand", "start", "--hand", "h1", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:200,Bob:150", "--button", "Bob"]
    code, out, modules = _entry_modules(start, {"PYDANTIC_DISABLE_PLUGINS": "logfire"})
    assert (code, out) == (0, "h1\n") and "importlib.metadata" in modules
