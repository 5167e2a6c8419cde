"""Refusals of the book commands and imports, each reproduced as a new user met it through the
CLI: the refusal is one line, exit 2, and nothing is written (the ledger's head is unchanged)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.built_once import snapshot
from tests.copies import copy_ledger
from tests.unit_nights import night_and  # the README's night: Bob owes Ann 37.50 USD


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def rows(db: Path) -> list[tuple[str, int, str]]:
    """Every stored row as (stream, seq, type), in ledger order."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT stream, seq, type FROM events ORDER BY position").fetchall()


def refused(result: Result) -> str:
    """The one error line of a refused command (exit 2)."""
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_import_of_another_session_with_the_same_name_is_refused(tmp_path: Path) -> None:
    x, y, out = tmp_path / "x.duckdb", tmp_path / "y.duckdb", tmp_path / "y.jsonl"
    for args in (("session", "open", "s01", "--chip-value", "0.25", "--currency", "USD",
                  "--date", "2026-11-27"), ("buyin", "s01", "Ann", "100"),
                 ("cashout", "s01", "Ann", "100"), ("session", "close", "s01")):
        assert run(x, *args).exit_code == 0
    for args in (("session", "open", "s01", "--chip-value", "0.25", "--currency", "USD",
                  "--date", "2026-11-27"), ("buyin", "s01", "Bob", "999")):
        assert run(y, *args).exit_code == 0
    assert run(y, "export", "-o", str(out)).exit_code == 0
    before = snapshot(x)
    line = refused(run(x, "import", str(out)))
    assert line.startswith(f"error: {out}:2, session s01: its buy_in at seq 2 is not the "
                           "ledger's entry 2")
    assert snapshot(x) == before
    # the same export re-imported into its own ledger adds nothing
    before_y = rows(y)
    result = run(y, "import", str(out))
    assert result.exit_code == 0, result.output
    assert rows(y) == before_y


def test_import_of_a_buy_in_after_the_session_closed_is_refused(tmp_path: Path) -> None:
    x, y, out = tmp_path / "x.duckdb", tmp_path / "y.duckdb", tmp_path / "x.jsonl"
    for args in (("session", "open", "s01", "--date", "2026-11-27"),
                 ("buyin", "s01", "Ann", "100"), ("session", "close", "s01")):
        assert run(x, *args).exit_code == 0
    assert run(x, "export", "-o", str(out)).exit_code == 0
    assert run(y, "import", str(out)).exit_code == 0  # y: a copy of the closed s01
    with out.open("a") as f:  # a buy-in after the session_closed at seq 3
        f.write('{"session":"s01","seq":4,"event":{"chips":50,"kind":"buy_in",'
                '"player":"Bob","schema_version":1,"type":"buy_in"}}\n')
    before = snapshot(y)
    line = refused(run(y, "import", str(out)))
    assert line == (f"error: {out}:4, session s01: its buy_in at seq 4 comes after the "
                    "session was closed: a closed session takes no more; nothing of the file "
                    "was written")
    assert snapshot(y) == before


def open_s(db: Path, name: str = "s", *players: str) -> None:
    assert run(db, "session", "open", name, "--date", "2026-11-27").exit_code == 0
    for p in players:
        assert run(db, "buyin", name, p, "100").exit_code == 0


