"""A raked home game settles up: the rake the table took is owed to the house (whoever keeps
it), one more creditor of ``settle``'s fewest transfers, and ``pay SESSION PLAYER rake
AMOUNT`` records a payment to it (docs/LIVE.md "settle").

Worked by hand. Session ``night``, 1 chip = 0.25 USD; Ann buys in 100, Bob 30, Cy 20.
Hand h1 (button Cy, who folds): Ann raises to 30 from the small blind, Bob calls all in; a pot
of 60, the table takes 4, Ann's aces are paid 56: Ann +26, Bob -30. Hand h2 (Ann and Cy heads
up): Cy all in for 20, a pot of 40, the table takes 6, Ann is paid 34: Ann +14, Cy -20.
Nets: Ann +40, Bob -30, Cy -20 chips (sum -10, the rake) = +10.00, -7.50, -5.00 USD; the house
is owed the 10 chips, 2.50 USD. Fewest transfers over Ann +1000, Bob -750, Cy -500, house +250
(minor units): no smaller group sums to zero, so three; largest debtor first: Bob pays Ann
7.50, then Cy (-500) pays the largest creditors left, the house (250, named before Ann at the
tie) and Ann (250): Cy pays the house 2.50 and Ann 2.50.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.copies import build_ledger, copy_ledger
from tests.test_book_amounts import ZED

BOARD = ("d db 2c3d4h", "d db 9s", "d db Td")
H1 = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d", "Cy f", "Ann cbr 30", "Bob cc", *BOARD,
      "Ann sm AsAh", "Bob sm KsKh", "rake 4", "pay Ann 56", "end")
H2 = ("d dh Ann AsAh", "d dh Cy KsKh", "Ann cbr 20", "Cy cc", *BOARD, "Ann sm AsAh",
      "Cy sm KsKh", "rake 6", "pay Ann 34", "end")
TRANSFERS = ["Bob pays Ann 7.50 USD", "Cy pays Ann 2.50 USD", "Cy pays the house 2.50 USD"]


START = ("hand", "start", "--session", "night", "--game", "NT", "--stakes", "1/2")


@pytest.fixture(scope="module")
def h1_played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The night above up to h1's end (Ann +26, Bob -30), built once for the module."""
    db = tmp_path_factory.mktemp("raked_h1") / "t.duckdb"
    return build_ledger(db, [
        ("session", "open", "night", "--chip-value", "0.25", "--currency", "USD"),
        ("buyin", "night", "Ann", "100"), ("buyin", "night", "Bob", "30"),
        ("buyin", "night", "Cy", "20"),
        (*START, "--hand", "h1", "--seats", "Ann:100,Bob:30,Cy:20", "--button", "Cy"),
        *(("act", "h1", a) for a in H1)])


