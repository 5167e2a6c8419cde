"""A PokerNow player is shown by the name he played under wherever a command prints him
(README, "PokerNow"): the note of a hand in progress under `balances`, what `void` returned,
settle's note of stacks that do not follow the books; and `hand start --seats` in such a
session takes him by that name, seating him by his id, as `act` does. Real data: the second
charlestudor log (A8 is gE4aE_Yhc3, "ksv @ ycx" is YJJJbgIQrB), in process."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from tests.conftest import SHARED
from tests.test_host_mistakes import _edited
from tests.test_live_table import one_shot

LOG2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
SESSION = "charlestudor_Input_Log_002"


def _imported(tmp_path: Path) -> Path:
    db = tmp_path / "n.duckdb"
    code, out, _ = one_shot(db, "import", str(LOG2))
    assert code == 0, out
    return db


def _seats(db: Path, hand: str) -> list[tuple[str, int]]:
    with duckdb.connect(str(db), read_only=True) as con:
        (payload,) = con.execute("SELECT payload FROM events WHERE type = 'hand_started' AND "
                                 "stream = ?", [hand]).fetchone()
    return [(s["player"], s["stack"]) for s in json.loads(payload)["seats"]]


def test_a_hand_in_progress_and_its_void_name_the_players(tmp_path: Path) -> None:
    """A live hand seated by id: A8 posts the small blind of 1, "ksv @ ycx" the big blind of
    2; `balances` notes them by name, and so does `void`'s line of what it returned."""
    db = _imported(tmp_path)
    code, out, _ = one_shot(db, "hand", "start", "--session", SESSION, "--game", "NT",
                            "--stakes", "1/2", "--seats", "gE4aE_Yhc3:100,YJJJbgIQrB:100",
                            "--button", "gE4aE_Yhc3", "--hand", "live1")
    assert (code, out) == (0, "live1\n")
    code, out, _ = one_shot(db, "balances")
    assert code == 0 and out.splitlines()[-1] == (
        f"note: hand live1 of session {SESSION} is in progress (not ended): the 3 chips in "
        "its pot so far (ksv @ ycx 2, A8 1) count as put in, no payout counted until it "
        "ends; the nets are final once it ends (`handledger act live1 end`) or is voided")
    assert "ksv @ ycx (YJJJbgIQrB)" in out  # the table as before: nickname (id)
    code, out, _ = one_shot(db, "void", "live1", "--reason", "misdeal", "--by", "host")
    assert (code, out) == (0, "voided hand live1: returned ksv @ ycx 2, A8 1; change in net: ksv "
                              "@ ycx +2, "
                           "A8 +1; by the rules: ksv @ ycx +2, A8 +1\n")


def test_seats_may_name_the_players_as_shown(tmp_path: Path) -> None:
    """`--seats "ksv @ ycx:100,A8:100" --button A8`: seated by their ids, as `act` maps a
    name (a name with whitespace is no new player's: it names one the session knows)."""
    db = _imported(tmp_path)
    code, out, _ = one_shot(db, "hand", "start", "--session", SESSION, "--game", "NT",
                            "--stakes", "1/2", "--seats", "ksv @ ycx:100,A8:100",
                            "--button", "A8", "--hand", "live2")
    assert (code, out) == (0, "live2\n")
    assert _seats(db, "live2") == [("YJJJbgIQrB", 100), ("gE4aE_Yhc3", 100)]
    code, out, _ = one_shot(db, "act", "live2", "d dh ksv @ ycx ????")
    assert (code, out) == (0, "4 cards_dealt; phase deal, next: d dh A8 CARDS (2 cards, ?? for "
                           "each unseen card)\n")
    code, _, err = one_shot(db, "hand", "start", "--session", SESSION, "--game", "NT",
                            "--stakes", "1/2", "--seats", "ksv @ ycx:100,Zed Q:100",
                            "--button", "Zed Q", "--hand", "live3")
    assert code == 2 and err.startswith("error: player name 'Zed Q' cannot be used at the "
                                        "table: an action splits at whitespace")


def test_settle_notes_a_stack_by_name(tmp_path: Path) -> None:
    """The first charlestudor log, TA (gE4aE_Yhc3) given 114 for hand #4 where hand #3 left
    him 104: the import's warning names him name (id), settle's note by his name."""
    log = _edited(tmp_path, 10, '"TA @ gE4aE_Yhc3"" (104)', '"TA @ gE4aE_Yhc3"" (114)')
    db = tmp_path / "s.duckdb"
    code, _, err = one_shot(db, "import", str(log))
    assert code == 0 and "hand pn-charlestudor_Input_Log_001-4-164210359269400: TA " \
        "(gE4aE_Yhc3) starts with 114 but had 104" in err
    code, out, err = one_shot(db, "settle")
    assert code == 0 and out.startswith("Qapurjsa9 pays TA ")
    assert err == ("note: session charlestudor_Input_Log_001: hands start with stacks its "
                   "books did not leave (TA +10 chips); settle goes by the hands: `handledger "
                   "audit --session charlestudor_Input_Log_001` names each (a rebuy not "
                   "recorded before the hand: `handledger buyin charlestudor_Input_Log_001 "
                   "PLAYER CHIPS --before HAND` counts it before that hand; or a stack typed "
                   "wrong: its start replaced, `handledger correct HAND --replace 1 …`; or a "
                   "hand before it not recorded (a log with hands missing): record or import "
                   "it)\n")