@pytest.fixture(scope="module")
def s_ann(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``open_s(db, "s", "Ann")`` on a new ledger, built once for the module (copy it to
    change it)."""
    db = tmp_path_factory.mktemp("s-ann") / "t.duckdb"
    open_s(db, "s", "Ann")
    return db


@pytest.fixture(scope="module")
def s_ann_bob(s_ann: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``open_s(db, "s", "Ann", "Bob")`` on a new ledger: ``s_ann`` and Bob's buy-in of 100,
    built once for the module (copy it to change it)."""
    db = copy_ledger(s_ann, tmp_path_factory.mktemp("s-ann-bob") / "t.duckdb")
    assert run(db, "buyin", "s", "Bob", "100").exit_code == 0
    return db


def test_alias_of_two_players_seated_in_one_hand_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    open_s(db, "s", "Bob", "Cy")
    assert run(db, "hand", "start", "--session", "s", "--hand", "a1", "--game", "NT",
               "--stakes", "1/2", "--seats", "Bob:100,Cy:100", "--button", "Bob"
               ).exit_code == 0
    before = snapshot(db)
    line = refused(run(db, "player", "alias", "Bob", "Cy"))
    assert line == ("error: Bob and Cy sat in hand a1 together: they are two players, not "
                    "one (no alias recorded)")
    assert snapshot(db) == before


def test_alias_of_two_players_with_entries_in_one_session_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    open_s(db, "friday", "Bob", "Cy")
    before = snapshot(db)
    line = refused(run(db, "player", "alias", "Bob", "Cy", "--session", "friday"))
    assert line == ("error: Bob and Cy both have book entries in session friday: they are "
                    "two players, not one (no alias recorded); if they are one, retract Cy's "
                    "entries there and record them again as Bob's (`handledger entry retract "
                    "friday SEQ --reason … --by …`; `handledger history --session friday` "
                    "lists them)")
    assert snapshot(db) == before
    assert run(db, "player", "alias", "Bob", "Robert").exit_code == 0  # one player: fine
    # Cy's one entry (his buy-in, entry 3) retracted: it counts for nothing, as in the books
    assert run(db, "entry", "retract", "friday", "3", "--reason", "Bob's", "--by", "host"
               ).exit_code == 0
    done = run(db, "player", "alias", "Bob", "Cy", "--session", "friday")
    assert done.exit_code == 0, done.output


def test_alias_to_a_mistyped_player_name_is_refused_and_a_new_name_warned(tmp_path: Path
                                                                          ) -> None:
    """``player alias NAME OTHER`` names OTHER NAME everywhere: a NAME the ledger does not
    hold renamed OTHER silently. Close to a player's name (a typo) it is refused with the
    name meant; else it goes in with a warning on stderr (a new name, OTHER renamed)."""
    db = tmp_path / "t.duckdb"
    open_s(db, "friday", "Alice", "Bob")
    before = rows(db)
    line = refused(run(db, "player", "alias", "Alce", "A1"))
    assert line == ("error: Alce is no player in the ledger: did you mean Alice? (`handledger "
                    "player alias Alice A1`); if Alce is a new player's name, `handledger "
                    "player alias Alce A1 --new` records it; nothing recorded")
    assert rows(db) == before
    out = run(db, "player", "alias", "Bbo", "Bob")
    assert (out.exit_code, out.stdout, out.stderr) == (0, "Bob is Bbo\n", (
        "warning: Bbo is no player in the ledger yet: Bob is named Bbo everywhere now "
        "(balances, standings, the audit)\n"))
    out = run(db, "player", "alias", "Alice", "A1")  # A1 held nowhere: a typo? it warns
    assert (out.exit_code, out.stdout, out.stderr) == (0, "A1 is Alice\n", (
        "warning: A1 is no name in the ledger yet: a hand, book entry or import naming A1 "
        "counts as Alice's from now on (a typo is ended with `handledger player unalias A1 "
        "--reason … --by …`)\n"))
    assert rows(db)[len(before):] == [("session:friday", 4, "player_alias"),
                                      ("session:friday", 5, "player_alias")]


def test_alias_to_a_new_name_close_to_a_player_offers_only_what_goes_in_and_new(
        tmp_path: Path) -> None:
    """A new NAME spelled close to players' names is refused as a typo, offering only the
    names OTHER could be an alias of (a player who sat or has book entries with OTHER is
    another player: ``player alias`` refuses him) and ``--new``, which records the new name
    (warned of); ``--new`` for a name the ledger holds is refused."""
    db = tmp_path / "t.duckdb"
    open_s(db, "friday", "Alice", "Alicia", "Bob")
    before = rows(db)
    # both names close to Alica have entries in friday beside Bob's: neither is offered
    assert refused(run(db, "player", "alias", "Alica", "Bob")) == (
        "error: Alica is no player in the ledger; it is spelled close to Alicia and Alice, "
        "but Alicia and Bob both have book entries in session friday (two players, so not "
        "meant); if Alica is a new player's name, `handledger player alias Alica Bob --new` "
        "records it; nothing recorded")
    open_s(db, "sat", "Alicee", "Cy")
    before = rows(db)
    # Alicee, in sat only, may be Bob; Alice, beside Bob in friday, is not offered
    assert refused(run(db, "player", "alias", "Alicie", "Bob")) == (
        "error: Alicie is no player in the ledger: did you mean Alicee? (`handledger player "
        "alias Alicee Bob`); if Alicie is a new player's name, `handledger player alias "
        "Alicie Bob --new` records it; nothing recorded")
    assert rows(db) == before
    assert refused(run(db, "player", "alias", "Bob", "Cy", "--new")) == (
        "error: --new: Bob is a player of the ledger already, no new name (leave out --new); "
        "nothing recorded")
    assert rows(db) == before
    out = run(db, "player", "alias", "Alica", "Bob", "--new")
    assert (out.exit_code, out.stdout, out.stderr) == (0, "Bob is Alica\n", (
        "warning: Alica is no player in the ledger yet: Bob is named Alica everywhere now "
        "(balances, standings, the audit)\n"))
    assert rows(db)[len(before):] == [("session:sat", 4, "player_alias")]


STARS = Path(__file__).resolve().parents[2] / "shared/data/text" \
    / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"


def test_session_set_refused_once_it_holds_hands_that_came_in_money(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert run(db, "session", "open", "c", "--chip-value", "0.01", "--currency", "USD",
               "--date", "2026-11-27").exit_code == 0
    assert run(db, "session", "set", "c", "--chip-value", "0.02", "--currency",
               "USD").exit_code == 0  # no hands yet: the value may still change
    assert run(db, "session", "set", "c", "--chip-value", "0.01", "--currency",
               "USD").exit_code == 0
    assert run(db, "import", str(STARS), "--session", "c").exit_code == 0
    before = snapshot(db)
    line = refused(run(db, "session", "set", "c", "--chip-value", "0.02", "--currency", "USD"))
    assert line == ("error: session c holds hand PokerStars-35824118297, whose amounts came in "
                    "USD and were converted exactly to its chips of 0.01 USD: its chip value "
                    "is fixed (import the hands into a new session at the value wanted)")
    assert snapshot(db) == before


def test_session_set_to_the_value_the_chip_has_changes_nothing_and_is_refused(
        tmp_path: Path) -> None:
    """A chip of 0.25 USD set to 0.25 (USD kept, or given, with its 2 decimals) appended
    another session_changed and said it was set; it is refused as an amendment to the value
    an entry has ("changes nothing"), nothing written; another value is set."""
    db = tmp_path / "t.duckdb"
    assert run(db, "session", "open", "fri", "--chip-value", "0.25", "--currency", "USD",
               "--date", "2026-11-27").exit_code == 0
    before = snapshot(db)
    for given in (("--chip-value", "0.25"), ("--chip-value", "0.250", "--currency", "USD",
                                            "--decimals", "2")):
        assert refused(run(db, "session", "set", "fri", *given)) == (
            "error: changes nothing: session fri is 1 chip = 0.25 USD already; nothing "
            "written")
    assert snapshot(db) == before
    out = run(db, "session", "set", "fri", "--chip-value", "0.5")
    assert (out.exit_code, out.output) == (0, "session fri: 1 chip = 0.50 USD\n")
    assert [t for _, _, t in rows(db)] == ["session_opened", "session_changed"]


RIT = Path(__file__).resolve().parents[2] / "shared/data/pokernow/pokernowpy_run-it-twice.csv"


def test_session_set_of_a_cents_pokernow_session_takes_only_a_cent_a_chip(tmp_path: Path
                                                                         ) -> None:
    """The run-it-twice log (cents: a stack of 6.72) opens its session at 1 chip = 0.01 of
    no named currency. ``session set`` names the currency at that value; a chip of 0.05 would
    make its 855 chips won 42.75 instead of 8.55, and is refused (it was taken), as it is in
    a session ``session open`` made at 0.01 USD that took the log's cents as they are. A log
    of whole chips (charlestudor's) takes any value, as a home game's chips."""
    db = tmp_path / "t.duckdb"
    session = "pokernowpy_run-it-twice"
    assert run(db, "import", str(RIT)).exit_code == 0
    before = snapshot(db)
    line = refused(run(db, "session", "set", session, "--chip-value", "0.05"))
    assert line == (
        f"error: session {session} holds hand pn-{session}-30-163028603289300, whose amounts "
        "came in money of 2 decimal places, no currency named, 1 chip = 0.01: --chip-value "
        "0.05 would make each of its chips worth 0.05; nothing written (its chip value is "
        "fixed: --chip-value 0.01 --currency CODE names its currency; import the hands into "
        "a new session at the value wanted)")
    assert refused(run(db, "session", "set", session, "--chip-value", "0.05", "--currency",
                       "USD")).endswith("worth 0.05 USD; nothing written (its chip value is "
                                        "fixed: --chip-value 0.01 --currency CODE names its "
                                        "currency; import the hands into a new session at the "
                                        "value wanted)")
    assert snapshot(db) == before
    out = run(db, "session", "set", session, "--chip-value", "0.01", "--currency", "USD")
    assert (out.exit_code, out.output) == (0, f"session {session}: 1 chip = 0.01 USD\n")
    net = {p["player"]: p["net"] for p in json.loads(
        run(db, "balances", "--money", "--json").output)["players"]}
    assert net["3r4cXeU7Dp"] == 855  # 8.55 USD in cents

    other = tmp_path / "fri.duckdb"
    assert run(other, "session", "open", "fri", "--chip-value", "0.01", "--currency", "USD"
               ).exit_code == 0
    assert run(other, "import", "--session", "fri", str(RIT)).exit_code == 0
    assert refused(run(other, "session", "set", "fri", "--chip-value", "0.05")).startswith(
        "error: session fri holds hand pn-fri-30-163028603289300, whose amounts came in money "
        "of 2 decimal places, no currency named, 1 chip = 0.01: --chip-value 0.05 would make "
        "each of its chips worth 0.05 USD; ")

    whole = tmp_path / "whole.duckdb"
    log = RIT.with_name("charlestudor_Input_Log_001.csv")
    assert run(whole, "import", str(log)).exit_code == 0
    assert run(whole, "session", "set", "charlestudor_Input_Log_001", "--chip-value", "0.05",
               "--currency", "USD").exit_code == 0


def test_a_voided_hand_counts_for_nothing_in_stack_continuity(s_ann_bob: Path,
                                                              tmp_path: Path) -> None:
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--session", "s", "--hand", "v1", "--game", "NT",
               "--stakes", "1/2", "--seats", "Ann:1000,Bob:100", "--button", "Ann"
               ).exit_code == 0
    audit = run(db, "audit")
    assert audit.exit_code == 1
    assert ("stack_continuity: hand v1: Ann starts with 1000 but Ann's buy-ins come to 100: "
            "expected 100 (+900)") in audit.output
    assert run(db, "void", "v1", "--reason", "typed 1000", "--by", "host").exit_code == 0
    assert run(db, "hand", "start", "--session", "s", "--hand", "v2", "--game", "NT",
               "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"
               ).exit_code == 0
    for action in ("d dh Ann AsAd", "d dh Bob KsKd", "Ann f", "end"):  # Bob takes the blind
        assert run(db, "act", "v2", action).exit_code == 0
    audit = run(db, "audit")
    assert audit.exit_code == 0, audit.output
    assert audit.output.strip() == ("audit clean: 2 hand(s) in 1 session(s); every chip adds "
                                    "up in the books as stored (the hash chain not checked: "
                                    "`handledger verify`)")


def test_hand_start_warns_of_a_seat_above_his_buy_ins(s_ann_bob: Path, tmp_path: Path) -> None:
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    result = run(db, "hand", "start", "--session", "s", "--hand", "w1", "--game", "NT",
                 "--stakes", "1/2", "--seats", "Ann:150,Bob:100", "--button", "Ann")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "warning: Ann starts hand w1 with 150 but Ann's buy-ins in session s come to 100"]
    assert result.stdout == "w1\n"


