"""``player unalias`` of a PokerNow name: every reader of the names a PokerNow import gave
its ids honours the end of one from its place on (docs/LIVE.md "player unalias", "PokerNow"):
``balances`` and ``standings`` (the derived ``player_nicknames``), an import's refusal of a
quit beyond the table, ``hand start --seats`` and the refusal of a renamed copy of a stored
log. Before, ``balances`` kept showing the ended name beside the id (``Aab Ovwsi
(gKyQzJRs7T)``) while ``show`` and ``settle`` showed the id alone, and the refusal of a
quit named the player by the ended name.

``vk``: the real valakuzhyk log imported as it is (52 hands, 8 players who bought in 1000
each; Aab Ovwsi, id gKyQzJRs7T, +7000 over the 52 hands, everyone else -1000).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED
from tests.copies import build_ledger, copy_ledger

VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
SESSION = "valakuzhyk_07_21_2022_log1"
AAB = "gKyQzJRs7T"
HEAD = "player                               net       buy-in     cash-out  hands sessions"
ENDED = ("--reason", "not his name", "--by", "host")


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def lines(db: Path, *args: str) -> list[str]:
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def vk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    return build_ledger(tmp_path_factory.mktemp("vk") / "t.duckdb", [["import", str(VK)]])


def test_balances_and_standings_drop_an_ended_name(vk: Path, tmp_path: Path) -> None:
    db = copy_ledger(vk, tmp_path / "t.duckdb")
    assert lines(db, "balances")[:2] == [
        HEAD, "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1"]
    result = run(db, "player", "unalias", "Aab Ovwsi", *ENDED)
    assert (result.exit_code, result.stdout) == (0, "Aab Ovwsi is no longer gKyQzJRs7T\n")
    # shown by his id alone, as show and settle show him (the derived tables rebuilt)
    assert lines(db, "balances")[:3] == [
        HEAD, "gKyQzJRs7T                          7000         1000            0     52        1",
        "Hznmh#9009 (1RhUayZFQU)            -1000         1000            0     27        1"]
    assert lines(db, "standings")[:2] == [
        "player                      valakuzhyk_07_21_2022_log1        total",
        "gKyQzJRs7T                                        7000         7000"]
    assert lines(db, "settle")[0] == "Hznmh#9009 pays gKyQzJRs7T 1000 chips"
    assert lines(db, "sql", "SELECT count(*) AS n FROM player_nicknames WHERE player ="
                 f" '{AAB}'")[-2:] == ["0", "(1 row)"]


def test_an_ended_name_gives_back_the_one_he_played_under_before(tmp_path: Path) -> None:
    """A short export (hands #1-#4) and a longer one whose hands #30 on name Aab "Aab New"
    (a rename the game logged): ending "Aab New" shows him as "Aab Ovwsi" again."""
    text = VK.read_text(encoding="utf-8").splitlines(keepends=True)
    quit_ = next(i for i, t in enumerate(text) if t.startswith('"-- ending hand #4 --"')) - 1
    short, longer = tmp_path / "short.csv", tmp_path / "longer.csv"
    short.write_text("".join([text[0], *text[quit_:]]), encoding="utf-8")
    longer.write_text("".join([text[0], *(t.replace("Aab Ovwsi @", "Aab New @")
                                          for t in text[1:386]), *text[386:]]), encoding="utf-8")
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(short)], ["import", str(longer)]])
    assert lines(db, "balances")[1] == (
        "Aab New (gKyQzJRs7T)                7000         1000            0     52        1")
    assert run(db, "player", "unalias", "Aab New", *ENDED).exit_code == 0
    assert lines(db, "balances")[1] == (
        "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1")


def test_a_quit_beyond_the_table_is_refused_naming_him_as_the_reads_do(
        tmp_path: Path) -> None:
    """charlestudor's second log with one more quit of @ovvkpfngo@@@ (CzMp1GAawT), who quit
    with 0 after hand #2, with 150 chips: refused, naming him by his id once his name was
    ended (before: by the ended name), at the quit's own line 2."""
    game = tmp_path / "a" / "game.csv"
    game.parent.mkdir()
    game.write_text(CT2.read_text(encoding="utf-8"), encoding="utf-8")
    longer = tmp_path / "b" / "game.csv"
    longer.parent.mkdir()
    head, *rest = CT2.read_text(encoding="utf-8").splitlines(keepends=True)
    longer.write_text(head + '"The player ""@ovvkpfngo@@@ @ CzMp1GAawT"" quits the game with '
                      'a stack of 150.",2022-01-20T10:52:40.000Z,164267596000000\n'
                      + "".join(rest), encoding="utf-8")
    db = build_ledger(tmp_path / "t.duckdb", [
        ["import", str(game)], ["player", "unalias", "@ovvkpfngo@@@", *ENDED]])
    result = run(db, "import", str(longer))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {longer}:2, session game: its cash_out at seq 22 cashes out CzMp1GAawT (150 "
        "chips), but none of them are at the table there: CzMp1GAawT cashed out 0 chips at seq "
        "17 and bought in none since; nothing of the file was written (a buy-in missing from "
        "the file goes before it)\n")
    # a name a host gives the id afterwards is his in every read (before: show kept the id)
    assert run(db, "player", "alias", "Ovvk", "CzMp1GAawT").exit_code == 0
    assert lines(db, "show", "pn-game-1-164267577749500")[0].startswith(
        "hand pn-game-1-164267577749500: NT, button A8; seats Ovvk 50, ")
    assert lines(db, "balances")[3].split() == ["Ovvk", "-50", "50", "0", "2", "1"]
    result = run(db, "import", str(longer))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"error: {longer}:2, session game: its cash_out at seq 23 cashes out Ovvk "
        "(CzMp1GAawT) (150 chips), but none of them are at the table there: Ovvk (CzMp1GAawT) "
        "cashed out 0 chips at seq 17")


