"""A live hand's rows are looked for at the ledger's tail first (``Ledger.read_recent`` and
the tails an append checks): what they give is what reading the whole ledger gives, whether a
stream lies inside that window, begins before it, lies wholly before it or is not there. The
window is made a few positions wide here, so that streams fall on every side of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ledger.store.store as store
from engine.errors import IllegalAction
from ledger.model.errors import DuplicateEvent, NotFound
from ledger.model.events import Call, Check
from ledger.store.store import Ledger
from replay.live import LiveHand, act, now
from replay.live.start import start_hand
from replay.live.state import current
from tests.test_store import hand

WINDOWS = [1, 3, 7, 12, 25, 1000]


@pytest.fixture
def interleaved(tmp_path: Path) -> Iterator[Ledger]:
    """Hands whose rows interleave: h1's first five rows, h2 whole, h1's last five, then h3
    whole (40 rows)."""
    events = hand("h1")
    with Ledger(tmp_path / "t.duckdb") as led:
        led.append("h1", events[:5], hand_id="h1")
        led.append("h2", hand("h2"))
        led.append("h1", events[5:], hand_id="h1", expected_seq=5)
        led.append("h3", hand("h3"))
        yield led


def stored_tails(led: Ledger) -> dict[str, tuple[int, str | None]]:
    rows = led.query("SELECT stream, max(seq), arg_max(session, seq) FROM events"
                     " GROUP BY stream")
    return {stream: (last, session) for stream, last, session in rows}


@pytest.mark.parametrize("window", WINDOWS)
def test_read_recent_gives_every_row_of_the_stream_wherever_it_lies(
        interleaved: Ledger, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "_RECENT", window)
    for stream in ("h1", "h2", "h3"):
        assert interleaved.read_recent(stream) == interleaved.read(stream)
        assert [r.seq for r in interleaved.read_recent(stream)] == list(range(1, 11))
    with pytest.raises(NotFound):
        interleaved.read_recent("h4")


@pytest.mark.parametrize("window", WINDOWS)
def test_tails_are_the_stored_tails_inside_and_outside_the_window(
        interleaved: Ledger, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "_RECENT", window)
    assert interleaved._tails(["h1", "h2", "h3", "h4"]) == stored_tails(interleaved)
    assert interleaved._tails(["h4"]) == {}


@pytest.mark.parametrize("window", WINDOWS)
def test_an_append_checks_the_stored_last_seq_wherever_it_lies(
        interleaved: Ledger, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "_RECENT", window)
    head = interleaved.head()
    for stream, stale in (("h1", 9), ("h2", 5), ("h3", 0)):
        with pytest.raises(DuplicateEvent):
            interleaved.append(stream, [Check(player="bob")], hand_id=stream,
                               expected_seq=stale)
    assert interleaved.head() == head  # nothing written
    assert interleaved.append("h2", [Check(player="bob")], hand_id="h2",
                              expected_seq=10) == [head[0] + 1]
    assert stored_tails(interleaved)["h2"] == (11, None)


@pytest.mark.parametrize("window", [2, 6, 1000])
def test_a_live_hand_acts_the_same_whether_its_start_is_in_the_window_or_not(
        tmp_path: Path, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A live hand with other hands appended after its start (another table): its state and
    the seq of each action are the same however far back its first row lies."""
    monkeypatch.setattr(store, "_RECENT", window)
    with Ledger(tmp_path / "l.duckdb") as led:
        start_hand(led, LiveHand(game="NT", seats="Ann:200,Bob:150,Cy:300", stakes="1/2",
                                 button="Cy"), hand="live", session=None)
        led.append("other", hand("other"))
        done = [act(led, "live", action) for action in
                ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy cc", "Ann cc",
                 "Bob cc", "d db 2c7h9s")]
        assert [d.seq for d in done] == [4, 5, 6, 7, 8, 9, 10]
        led.append("other2", hand("other2"))
        with pytest.raises(IllegalAction):  # Ann acts first after the flop
            act(led, "live", "Bob cbr 4")
        state, last = current(led, "live")
        assert (last, state.to_act, state.phase) == (10, "Ann", "bet")
        assert [p.amount for p in now(led, "live").result.pots] == [6]
        assert led.read_recent("live") == led.read("live")
        assert [type(r.event) for r in led.read("live")][-4:-1] == [Call, Call, Check]