def test_hand_start_warns_of_a_seat_for_a_player_who_cashed_out(s_ann_bob: Path,
                                                                tmp_path: Path) -> None:
    """RULES.md §1.1: his chips left the table with his cash-out; the hand still starts (a
    buy-in is a book entry the host may record late) and the audit names the difference."""
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    assert run(db, "cashout", "s", "Bob", "100").exit_code == 0
    result = run(db, "hand", "start", "--session", "s", "--hand", "w1", "--game", "NT",
                 "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")
    assert (result.exit_code, result.stdout) == (0, "w1\n")
    assert result.stderr.splitlines() == [
        "warning: Bob cashed out 100 chips in session s (entry 4) and has not bought in since "
        "(`handledger entry retract s 4 --reason … --by …` if the cash-out was wrong, or "
        "record a buy-in: `handledger buyin s Bob CHIPS --before w1`)"]


def test_audit_names_the_cash_out_of_a_player_seated_again(tmp_path: Path) -> None:
    """Cy's buy-in (entry 4) is before hand k1, but his cash-out of all 100 (entry 5) took
    his chips off the table (RULES.md §1.1): the audit names the cash-out, not the buy-in,
    and the two ways out. Ann and Bob fold to Cy's big blind: he wins Bob's small blind."""
    db = tmp_path / "l.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"), ("buyin", "s", "Cy", "100"),
                 ("cashout", "s", "Cy", "100")):
        assert run(db, *args).exit_code == 0
    assert run(db, "hand", "start", "--session", "s", "--hand", "k1", "--game", "F5D",
               "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4", "--seats",
               "Ann:100,Bob:100,Cy:100", "--button", "Ann").exit_code == 0
    played = CliRunner().invoke(
        cli, ["--db", str(db), "table", "k1"], catch_exceptions=False,
        input="d dh Bob ??????????\nd dh Cy ??????????\nd dh Ann ??????????\nAnn f\nBob f\n"
              "end\n")
    assert played.exit_code == 0, played.output
    result = run(db, "audit", "--session", "s")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "stack_continuity: hand k1: Cy starts with 100 but Cy cashed out 100 (entry 5) and "
        "bought nothing since (`handledger entry retract s 5 --reason … --by …` if the "
        "cash-out was wrong, or record a buy-in: `handledger buyin s Cy CHIPS`): expected 0 "
        "(+100) [session s, hand k1, player Cy; expected 0, actual 100]",
        "audit: 1 discrepancy (stack_continuity 1); 1 hand(s) in 1 session(s) checked"]
    # Dan buys in (entry 6), cashes out all 100 (entry 7) and buys 40 (entry 8): a seat of
    # 100 is 60 above his books, the cash-out and the buy-in since named
    for args in (("buyin", "s", "Dan", "100"), ("cashout", "s", "Dan", "100"),
                 ("buyin", "s", "Dan", "40")):
        assert run(db, *args).exit_code == 0
    assert run(db, "hand", "start", "--session", "s", "--hand", "k2", "--game", "F5D",
               "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4", "--seats",
               "Ann:100,Bob:99,Dan:100", "--button", "Bob").exit_code == 0
    result = run(db, "audit", "--session", "s")
    lines = result.stdout.splitlines()  # k1's line as above, then k2's in_progress line
    assert lines[2:] == [
        "stack_continuity: hand k2: Dan starts with 100 but Dan cashed out 100 (entry 7) and "
        "bought 40 since: expected 40 (+60) [session s, hand k2, player Dan; expected 40, "
        "actual 100]",
        "audit: 3 discrepancies (stack_continuity 2, in_progress 1); "
        "2 hand(s) in 1 session(s) checked"]
    assert lines[1].startswith("in_progress: hand k2 ")


