"""What ``handledger table`` reads from standard input: a line is at most 1 MB (README,
"Input is bounded"), a longer one is refused with the one error line of any refused line and
the session goes on, without the line ever being held whole; a UTF-8 byte-order mark at the
very start of the stream is an encoding marker, dropped as 'utf-8-sig' drops it (anywhere else
it is text, refused as `act` refuses it); every importer reads a file that starts with one
as the file without it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ledger.formats.files import MAX_LINE_BYTES, StreamLines
from ledger.model.errors import MalformedInput
from tests.live_words import DEALT_ANN, DEALT_BOB, NEXT_ANN, NEXT_BOB, NEXT_CY
from tests.test_live_table import (  # noqa: F401
    events,
    one_shot,
    started,
    started_once,
    table,
    verified,
)

LONG = "error: line 2, hand h1: a line longer than 1 MB, the most handledger reads in one line"


def test_a_line_over_1_mb_is_refused_and_the_session_goes_on(started: Path) -> None:  # noqa: F811
    data = (b"d dh Ann AsKs\n" + b"x" * (2 * MAX_LINE_BYTES) + b"\nd dh Bob QhQd\n"
            + b"Bob cc" + b" " * (MAX_LINE_BYTES + 1))
    done = table(started, "h1", data, "--keep-going")
    assert done.returncode == 2
    assert done.stdout == DEALT_ANN + DEALT_BOB
    assert done.stderr.splitlines() == [LONG, LONG.replace("line 2", "line 4")]
    assert [(e[4], e[5]) for e in events(started)[3:]] == [(4, "cards_dealt"),
                                                          (5, "cards_dealt")]
    assert verified(started).startswith("ok: 5 events, hash chain intact")


def test_a_line_of_exactly_1_mb_is_read_as_a_line(started: Path) -> None:  # noqa: F811
    line = b"d dh Ann AsKs" + b" " * (MAX_LINE_BYTES - len(b"d dh Ann AsKs"))
    done = table(started, "h1", line + b"\nd dh Bob QhQd\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == DEALT_ANN + DEALT_BOB


class _Spy(io.BytesIO):
    """A stream that remembers the largest read asked of it."""

    asked = 0

    def readline(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        self.asked = max(self.asked, size if size is not None else -1)
        assert size is not None and size > 0, "an unbounded read"
        return super().readline(size)


def test_stream_lines_never_asks_for_more_than_the_limit() -> None:
    stream = _Spy(b"ab\n" + b"y" * 50 + b"\n" + b"cdefgh\n" + b"z" * 9)
    lines = StreamLines(stream, limit=6)
    assert lines.next() == b"ab\n"
    with pytest.raises(MalformedInput, match="a line longer than 6 bytes") as caught:
        lines.next()
    assert caught.value.line == 2
    assert lines.next() == b"cdefgh\n"  # 6 bytes and its newline: a line of the limit
    with pytest.raises(MalformedInput):
        lines.next()
    assert (lines.next(), lines.number) == (b"", 4)
    assert stream.asked == 7


@pytest.mark.parametrize(("data", "read"), [
    (b"\xef\xbb\xbfabcd\nef\n", [b"abcd\n", b"ef\n"]),  # a line of the limit after the mark
    (b"\xef\xbb\xbfabc\nef\n", [b"abc\n", b"ef\n"]),
    (b"\xef\xbb\xbfab\nef", [b"ab\n", b"ef"]),
    (b"\xef\xbb\xbfab", [b"ab"]),
    (b"\xef\xbb\xbfabcde\nef\n", [None, b"ef\n"]),  # 5 bytes: too long, mark or none
    (b"abcd\n\xef\xbb\xbfe\n", [b"abcd\n", b"\xef\xbb\xbfe\n"]),  # later: text, kept
])
def test_the_byte_order_mark_does_not_count_in_the_first_line(data: bytes,
                                                               read: list[bytes | None]) -> None:
    """The mark is dropped before the line is measured: the first line is cut neither short
    (read on as a second line) nor refused for the mark's three bytes."""
    stream = _Spy(data)
    lines = StreamLines(stream, limit=4)
    got: list[bytes | None] = []
    for _ in read:
        try:
            got.append(lines.next())
        except MalformedInput:
            got.append(None)
    assert (got, lines.next(), lines.number) == (read, b"", len(read))
    assert stream.asked == 5


def test_a_byte_order_mark_at_the_start_of_the_stream_is_dropped(
        started: Path) -> None:  # noqa: F811
    done = table(started, "h1", b"\xef\xbb\xbfd dh Ann AsKs\nstate\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[:2] == [f"4 cards_dealt; phase deal, {NEXT_BOB}",
                                            "hand h1: NT, phase deal, status open"]
    assert len(events(started)) == 4


