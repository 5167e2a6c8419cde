"""The spine end to end through the CLI: import, replay --json, verify, idempotence, bad input."""

from __future__ import annotations

import json
import os

import duckdb

from tests.conftest import DATA, SHARED


def _replays(result) -> list[dict]:  # noqa: ANN001
    return [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]


def test_ex01_imports_and_replays_to_the_two_published_pots(run) -> None:  # noqa: ANN001
    assert run("import", str(SHARED / "rules" / "ex01.phh")).exit_code == 0
    out = run("replay", "--json")
    assert out.exit_code == 0
    (hand,) = _replays(out)
    assert [(p["amount"], p["eligible"]) for p in hand["pots"]] == [
        (77, ["p2", "p3", "p4", "p5", "p6"]),
        (8, ["p3", "p4", "p5", "p6"]),
    ]
    assert [p["awards"] for p in hand["pots"]] == [{"p2": 77}, {"p4": 4, "p6": 4}]
    assert hand["returned"] == {}
    assert hand["net"] == {"p1": -1, "p2": 62, "p3": -17, "p4": -13, "p5": -17, "p6": -13,
                           "p7": -1}
    assert hand["final_stacks"]["p2"] == 77
    assert hand["discrepancies"] == []
    # plain chips: a chip of no currency, worth one of itself
    assert (hand["chip_value_minor"], hand["currency"], hand["decimals"]) == (1, None, 0)


def test_replay_json_names_the_unit_of_a_hand_in_dollars_and_cents(run, tmp_path  # noqa: ANN001
                                                                    ) -> None:
    """A HandHQ hand in dollars and cents counts cents: its object says so, so that an amount
    of 125 reads as 1.25 USD (the first hand of the PartyPoker excerpt: blinds 0.10/0.25, p1
    raises to 1.00, the big blind folds: a pot of 0.50, 0.75 uncalled back, p1 collects
    1.25, +0.25)."""
    text = (SHARED / "phh" / "handhq" / "pty-25nl-excerpt.phhs").read_text()
    first = text[:text.index("[2]")]
    path = tmp_path / "pty1.phhs"
    path.write_text(first)
    assert run("import", str(path)).exit_code == 0
    (hand,) = _replays(run("replay", "--json"))
    assert hand["hand"] == "PartyPoker-16405514564"
    assert (hand["chip_value_minor"], hand["currency"], hand["decimals"]) == (1, "USD", 2)
    assert [p["amount"] for p in hand["pots"]] == [50]
    assert hand["returned"] == {"p1": 75}
    assert hand["recorded"] == {"p1": 125}
    assert hand["net"] == {"p1": 25, "p2": -25, "p3": 0, "p4": 0, "p5": 0, "p6": 0}