def test_hand_start_refuses_a_seat_not_in_the_sessions_books(s_ann_bob: Path,
                                                             tmp_path: Path) -> None:
    """A mistyped name would start a hand that can only be voided: refused, nothing written,
    the closest names offered; an alias of a player who bought in sits."""
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    before = snapshot(db)
    line = refused(run(db, "hand", "start", "--session", "s", "--hand", "w1", "--game", "NT",
                       "--stakes", "1/2", "--seats", "Ann:100,Bobb:100", "--button", "Ann"))
    assert line == ("error: Bobb has no buy-in in session s (its players: Ann, Bob): did you "
                    "mean Bob? record it first with `handledger buyin s Bobb CHIPS`; nothing "
                    "was written")
    assert snapshot(db) == before
    line = refused(run(db, "hand", "start", "--session", "s", "--hand", "w1", "--game", "NT",
                       "--stakes", "1/2", "--seats", "Ann:100,Zed:100", "--button", "Ann"))
    assert line.startswith("error: Zed has no buy-in in session s (its players: Ann, Bob): "
                           "record it first")
    assert snapshot(db) == before
    assert run(db, "player", "alias", "Bob", "Robert").exit_code == 0
    result = run(db, "hand", "start", "--session", "s", "--hand", "w1", "--game", "NT",
                 "--stakes", "1/2", "--seats", "Ann:100,Robert:100", "--button", "Ann")
    assert result.exit_code == 0, result.output
    assert result.stdout == "w1\n"


def test_pay_naming_a_player_not_in_the_session_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    open_s(db, "friday", "Ann", "Bob")
    before = snapshot(db)
    line = refused(run(db, "pay", "friday", "Bob", "Zed", "5"))
    assert line == ("error: Zed is not in the books of session friday (no buy-in, cash-out or "
                    "hand there; its players: Ann, Bob): a payment settles a session between "
                    "its players (and 'rake' names the house, who keeps the rake; 'bank' the "
                    "bank, who holds the buy-ins)")
    line = refused(run(db, "pay", "friday", "Bob", "ann", "5"))
    assert line == ("error: ann is not in the books of session friday (no buy-in, cash-out or "
                    "hand there; its players: Ann, Bob): did you mean Ann? a payment settles a "
                    "session between its players (and 'rake' names the house, who keeps the "
                    "rake; 'bank' the bank, who holds the buy-ins)")
    assert snapshot(db) == before
    assert run(db, "player", "alias", "Bob", "Robert").exit_code == 0
    assert run(db, "pay", "friday", "Robert", "Ann", "5",
               "--more-than-owed").exit_code == 0  # Bob's alias


def test_a_retracted_entry_is_neither_retracted_again_nor_amended_back(s_ann_bob: Path,
                                                                      tmp_path: Path) -> None:
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob", "Cy"):
    assert run(db, "buyin", "s", "Cy", "100").exit_code == 0  # Cy's buy-in is typed here
    assert run(db, "entry", "amend", "s", "4", "60", "--reason", "typo", "--by", "h"
               ).exit_code == 0
    assert run(db, "entry", "retract", "s", "2", "--reason", "x", "--by", "h").exit_code == 0
    before = snapshot(db)
    assert refused(run(db, "entry", "retract", "s", "2", "--reason", "x", "--by", "h")) == (
        "error: entry 2 (buy-in of Ann) of session s is retracted already: nothing to "
        "retract")
    assert refused(run(db, "entry", "amend", "s", "2", "60", "--reason", "x", "--by", "h")) == (
        "error: entry 2 (buy-in of Ann) of session s is retracted already: an amendment would "
        "bring it back; record the entry again instead (`handledger history --session s` lists the "
        "entries)")
    assert snapshot(db) == before
    # Ann's retracted; Bob's as it was; Cy's amended to 60: two buy-ins in effect, three
    # recorded, the retracted one said apart (as a session's voided hands are)
    listed = run(db, "session", "list")
    assert listed.stdout == "s  2026-11-27  0 hand(s)  3 buy-in(s) (1 retracted)  open\n"
    assert [s["buy_ins"] for s in json.loads(run(db, "session", "list", "--json").stdout)[
        "sessions"]] == [2]