def test_hand_start_seats_an_ended_name_as_typed(vk: Path, tmp_path: Path) -> None:
    """--seats "Aab Ovwsi:8000" seated Aab by his id; once the name is ended it names nobody
    of the session, and is refused as any new name with a space is."""
    db = copy_ledger(vk, tmp_path / "t.duckdb")
    assert run(db, "player", "unalias", "Aab Ovwsi", *ENDED).exit_code == 0
    result = run(db, "hand", "start", "--hand", "z1", "--session", SESSION, "--game", "NT",
                 "--stakes", "10/20", "--seats", "Aab Ovwsi:8000,IpusyM:1000", "--button",
                 "IpusyM")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: player name 'Aab Ovwsi' cannot be used at the table: an action splits at "
        "whitespace, so only its first word would be read; choose another name (a name of a "
        "hand file is taken by a buy-in once the file is imported into the session)\n")
    assert run(db, "state", "z1").exit_code == 2  # nothing started


def test_a_renamed_copy_after_a_host_name_was_ended_offers_the_alias_again(
        vk: Path, tmp_path: Path) -> None:
    db = copy_ledger(vk, tmp_path / "t.duckdb")
    copy = tmp_path / "copy.csv"
    copy.write_text(VK.read_text(encoding="utf-8").replace("Aab Ovwsi @", "Aab New @"),
                    encoding="utf-8")
    assert run(db, "player", "alias", "Aab New", AAB).exit_code == 0
    assert run(db, "player", "unalias", AAB, *ENDED).exit_code == 0
    result = run(db, "import", str(copy))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {copy}:1109, hand pn-{SESSION}-1-165843755677200: this PokerNow hand is in "
        f"the ledger already (session {SESSION}) under other names: player {AAB} is 'Aab New' "
        "here, 'Aab Ovwsi' in the ledger; nothing of the file was written (its buy-ins would "
        f"count twice); `handledger player alias 'Aab New' {AAB}` shows {AAB} as Aab New from now "
        "on, and the file stays refused (the stored hands keep the names they were logged "
        "under)\n")


