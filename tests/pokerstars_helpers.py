"""Helpers for the PokerStars tests: the real files, one hand's text, replaying a hand."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ledger.formats.phh.base import PhhHand
from ledger.formats.pokerstars import read_pokerstars, read_pokerstars_text
from ledger.formats.pokerstars.text import decode, split_hands
from replay.build import events_from_phh
from replay.fold import HandReplay, replay_events
from tests.conftest import SHARED

TEXT = SHARED / "text"
FILES = sorted(p.name for p in TEXT.glob("*.txt"))


def path(name: str) -> Path:
    return TEXT / name


def hand_texts(name: str) -> dict[str, str]:
    """``PokerStars-<number>`` → the hand's text as the file has it (decoded)."""
    text, _ = decode(path(name).read_bytes())
    return {f"PokerStars-{h.number}": "\n".join(h.lines) for h in split_hands(text)[0]}


def one_hand(name: str, number: str, *edits: tuple[str, str]) -> PhhHand:
    """Hand ``#number`` of file ``name``, read alone after replacing each ``(old, new)`` of
    ``edits`` once in its text (every ``old`` must be there)."""
    text = hand_texts(name)[f"PokerStars-{number}"]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    parsed = read_pokerstars_text(text, file=f"edited-{number}.txt")
    assert parsed.errors == [], parsed.errors
    (hand,) = parsed.hands
    return hand


def file_hand(name: str, number: str) -> PhhHand:
    """Hand ``#number`` as read from the whole file."""
    (hand,) = [h for h in read_pokerstars(path(name)).hands if h.hand == f"PokerStars-{number}"]
    return hand


def replay(hand: PhhHand) -> HandReplay:
    """The hand through the engine, as an import checks it."""
    return replay_events(events_from_phh(hand))


def site_paid(hand: PhhHand) -> tuple[Counter[str], Counter[str]]:
    """``(collected, returned)`` per player, chips, from the site's payout lines."""
    collected: Counter[str] = Counter()
    returned: Counter[str] = Counter()
    for payout in hand.payouts:
        (returned if payout.returned else collected)[payout.player] += payout.amount
    return collected, returned
