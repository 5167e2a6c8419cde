"""PokerStars text as a fresh user meets it: a check facing a bet, a file saved as UTF-16 by a
Windows tool, a file cut short. Each edited file is written in ``tmp_path`` from the shared
real files (``../shared/data/text``, README there); the lines asserted are the CLI's own."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

from ledger.formats.pokerstars import read_pokerstars
from tests.conftest import SHARED
from tests.test_live_table import one_shot

NLHE = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
#: What a refusal of the line a file ends in the middle of adds.
CUT = "(no newline at its end): a file cut short? import the whole file"
PLO = SHARED / "text" / "Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt"


def _edited(src: Path, out: Path, number: int, old: str, new: str) -> Path:
    """``src`` with line ``number`` (1-based) changed from ``old`` to ``new``, written to
    ``out`` byte for byte otherwise."""
    lines = src.read_bytes().split(b"\n")
    assert lines[number - 1].rstrip(b"\r") == old.encode(), lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old.encode(), new.encode())
    out.write_bytes(b"\n".join(lines))
    return out


def _stored(db: Path, hand: str) -> int:
    code, out, err = one_shot(db, "sql", f"SELECT count(*) FROM events WHERE hand_id = '{hand}'",
                              "--csv")
    assert code == 0, err
    return int(out.split()[-1])


# ------------------------------------------------------------------ a check facing a bet


def test_a_check_facing_a_river_bet_is_refused_at_its_line(tmp_path: Path) -> None:
    # shaunsaville checks where he folded to Pho3nix.two's $0.40 river bet: stored before as a
    # $0.40 call nobody made (the table then "paid 0.65 of the pot of 1.05")
    chk = _edited(NLHE, tmp_path / "chk.txt", 90, "shaunsaville: folds", "shaunsaville: checks")
    db = tmp_path / "l.duckdb"
    code, out, err = one_shot(db, "import", str(chk))
    assert code == 2
    assert err.splitlines() == [
        f"error: {chk}:90, hand PokerStars-35824134431, action 'shaunsaville: checks': checks "
        "facing a bet of 0.40"]
    assert out.splitlines()[-1] == ("imported 77 hand(s) (1699 events) from 1 file(s); 0 "
                                    "already in the ledger; 1 rejected")
    assert _stored(db, "PokerStars-35824134431") == 0


def test_a_check_facing_a_raise_preflop_is_refused_at_its_own_line(tmp_path: Path) -> None:
    # Player6 posted the $0.02 big blind and faces Hero's raise to $0.06: before, the error
    # fell on a later, correct line (28: "out of turn: Player6 is to act, not Player3")
    c22 = _edited(PLO, tmp_path / "c22.txt", 22, "Player6: folds", "Player6: checks")
    db = tmp_path / "m.duckdb"
    code, out, err = one_shot(db, "import", str(c22))
    assert code == 2
    assert err.splitlines() == [
        f"error: {c22}:22, hand PokerStars-14311270221, action 'Player6: checks': checks "
        "facing a bet of 0.06"]
    assert out.splitlines()[-1] == ("imported 2 hand(s) (78 events) from 1 file(s); 0 already "
                                    "in the ledger; 1 rejected")
    assert _stored(db, "PokerStars-14311270221") == 0


def test_checks_owed_nothing_still_read() -> None:
    # the same hand's big blinds Player3 and Player2 check with $0.02 in facing $0.02
    hand = read_pokerstars(PLO).hands[0]
    assert [(a.line, a.text) for a in hand.actions if a.line in (17, 18)] == [
        (17, "p3 cc"), (18, "p4 cc")]  # p3 Player3, p4 Player2: seats 8, 9, button 3


# ------------------------------------------------------------------ UTF-16 files


def _without_file(path: Path) -> list[tuple[object, ...]]:
    """Every hand of ``path`` as read, but for the file's name and its encoding."""
    out = []
    for hand in read_pokerstars(path).hands:
        source = {k: v for k, v in hand.started.source.items() if k not in ("file", "encoding")}
        out.append((hand.started.model_copy(update={"source": source}), hand.actions,
                    hand.payouts, hand.forced, hand.source_key))
    return out