CT1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


def test_taking_back_a_mistaken_alias_of_a_pokernow_name_puts_every_view_back(
        tmp_path: Path) -> None:
    """``player alias "Aab Ovwsi" A8`` (A8: the name PokerNow gave gE4aE_Yhc3, who played as TA
    before) recorded by mistake and taken back. A8 stands for his id, as ``pay`` takes him, so
    the alias merges gE4aE_Yhc3 into Aab Ovwsi (before, it aliased the name alone: his hands
    and entries, stored under the id, stayed a player apart). ``player unalias A8`` reads A8
    as the alias did, his id, and ends the id's alias (it was refused, pointing to the id);
    that puts balances, settle and pay back as before it. gE4aE_Yhc3: +3 in log 001, +150 in
    log 002."""
    db = build_ledger(tmp_path / "t.duckdb", [
        ["import", "--session", "club-w2", str(CT1), str(CT2)],
        ["import", "--session", "club-w1", str(VK)],
        ["session", "set", "club-w2", "--chip-value", "0.01", "--currency", "USD"]])
    a8 = "A8 (gE4aE_Yhc3)                     153          150            0      8        1"
    assert lines(db, "balances", "--session", "club-w2")[1] == a8
    settled = lines(db, "settle", "--session", "club-w2")[:2]
    assert settled == ['"uhuhqb""\'\'\' pays A8 0.50 USD', "Qapurjsa9 pays A8 0.03 USD"]
    assert lines(db, "player", "alias", "Aab Ovwsi", "A8") == ["A8 (gE4aE_Yhc3) is Aab Ovwsi"]
    # while the alias holds, gE4aE_Yhc3's 153 chips of club-w2 are Aab Ovwsi's
    assert lines(db, "balances", "--session", "club-w2")[1] == (
        "Aab Ovwsi (gKyQzJRs7T)              153          150            0      8        1")
    assert lines(db, "player", "unalias", "A8", *ENDED) == [
        "A8 (gE4aE_Yhc3) is no longer Aab Ovwsi"]
    assert lines(db, "balances", "--session", "club-w2")[1] == a8
    assert lines(db, "settle", "--session", "club-w2")[:2] == settled
    assert lines(db, "standings")[:2] == [
        "player                         club-w2    club-w1 total 0.01 USD  total chips",
        "A8 (gE4aE_Yhc3)                    153                       153             "]
    assert lines(db, "pay", "club-w2", "Qapurjsa9", "A8", "0.03") == [
        "club-w2: Qapurjsa9 paid A8 0.03 USD (entry 30)"]
    assert lines(db, "balances", "--session", "club-w1")[1].startswith("Aab Ovwsi (gKyQzJRs7T)")
    # A8 is his own name, with the payment of entry 30 written under it: never ended
    result = run(db, "player", "unalias", "A8", *ENDED)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: A8 is the name PokerNow logged for gE4aE_Yhc3, not an alias a host made: "
        "entry 30 (payment of Qapurjsa9 to A8) of session club-w2 is written under it, and "
        "ending it would "
        "split that entry from his hands; nothing recorded (a wrong entry is amended or "
        "retracted: `handledger entry retract club-w2 30 --reason … --by …`)\n")


