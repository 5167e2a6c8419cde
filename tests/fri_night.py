"""README's "A night at the table" as its export: session fri (a chip 0.25 USD; Ann 200,
Bob 150, Cy 300 bought in), hand f1 played to the end (Ann wins Bob's 150), the cash-outs
(Ann 350, Bob 0, Cy 300) and the closing; ``export --format jsonl`` and ``export --format
phh f1`` of that ledger, as files a test edits."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import one_shot

#: ``handledger export --format jsonl`` of the night (25 lines: session rows 1-4, hand f1
#: rows 5-21, session rows 22-25, the last one ``session_closed``).
NIGHT_JSONL = """\
{"session":"fri","seq":1,"event":{"chip_value_minor":25,"currency":"USD","date":"2026-12-04","decimals":2,"schema_version":1,"session":"fri","source":{},"type":"session_opened"}}
{"session":"fri","seq":2,"event":{"chips":200,"kind":"buy_in","player":"Ann","schema_version":1,"type":"buy_in"}}
{"session":"fri","seq":3,"event":{"chips":150,"kind":"buy_in","player":"Bob","schema_version":1,"type":"buy_in"}}
{"session":"fri","seq":4,"event":{"chips":300,"kind":"buy_in","player":"Cy","schema_version":1,"type":"buy_in"}}
{"hand":"f1","seq":1,"event":{"button":"Cy","game":"NT","hand":"f1","options":{"declare":null,"reopen_rule":"full_bet","split":{"low_method":"A-5","low_qualifier":"8_or_better","odd_chip_between_halves":"high","odd_chip_tie_order":"left_of_button"}},"schema_version":1,"seats":[{"player":"Ann","seat":null,"stack":200},{"player":"Bob","seat":null,"stack":150},{"player":"Cy","seat":null,"stack":300}],"session":"fri","source":{},"stakes":{"antes":[0,0,0],"betting":"no_limit","big_bet":0,"blinds_or_straddles":[1,2,0],"bring_in":0,"min_bet":2,"small_bet":0},"type":"hand_started","unit":{"currency":null,"decimals":0,"minor_per_chip":1}}}
{"hand":"f1","seq":2,"event":{"amount":1,"kind":"small_blind","player":"Ann","schema_version":1,"type":"forced_bet"}}
{"hand":"f1","seq":3,"event":{"amount":2,"kind":"big_blind","player":"Bob","schema_version":1,"type":"forced_bet"}}
{"hand":"f1","seq":4,"event":{"cards":["As","Ks"],"face_up":[],"player":"Ann","run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":5,"event":{"cards":["Qh","Qd"],"face_up":[],"player":"Bob","run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":6,"event":{"cards":["7c","2d"],"face_up":[],"player":"Cy","run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":7,"event":{"player":"Cy","schema_version":1,"type":"fold"}}
{"hand":"f1","seq":8,"event":{"player":"Ann","schema_version":1,"to":8,"type":"bet_raise"}}
{"hand":"f1","seq":9,"event":{"player":"Bob","schema_version":1,"to":150,"type":"all_in"}}
{"hand":"f1","seq":10,"event":{"player":"Ann","schema_version":1,"type":"call"}}
{"hand":"f1","seq":11,"event":{"cards":["2c","7h","9s"],"face_up":[],"player":null,"run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":12,"event":{"cards":["Kd"],"face_up":[],"player":null,"run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":13,"event":{"cards":["3c"],"face_up":[],"player":null,"run":1,"schema_version":1,"type":"cards_dealt"}}
{"hand":"f1","seq":14,"event":{"cards":["As","Ks"],"player":"Ann","schema_version":1,"type":"reveal"}}
{"hand":"f1","seq":15,"event":{"cards":["Qh","Qd"],"player":"Bob","schema_version":1,"type":"reveal"}}
{"hand":"f1","seq":16,"event":{"amount":300,"player":"Ann","pot":null,"returned":false,"run":null,"schema_version":1,"type":"recorded_payout"}}
{"hand":"f1","seq":17,"event":{"schema_version":1,"status":"complete","type":"hand_ended"}}
{"session":"fri","seq":5,"event":{"chips":350,"player":"Ann","schema_version":1,"type":"cash_out"}}
{"session":"fri","seq":6,"event":{"chips":0,"player":"Bob","schema_version":1,"type":"cash_out"}}
{"session":"fri","seq":7,"event":{"chips":300,"player":"Cy","schema_version":1,"type":"cash_out"}}
{"session":"fri","seq":8,"event":{"schema_version":1,"type":"session_closed"}}
"""

#: ``handledger export --format phh f1``.
F1_PHH = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 150, 300]
actions = [
  'd dh p1 AsKs',
  'd dh p2 QhQd',
  'd dh p3 7c2d',
  'p3 f',
  'p1 cbr 8',
  'p2 cbr 150',
  'p1 cc',
  'd db 2c7h9s',
  'd db Kd',
  'd db 3c',
  'p1 sm AsKs',
  'p2 sm QhQd',
]
players = ['Ann', 'Bob', 'Cy']
winnings = [300, 0, 0]
_split = { odd_chip_between_halves = 'high', odd_chip_tie_order = 'left_of_button' }
_hand_id = 'f1'
_session = 'fri'
"""


def hand_lines(text: str, hand: str) -> str:
    """The lines of ``hand`` in the JSON-lines ``text``."""
    return "".join(line + "\n" for line in text.splitlines()
                   if line.startswith(f'{{"hand":"{hand}",'))


def night(tmp_path: Path) -> Path:
    """A ledger holding the night, session fri closed (imported from :data:`NIGHT_JSONL`)."""
    db = tmp_path / "night.duckdb"
    path = tmp_path / "night.jsonl"
    path.write_text(NIGHT_JSONL)
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out, err) == (0, "imported 1 hand(s) (25 events) from 1 file(s); 0 already "
                                   "in the ledger; 0 rejected\n", "")
    return db


def dispute_and_night(base: Path, *more: list[str]) -> Path:
    """``base/t.duckdb`` holding README's dispute (``data/dispute/wrong-push.phh``) and the
    night (:data:`NIGHT_JSONL`), then the commands ``more`` (each a ``handledger`` argument
    list), each run in process and asserted to exit 0: the ledger the tampering tests copy."""
    from click.testing import CliRunner

    from cli.main import cli
    from tests.conftest import DATA

    path, night_file = base / "t.duckdb", base / "night.jsonl"
    night_file.write_text(NIGHT_JSONL)
    runner = CliRunner()
    for args in (["import", str(DATA / "dispute" / "wrong-push.phh")],
                 ["import", str(night_file)], *more):
        assert runner.invoke(cli, ["--db", str(path), *args]).exit_code == 0, args
    return path
