"""A deterministic demo series: sessions of mixed games dealt through the engine.

``generate_series(sessions=20, hands=150, seed=1)`` plays ``sessions`` home-game sessions of
``hands`` hands each with one ``random.Random(seed)``: the same arguments give the same bytes.
Each session opens (1 chip = 0.25 USD: ``chip_value_minor`` 25, decimals 2), seats four to
seven players of a pool of eight with buy-ins of different sizes (so short stacks go all-in
and side pots happen), rotates the games every eight hands (NT, PO, FT, F7S, FO/8, F2L3D — see
:mod:`replay.demo.hand`), moves the button, and between hands lets busted or short players
rebuy or top up (or leave with a cash-out), lets a player sit out a few hands (he keeps his
stack) and a newcomer join. At the end every seated player cashes out his final stack, the
session closes and the players settle up with the fewest payments
(:func:`ledger.audit.settle.fewest_transfers` of the nets in money). Recorded payouts are the
engine's own awards, so a clean series audits clean.

``plant_errors=True`` plants exactly one of each (see :class:`Planted`): a side pot paid to the
wrong player (``payout``: two findings, the winner short and the other player over, same hand),
chips taken off a stack before a hand without a cash-out (``stack_continuity``), a cash-out
miscounted by 7 chips (``session_balance``) and a settlement payment 1.00 short
(``settlement``, the payer). The play after a planted error follows the chips actually on the
table, so nothing cascades.

:func:`write_series` writes one JSON-lines file per session
(:func:`ledger.formats.jsonl.write_jsonl`: session events and hands interleaved in the order they
happened), which ``handledger import`` reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from engine.games import game
from ledger.audit.settle import fewest_transfers
from ledger.model import events as ev
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.demo.hand import play_hand, seat_order, stakes_for

GAMES = ("NT", "PO", "FT", "F7S", "FO/8", "F2L3D")
POOL = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")
BUY_INS = (40, 60, 100, 150, 200)
CHIP_VALUE_MINOR, CURRENCY, DECIMALS = 25, "USD", 2
MAX_SEATS, MIN_PLAYERS, ORBIT = 7, 3, 8
START = date(2025, 1, 7)


@dataclass(frozen=True)
class Planted:
    """One planted error: the audit ``kind`` it must produce, where (``hand`` None for a
    session-level error) and who; ``players`` are every player the audit must name for it
    (the mis-paid side pot names the short winner and the overpaid player)."""

    kind: str
    session: str
    hand: str | None
    players: tuple[str, ...]
    detail: str


@dataclass
class SessionLog:
    """The rows of one session file: ``(stream id, seq, event)`` in the order they happened."""

    name: str
    rows: list[tuple[str, int, Any]] = field(default_factory=list)
    seqs: dict[str, int] = field(default_factory=dict)

    def add(self, stream: str, event: Any) -> None:
        seq = self.seqs.get(stream, 0) + 1
        self.seqs[stream] = seq
        self.rows.append((stream, seq, event))


@dataclass(frozen=True)
class DemoSeries:
    """A generated series: one log per session and the planted errors (empty when clean)."""

    sessions: list[SessionLog]
    planted: list[Planted]

    @property
    def hands(self) -> int:
        """The number of hands dealt."""
        return sum(e.type == "hand_started" for log in self.sessions for _, _, e in log.rows)


class _Plan:
    """Which session gets which planted error (distinct sessions when there are four)."""

    def __init__(self, sessions: int, hands: int, on: bool) -> None:
        self.on = on
        self.where = {k: i % max(sessions, 1) for i, k in enumerate(
            ("payout", "stack_continuity", "session_balance", "settlement"))}
        self.continuity_hand = max(1, hands // 3)
        self.done: list[Planted] = []

    def wants(self, kind: str, session_index: int) -> bool:
        if not self.on or any(p.kind == kind for p in self.done):
            return False
        return session_index >= self.where[kind]


class _Table:
    """One session being played: seats in table order, physical stacks, the session log."""

    def __init__(self, rng: random.Random, index: int, plan: _Plan) -> None:
        self.rng, self.index, self.plan = rng, index, plan
        self.name = session_name(index)
        self.log = SessionLog(self.name)
        self.seated: list[str] = []
        self.stacks: dict[str, int] = {}
        self.out: dict[str, int] = {}  # sitting out: hands left
        self.left: set[str] = set()
        self.net: dict[str, int] = {}
        self.button = 0

    def session(self, event: Any) -> None:
        self.log.add(self.name, event)

    def open(self) -> None:
        day = START + timedelta(days=7 * self.index)
        self.session(ev.SessionOpened(session=self.name, date=day.isoformat(),
                                      chip_value_minor=CHIP_VALUE_MINOR, currency=CURRENCY,
                                      decimals=DECIMALS))
        players = self.rng.sample(POOL, self.rng.randint(4, MAX_SEATS))
        for p in players:
            self.join(p)

    def join(self, player: str) -> None:
        self.seated.append(player)
        self.stacks[player] = 0
        self.buy(player, self.rng.choice(BUY_INS), "buy_in")

    def buy(self, player: str, chips: int, kind: str) -> None:
        self.stacks[player] += chips
        self.session(ev.BuyIn(player=player, chips=chips, kind=kind))

    def leave(self, player: str) -> None:
        self.session(ev.CashOut(player=player, chips=self.stacks[player]))
        self.seated.remove(player)
        self.out.pop(player, None)
        self.left.add(player)

    def between_hands(self) -> None:
        """Rebuys, top-ups, leaving, sitting out and back, newcomers (table stakes: only
        here, never during a hand)."""
        rng = self.rng
        for p in list(self.seated):
            stack = self.stacks[p]
            if stack == 0:
                if rng.random() < 0.85 or len(self.seated) <= MIN_PLAYERS + 1:
                    self.buy(p, rng.choice(BUY_INS), "rebuy")
                else:
                    self.leave(p)
            elif stack < 15 and rng.random() < 0.25:
                self.buy(p, rng.choice(BUY_INS[:3]), "top_up")
        for p in list(self.out):
            self.out[p] -= 1
            if self.out[p] <= 0:
                del self.out[p]
                self.session(ev.SeatChange(player=p, change="sit_back"))
        active = [p for p in self.seated if p not in self.out]
        if len(active) > MIN_PLAYERS + 1 and rng.random() < 0.04:
            p = rng.choice(active)
            self.out[p] = rng.randint(1, 5)
            self.session(ev.SeatChange(player=p, change="stand_up", stack=self.stacks[p]))
        free = [p for p in POOL if p not in self.seated and p not in self.left]
        if free and len(self.seated) < MAX_SEATS and rng.random() < 0.02:
            self.join(rng.choice(free))

    def play(self, number: int) -> None:
        self.between_hands()
        dealt = [p for p in self.seated if p not in self.out and self.stacks[p] > 0]
        code = GAMES[(number // ORBIT + self.index) % len(GAMES)]
        hand = f"{self.name}-{number + 1:03d}"
        if self.plan.wants("stack_continuity", self.index) and number >= self.plan.continuity_hand:
            # chips taken off the table without a cash-out (a top-up without a buy-in would
            # leave the cash-outs above the buy-ins, which an import refuses as `cashout` does)
            who = max(dealt, key=lambda p: (self.stacks[p], p))
            self.stacks[who] -= 20
            self.plan.done.append(Planted("stack_continuity", self.name, hand, (who,),
                                          f"20 chips taken off {who}'s stack without a cash-out"))
        button = None
        if not game(code).stud:
            self.button = (self.button + 1) % len(dealt)
            button = dealt[self.button]
        order = seat_order(dealt, button)
        # the game's own odd-chip order (RULES.md §2.2, §5): stud has no button, so by suit
        split = ev.SplitOptions(odd_chip_tie_order=game(code).tie_order)
        started = ev.HandStarted(
            hand=hand, game=code, stakes=stakes_for(code, len(order)), button=button,
            seats=[ev.Seat(player=p, stack=self.stacks[p]) for p in order], session=self.name,
            options=ev.RuleOptions(split=split),
            unit=ev.Unit(currency=CURRENCY, minor_per_chip=CHIP_VALUE_MINOR),  # chips as written
        )
        played = play_hand(self.rng, started,
                           misdeal_side_pot=self.plan.wants("payout", self.index))
        if played.misdealt_pot is not None:
            pot, short, over = played.misdealt_pot
            self.plan.done.append(Planted("payout", self.name, hand, (short, over),
                                          f"side pot {pot} of {short} paid to {over}"))
        for i, event in enumerate(played.events):
            self.log.add(hand, event)
            assert i or event.type == "hand_started"
        res = played.result
        for p in res.players:
            won = played.paid[p] - res.contributions[p]  # as the table paid it
            self.stacks[p] += won
            self.net[p] = self.net.get(p, 0) + won

    def close(self) -> None:
        """Everybody cashes out his stack (one miscounted when planted), close, settle up."""
        miscount = self.plan.wants("session_balance", self.index)
        for p in list(self.seated):
            if miscount and self.stacks[p] > 10:
                self.stacks[p] -= 7
                miscount = False
                self.plan.done.append(Planted("session_balance", self.name, None, (p,),
                                              "cash-out counted 7 chips short"))
            self.leave(p)
        self.session(ev.SessionClosed())
        nets = {p: n * CHIP_VALUE_MINOR for p, n in sorted(self.net.items())}
        short = self.plan.wants("settlement", self.index)
        for payer, payee, amount in fewest_transfers(nets):
            if short and amount > 200:
                amount -= 100
                short = False
                self.plan.done.append(Planted("settlement", self.name, None, (payer,),
                                              f"paid {payee} 1.00 short"))
            self.session(ev.Payment(payer=payer, payee=payee, amount_minor=amount))


def session_name(index: int) -> str:
    """The name of the series' session number ``index`` (from 0): ``s01``, ``s02`` …"""
    return f"s{index + 1:02d}"