def test_unalias_takes_the_names_alias_took_for_a_pokernow_id(tmp_path: Path) -> None:
    """``player alias Bob Qapurjsa9`` (Qapurjsa9: the name PokerNow logged for BfS83Cedu3,
    charlestudor's first log, -4) records the alias for his id; ``player unalias Qapurjsa9``
    ends it (it was refused, though alias took the name), and so does ``player unalias
    'Qapurjsa9 (BfS83Cedu3)'``, his label as balances prints it, as alias takes it. With no
    host's alias of his id, the label is no alias, and his name alone ends his PokerNow name
    (as before). A name two ids a host aliased share is refused naming both."""
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(CT1)]])
    qa = "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1"
    assert lines(db, "balances")[3] == qa
    for typed in ("Qapurjsa9", "Qapurjsa9 (BfS83Cedu3)"):
        assert lines(db, "player", "alias", "Bob", typed) == ["Qapurjsa9 (BfS83Cedu3) is Bob"]
        assert lines(db, "balances")[3] == (  # his hands and buy-in Bob's
            "Bob                              -4          100            0      4        1")
        assert lines(db, "player", "unalias", typed, *ENDED) == [
            "Qapurjsa9 (BfS83Cedu3) is no longer Bob"]
        assert lines(db, "balances")[3] == qa
    result = run(db, "player", "unalias", "Qapurjsa9 (BfS83Cedu3)", *ENDED)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: Qapurjsa9 (BfS83Cedu3) is no alias of another player (its aliases: Qapurjsa9; "
        "`handledger player unalias Qapurjsa9 --reason … --by …` ends one); nothing "
        "recorded\n"))
    assert lines(db, "player", "unalias", "Qapurjsa9", *ENDED) == [
        "Qapurjsa9 is no longer BfS83Cedu3"]
    assert lines(db, "balances")[3] == (
        "BfS83Cedu3                       -4          100            0      4        1")


def test_unalias_of_a_pokernow_name_two_aliased_ids_share_names_both(tmp_path: Path) -> None:
    """charlestudor's first log with Qapurjsa9 (BfS83Cedu3) renamed Anvjfbmj2, the name of
    ydk9sgEWl2 too, each id made another player's by a host (by id, as ``player alias``
    refuses the shared name): ``player unalias Anvjfbmj2`` cannot say which, so it is
    refused naming both, as ``player alias`` refuses the name; his label names the one."""
    log = tmp_path / CT1.name
    log.write_text(CT1.read_text(encoding="utf-8-sig").replace(
        "Qapurjsa9 @ BfS83Cedu3", "Anvjfbmj2 @ BfS83Cedu3"), encoding="utf-8")
    db = build_ledger(tmp_path / "t.duckdb", [["import", "--session", "w", str(log)],
                                              ["player", "alias", "Bob", "ydk9sgEWl2"],
                                              ["player", "alias", "Cy", "BfS83Cedu3"]])
    result = run(db, "player", "unalias", "Anvjfbmj2", *ENDED)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: Anvjfbmj2 is the PokerNow name of 2 players a host made aliases (BfS83Cedu3, "
        "ydk9sgEWl2): name the one meant by his id (`handledger player unalias BfS83Cedu3 "
        "--reason … --by …`); nothing recorded\n"))
    assert lines(db, "player", "unalias", "Anvjfbmj2 (BfS83Cedu3)", *ENDED) == [
        "Anvjfbmj2 (BfS83Cedu3) is no longer Cy"]
    # one id aliased by a host now: the name stands for it
    assert lines(db, "player", "unalias", "Anvjfbmj2", *ENDED) == [
        "Anvjfbmj2 (ydk9sgEWl2) is no longer Bob"]