def test_names_are_refused_never_repaired(s_ann: Path, tmp_path: Path) -> None:
    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    before = snapshot(db)
    cases = {
        ("buyin", "s", "Ann ", "50"): "error: player name 'Ann ' has leading or trailing "
        "whitespace: names are kept as typed, never repaired (write 'Ann')",
        ("buyin", "s", "", "10"): "error: a player name cannot be empty",
        ("cashout", "s", " Ann", "10"): "error: player name ' Ann' has leading or trailing "
        "whitespace: names are kept as typed, never repaired (write 'Ann')",
        ("pay", "s", "Ann", "Bob\n", "1"): "error: player name 'Bob\\n' has leading or "
        "trailing whitespace: names are kept as typed, never repaired (write 'Bob')",
        ("player", "alias", "Ann", "x\x07"): "error: player name 'x\\x07' holds a control "
        "character (U+0007): a name is one line of printable text",
        ("session", "open", " "): "error: a session name cannot be empty (only whitespace: "
        "' ')",
        ("session", "open", "a\nb"): "error: session name 'a\\nb' holds a control character "
        "(U+000A): a name is one line of printable text",
        ("import", "--session", "s ", str(STARS)): "error: session name 's ' has leading or "
        "trailing whitespace: names are kept as typed, never repaired (write 's')",
        ("hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2", "--seats",
         "Ann:100,B\tob:100", "--button", "Ann"): "error: player name 'B\\tob' holds a "
        "control character (U+0009): a name is one line of printable text",
    }
    for args, line in cases.items():
        assert refused(run(db, *args)) == line, args
    assert snapshot(db) == before