def test_utf16_with_a_byte_order_mark_reads_as_the_utf8_copy(tmp_path: Path) -> None:
    text = NLHE.read_text(encoding="utf-8")
    copies = {"le.txt": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
              "be.txt": codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
              "bom8.txt": codecs.BOM_UTF8 + text.encode("utf-8")}
    want = _without_file(NLHE)
    assert len(want) == 78
    for name, data in copies.items():
        (tmp_path / name).write_bytes(data)
        assert _without_file(tmp_path / name) == want, name
    encodings = {read_pokerstars(tmp_path / n).hands[0].started.source["encoding"]
                 for n in copies}
    assert encodings == {"utf-16-le", "utf-16-be", "utf-8"}


def test_a_folder_holding_a_utf16_history_imports_its_hands(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "hands.txt").write_bytes(NLHE.read_text(encoding="utf-8").encode("utf-16"))
    db = tmp_path / "l.duckdb"
    code, out, err = one_shot(db, "import", str(folder))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("imported 78 hand(s) (1725 events) from 1 file(s); 0 "
                                    "already in the ledger; 0 rejected")
    code, out, err = one_shot(db, "import", str(NLHE))  # the UTF-8 original: the same hands
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("imported 0 hand(s) (0 events) from 1 file(s); 78 "
                                    "already in the ledger; 0 rejected")


def test_pokernow_and_phh_in_utf16_import_as_their_utf8_files(tmp_path: Path) -> None:
    log = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    phh = SHARED / "phh" / "televised" / "test_2023_54_4" / "test_6_00_15_43.phh"
    for src, counted in ((log, "4 hand(s) (60 events)"), (phh, "1 hand(s) (40 events)")):
        copy = tmp_path / f"u16-{src.name}"
        copy.write_bytes(src.read_text(encoding="utf-8").encode("utf-16"))
        for path in (src, copy):
            code, out, err = one_shot(tmp_path / f"{path.name}.duckdb", "import", str(path))
            assert (code, err) == (0, ""), path
            assert out.splitlines()[-1] == (f"imported {counted} from 1 file(s); 0 already in "
                                            "the ledger; 0 rejected"), path


def test_phh_in_utf16_without_its_byte_order_mark_is_said_to_look_so(tmp_path: Path) -> None:
    """Saved as UTF-16 without the mark, PHH's TOML met a NUL byte first (``bad TOML:
    Invalid initial character …``): the NUL bytes beside each character say which it is."""
    phh = SHARED / "phh" / "televised" / "test_2023_54_4" / "test_6_00_15_43.phh"
    for codec, name in (("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")):
        for suffix in ("phh", "phhs"):
            path = tmp_path / f"{codec}.{suffix}"
            text = phh.read_text(encoding="utf-8")
            path.write_bytes((text if suffix == "phh" else f"[1]\n{text}").encode(codec))
            assert one_shot(tmp_path / "u.duckdb", "import", str(path)) == (2, (
                "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                "1 rejected\n"), (
                f"error: {path}:1: the file looks like {name} text without its byte-order mark "
                "(a NUL byte beside each character): PHH is read as UTF-8, or as UTF-16 after "
                "its byte-order mark: save it as UTF-8\n"))
            assert not (tmp_path / "u.duckdb").exists()


def test_json_lines_in_utf16_are_refused_naming_the_encoding(tmp_path: Path) -> None:
    row = '{"hand": "h1", "seq": 1, "event": {}}\n'
    for name in ("rows.jsonl", "rows.txt"):
        path = tmp_path / name
        path.write_bytes(codecs.BOM_UTF16_LE + row.encode("utf-16-le"))
        code, out, err = one_shot(tmp_path / "j.duckdb", "import", str(path))
        assert code == 2
        assert err.splitlines() == [
            f"error: {path}: UTF-16LE text (its byte-order mark says so): JSON lines are "
            "UTF-8: save it as UTF-8"]