@pytest.fixture(scope="module")
def played(h1_played: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The night above, cashed out (140, 0, 0) and closed, built once for the module."""
    db = copy_ledger(h1_played, tmp_path_factory.mktemp("raked_night") / "t.duckdb")
    return build_ledger(db, [
        (*START, "--hand", "h2", "--seats", "Ann:126,Cy:20", "--button", "Ann"),
        *(("act", "h2", a) for a in H2),
        ("cashout", "night", "Ann", "140"), ("cashout", "night", "Bob", "0"),
        ("cashout", "night", "Cy", "0"), ("session", "close", "night")])


@pytest.fixture
def night(played: Path, db: str) -> Path:
    """The test's ledger: a copy of ``played``."""
    return copy_ledger(played, Path(db))


def _settle(run) -> list[str]:  # noqa: ANN001
    out = run("settle", "--session", "night")
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def _session_state(run) -> tuple[bool, int]:  # noqa: ANN001
    (s,) = json.loads(run("session", "list", "--json").output)["sessions"]
    return s["settled"], s["owed_minor"]


def _settlement_findings(run) -> list[tuple[str, str | None, str]]:  # noqa: ANN001
    out = run("audit", "--session", "night", "--json", "--unsettled")
    return [(d["kind"], d["player"], d["message"])
            for d in json.loads(out.output)["discrepancies"]
            if d["kind"] in ("settlement", "unsettled")]


def test_the_rake_is_owed_to_the_house(run, night: Path) -> None:  # noqa: ANN001
    body = json.loads(run("balances", "--session", "night", "--json").output)
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": 40, "Bob": -30, "Cy": -20}
    assert body["rake"] == [{"session": "night", "chips": 10, "hands": 2,
                             "chip_value_minor": 25, "decimals": 2, "currency": "USD"}]
    assert _settle(run) == [
        *TRANSFERS, "3 transfer(s) settle 3 player(s) and the house",
        "the house: whoever keeps the rake the table took, 2.50 USD (10 chips in session night);"
        " `handledger pay night PLAYER rake AMOUNT` records a payment to it"]
    out = run("settle", "--session", "night", "--json")
    assert json.loads(out.output) == {
        "transfers": [{"session": "night", "from": "Bob", "from_name": "Bob", "to": "Ann",
                       "to_name": "Ann", "amount": 750},
                      {"session": "night", "from": "Cy", "from_name": "Cy", "to": "Ann",
                       "to_name": "Ann", "amount": 250},
                      {"session": "night", "from": "Cy", "from_name": "Cy", "to": None,
                       "to_name": None, "amount": 250, "house": True}],
        "decimals": 2, "currency": "USD", "paid_already": 0, "payments_recorded": 0}
    assert _session_state(run) == (False, 1250)  # Bob 7.50 and Cy 5.00 still to pay
    assert _settlement_findings(run) == [  # no payment yet: only when asked
        ("unsettled", "Bob", "session night: payments come to 0.00 USD for Bob but Bob's net "
         "calls for -7.50 USD (+7.50 USD): Bob must still pay Ann 7.50 USD"),
        ("unsettled", "Cy", "session night: payments come to 0.00 USD for Cy but Cy's net calls "
         "for -5.00 USD (+5.00 USD): Cy must still pay Ann 2.50 USD; Cy must still pay the "
         "house 2.50 USD")]


def test_paying_the_house_settles_the_night(run, night: Path) -> None:  # noqa: ANN001
    assert run("pay", "night", "Bob", "Ann", "7.50").output == (
        "night: Bob paid Ann 7.50 USD (entry 9)\n")
    out = run("pay", "night", "Cy", "rake", "2.50")
    assert (out.exit_code, out.output) == (0, "night: Cy paid the house 2.50 USD (entry 10)\n")
    assert _settle(run) == ["Cy pays Ann 2.50 USD",
                            "1 transfer(s) settle 3 player(s) (10.00 USD paid already)"]
    assert _session_state(run) == (False, 250)
    assert _settlement_findings(run) == [
        ("settlement", "Cy", "session night: payments come to -2.50 USD for Cy but Cy's net "
         "calls for -5.00 USD (+2.50 USD): Cy must still pay Ann 2.50 USD")]
    # the house is paid in full: more to it is refused, naming the rake and what it got
    out = run("pay", "night", "Cy", "rake", "2.50", "--again")
    assert (out.exit_code, out.output) == (2, (
        "error: pay night Cy rake: 2.50 USD is more than the house is still owed in night "
        "(0.00 USD: the rake its hands took is 2.50 USD, the house was paid 2.50 USD and paid "
        "back 0.00 USD); nothing written (`handledger settle --session night` says who pays "
        "whom); --more-than-owed records it anyway\n"))

    assert run("pay", "night", "Cy", "Ann", "2.50").exit_code == 0
    assert _settle(run) == ["settled: nobody owes anybody (12.50 USD paid already)"]
    assert _session_state(run) == (True, 0)
    (s,) = [line for line in run("session", "list").output.splitlines() if "night" in line]
    assert "closed, settled" in s
    assert _settlement_findings(run) == []
    out = run("audit", "--session", "night", "--json")
    # both hands paid their pots less the rake: no finding (the rake is the house's, settled)
    assert (out.exit_code, json.loads(out.output)["discrepancies"]) == (0, [])
    history = json.loads(run("history", "--session", "night", "--json").output)
    assert [e["event"] for e in history["events"] if e["type"] == "payment"][1] == {
        "payer": "Cy", "payee": None, "amount_minor": 250, "reason": None}
    assert ' payment {"payer":"Cy","payee":null,"amount_minor":250}' in run(
        "history", "--session", "night").output


def test_the_report_names_the_house(run, night: Path, tmp_path: Path) -> None:  # noqa: ANN001
    assert run("pay", "night", "Cy", "rake", "2.50").exit_code == 0
    assert run("report", str(tmp_path / "site")).exit_code == 0
    text = re.sub(r"<[^>]+>", "", (tmp_path / "site" / "sessions" / "night.html").read_text())
    assert re.search(r"Cy\s*the house\s*2\.50 USD", text)  # the payment's row
    assert "Bob pays Ann 7.50 USDCy pays Ann 2.50 USD" in text  # what is still owed


def test_the_house_overpaid_pays_back(run, night: Path) -> None:  # noqa: ANN001
    """Cy pays the house his whole 5.00 (--more-than-owed: it is owed 2.50): the house then
    owes 2.50, which goes to Ann (Ann +10.00, Bob -7.50, house -2.50)."""
    assert run("pay", "night", "Cy", "rake", "5.00").exit_code == 2
    assert run("pay", "night", "Cy", "rake", "5.00", "--more-than-owed").exit_code == 0
    assert _settle(run) == ["Bob pays Ann 7.50 USD", "the house pays Ann 2.50 USD",
                            "2 transfer(s) settle 3 player(s) and the house (5.00 USD paid "
                            "already)",
                            "the house: whoever keeps the rake the table took, 2.50 USD (10 "
                            "chips in session night); `handledger pay night rake Ann 2.50` "
                            "records its payment back"]
    assert run("pay", "night", "Bob", "Ann", "7.50").exit_code == 0
    assert _session_state(run) == (False, 250)  # the house owes it back
    assert ("session night: payments come to 5.00 USD for the house but the rake calls for "
            "2.50 USD (+2.50 USD): the house must still pay Ann 2.50 USD"
            ) in [m for _, _, m in _settlement_findings(run)]
    out = run("pay", "night", "rake", "Ann", "2.50")
    assert (out.exit_code, out.output) == (0, "night: the house paid Ann 2.50 USD (entry 11)\n")
    assert _settle(run)[0].startswith("settled: nobody owes anybody")
    assert _session_state(run) == (True, 0)
    assert _settlement_findings(run) == []


def test_settle_session_names_the_session_where_the_house_pays_back(run, db: str) -> None:  # noqa: ANN001
    """Session g has no hand, no rake: Bob paid the house 2.00 USD anyway (--more-than-owed).
    `settle --session g` gave the footer of hands of no session ("`handledger pay SESSION
    PLAYER rake AMOUNT` records a payment to it in a session; hands of no session have none
    to name"); it names g's own command now."""
    for args in (("session", "open", "g", "--chip-value", "1", "--currency", "USD"),
                 ("buyin", "g", "Ann", "100"), ("buyin", "g", "Bob", "100"),
                 ("pay", "g", "Bob", "rake", "2", "--more-than-owed")):
        assert run(*args).exit_code == 0
    out = run("settle", "--session", "g")
    assert (out.exit_code, out.output.splitlines()) == (0, [
        "the house pays Bob 2.00 USD",
        "1 transfer(s) settle 2 player(s) and the house (2.00 USD paid already)",
        "the house: whoever keeps the rake the table took, 0.00 USD; `handledger pay g rake "
        "Bob 2.00` records its payment back"])
    out = run("pay", "g", "rake", "Bob", "2.00")
    assert (out.exit_code, out.output) == (0, "g: the house paid Bob 2.00 USD (entry 5)\n")
    assert run("settle", "--session", "g").output.startswith("settled: nobody owes anybody")


def test_a_payment_to_the_house_is_amended_within_what_it_is_owed(run, night: Path  # noqa: ANN001
                                                                   ) -> None:
    assert run("pay", "night", "Cy", "rake", "2.00").exit_code == 0
    amend = ("entry", "amend", "night", "9")
    out = run(*amend, "3.00", "--reason", "typo", "--by", "host")
    assert out.exit_code == 2 and "more than the house is still owed in night (2.50 USD" in (
        out.output)
    assert run(*amend, "2.50", "--reason", "typo", "--by", "host").exit_code == 0
    assert "Cy pays the house" not in "\n".join(_settle(run))


#: h2 of the night read from a file (Cy all-in for 20, Ann calls), Ann paid 32 of the 40-chip
#: pot and no rake recorded (a live end, or a correction, that pays a hand short is refused).
SHORT_H2 = (
    "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
    "starting_stacks = [126, 20]\nplayers = ['Ann', 'Cy']\nactions = ['d dh p1 AsAh', "
    "'d dh p2 KsKh', 'p2 cbr 20', 'p1 cc', 'd db 2c3d4h', 'd db 9s', 'd db Td', "
    "'p2 sm KsKh', 'p1 sm AsAh']\nwinnings = [32, 0]\n_hand_id = 'h2'\n")


def test_nets_off_by_more_than_the_rake_are_refused(run, db: str, tmp_path: Path,  # noqa: ANN001
                                                    h1_played: Path) -> None:
    """h1 as above (rake 4, Ann +26, Bob -30), then h2 read from a file paid short by 8 with no
    rake (a payout finding: replay/rake.py takes a rake only for exactly what it explains), so
    the rake taken is h1's 4 chips (1.00 USD). Nets Ann +38, Bob -30, Cy -20 sum to -12
    chips, -3.00 USD: 1.00 USD of it the house's, -2.00 USD left, named, and nothing
    settles."""
    short = tmp_path / "h2.phh"
    short.write_text(SHORT_H2, encoding="utf-8")
    build_ledger(copy_ledger(h1_played, Path(db)), [  # the night up to h1's end
        ("import", "--session", "night", str(short)),
        ("cashout", "night", "Ann", "138"), ("cashout", "night", "Bob", "0"),
        ("cashout", "night", "Cy", "0"), ("session", "close", "night")])
    body = json.loads(run("balances", "--session", "night", "--json").output)
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": 38, "Bob": -30, "Cy": -20}
    out = run("settle", "--session", "night")
    assert (out.exit_code, out.output) == (2, (
        "error: cannot settle: the balances sum to -3.00 USD, not zero: the rake the table took "
        "(1.00 USD) is owed to the house, which leaves -2.00 USD that no rake explains (see "
        "`handledger audit`)\n"))
    assert run("settle", "--session", "night", "--json").exit_code == 2


def test_rake_names_the_house_only_where_no_player_is_named_so(run, night: Path  # noqa: ANN001
                                                               ) -> None:
    out = run("pay", "night", "Cy", "house", "2.50")
    assert out.exit_code == 2 and "'rake' names the house, who keeps the rake" in out.output
    out = run("pay", "night", "rake", "rake", "2.50")
    assert out.output == "error: a payment needs two different players\n"
    assert run("session", "open", "other").exit_code == 0
    out = run("buyin", "other", "rake", "10")  # nobody at the table or in the books is so named
    assert out.exit_code == 2 and "cannot be used at the table" in out.output


RAKE_SEATED = ZED.replace("'zed'", "'rake'")  # a hand whose file seats a player named rake


def test_rake_is_refused_as_the_house_where_an_imported_player_is_so_named(  # noqa: ANN001
        run, db: str, tmp_path: Path) -> None:
    """An imported hand keeps its names, so a session can seat a player named rake: there
    'rake' would not say whether he or the house is paid, and the payment is refused."""
    (tmp_path / "h.phh").write_text(RAKE_SEATED)
    assert run("session", "open", "odd").exit_code == 0
    assert run("import", str(tmp_path / "h.phh"), "--session", "odd").exit_code == 0
    out = run("pay", "odd", "rake", "Ann", "100")
    assert (out.exit_code, out.output) == (2, (
        "error: pay odd rake Ann: session odd has a player named rake (from an imported hand), "
        "so 'rake' cannot name the house here; nothing written\n"))
    assert run("settle", "--session", "odd").stdout.splitlines() == [
        "rake pays Ann 100 chips", "1 transfer(s) settle 2 player(s)"]  # the player: no rake taken


@pytest.fixture(scope="module")
def sat_opened(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new ledger with session sat opened (and nothing else), built once for the module."""
    return build_ledger(tmp_path_factory.mktemp("sat") / "t.duckdb", [("session", "open", "sat")])


@pytest.mark.parametrize("name", ["Rake", "house", "The House"])
def test_a_new_player_cannot_be_named_like_the_house(run, db: str, name: str,  # noqa: ANN001
                                                     sat_opened: Path) -> None:
    """A buy-in, a seat or an alias that would make settle say "Cy pays house" beside "Cy
    pays the house" is refused, nothing written."""
    said = (f"player name {name!r} cannot be used{{}}: it reads as the house, who keeps the "
            "rake ('rake' names it in `handledger pay`, and settle says 'the house'); choose "
            "another name")
    copy_ledger(sat_opened, Path(db))  # session sat opened
    out = run("buyin", "sat", name, "100")
    assert (out.exit_code, out.output.startswith(f"error: {said.format(' at the table')} (")) \
        == (2, True), out.output
    out = run("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
              f"{name}:100,Ann:100")
    assert out.exit_code == 2 and said.format(" at the table") in out.output
    out = run("player", "alias", name, "Cy")
    assert (out.exit_code, out.output) == (2, f"error: {said.format('')}\n")
    assert run("history", "--session", "sat").output.startswith("session sat: 1 event(s)\n")


def test_rake_is_refused_as_the_house_beside_an_imported_player_named_rake_in_any_case(  # noqa: ANN001
        run, db: str, tmp_path: Path) -> None:
    """An imported hand seats 'Rake': `pay odd rake ...` could mean him or the house, and is
    refused; 'Rake' as typed is the player."""
    (tmp_path / "h.phh").write_text(ZED.replace("'zed'", "'Rake'"))
    assert run("session", "open", "odd").exit_code == 0
    assert run("import", str(tmp_path / "h.phh"), "--session", "odd").exit_code == 0
    out = run("pay", "odd", "Ann", "rake", "1")
    assert (out.exit_code, out.output) == (2, (
        "error: pay odd Ann rake: session odd has a player named Rake (from an imported hand), "
        "so 'rake' cannot name the house here; nothing written\n"))
    out = run("pay", "odd", "Rake", "Ann", "100")
    assert (out.exit_code, out.output) == (0, "odd: Rake paid Ann 100 (entry 2)\n")


def test_a_payment_to_the_house_survives_an_export(run, night: Path, tmp_path: Path  # noqa: ANN001
                                                   ) -> None:
    """JSON lines keep the house as a null payee: the re-imported ledger settles alike."""
    assert run("pay", "night", "Cy", "rake", "2.50").exit_code == 0
    assert run("export", "--format", "jsonl", "-o", str(tmp_path / "all.jsonl")).exit_code == 0
    again = build_ledger(tmp_path / "again.duckdb", [("import", str(tmp_path / "all.jsonl"))])
    from click.testing import CliRunner

    from cli.main import cli

    out = CliRunner().invoke(cli, ["--db", str(again), "settle", "--session", "night"])
    assert out.stdout.splitlines() == [
        "Bob pays Ann 7.50 USD", "Cy pays Ann 2.50 USD",
        "2 transfer(s) settle 3 player(s) (2.50 USD paid already)"] == _settle(run)


def test_a_correction_of_a_settled_night_needs_closed(run, night: Path) -> None:  # noqa: ANN001
    """The night settled up, h2 (seq 13 its rake of 6, 14 Ann paid 34) corrected to a rake
    of 5 and Ann paid 35: Ann's net +1 and the house's rake -1 move books settled up, so the
    correction takes --closed, as a void does; with it the night owes 0.25 USD again."""
    for pay in (("Bob", "Ann", "7.50"), ("Cy", "Ann", "2.50"), ("Cy", "rake", "2.50")):
        assert run("pay", "night", *pay).exit_code == 0
    assert _session_state(run) == (True, 0)
    fix = ("correct", "h2", "--replace", "13", "rake 5", "--replace", "14", "pay Ann 35",
           "--reason", "the food was 5", "--by", "host")
    out = run(*fix)
    assert (out.exit_code, out.output) == (2, (
        "error: hand h2: session night is closed and correcting hand h2 moves its players' "
        "nets (Ann +1) and its rake (6 to 5 chips): nothing written; --closed records it "
        "anyway\n"))
    assert _session_state(run) == (True, 0)
    assert run(*fix, "--closed").exit_code == 0
    assert _session_state(run) == (False, 25)  # Ann +0.25, the house -0.25: 0.25 USD owed


def test_a_void_of_a_settled_night_names_the_rake_it_takes_back(run, night: Path) -> None:  # noqa: ANN001
    """The night settled up, the void of h2 (a rake of 6) moves the players' nets and takes
    the house's rake back: the refusal names both, as a correction's does (it named the nets
    only)."""
    for pay in (("Bob", "Ann", "7.50"), ("Cy", "Ann", "2.50"), ("Cy", "rake", "2.50")):
        assert run("pay", "night", *pay).exit_code == 0
    out = run("void", "h2", "--reason", "misdeal", "--by", "host")
    assert (out.exit_code, out.output) == (2, (
        "error: hand h2: session night is closed and voiding hand h2 moves its players' nets "
        "(Cy +20, Ann -14) and its rake (6 to 0 chips): nothing written; --closed records it "
        "anyway\n"))
    assert _session_state(run) == (True, 0)


def test_settle_of_a_session_never_opened_says_to_open_it_before_paying_the_house(  # noqa: ANN001
        run, db: str, tmp_path: Path) -> None:
    """A hand read from a file that names its session fri (never opened): Ann's aces win the
    pot of 200 less a rake of 5, zed pays Ann 95 and the house 5. `pay` records a payment in
    an opened session only, so settle says to open fri first; once opened, the hint is the
    plain one and the payment goes in."""
    (tmp_path / "h.phh").write_text(ZED + "winnings = [195, 0]\nrake = 5\n_session = 'fri'\n")
    assert run("import", str(tmp_path / "h.phh")).exit_code == 0
    house = ("the house: whoever keeps the rake the table took, 5 chips (5 chips in session fri); "
             "`handledger pay fri PLAYER rake AMOUNT` records a payment to it")
    assert run("settle", "--session", "fri").output.splitlines() == [
        "zed pays Ann 95 chips", "zed pays the house 5 chips",
        "2 transfer(s) settle 2 player(s) and the house",
        f"{house} once the session is opened (`handledger session open fri`: it was never "
        "opened, its hands read from a file)"]
    assert run("pay", "fri", "zed", "rake", "5").exit_code == 2  # no session 'fri' yet
    assert run("session", "open", "fri").exit_code == 0
    assert run("settle").output.splitlines()[-1] == house
    assert run("pay", "fri", "zed", "rake", "5").exit_code == 0
    assert run("settle").output.splitlines() == [
        "zed pays Ann 95 chips", "1 transfer(s) settle 2 player(s) (5 chips paid already)"]


def test_a_clean_audit_says_the_closed_night_still_owes_money(run, night: Path) -> None:  # noqa: ANN001
    """Closed with no payment recorded, 12.50 USD owed (Bob 7.50, Cy 5.00): the audit finds
    nothing (the `unsettled` finding is asked for with --unsettled), and its clean line says
    the night still owes money; once the three transfers are paid, it says nothing of it."""
    clean = ("audit clean: 2 hand(s) in 1 session(s); every chip adds up in the books as stored "
             "(the hash chain not checked: `handledger verify`)")
    out = run("audit", "--session", "night")
    assert (out.exit_code, out.output) == (0, clean + (
        "; 1 closed session still owes money (night): `handledger audit --unsettled` names "
        "who, `handledger settle` who pays whom\n"))
    assert _session_state(run) == (False, 1250)
    assert [(kind, who) for kind, who, _ in _settlement_findings(run)] == [
        ("unsettled", "Bob"), ("unsettled", "Cy")]  # each player who must still pay
    for payment in (("Bob", "Ann", "7.50"), ("Cy", "Ann", "2.50"), ("Cy", "rake", "2.50")):
        assert run("pay", "night", *payment).exit_code == 0
    out = run("audit", "--session", "night")
    assert (out.exit_code, out.output) == (0, clean + "\n")
    assert _session_state(run) == (True, 0)


def test_audit_json_carries_what_the_closed_night_still_owes(run, night: Path) -> None:  # noqa: ANN001
    """What the clean line's `still owes money` says, `audit --json` carries as data: the
    night owes 12.50 USD (Bob 7.50, Cy 5.00: 1250 cents of 2 places) and who pays whom as
    settle gives it (the module's transfers: Bob pays Ann 750, Cy pays Ann 250 and the house
    250); once Bob pays his 7.50, 5.00 is left, Cy's two transfers; once everything is paid,
    the key is gone."""
    def owed() -> tuple[int, dict]:
        out = run("audit", "--session", "night", "--json")
        return out.exit_code, json.loads(out.output)

    def to(who: str | None, amount: int) -> dict:
        return ({"to": who, "to_name": who, "amount_minor": amount}
                | ({"house": True} if who is None else {}))

    cy = [{"from": "Cy", "from_name": "Cy"} | to("Ann", 250),
          {"from": "Cy", "from_name": "Cy"} | to(None, 250)]
    assert owed() == (0, {"discrepancies": [], "still_owed": [
        {"session": "night", "owed_minor": 1250, "decimals": 2, "currency": "USD",
         "transfers": [{"from": "Bob", "from_name": "Bob"} | to("Ann", 750), *cy]}]})
    assert run("pay", "night", "Bob", "Ann", "7.50").exit_code == 0
    code, body = owed()
    assert (code, body["still_owed"]) == (1, [
        {"session": "night", "owed_minor": 500, "decimals": 2, "currency": "USD",
         "transfers": cy}])
    for payment in (("Cy", "Ann", "2.50"), ("Cy", "rake", "2.50")):
        assert run("pay", "night", *payment).exit_code == 0
    assert owed() == (0, {"discrepancies": []})