def test_replay_json_of_a_hand_of_a_session_names_the_sessions_unit(user, tmp_path  # noqa: ANN001
                                                                     ) -> None:
    """Session fri, 1 chip = 0.25 USD: hand h1 recorded live (Ann, button and small blind,
    folds to Bob's big blind) reports 25, USD, 2 as player_hand_results does: in progress,
    ended, replayed whole, and once exported and imported into another ledger; it said 1,
    null, 0 (the plain chips its hand_started records) before."""
    for args in (("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "fri", "Ann", "100"), ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 ("act", "h1", "d dh Bob ????"), ("act", "h1", "d dh Ann ????")):
        assert user(*args)[0] == 0, args

    def unit(*args: str) -> list[tuple]:
        code, out, err = user(*args)
        assert (code, err) == (0, "")
        return [(h["hand"], h["status"], h["chip_value_minor"], h["currency"], h["decimals"])
                for h in map(json.loads, out.splitlines())]

    assert unit("replay", "--hand", "h1", "--json") == [("h1", "open", 25, "USD", 2)]
    assert user("act", "h1", "Ann f")[0] == 0 and user("act", "h1", "end")[0] == 0
    assert unit("replay", "--hand", "h1", "--json") == [("h1", "complete", 25, "USD", 2)]
    assert unit("replay", "--json") == [("h1", "complete", 25, "USD", 2)]
    assert user("sql", "SELECT DISTINCT chip_value_minor, currency, decimals FROM "
                "player_hand_results", "--csv")[1] == (
        "chip_value_minor,currency,decimals\n25,USD,2\n")
    out = tmp_path / "fri.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(out))[0] == 0
    other = str(tmp_path / "other.duckdb")
    assert user("--db", other, "import", str(out))[0] == 0
    assert unit("--db", other, "replay", "--hand", "h1", "--json") == [
        ("h1", "complete", 25, "USD", 2)]


def test_bundled_ante_table_names_the_players_and_pays_as_recorded(run) -> None:  # noqa: ANN001
    run("import", str(DATA / "hands" / "ante-side-pots.phh"))
    (hand,) = _replays(run("replay", "--json"))
    assert hand["pots"][0]["amount"] == 77
    assert hand["pots"][0]["eligible"] == ["Bea", "Cal", "Dot", "Eve", "Fay"]
    assert hand["pots"][1] | {"explanation": None} == {
        "amount": 8, "eligible": ["Cal", "Dot", "Eve", "Fay"], "awards": {"Dot": 4, "Fay": 4},
        "carried": 0, "explanation": None,
    }
    assert hand["recorded"] == {"Bea": 77, "Dot": 4, "Fay": 4}
    assert hand["discrepancies"] == []


def test_straddle_hand_returns_the_uncalled_flop_bet(run) -> None:  # noqa: ANN001
    run("import", str(DATA / "hands" / "straddle-allin.phh"))
    (hand,) = _replays(run("replay", "--json"))
    assert [(p["amount"], p["awards"]) for p in hand["pots"]] == [(93, {"Kim": 93}),
                                                                  (120, {"Lou": 120})]
    assert hand["returned"] == {"Lou": 60}
    assert hand["net"]["Lou"] == 180 - 150 and hand["net"]["Max"] == -90


def test_importing_twice_adds_nothing(run, db) -> None:  # noqa: ANN001
    path = str(DATA / "hands")
    first = run("import", path)
    assert first.exit_code == 0, first.output
    count = duckdb.connect(db).execute("SELECT count(*) FROM events").fetchone()[0]
    again = run("import", path)
    assert "5 already in the ledger" in again.output
    assert duckdb.connect(db).execute("SELECT count(*) FROM events").fetchone()[0] == count


def test_verify_names_the_edited_row(run, db) -> None:  # noqa: ANN001
    run("import", str(SHARED / "rules" / "ex02.phh"))
    assert run("verify").exit_code == 0
    con = duckdb.connect(db)
    pos, payload = con.execute(
        "SELECT position, CAST(payload AS VARCHAR) FROM events WHERE type = 'bet_raise'"
        " ORDER BY position LIMIT 1"
    ).fetchone()
    assert "\"to\":10" in payload  # P3 raises to 10 on the flop of ex02
    con.execute("UPDATE events SET payload = ? WHERE position = ?",
                [payload.replace("\"to\":10", "\"to\":11"), pos])
    con.close()
    out = run("verify")
    assert out.exit_code == 1
    assert f"position {pos}" in out.output and "edited" in out.output


def test_malformed_file_is_one_line_exit_2_and_writes_nothing(run, db, tmp_path) -> None:  # noqa: ANN001
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nantes = [0, 0\n", encoding="utf-8")
    out = run("import", str(bad))
    assert out.exit_code == 2
    errors = [line for line in out.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "bad.phh" in errors[0] and "Traceback" not in out.output
    assert not os.path.exists(db)  # nothing written: not even the new ledger file


def _two_hands(tmp_path, second_action: str):  # noqa: ANN001, ANN202
    text = (
        "[1]\nvariant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 f']\n\n"
        "[2]\nvariant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100]\n"
        f"actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', '{second_action}']\n"
    )
    path = tmp_path / "two.phhs"
    path.write_text(text, encoding="utf-8")
    return path


def test_illegal_action_rejects_only_that_hand(run, db, tmp_path) -> None:  # noqa: ANN001
    path = _two_hands(tmp_path, "p1 cbr 3")  # p3 is first to act, not p1
    out = run("import", str(path))
    assert out.exit_code == 2
    (error,) = [line for line in out.output.splitlines() if line.startswith("error:")]
    assert "two.phhs:" in error and "p1 cbr 3" in error and "out of turn" in error
    assert "imported 1 hand(s)" in out.output and "1 rejected" in out.output
    hands = duckdb.connect(db).execute("SELECT count(DISTINCT hand_id) FROM events").fetchone()
    assert hands[0] == 1


def test_strict_rejects_the_whole_file(run, db, tmp_path) -> None:  # noqa: ANN001
    path = _two_hands(tmp_path, "p3 cbr 3")  # below the minimum raise to 4
    out = run("import", "--strict", str(path))
    assert out.exit_code == 2
    assert "below the minimum 4" in out.output
    assert not os.path.exists(db)  # nothing written: not even the new ledger file


def test_jsonl_export_reimports_identically(run, db, tmp_path) -> None:  # noqa: ANN001
    run("import", str(DATA / "hands"))
    first = run("export", "--format", "jsonl").output
    other = tmp_path / "other.duckdb"
    from click.testing import CliRunner

    from cli.main import cli

    dump = tmp_path / "all.jsonl"
    dump.write_text(first, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(other), "import", str(dump)]).exit_code == 0
    again = runner.invoke(cli, ["--db", str(other), "export", "--format", "jsonl"]).output
    assert again == first


def test_show_lists_events_with_state(run) -> None:  # noqa: ANN001
    run("import", str(SHARED / "rules" / "ex03.phh"))
    hand = json.loads(run("replay", "--json").output.splitlines()[0])["hand"]
    out = run("show", hand)
    assert out.exit_code == 0
    assert " 17 B cbr 100 " in out.output  # PHH labels are seats (p2 is B), shown by name
    assert " p2 " not in out.output and "A cbr 100" not in out.output
    assert "Side pot 1 100 (B): B takes 100" in out.output
    assert "uncalled returned: B 100" in out.output


def test_schema_lists_every_event_type(run) -> None:  # noqa: ANN001
    schema = json.loads(run("schema").output)
    text = json.dumps(schema)
    for t in ("hand_started", "forced_bet", "all_in", "declaration", "recorded_payout"):
        assert f'"{t}"' in text


def test_same_hands_from_another_file_are_not_appended_twice(run, db, tmp_path) -> None:  # noqa: ANN001
    run("import", str(DATA / "hands"))
    dump = tmp_path / "all.jsonl"
    run("export", "--format", "jsonl", "-o", str(dump))
    count = duckdb.connect(db).execute("SELECT count(*) FROM events").fetchone()[0]
    out = run("import", str(dump))
    assert out.exit_code == 0 and "5 already in the ledger" in out.output
    assert duckdb.connect(db).execute("SELECT count(*) FROM events").fetchone()[0] == count
    assert run("replay").exit_code == 0


def test_negative_amount_names_the_file(run, tmp_path) -> None:  # noqa: ANN001
    bad = tmp_path / "neg.phh"
    bad.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cbr -5']\n",
        encoding="utf-8",
    )
    out = run("import", str(bad))
    assert out.exit_code == 2
    (line,) = [x for x in out.output.splitlines() if x.startswith("error:")]
    assert "neg.phh" in line and "-5" in line


def test_home_games_bundled_replay_as_written(run) -> None:  # noqa: ANN001
    """Five-card draw (F5D) and five-card stud (F5S), our own variant codes."""
    run("import", str(DATA / "hands" / "five-card-draw.phh"),
        str(DATA / "hands" / "five-card-stud.phh"))
    hands = _replays(run("replay", "--json"))
    assert {h["game"]: [p["awards"] for p in h["pots"]] for h in hands} == {
        "F5D": [{"Cy": 34}],
        "F5S": [{"Eli": 29}],
    }
    assert all(h["discrepancies"] == [] for h in hands)


def test_main_job_on_the_bundled_data(run) -> None:  # noqa: ANN001
    """The README's first command: import data/, replay, print problems, audit, balances."""
    out = run("run", str(DATA))
    assert out.exit_code == 0, out.output[-1500:]
    assert "0 rejected" in out.output.splitlines()[0]
    assert "DISCREPANCY: hand dispute-1: Bob was paid 400, the rules give 100 (+300)" in out.output
    assert "hand phh-877231987944" not in out.output  # clean hands are not printed
    assert "audit: 2 discrepancies" in out.output
    again = run("run", "--all", str(DATA))
    assert "hand phh-877231987944" in again.output and "already in the ledger" in again.output


def test_standings_agree_with_balances(run) -> None:  # noqa: ANN001
    """The grid's totals per chip value are the balances' nets per chip value (the sessions
    count chips of 0.25 USD, the hands of no session plain chips: a total each), each session's
    column sums to zero in an opened session, and the JSON carries every session in ledger
    order."""
    assert run("import", str(DATA)).exit_code == 0
    grid = json.loads(run("standings", "--json").output)
    books = json.loads(run("balances", "--json").output)
    assert books["units"] == grid["units"]
    nets = {p["player"]: [u and u["net"] for u in p["by_unit"]] for p in books["players"]}
    assert [(u["chip_value_minor"], u["currency"], u["sessions"]) for u in grid["units"]] == [
        (25, "USD", ["declare-night", "s01", "s02", "s03"]), (1, None, [""])]
    assert {p["player"]: p["totals"] for p in grid["players"]} == nets
    assert {p["player"]: p["totals"] for p in grid["players"] if p["player"] in (
        "Ann", "Bob", "Quin")} == {"Ann": [76, -107], "Bob": [-21, 236], "Quin": [None, 640]}
    assert [s["session"] for s in grid["sessions"]] == ["declare-night", None, "s01", "s02",
                                                        "s03"]
    for s in ("declare-night", "s01", "s02", "s03"):
        assert sum(p["nets"].get(s, 0) for p in grid["players"]) == 0
    assert grid["players"][0] == {"player": "Carol", "name": "Carol", "nickname": None,
                                  "total": None,
                                  "totals": [729, None],
                                  "nets": {"s01": -350, "s02": 1095, "s03": -16}}