def test_an_entry_under_a_pokernow_players_own_name_is_no_alias(tmp_path: Path) -> None:
    """``cashout`` and ``pay`` store a PokerNow player's name as typed (TA, Qapurjsa9): his own
    name, the one his log gave his id, not an alias a host made. ``entry amend`` / ``entry
    retract`` of such an entry give no note (before: ``entry 11 names TA, an alias of TA``,
    advising ``player unalias TA``), and ``player unalias`` of the name, which would split the
    entries under it from his hands (balances: ``TA 0 0 103`` apart from gE4aE_Yhc3, the
    audit failing), is refused naming the entry, nothing recorded. Log 001: TA +3, Anvjfbmj2
    +1, Qapurjsa9 -4, each of 100 bought in."""
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(CT1), "--session", "w1"]])
    assert lines(db, "cashout", "w1", "TA", "13") == ["w1: TA cashed out 13 chips (entry 11)"]
    result = run(db, "entry", "amend", "w1", "11", "103", "--reason", "typo", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "w1: entry 11 (cash-out of TA) amended: 13 → 103 chips\n", "")
    assert lines(db, "cashout", "w1", "Anvjfbmj2", "101") == [
        "w1: Anvjfbmj2 cashed out 101 chips (entry 13)"]
    assert lines(db, "cashout", "w1", "Qapurjsa9", "96") == [
        "w1: Qapurjsa9 cashed out 96 chips (entry 14)"]
    assert lines(db, "pay", "w1", "Qapurjsa9", "TA", "3") == ["w1: Qapurjsa9 paid TA 3 (entry 15)"]
    result = run(db, "entry", "retract", "w1", "15", "--reason", "typo", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "w1: entry 15 (payment of Qapurjsa9 to TA) retracted\n", "")
    for name, seq in (("TA", 11), ("Qapurjsa9", 14)):
        result = run(db, "player", "unalias", name, "--reason", "as the note says", "--by", "host")
        assert (result.exit_code, result.stdout) == (2, "")
        pid = {"TA": "gE4aE_Yhc3", "Qapurjsa9": "BfS83Cedu3"}[name]
        assert result.stderr == (
            f"error: {name} is the name PokerNow logged for {pid}, not an alias a host made: "
            f"entry {seq} (cash-out of {name}) of session w1 is written under it, and ending it "
            "would "
            "split that entry from his hands; nothing recorded (a wrong entry is amended or "
            f"retracted: `handledger entry retract w1 {seq} --reason … --by …`)\n")
    assert lines(db, "balances", "--session", "w1") == [
        "player                          net       buy-in     cash-out  hands sessions",
        "TA (gE4aE_Yhc3)                   3          100          103      4        1",
        "Anvjfbmj2 (ydk9sgEWl2)            1          100          101      4        1",
        "Qapurjsa9 (BfS83Cedu3)           -4          100           96      4        1"]
    assert run(db, "audit", "--session", "w1").exit_code == 0
    assert not any(e["type"] == "player_unaliased" for e in json.loads(
        run(db, "history", "--session", "w1", "--json").stdout)["events"])


def test_an_entry_under_an_id_a_host_aliased_names_the_id(tmp_path: Path) -> None:
    """``player alias Tee TA`` names TA's id, gE4aE_Yhc3, Tee; the import's buy-in of entry 4
    is written under the id. Its amendment's note names the id, the alias to end (before:
    ``entry 4 names Tee, an alias of Tee`` and ``player unalias Tee``, which is refused as no
    alias), and following it gives the id back its PokerNow name. Log 001: TA +3 in 4
    hands."""
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(CT1), "--session", "w1"]])
    assert lines(db, "player", "alias", "Tee", "TA") == ["TA (gE4aE_Yhc3) is Tee"]
    result = run(db, "entry", "amend", "w1", "4", "110", "--reason", "rebought", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "w1: entry 4 (buy-in of Tee) amended: 100 → 110 chips\n",
        "note: entry 4 names gE4aE_Yhc3, an alias of Tee (`player alias`): it counted as "
        "Tee's; if the alias was the mistake, not the entry, amend it back and end the alias "
        "(`handledger player unalias gE4aE_Yhc3 --reason … --by …`)\n"
        # the raised buy-in no longer follows the stack the hand seats him with (amend's
        # warning): 100 chips at hand 1, 110 bought
        "warning: entry 4 (buy-in of Tee, 110 chips): hand pn-w1-1-164210353199300 seats Tee "
        "with 100 chips, but Tee's buy-ins there come to 110: expected 110 (-10); the books no "
        "longer follow the hands' stacks, and the audit's stack_continuity will name it; a "
        "wrong amount is amended again (`handledger entry amend w1 4 100 --reason … --by …`)\n")
    assert lines(db, "player", "unalias", "gE4aE_Yhc3", *ENDED) == [
        "gE4aE_Yhc3 is no longer Tee"]
    assert lines(db, "balances", "--session", "w1")[1] == (
        "TA (gE4aE_Yhc3)                   3          110            0      4        1")