def test_a_seat_named_as_two_players_is_refused_naming_both(tmp_path: Path) -> None:
    """The valakuzhyk log with IpusyM and Erhradnpmi3 both renamed "Sam Lee": `--seats "Sam
    Lee:100,…"` names two players of the session, refused naming both ids and the labels to
    type; "Sam Lee (f-mUxYkHrq)" seats that one by his id."""
    vk = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
    log = tmp_path / "dup.csv"
    log.write_text(vk.read_text(encoding="utf-8").replace("IpusyM @", "Sam Lee @")
                   .replace("Erhradnpmi3 @", "Sam Lee @"), encoding="utf-8")
    db = tmp_path / "d.duckdb"
    assert one_shot(db, "import", str(log))[0] == 0
    start = ("hand", "start", "--session", "dup", "--game", "NT", "--stakes", "100/200",
             "--button", "Aab Ovwsi", "--seats")
    code, out, err = one_shot(db, *start, "Sam Lee:5000,Aab Ovwsi:5000")
    assert (code, out, err) == (2, "", (
        "error: --seats: 'Sam Lee' is the name of 2 players of session dup (H353kCoMHV, "
        "f-mUxYkHrq): seat 'Sam Lee' as 'Sam Lee (H353kCoMHV)' or 'Sam Lee (f-mUxYkHrq)', "
        "or by the id\n"))
    code, out, _ = one_shot(db, *start, "Sam Lee (f-mUxYkHrq):5000,Aab Ovwsi:5000",
                            "--hand", "d1")
    assert (code, out) == (0, "d1\n")
    assert _seats(db, "d1") == [("f-mUxYkHrq", 5000), ("gKyQzJRs7T", 5000)]


RIT = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
EXCERPT = "pokernowpy_run-it-twice"


def test_pay_names_the_payer_as_shown_though_typed_with_his_id(tmp_path: Path) -> None:
    """Mdeyxwb (HXN7RGKNLI) lost 297 - 34 = 263 cents in the run-it-twice excerpt: a payment
    of 20.00 USD is refused, and one of 2.63 recorded, naming him Mdeyxwb, not HXN7RGKNLI
    (typed as ``Mdeyxwb (HXN7RGKNLI)``, as balances shows him)."""
    db = tmp_path / "p.duckdb"
    assert one_shot(db, "import", str(RIT))[0] == 0
    assert one_shot(db, "session", "set", EXCERPT, "--chip-value", "0.01", "--currency",
                    "USD")[0] == 0
    typed = "Mdeyxwb (HXN7RGKNLI)"
    assert one_shot(db, "pay", EXCERPT, typed, "sappxxu", "20.00") == (
        2, "", f"error: pay {EXCERPT} {typed} sappxxu: 20.00 USD is more than Mdeyxwb still "
        f"owes in {EXCERPT} (2.63 USD: Mdeyxwb lost 2.63 USD, paid 0.00 USD, received 0.00 "
        f"USD); nothing written (`handledger settle --session {EXCERPT}` says who pays "
        "whom); --more-than-owed records it anyway\n")
    assert one_shot(db, "pay", EXCERPT, typed, "sappxxu", "2.63") == (
        0, f"{EXCERPT}: Mdeyxwb paid sappxxu 2.63 USD (entry 9)\n", "")


def test_a_second_cash_out_is_refused_naming_the_player_as_shown(tmp_path: Path) -> None:
    """A session holding the second charlestudor log, where A8 is gE4aE_Yhc3 (the hands
    leave him 200 of his 50 bought): a rebuy of 500 and a cash-out of 700, then a second
    cash-out of 200 is refused naming A8, not gE4aE_Yhc3."""
    db = tmp_path / "w.duckdb"
    assert one_shot(db, "session", "open", "w1")[0] == 0
    assert one_shot(db, "import", "--session", "w1", str(LOG2))[0] == 0
    assert one_shot(db, "buyin", "w1", "A8", "500") == (0, "w1: A8 rebuy 500 chips (entry 20)\n",
                                                         "")
    assert one_shot(db, "cashout", "w1", "A8", "700") == (
        0, "w1: A8 cashed out 700 chips (entry 21)\n", "")
    assert one_shot(db, "cashout", "w1", "A8", "200") == (
        2, "", "error: A8 already cashed out 700 chips in w1 (entry 21, no buy-in since); a "
        "wrong count is amended: `handledger entry amend w1 21 CHIPS --reason … --by …`\n")


def test_a_player_named_with_his_id_by_an_older_name_keeps_both() -> None:
    """A ledger statement's line names TA (gE4aE_Yhc3) as the statement does; his id's name is
    A8 now: the line read ``for TA (A8)``, the id renamed inside the name that gives it."""
    from cli.names import Names

    names = Names({"gE4aE_Yhc3": "A8"})
    assert names("says net 5 for TA (gE4aE_Yhc3) but the replayed session gives net 3; "
                 "gE4aE_Yhc3 +2") == ("says net 5 for TA (gE4aE_Yhc3) but the replayed "
                                      "session gives net 3; A8 +2")