def check_out(out: Path, sessions: int, ledger: str) -> None:
    """Refuse, before anything is written, an output folder ``out`` for ``sessions``
    sessions where a folder made (``out``, or one above it not there yet) or a session's
    file (``out/s01.jsonl`` …) is the ledger file at ``ledger``, its write-ahead log or its
    checkpoints file, by any path or link (:mod:`ledger.store.outputs`), or that already
    holds a file ``import OUT`` would read (found as import finds them, in subfolders too,
    by content whatever the name: :func:`replay.ingest.survey.survey`) or a session's file
    this series would overwrite (an earlier series: the new one would replace some of its
    files and leave the others beside them, and ``import OUT`` reads every one; README,
    "import").

    Raises:
        LedgerError: ``l.duckdb.wal is the ledger's write-ahead log: nothing written``,
            ``demo-series ds: ds/s01.jsonl is the ledger itself: nothing written``,
            ``demo-series ds: ds already holds 6 JSON-lines file(s) (ds/s01.jsonl …) …``
            (``file(s) import reads`` when not every one is JSON lines).
    """
    from ledger.store.outputs import no_folder_made_is_the_ledger, none_is_the_ledger

    no_folder_made_is_the_ledger(out, ledger, f"demo-series {out}")
    targets = [out / f"{session_name(i)}.jsonl" for i in range(sessions)]
    none_is_the_ledger(targets, ledger, f"demo-series {out}")
    held, json_lines = _held(out, targets)
    if held:
        more = " …" if len(held) > 1 else ""
        kind = "JSON-lines file(s)" if json_lines else "file(s) import reads"
        raise LedgerError(
            f"demo-series {out}: {out} already holds {len(held)} {kind} "
            f"({held[0]}{more}): a series written there would overwrite them or mix "
            f"with them (`handledger import {shell_arg(out)}` reads every one); nothing written: "
            "name "
            "another folder, or remove them first")