def test_settle_counts_a_payment_back_as_cancelling(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb")  # NIGHT's ledger, built once
    # Bob pays 37.50, is paid it back, pays it again; Cy pays Ann 5 he did not owe
    # (what Ann and Cy did not owe takes --more-than-owed)
    for args in (("Bob", "Ann", "37.50"), ("Ann", "Bob", "37.50", "--more-than-owed"),
                 ("Bob", "Ann", "37.50", "--again"), ("Cy", "Ann", "5", "--more-than-owed")):
        assert run(db, "pay", "friday", *args).exit_code == 0
    assert run(db, "settle", "--session", "friday").stdout.splitlines() == [
        "Ann pays Cy 5.00 USD",
        "1 transfer(s) settle 3 player(s) (payments recorded 117.50 USD, net 42.50 USD paid "
        "already: the rest paid back or passed on)"]  # net 37.50 + 5; 117.50 recorded
    assert json.loads(run(db, "settle", "--session", "friday", "--json").stdout) == {
        "transfers": [{"session": "friday", "from": "Ann", "from_name": "Ann", "to": "Cy",
                       "to_name": "Cy", "amount": 500}],
        "decimals": 2, "currency": "USD", "paid_already": 4250, "payments_recorded": 11750}
    help_text = " ".join(run(db, "settle", "--help").stdout.split())
    assert "Payments already recorded are subtracted" in help_text
    assert "not subtracted" not in help_text


def test_standings_money_over_mixed_currencies_names_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    for name, cur in (("usd", "USD"), ("eur", "EUR")):
        for args in (("session", "open", name, "--chip-value", "0.25", "--currency", cur,
                      "--date", "2026-11-27"), ("buyin", name, "Ann", "100"),
                     ("buyin", name, "Bob", "100"), ("cashout", name, "Ann", "100"),
                     ("cashout", name, "Bob", "100")):
            assert run(db, *args).exit_code == 0
    assert refused(run(db, "standings", "--money")) == (
        "error: the sessions use different currencies or decimals (usd: USD, 2 decimals; eur: "
        "EUR, 2 decimals): show the standings in "
        "chips (without --money), or one session's money with `handledger balances --session "
        "S --money`")
    assert refused(run(db, "balances", "--money")) == (
        "error: the sessions use different currencies or decimals (usd: USD, 2 decimals; eur: "
        "EUR, 2 decimals): read one session with --session")
    assert run(db, "balances", "--money", "--session", "eur").exit_code == 0


def test_alias_refused_through_an_earlier_alias(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    open_s(db, "friday", "Robert", "Cy")
    assert run(db, "player", "alias", "Bob", "Robert").exit_code == 0  # Robert is Bob
    assert refused(run(db, "player", "alias", "Bob", "Cy")) == (
        "error: Bob and Cy both have book entries in session friday: they are two players, "
        "not one (no alias recorded); if they are one, retract Cy's entries there and record "
        "them again as Bob's (`handledger entry retract friday SEQ --reason … --by …`; "
        "`handledger history --session friday` lists them)")


def test_import_of_a_session_entry_with_a_bad_name_is_refused_whole(tmp_path: Path) -> None:
    db, out = tmp_path / "t.duckdb", tmp_path / "s.jsonl"
    out.write_text(
        '{"session":"s","seq":1,"event":{"chip_value_minor":1,"currency":null,'
        '"date":"2026-11-27","decimals":0,"schema_version":1,"session":"s","source":{},'
        '"type":"session_opened"}}\n'
        '{"session":"s","seq":2,"event":{"chips":10,"kind":"buy_in","player":"Ann ",'
        '"schema_version":1,"type":"buy_in"}}\n')
    assert refused(run(db, "import", str(out))) == (
        f"error: {out}:2, session s: player name 'Ann ' has leading or trailing whitespace: "
        "names are kept as typed, never repaired (write 'Ann')")
    if db.exists():
        assert rows(db) == []


def test_a_cash_out_of_a_name_with_no_buy_in_suggests_the_cash_out_meant(s_ann_bob: Path,
                                                                         tmp_path: Path
                                                                         ) -> None:
    """``cashout s Bobb 100`` told the host to record Bobb's buy-in: the player meant is named
    with the cash-out to type; a name close to nobody's lists who has chips at the table."""
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    assert run(db, "cashout", "s", "Ann", "150").exit_code == 0
    before = snapshot(db)
    for args, line in (
            (("Bobb", "100"), "Bobb has no buy-in in s: did you mean Bob? (`handledger cashout "
             "s Bob 100`)"),
            (("bob", "90"), "bob has no buy-in in s: did you mean Bob? (`handledger cashout s "
             "Bob 90`)"),
            (("Anne", "150"), "Anne has no buy-in in s: did you mean Ann? (Ann cashed out 150 "
             "chips already)"),
            (("Zed", "10"), "Zed has no buy-in in s: nothing to cash out (chips at the table: "
             "Bob; a buy-in not yet recorded goes first: `handledger buyin s Zed CHIPS`)")):
        assert refused(run(db, "cashout", "s", *args)) == f"error: {line}"
    assert snapshot(db) == before


def test_a_session_closed_twice_says_it_is_closed_already(s_ann: Path, tmp_path: Path) -> None:
    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    assert run(db, "cashout", "s", "Ann", "100").exit_code == 0
    assert run(db, "session", "close", "s").stdout.startswith("session s closed\n")
    before = snapshot(db)
    assert refused(run(db, "session", "close", "s")) == (
        "error: session 's' is closed already (entry 4): nothing to close (`handledger history "
        "--session s` lists its entries)")
    assert snapshot(db) == before
    assert (tmp_path / "t.duckdb.checkpoints").read_text().count("\n") == 1  # none taken again


#: Ann all-in for 100, Bob calls, Ann's aces hold: Ann is paid the 200 pot.
ALL_IN_ANN_WINS = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 100", "Bob cc", "d db 2c3d4h",
                   "d db 9s", "d db Td", "pay Ann 200", "end")


def test_hand_start_warns_of_a_stack_that_does_not_follow_his_last_hand(
        s_ann_bob: Path, tmp_path: Path) -> None:
    """Bob lost his 100 in hand x1 and bought nothing: a hand seating him with 100 again
    starts with a warning naming the rebuy to record (the audit's stack continuity names it
    once played); a hand seating a player still in a hand in play is refused, naming it
    (RULES.md §1.1); x2 played as started, Bob has lost 200 of his 100 bought: settle names
    that instead of a transfer `pay` would refuse."""
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    seats = ("--session", "s", "--game", "NT", "--stakes", "1/2", "--button", "Ann")
    assert run(db, "hand", "start", "--hand", "x1", *seats, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    for action in ALL_IN_ANN_WINS:
        assert run(db, "act", "x1", action).exit_code == 0, action
    result = run(db, "hand", "start", "--hand", "x2", *seats, "--seats", "Ann:200,Bob:100")
    assert (result.exit_code, result.stdout) == (0, "x2\n")
    assert result.stderr.splitlines() == [
        "warning: Bob starts hand x2 with 100 chips, 0 after hand x1 with nothing bought since: "
        "a rebuy not recorded? (`handledger buyin s Bob CHIPS --before x2`: the books count it "
        "before this hand); the audit's stack continuity will name it"]
    before = rows(db)
    assert refused(run(db, "hand", "start", "--hand", "x3", *seats, "--seats",
                       "Ann:200,Bob:100")) == (
        "error: hand x3: Bob and Ann are seated in hand x2 of session s, still in play: a "
        "player's chips are in one hand at a time (RULES.md §1.1): play it out and end it "
        "first, or void it (`handledger void x2 --reason … --by …`); nothing written")
    assert rows(db) == before
    # played as started, x2 has Bob lose chips he never had: settle names that, no transfer
    for action in ALL_IN_ANN_WINS:
        assert run(db, "act", "x2", action).exit_code == 0, action
    assert refused(run(db, "settle", "--session", "s")) == (
        "error: cannot settle: Bob lost 200 chips in session s, more than Bob's buy-ins there "
        "(100 chips): a hand seats Bob with chips never bought, and nobody pays more than the "
        "chips put on the table (RULES.md §1.1; `pay` refuses it): `handledger audit "
        "--session s` names the hand (a buy-in not recorded: `handledger buyin s Bob CHIPS "
        "--before HAND`, or `entry amend` of the buy-in; a stack typed wrong: `handledger "
        "correct`); then run `handledger settle` again")
    # x2 and x3 voided, Bob's rebuy recorded: the next hand starts without a word
    assert run(db, "void", "x2", "--reason", "no rebuy", "--by", "host").exit_code == 0
    assert run(db, "buyin", "s", "Bob", "100").exit_code == 0
    result = run(db, "hand", "start", "--hand", "x4", *seats, "--seats", "Ann:200,Bob:100")
    assert (result.exit_code, result.stderr) == (0, "")


def test_hand_start_of_no_session_keeps_a_player_in_one_hand(tmp_path: Path) -> None:
    """Hands of no session, a name being one player there too: n1 seats Ann and Bob; n2
    seating Ann beside it, n1 still in play, is refused in the session's words (it went in),
    nothing written. A hand of session s seating Ann is of other books and goes in, and so
    does a file's hand of no session seating Ann (a file's hands come as its table played
    them). n1 ended (Ann folds her small blind), n2 starts."""
    db = tmp_path / "t.duckdb"
    game = ("--game", "NT", "--stakes", "1/2", "--button", "Ann")
    assert run(db, "hand", "start", "--hand", "n1", *game, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    before = rows(db)
    assert refused(run(db, "hand", "start", "--hand", "n2", *game, "--seats",
                       "Ann:100,Cy:100")) == (
        "error: hand n2: Ann is seated in hand n1 of no session, still in play: a player's "
        "chips are in one hand at a time (RULES.md §1.1): play it out and end it first, or "
        "void it (`handledger void n1 --reason … --by …`); nothing written")
    assert rows(db) == before
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Cy", "100"),
                 ("hand", "start", "--hand", "s1", "--session", "s", *game, "--seats",
                  "Ann:100,Cy:100")):
        assert run(db, *args).exit_code == 0, args
    phh = tmp_path / "f1.phh"
    phh.write_text("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
                   "starting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', "
                   "'p2 f']\nplayers = ['Ann', 'Dee']\n", encoding="utf-8")
    assert run(db, "import", str(phh)).exit_code == 0
    for action in ("d dh Bob ????", "d dh Ann ????", "Ann f", "end"):
        assert run(db, "act", "n1", action).exit_code == 0, action
    done = run(db, "hand", "start", "--hand", "n2", *game, "--seats", "Ann:99,Cy:100")
    # Ann and Cy are bought in to s, which is open: the hand of no session is warned of
    assert (done.exit_code, done.stdout, done.stderr) == (0, "n2\n", (
        "warning: hand n2 is in no session, while session s is open with every player of it "
        "bought in: a hand of no session counts in no session's books; to record it in s, "
        "void it (`handledger void n2 --reason \"no session\" --by NAME`) and record it "
        "again there (`handledger hand again n2 --session s`)\n"))


def test_three_players_still_in_a_hand_are_named_in_a_list(tmp_path: Path) -> None:
    """Three names read as a list, ``Bob, Cy and Ann``, not ``Bob and Cy and Ann``."""
    db = tmp_path / "t.duckdb"
    game = ("--game", "NT", "--stakes", "1/2", "--button", "Ann", "--seats",
            "Ann:100,Bob:100,Cy:100")
    assert run(db, "hand", "start", "--hand", "n1", *game).exit_code == 0
    before = rows(db)
    assert refused(run(db, "hand", "start", "--hand", "n2", *game)) == (
        "error: hand n2: Bob, Cy and Ann are seated in hand n1 of no session, still in play: "
        "a player's chips are in one hand at a time (RULES.md §1.1): play it out and end it "
        "first, or void it (`handledger void n1 --reason … --by …`); nothing written")
    assert rows(db) == before


def test_hand_start_follows_the_hand_started_last_not_the_one_corrected_last(
        s_ann_bob: Path, tmp_path: Path) -> None:
    """a1: Ann (small blind) folds, 99 / 101; a2: Bob (small blind) folds, 100 / 100. A
    correction appended to a1 afterwards does not make a1 the players' latest hand: a3 seating
    both with 100, as a2 left them, starts without a word, and the audit agrees."""
    db = copy_ledger(s_ann_bob, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann", "Bob")
    common = ("--session", "s", "--game", "NT", "--stakes", "1/2")
    for hand, seats, button, first, second in (("a1", "Ann:100,Bob:100", "Ann", "Ann", "Bob"),
                                               ("a2", "Ann:99,Bob:101", "Bob", "Bob", "Ann")):
        assert run(db, "hand", "start", "--hand", hand, *common, "--seats", seats, "--button",
                   button).exit_code == 0
        for action in (f"d dh {first} ????", f"d dh {second} ????", f"{first} f", "end"):
            assert run(db, "act", hand, action).exit_code == 0, action
    assert run(db, "correct", "a1", "--insert-after", "5", "Ann sm ????", "--reason", "x",
               "--by", "h").exit_code == 0
    result = run(db, "hand", "start", "--hand", "a3", *common, "--seats", "Ann:100,Bob:100",
                 "--button", "Ann")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "a3\n", "")
    audit = run(db, "audit", "--session", "s")  # a3 in progress is its one finding
    assert audit.stdout.splitlines()[-1] == (
        "audit: 1 discrepancy (in_progress 1); 3 hand(s) in 1 session(s) checked")
    # one stack off a2's: the warning names a2, the hand he left with 100
    assert run(db, "void", "a3", "--reason", "test", "--by", "h").exit_code == 0
    result = run(db, "hand", "start", "--hand", "a4", *common, "--seats", "Ann:100,Bob:110",
                 "--button", "Ann")
    assert result.stderr.splitlines() == [
        "warning: Bob starts hand a4 with 110 chips, 100 after hand a2 with nothing bought "
        "since: a rebuy not recorded? (`handledger buyin s Bob CHIPS --before a4`: the books "
        "count it before this hand); the audit's stack continuity will name it"]


def test_a_new_name_starting_with_a_dash_is_refused(s_ann: Path, tmp_path: Path) -> None:
    """A name a command line would read as an option (`act s3 "-Cy cc"` is click's "No such
    option") is refused wherever a command gives a new one: a buy-in, a seat, a session, an
    alias's name. One line, exit 2, nothing written."""
    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    before = snapshot(db)
    dash = "starts with '-': a command would read it as an option; give another name"
    cases = {
        ("buyin", "s", "--", "-Cy", "10"): f"error: player name '-Cy' {dash}",
        ("hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2", "--seats",
         "-Cy:10,Ann:100"): f"error: player name '-Cy' {dash}",
        ("session", "open", "--", "-weird"): f"error: session name '-weird' {dash}",
        ("player", "alias", "--", "-Cy", "Ann"): f"error: player name '-Cy' {dash}",
    }
    for args, line in cases.items():
        assert refused(run(db, *args)) == line, args
    assert snapshot(db) == before
    # a new ledger is not made by a refused session open or hand start either
    for args in (("session", "open", "--", "-weird"),
                 ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                  "-Cy:10,Ann:100")):
        assert refused(run(tmp_path / "new.duckdb", *args)) in cases.values()
        assert not (tmp_path / "new.duckdb").exists()


def test_a_new_name_longer_than_64_characters_is_refused(s_ann: Path, tmp_path: Path) -> None:
    """A name of 100,000 characters was taken by buyin and hand start and then printed whole in
    every table (a balances row 100,000 characters wide). A new player or session name is at
    most 64 characters (docs/BOOKS.md "Names"): a longer one is one line naming the command,
    showing its first 64 characters and its length, exit 2, nothing written; 64 is taken and
    balances prints it whole."""
    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    before = snapshot(db)
    huge, over = "A" * 100_000, "B" * 65
    said = ("is {} characters long: a name is at most 64 characters, so that every table "
            "prints it whole (a PokerStars name is at most 15); give a shorter name")
    a64, b64 = repr("A" * 64), repr("B" * 64)
    cases = {
        ("buyin", "s", huge, "10"): f"error: buyin s: player name {a64}… {said.format('100,000')}",
        ("buyin", "s", over, "10"): f"error: buyin s: player name {b64}… {said.format(65)}",
        ("hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2", "--seats",
         f"{huge}:100,Ann:100", "--button", "Ann"):
            f"error: --seats: player name {a64}… {said.format('100,000')}",
        ("session", "open", huge):
            f"error: session open: session name {a64}… {said.format('100,000')}",
        ("player", "alias", over, "Ann"):
            f"error: player alias: player name {b64}… {said.format(65)}",
    }
    for args, line in cases.items():
        assert refused(run(db, *args)) == line, args[:3]
    assert snapshot(db) == before
    assert refused(run(tmp_path / "new.duckdb", "hand", "start", "--game", "NT", "--stakes",
                       "1/2", "--seats", f"{huge}:100,Ann:100")) == (
        f"error: --seats: player name {a64}… {said.format('100,000')}")
    assert not (tmp_path / "new.duckdb").exists()
    done = run(db, "buyin", "s", "C" * 64, "10")
    assert (done.exit_code, done.output) == (0, f"s: {'C' * 64} buy-in 10 chips (entry 3)\n")
    assert run(db, "balances").output.splitlines() == [
        f"{'player':<64}{'net':>13}       buy-in     cash-out  hands sessions",
        f"{'Ann':<64}{0:>13}          100            0      0        1",
        f"{'C' * 64}{0:>13}           10            0      0        1"]


CAFE, CAFE_NFD, FULL_ANN = "Caf\u00e9", "Cafe\u0301", "\uff21nn"  # 'Café' twice, 'Ａnn'


def test_a_new_name_that_prints_like_one_of_the_ledger_is_refused(s_ann: Path,
                                                                  tmp_path: Path) -> None:
    """'Café' with é as U+00E9 or as e + U+0301, and full-width 'Ａnn' beside 'Ann', were two
    players whose rows of balances print alike: a new name that folds (NFKC, casefold) like
    one the ledger holds is refused with both spellings and the name meant; a name not in
    composed form (NFC) is refused on its own. One line, exit 2, nothing written."""
    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    assert run(db, "buyin", "s", CAFE, "10").exit_code == 0
    before = snapshot(db)
    alike = ("(names are kept as typed: two names that differ only in case or in how their "
             "letters are encoded would print alike)")
    cases = {
        ("buyin", "s", CAFE_NFD, "10"): (
            f"error: buyin s {CAFE_NFD}: '{CAFE_NFD}' (C a f e U+0301) is not in s's books and "
            f"'{CAFE}' (C a f U+00E9) is: did you mean {CAFE}? (names are kept as typed; two "
            "players whose names differ only in case or in how their letters are encoded "
            "would print alike)"),
        ("buyin", "s", FULL_ANN, "10"): (
            f"error: buyin s {FULL_ANN}: '{FULL_ANN}' (U+FF21 n n) is not in s's books and "
            "'Ann' is: did you mean Ann? (names are kept as typed; two players whose names "
            "differ only in case or in how their letters are encoded would print alike)"),
        ("hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2", "--button",
         "Ann", "--seats", f"{FULL_ANN}:10,Ann:100"): (
            f"error: {FULL_ANN} has no buy-in in session s (its players: Ann, Caf\u00e9): did "
            f"you mean Ann? seat the player by the name the books give ('{FULL_ANN}' (U+FF21 n "
            "n) is not 'Ann'); nothing was written"),
        ("hand", "start", "--game", "NT", "--stakes", "1/2", "--button", "Ann", "--seats",
         f"{FULL_ANN}:10,Ann:100"): (
            f"error: player name '{FULL_ANN}' (U+FF21 n n) is new but 'Ann' is a player of the "
            f"ledger: did you mean Ann? {alike}"),
        ("player", "alias", CAFE_NFD, "Zed"): (
            f"error: player name '{CAFE_NFD}' (C a f e U+0301) is new but '{CAFE}' (C a f "
            f"U+00E9) is a player of the ledger: did you mean {CAFE}? {alike}"),
        ("session", "open", "\uff33"): (  # full-width S
            f"error: session name '\uff33' (U+FF33) is new but 's' is a session of the "
            f"ledger: did you mean s? {alike}"),
        ("session", "open", "S"): (
            f"error: session name 'S' is new but 's' is a session of the ledger: did you mean "
            f"s? {alike}"),
        ("session", "open", CAFE_NFD): (
            f"error: session name '{CAFE_NFD}' (C a f e U+0301) is not written in composed "
            "form (Unicode NFC): it prints as 'Caf\u00e9' (C a f U+00E9) but is another "
            "string, so the two would be two names that print alike; write 'Caf\u00e9'"),
    }
    for args, line in cases.items():
        assert refused(run(db, *args)) == line, args
    assert snapshot(db) == before
    # the name as the ledger spells it goes in; a full-width name of its own is a name
    assert run(db, "buyin", "s", CAFE, "5").exit_code == 0
    assert run(db, "buyin", "s", "\uff22ob", "5").exit_code == 0
    assert [line.split()[0] for line in run(db, "balances").stdout.splitlines()[1:]] == [
        "Ann", "Caf\u00e9", "\uff22ob"]


def test_import_into_a_mistyped_session_is_refused_once(s_ann: Path, tmp_path: Path) -> None:
    """`import --session ss DIR` of five PHH files said the same error five times, once a
    file: no PHH file can open a session, so the import is refused once, before any file is
    read, with the name meant; a closed session likewise."""
    from tests.conftest import DATA

    db = copy_ledger(s_ann, tmp_path / "t.duckdb")  # open_s(db, "s", "Ann")
    before = snapshot(db)
    result = run(db, "import", "--session", "ss", str(DATA / "hands"))
    assert (result.exit_code, result.output) == (
        2, "error: no session 'ss' (open it with `handledger session open ss`); did you mean "
        "'s'?\n")
    assert snapshot(db) == before
    assert run(db, "cashout", "s", "Ann", "100").exit_code == 0
    assert run(db, "session", "close", "s").exit_code == 0
    result = run(db, "import", "--session", "s", str(DATA / "hands"))
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    first = sorted((DATA / "hands").iterdir())[0]  # the folder's files, named
    assert result.output.startswith(f"error: {first} (and 4 more files): session 's' is "
                                    "closed: it takes no more hands")