def test_a_byte_order_mark_anywhere_else_is_refused_as_act_refuses_it(
        started: Path) -> None:  # noqa: F811
    done = table(started, "h1", "d dh Ann AsKs\n\ufeffd dh Bob QhQd\n".encode())
    assert done.returncode == 2
    assert done.stdout == DEALT_ANN
    code, out, err = one_shot(started, "act", "h1", "\ufeffd dh Bob QhQd")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1, action '\\ufeffd dh Bob QhQd': unknown player "
                   f"'\\ufeffd'; now: phase deal, {NEXT_BOB}\n")
    assert done.stderr == err.replace("error: ", "error: line 2, ")  # the input's line named
    assert len(events(started)) == 4


@pytest.mark.parametrize("name", ["hand.phh", "hands.phhs", "s01.jsonl", "pokernow.csv",
                                  "stars.txt"])
def test_the_importers_read_a_file_that_starts_with_a_byte_order_mark(
        tmp_path: Path, name: str) -> None:
    from tests.conftest import DATA, SHARED

    source = {"hand.phh": SHARED / "rules" / "ex01.phh",
              "hands.phhs": SHARED / "rules" / "ex01.phh",
              "s01.jsonl": DATA / "series" / "s01.jsonl",
              "pokernow.csv": SHARED / "pokernow" / "charlestudor_Input_Log_001.csv",
              "stars.txt": SHARED / "text" / "Stars-cash-Razz-USD-0.04-0.08-200911.txt"}[name]
    text = source.read_bytes().removeprefix(b"\xef\xbb\xbf")
    if name.endswith(".phhs"):
        text = b"[1]\n" + text
    plain, marked = tmp_path / "plain" / name, tmp_path / "marked" / name
    for path, data in ((plain, text), (marked, b"\xef\xbb\xbf" + text)):
        path.parent.mkdir()
        path.write_bytes(data)
    first = one_shot(tmp_path / "plain.duckdb", "import", str(plain))
    second = one_shot(tmp_path / "marked.duckdb", "import", str(marked))
    assert first[0] == 0 and first[1].startswith("imported ") and " 0 rejected" in first[1]
    assert second == (first[0], first[1], first[2].replace("plain", "marked"))
    assert ([str(e[2:]).replace("marked", "plain") for e in events(tmp_path / "marked.duckdb")]
            == [str(e[2:]) for e in events(tmp_path / "plain.duckdb")])


LONG_LINES = {
    "y" * 500_000: "{0} is not an action",
    "y" * 500_000 + " cc": "unknown player {1}",
    "Ann " + "y" * 500_000: ("{0} is not an action: after the player comes an action word: f, "
                             "cc, cbr AMOUNT, pb, sd CARDS, sm CARDS or dcl high|low|swing"),
    "d rc " + "9" * 500_000: "{0}: the board is run 1 to 4 times",
    "pay Ann " + "y" * 500_000 + " x": ("{0}: expected 'pay PLAYER AMOUNT' (a player may be "
                                       "named by the seat too, p1 … pN)"),
    "{" + "y" * 500_000: "{0} is not a JSON event: Expecting property name enclosed in double "
                         "quotes: line 1 column 2 (char 1)",
}


def _cut(text: str) -> str:
    """A long text as an error quotes it: its first 120 characters and its length."""
    return f"{text[:120]!r}... ({len(text)} characters)"


@pytest.mark.parametrize("line", list(LONG_LINES), ids=lambda line: line[:8])
def test_an_error_quotes_a_long_line_cut_short(started: Path, line: str) -> None:  # noqa: F811
    done = table(started, "h1", [line, "d dh Ann AsKs"], "--keep-going")
    assert done.returncode == 2
    assert done.stdout == DEALT_ANN
    reason = LONG_LINES[line].format(_cut(line), _cut(line.split()[0]))
    assert done.stderr == (f"error: line 1, hand h1, action {_cut(line)}: {reason}; now: phase "
                           f"deal, {NEXT_ANN}\n")
    assert len(done.stderr) < 760


def test_a_comment_line_is_skipped_as_a_trailing_comment_is(started: Path) -> None:  # noqa: F811
    """A whole line ``# …`` was read as an action of a player ``#`` ("unknown player '#'"),
    while ``d dh Bob QhQd # note`` dropped its note: both are comments now, nothing written
    for the first, the line numbers of a later refusal still counting it."""
    done = table(started, "h1", b"# the first hand\nd dh Ann AsKs\n   #no space\n"
                                b"d dh Bob QhQd # a note\nZed cc\n")
    assert (done.returncode, done.stdout) == (2, DEALT_ANN + DEALT_BOB)
    assert done.stderr == ("error: line 5, hand h1, action 'Zed cc': unknown player 'Zed'; "
                           f"now: phase deal, {NEXT_CY}\n")
    assert [(e[4], e[5]) for e in events(started)[3:]] == [(4, "cards_dealt"),
                                                          (5, "cards_dealt")]