# ------------------------------------------------------------------ files cut short


def test_a_file_cut_right_after_the_summary_line_names_the_hand_cut(tmp_path: Path) -> None:
    # the rake line was cut off: before, "short by 0.18, and the hand records no rake"
    cut = tmp_path / "h90.txt"
    cut.write_bytes(b"".join(PLO.read_bytes().splitlines(keepends=True)[:90]))
    db = tmp_path / "o.duckdb"
    code, out, err = one_shot(db, "import", str(cut))
    assert code == 2
    assert err.splitlines() == [
        f"error: {cut}:90, hand PokerStars-22865231671: the hand's *** SUMMARY *** has no "
        "'Total pot … | Rake …' line (is the file cut?)"]
    assert out.splitlines()[-1] == ("imported 1 hand(s) (31 events) from 1 file(s); 0 already "
                                    "in the ledger; 1 rejected")
    assert _stored(db, "PokerStars-14311270221") == 31
    assert _stored(db, "PokerStars-22865231671") == 0


def test_a_file_cut_mid_line_in_the_summary_names_the_hand_cut(tmp_path: Path) -> None:
    # 3000 bytes end inside line 96, "Seat 6: Player4 (button) showed [9c 9d 7d 7h] and lost
    # with a ": before, imported silently, exit 0; the line named is the one cut (seat 7's
    # line, missing, follows it)
    cut = tmp_path / "c3000.txt"
    cut.write_bytes(PLO.read_bytes()[:3000])
    assert cut.read_bytes().endswith(b"and lost with a ")
    db = tmp_path / "p.duckdb"
    code, out, err = one_shot(db, "import", str(cut))
    assert code == 2
    assert err.splitlines() == [
        f"error: {cut}:96, hand PokerStars-22865231671: the hand's *** SUMMARY *** ends "
        "inside its 'Seat 6: Player4 …' line; the file ends in the middle of hand "
        f"PokerStars-22865231671, line 96 cut off {CUT}"]
    assert out.splitlines()[-1] == ("imported 1 hand(s) (31 events) from 1 file(s); 0 already "
                                    "in the ledger; 1 rejected")
    assert _stored(db, "PokerStars-22865231671") == 0


def test_every_real_summary_is_whole() -> None:
    # the ten real files: 184 hands, each with its total pot line and a line per seat dealt in
    files = sorted((SHARED / "text").glob("*.txt"))
    read = [read_pokerstars(p) for p in files]
    assert [e for r in read for e in r.errors] == []
    assert sum(len(r.hands) for r in read) == 184


def _cut_in_last_line(src: Path, out: Path, keep: str) -> Path:
    """``src`` without its final line break, its last line cut to end in ``keep``."""
    data = src.read_bytes().rstrip(b"\r\n")
    out.write_bytes(data[:data.rindex(keep.encode()) + len(keep)])
    return out


