"""ledger.formats.jsonl: the project's JSON-lines event files (one event per line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.formats.jsonl import (
    EventStream,
    JsonlRow,
    carried_key,
    jsonl_line,
    read_jsonl,
    read_jsonl_text,
    write_jsonl,
)
from ledger.formats.phh.read import read_phh
from ledger.model.errors import MalformedEvent, MalformedInput
from ledger.model.events import (
    BuyIn,
    Call,
    CashOut,
    Fold,
    HandEnded,
    SessionClosed,
    SessionOpened,
)

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
PTY = DATA / "phh" / "handhq" / "pty-25nl-excerpt.phhs"


def hand_rows(count: int = 3) -> list[tuple[str, int, Any]]:
    """Real hands from the PartyPoker excerpt: hand_started, forced bets, payouts, end."""
    rows: list[tuple[str, int, Any]] = []
    for hand in read_phh(PTY).hands[:count]:
        events = [hand.started, *hand.forced, *hand.payouts, HandEnded()]
        rows += [(hand.hand, seq, event) for seq, event in enumerate(events, 1)]
    return rows


def sample_text() -> str:
    """A session wrapped around three interleaved-free hands."""
    rows = [("s1", 1, SessionOpened(session="s1", currency="USD", decimals=2)),
            ("s1", 2, BuyIn(player="p1", chips=2500))]
    rows += hand_rows()
    rows += [("s1", 3, CashOut(player="p1", chips=2600)), ("s1", 4, SessionClosed())]
    return write_jsonl(rows)


def test_line_shape_is_documented_one() -> None:
    line = jsonl_line("s1", 1, SessionOpened(session="s1"))
    assert line.startswith('{"session":"s1","seq":1,"event":{')
    obj = json.loads(line)
    assert list(obj) == ["session", "seq", "event"] and obj["event"]["type"] == "session_opened"
    hand = jsonl_line("h1", 2, {"type": "fold", "player": "p1"})
    assert json.loads(hand) == {"hand": "h1", "seq": 2, "event": json.loads(
        '{"player":"p1","schema_version":1,"type":"fold"}')}


def test_a_row_carries_its_source_key_between_seq_and_event() -> None:
    """The key another format's import gave a row rides in its line, read on every path: a
    line in the written shape (a stream's first, and one going on with the stream of the line
    before), and one with its keys in another order (validated whole)."""
    opened = SessionOpened(session="g")
    line = jsonl_line("g", 1, opened, "pokernow:g:opened")
    assert line == ('{"session":"g","seq":1,"source_key":"pokernow:g:opened","event":'
                    '{"chip_value_minor":1,"currency":null,"date":null,"decimals":0,'
                    '"schema_version":1,"session":"g","source":{},"type":"session_opened"}}')
    assert jsonl_line("g", 1, opened, None) == jsonl_line("g", 1, opened)
    buy = BuyIn(player="p1", chips=100)
    moved = json.dumps({"session": "g", "seq": 3, "event": json.loads(
        jsonl_line("g", 3, buy))["event"], "source_key": "pokernow:g:k:item:0:2:b"})
    text = (line + "\n" + jsonl_line("g", 2, buy, "pokernow:g:k:item:0:1:a") + "\n" + moved
            + "\n" + jsonl_line("g", 4, buy) + "\n")
    result = read_jsonl_text(text, file="k.jsonl").check()
    assert [r.seq for r in result.sessions[0].rows] == [1, 2, 3, 4]
    assert result.source_keys == {("session", "g", 1): "pokernow:g:opened",
                                  ("session", "g", 2): "pokernow:g:k:item:0:1:a",
                                  ("session", "g", 3): "pokernow:g:k:item:0:2:b"}
    assert carried_key("jsonl:g:2:ab12") is None and carried_key(None) is None
    assert carried_key("pokernow:g:opened") == "pokernow:g:opened"


def test_round_trip_is_exact() -> None:
    text = sample_text()
    result = read_jsonl_text(text, file="t.jsonl").check()
    assert [h.id for h in result.hands] == [h.hand for h in read_phh(PTY).hands[:3]]
    assert [s.id for s in result.sessions] == ["s1"]
    assert write_jsonl(result.rows()) == text
    first = result.hands[0]
    assert first.line == 3 and [r.line for r in first.rows] == [3, 4, 5, 6, 7]
    assert first.events[0] == read_phh(PTY).hands[0].started
    assert [r.seq for r in first.rows] == [1, 2, 3, 4, 5]


def test_interleaved_streams_keep_file_order(tmp_path: Path) -> None:
    rows = hand_rows(2)
    a = [r for r in rows if r[0] == rows[0][0]]
    b = [r for r in rows if r[0] != rows[0][0]]
    mixed = [a[0], b[0], a[1], b[1], *a[2:], *b[2:]]
    path = tmp_path / "mixed.jsonl"
    path.write_text(write_jsonl(mixed))
    result = read_jsonl(path).check()
    assert [h.id for h in result.hands] == [a[0][0], b[0][0]]
    assert write_jsonl(result.rows()) == path.read_text()
    assert write_jsonl(result.hands) == write_jsonl(a + b)


def _lines() -> list[str]:
    return sample_text().splitlines(keepends=True)


def _read(lines: list[str] | bytes) -> Any:
    data = lines if isinstance(lines, bytes) else "".join(lines)
    return read_jsonl_text(data, file="e.jsonl")


def _hand_ids(result: Any) -> list[str]:
    return [h.id for h in result.hands]


HANDS = [h.hand for h in read_phh(PTY).hands[:3]]


def test_truncated_last_line_rejects_only_that_hand() -> None:
    lines = _lines()[:-2]  # drop the session's end; the last line is now hand 3's hand_ended
    lines[-1] = lines[-1][:45]
    result = _read(lines)
    assert _hand_ids(result) == HANDS[:2]
    (error,) = result.errors
    assert (error.file, error.line, error.hand) == ("e.jsonl", len(lines), HANDS[2])
    assert error.message.startswith("bad JSON")


def test_garbage_line_is_reported_and_its_hand_breaks_on_the_seq_gap() -> None:
    lines = _lines()
    lines[4] = "not json at all\n"  # second forced bet of hand 1 (line 5)
    result = _read(lines)
    assert _hand_ids(result) == HANDS[1:]
    assert [(e.line, e.hand) for e in result.errors] == [(5, None), (6, HANDS[0])]
    assert "continues with seq 4 (expected 3)" in result.errors[1].message


def test_non_utf8_line() -> None:
    data = sample_text().encode()
    data = data.replace(b'"p2","schema_version"', b'"p\xff2","schema_version"', 1)
    result = _read(data)
    assert result.errors[0].message.startswith("not UTF-8") and result.errors[0].line == 5
    assert _hand_ids(result) == HANDS[1:]


@pytest.mark.parametrize(
    ("line", "text", "fragment"),
    [
        (3, '{"hand":"X","seq":1,"event":{"type":"fold","player":"p1"}}',
         "must start with hand_started"),
        (4, '{"hand":"H","seq":3,"event":{"type":"fold","player":"p1"}}',
         "continues with seq 3 (expected 2)"),
        (4, '{"hand":"H","seq":1,"event":{"type":"fold","player":"p1"}}',
         "continues with seq 1 (expected 2)"),
        (4, '{"hand":"H","seq":2,"event":{"type":"buy_in","player":"p1","chips":1}}',
         "a buy_in event does not belong in a hand row"),
        (4, '{"hand":"H","seq":2,"event":{"type":"fold"}}', "invalid event (fold.player"),
        (4, '{"hand":"H","seq":2,"event":{"type":"shove","player":"p1"}}', "invalid event"),
        (4, '{"hand":"H","seq":true,"event":{"type":"fold","player":"p1"}}',
         "seq True is not a positive integer"),
        (4, '{"hand":"H","seq":2,"event":[]}', "event is not a JSON object"),
        (4, '{"hand":"H","seq":2,"event":{"type":"fold","player":"p1"},"x":1}',
         "exactly the keys hand (or session), seq, event"),
        (4, '{"hand":"H","seq":2,"seq":2,"event":{"type":"fold","player":"p1"}}',
         "duplicate keys ['seq']"),
        (4, '{"hand":"H","seq":2,"source_key":1,"event":{"type":"fold","player":"p1"}}',
         "source_key 1 is not a non-empty string"),
        (4, '{"hand":"H","seq":2,"source_key":"","event":{"type":"fold","player":"p1"}}',
         "source_key '' is not a non-empty string"),
        (4, '{"hand":"H","seq":2,"event":{"type":"call","player":"p1","x":NaN}}',
         "NaN is not a JSON number"),
    ],
)
def test_bad_rows_name_their_line_and_spare_other_hands(line: int, text: str,
                                                        fragment: str) -> None:
    lines = _lines()
    hand = HANDS[0]
    lines[line - 1] = text.replace('"H"', json.dumps(hand)).replace('"X"', json.dumps(hand)) + "\n"
    result = _read(lines)
    assert _hand_ids(result) == HANDS[1:] and [s.id for s in result.sessions] == ["s1"]
    (error,) = result.errors
    assert fragment in error.message
    assert (error.file, error.line) == ("e.jsonl", line)
    assert error.hand == hand or fragment.startswith("NaN") or fragment.startswith("duplicate")


def test_invalid_event_is_a_malformed_event() -> None:
    lines = _lines()
    lines[3] = json.dumps({"hand": HANDS[0], "seq": 2, "event": {"type": "fold"}}) + "\n"
    (error,) = _read(lines).errors
    assert isinstance(error, MalformedEvent) and error.hand == HANDS[0]


def test_hand_started_must_name_its_own_hand_and_come_once() -> None:
    rows = hand_rows(1)
    hand_id, _, started = rows[0]
    wrong = [("other", 1, started), *[("other", seq, e) for _, seq, e in rows[1:]]]
    (error,) = _read([write_jsonl(wrong)]).errors
    assert "hand_started names hand" in error.message and error.line == 1
    twice = [*rows, (hand_id, len(rows) + 1, started)]
    (error,) = _read([write_jsonl(twice)]).errors
    assert "only once" in error.message and error.line == len(rows) + 1


def test_blank_lines_are_no_rows_and_other_lines_are_refused() -> None:
    """A blank line (ASCII whitespace only) is skipped, anywhere, and still numbered; a line
    of other whitespace or one that is no object is an error at its line."""
    plain = _read(_lines())
    lines = _lines()
    lines.insert(2, "\n")
    lines.insert(3, " \t\r\n")
    lines.insert(4, "[1, 2]\n")
    lines.insert(5, "\u00a0 \n")
    lines.append("\n  \n")
    result = _read(lines)
    assert [(e.line, e.message) for e in result.errors] == [
        (5, "a line must be a JSON object"),
        (6, "a line of only whitespace other than ASCII spaces and tabs (U+00A0, U+0020): "
            "not a row")]
    assert _hand_ids(result) == HANDS
    assert [r.event for r in result.rows()] == [r.event for r in plain.rows()]
    # the rows after them numbered as the file has them: 4 lines inserted before line 3
    assert [r.line for r in result.rows()][1:4] == [2, 7, 8]
    with pytest.raises(MalformedInput):
        result.check()
    assert _read([*_lines(), "\n", "\n"]).errors == []  # trailing blank lines alone: none


def test_a_closing_line_followed_by_blank_lines_is_still_the_last() -> None:
    """Blank lines after an export's closing line do not make it a line in the middle; a
    blank line before it is one of the lines it counts."""
    from ledger.formats.jsonl.lines import closing_line

    rows = hand_rows(1)[:-1]  # the hand without its end: in play
    hand, last = rows[-1][0], rows[-1][1]
    body = write_jsonl(rows)
    result = _read([body, closing_line({hand: last}, len(rows)), "\n \n"])
    assert result.errors == [] and result.in_play == {hand: last}
    result = _read([body, "\n", closing_line({hand: last}, len(rows) + 1)])
    assert result.errors == [] and result.in_play == {hand: last}
    (error,) = _read([body, "\n", closing_line({hand: last}, len(rows))]).errors
    assert error.message.startswith(f"the closing line counts {len(rows)} lines before it")


def test_session_rules() -> None:
    bad = write_jsonl([("s1", 1, SessionOpened(session="s1"))])
    bad += '{"session":"s1","seq":2,"event":{"type":"fold","player":"p1"}}\n'
    (error,) = _read([bad]).errors
    assert "a fold event does not belong in a session row" in error.message
    assert error.line == 2


def test_write_rejects_bad_rows() -> None:
    with pytest.raises(MalformedInput, match="stream id"):
        jsonl_line("", 1, Fold(player="p1"))
    with pytest.raises(MalformedInput, match="positive integer"):
        jsonl_line("h", 0, Fold(player="p1"))
    with pytest.raises(MalformedEvent):
        jsonl_line("h", 1, {"type": "fold"})


def test_rows_and_streams_as_input() -> None:
    stream = EventStream("hand", "h", 1, [JsonlRow("hand", "h", 1, HandEnded(), 1)])
    assert write_jsonl([stream]) == write_jsonl([JsonlRow("hand", "h", 1, HandEnded())])
    assert write_jsonl([stream]) == write_jsonl([("h", 1, HandEnded())])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["p1", "p2", "p3"]), st.booleans()), max_size=12),
       st.text(min_size=1, max_size=10))
def test_random_streams_round_trip(actions: list[tuple[str, bool]], hand_id: str) -> None:
    started = read_phh(PTY).hands[0].started.model_copy(update={"hand": hand_id})
    events = [started] + [Call(player=p) if c else Fold(player=p) for p, c in actions]
    text = write_jsonl((hand_id, seq, e) for seq, e in enumerate(events, 1))
    result = _read([text]).check()
    assert result.hands[0].events == events
    assert write_jsonl(result.rows()) == text


def test_a_repeated_event_text_out_of_order_goes_to_the_exact_path() -> None:
    # hand 2's hand_ended is the same text as hand 1's (met before, its event shared): given
    # the seq of the row before it, it is refused as any row out of order is, and only hand 2
    # is left out
    rows = hand_rows(2)
    second = [r for r in rows if r[0] == HANDS[1]]
    lines = write_jsonl(rows).splitlines(keepends=True)
    last = len(lines)  # hand 2's hand_ended, its seq made that of the row before it
    seq = second[-1][1]
    lines[-1] = lines[-1].replace(f'"seq":{seq},', f'"seq":{seq - 1},')
    result = _read(lines)
    assert _hand_ids(result) == HANDS[:1]
    (error,) = result.errors
    assert (error.line, error.hand) == (last, HANDS[1])
    assert f"continues with seq {seq - 1} (expected {seq})" in error.message