def _held(out: Path, targets: list[Path]) -> tuple[list[Path], bool]:
    """The files under ``out`` an import of it reads (:func:`replay.ingest.survey.survey`;
    a folder of Parquet files alone holds none) and those of ``targets`` there already,
    with something in them (a series would overwrite them), sorted by path; and whether
    every one is JSON lines (read as such, or named ``.jsonl``)."""
    if not out.is_dir():
        return [], True
    from ledger.model.errors import MalformedInput
    from replay.ingest.registry import find_importer
    from replay.ingest.survey import survey

    try:
        read = survey(out)[0]
    except MalformedInput:  # Parquet files and nothing else: import reads none of them
        read = []
    held = sorted({*read, *(t for t in targets if t.is_file() and t.stat().st_size)})
    json_lines = all(p.suffix.lower() == ".jsonl"
                     or getattr(find_importer(p), "name", None) == "jsonl" for p in held)
    return held, json_lines


def demo_series(out: Path, *, sessions: int, hands: int, seed: int, plant_errors: bool,
                ledger: str) -> tuple[DemoSeries, list[Path]]:
    """The ``demo-series`` command's work: the output checked against the ledger file at
    ``ledger`` first (:func:`check_out`), then the series played (:func:`generate_series`)
    and written into ``out`` (:func:`write_series`); returns the series and its files.

    Raises:
        LedgerError: as :func:`check_out` (nothing written); ValueError, OSError: as
            :func:`generate_series`, :func:`write_series`.
    """
    check_out(out, sessions, ledger)
    series = generate_series(sessions=sessions, hands=hands, seed=seed,
                             plant_errors=plant_errors)
    return series, write_series(series, out)


def generate_series(
    *, sessions: int = 20, hands: int = 150, seed: int = 1, plant_errors: bool = False
) -> DemoSeries:
    """Play the series (see the module doc). ``DemoSeries.planted`` lists what was planted; a
    kind is missing only when no session offered the chance (e.g. no side pot was played).

    Raises:
        ValueError: ``sessions`` or ``hands`` below 1.
    """
    if sessions < 1 or hands < 1:
        raise ValueError("a series needs at least one session of at least one hand")
    rng = random.Random(seed)
    plan = _Plan(sessions, hands, plant_errors)
    logs = []
    for index in range(sessions):
        table = _Table(rng, index, plan)
        table.open()
        for number in range(hands):
            table.play(number)
        table.close()
        logs.append(table.log)
    return DemoSeries(logs, plan.done)


def write_series(series: DemoSeries, out: Path) -> list[Path]:
    """Write ``<session>.jsonl`` per session into ``out`` (created); return the paths.

    Raises:
        OSError: the directory or a file cannot be written.
    """
    from ledger.formats.jsonl import write_jsonl

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for log in series.sessions:
        path = out / f"{log.name}.jsonl"
        path.write_text(write_jsonl(log.rows), encoding="utf-8")
        paths.append(path)
    return paths