def test_a_file_cut_inside_its_last_seat_line_names_the_hand_cut(tmp_path: Path) -> None:
    # line 154 is "Seat 9: Player2 (big blind) showed [5s 7d Kd 9h] and lost with two pair,
    # Sevens and Deuces": cut after "Sevens", it was stored, exit 0, every seat listed
    cut = _cut_in_last_line(PLO, tmp_path / "plo.txt", "two pair, Sevens")
    db = tmp_path / "q.duckdb"
    code, out, err = one_shot(db, "import", str(cut))
    assert code == 2
    assert err.splitlines() == [
        f"error: {cut}:154, hand PokerStars-60920749213: the hand's *** SUMMARY *** ends "
        "inside its 'Seat 9: Player2 …' line; the file ends in the middle of hand "
        f"PokerStars-60920749213, line 154 cut off {CUT}"]
    assert out.splitlines()[-1] == ("imported 2 hand(s) (70 events) from 1 file(s); 0 already "
                                    "in the ledger; 1 rejected")
    assert _stored(db, "PokerStars-60920749213") == 0
    assert _stored(db, "PokerStars-22865231671") == 39
    # inside the fold of the last of 78 hands, and before the seat's number is whole
    for keep, seat in (("Seat 6: Hero folded befo", "its 'Seat 6: Hero …'"),
                       ("didn't bet)\nSeat", "a 'Seat N: …'")):
        cut = _cut_in_last_line(NLHE, tmp_path / "nlhe.txt", keep)
        db = tmp_path / f"{len(keep)}.duckdb"
        code, out, err = one_shot(db, "import", str(cut))
        assert code == 2
        assert err.splitlines() == [
            f"error: {cut}:2840, hand PokerStars-35825214163: the hand's *** SUMMARY *** ends "
            f"inside {seat} line; the file ends in the middle of hand PokerStars-35825214163, "
            f"line 2840 cut off {CUT}"]
        assert out.splitlines()[-1] == ("imported 77 hand(s) (1707 events) from 1 file(s); 0 "
                                        "already in the ledger; 1 rejected")
        assert _stored(db, "PokerStars-35825214163") == 0


def _as_read(hand: Any) -> tuple[object, ...]:
    """What the reader made of a hand, but the file's name."""
    source = {k: v for k, v in hand.started.source.items() if k != "file"}
    return hand.started.model_dump(exclude={"source"}), source, hand.actions, hand.payouts


def test_a_file_without_its_last_line_break_imports_whole(tmp_path: Path) -> None:
    """A copy saved without the final line break: its last seat line is whole, so every
    hand reads as from the real file (the ten files: every shape of line they end on)."""
    for src in sorted((SHARED / "text").glob("*.txt")):
        bare = tmp_path / src.name
        bare.write_bytes(src.read_bytes().rstrip(b"\r\n"))
        real, read = read_pokerstars(src), read_pokerstars(bare)
        assert read.errors == [] and len(read.hands) == len(real.hands), src.name
        assert [_as_read(h) for h in read.hands] == [_as_read(h) for h in real.hands], src.name
    bare = tmp_path / PLO.name
    code, out, err = one_shot(tmp_path / "r.duckdb", "import", str(bare))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("imported 3 hand(s) (109 events) from 1 file(s); 0 already "
                                    "in the ledger; 0 rejected")


def test_every_cut_of_a_last_seat_line_is_refused_but_whole_shapes() -> None:
    """Each real file's last line cut after every character, with no line break after it:
    refused as cut, but for the cuts that leave a whole line's shape (what the reader's
    docstring says it cannot tell: a fold's ``(didn't bet)``, a run-it-twice line's second
    run); every summary seat line of the 184 hands reads whole."""
    from ledger.formats.pokerstars.summary import check_last_seat_line
    from ledger.formats.pokerstars.text import decode, split_hands
    from ledger.model.errors import MalformedInput

    kept, refused, seat_lines = [], 0, 0
    for src in sorted((SHARED / "text").glob("*.txt")):
        hands = split_hands(decode(src.read_bytes())[0])[0]
        for hand in hands:
            summary = hand.lines[hand.lines.index("*** SUMMARY ***") + 1:]
            for text in summary:
                if text.startswith("Seat "):
                    check_last_seat_line(text, 1, {})
                    seat_lines += 1
        last = hands[-1].lines[-1]
        for k in range(1, len(last)):
            try:
                check_last_seat_line(last[:k].rstrip(), 1, {})
            except MalformedInput:
                refused += 1
            else:
                kept.append(last[:k].rstrip())
    assert seat_lines == 1164 and (refused, len(kept)) == (652, 9)  # of 661 cuts
    assert sorted(set(kept)) == [
        "Seat 10: Player8 folded before Flop", "Seat 6: Hero folded before Flop",
        "Seat 6: Hero showed [Jc Ac] and won (€111.59) with three of a kind, Jacks",
        "Seat 6: Player5 folded before the Draw", "Seat 8: kallexx1 folded before the Draw"]
