"""One root for every error the ledger raises on purpose.

Each error carries where it happened (file, line, hand, action) so the CLI can print one line
that names the place. The engine's :class:`engine.errors.IllegalAction` is translated into
:class:`IllegalHand` at the import boundary.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: Characters of an action an error quotes; a longer one is cut, its length said.
_QUOTED = 120


def quoted(text: str) -> str:
    """``text`` as an error quotes it (``repr``), a long one cut, its length said: a pasted
    line of megabytes is not echoed whole."""
    if len(text) > _QUOTED:
        return f"{text[:_QUOTED]!r}... ({len(text)} characters)"
    return repr(text)


class AsTyped(str):
    """A ``note:`` line (not an error) that names players by their platform ids on purpose, as
    :meth:`LedgerError.keeping_names` marks a refusal: a command that renames platform ids in
    its notes leaves it as it is (``entry 4 names gE4aE_Yhc3, an alias of Tee``, not ``Tee, an
    alias of Tee``)."""

    __slots__ = ()


class LedgerError(Exception):
    """Root of handledger's errors. ``where()`` renders the known location fields (a session
    row of an event file names its ``session`` where a hand row names its ``hand``).
    ``as_typed``: the message names players by the ids and names the user typed on purpose
    (which of them are one player), so a command that renames platform ids in its refusals
    leaves it as it is (:meth:`keeping_names`)."""

    as_typed: bool = False

    def keeping_names(self) -> LedgerError:
        """This error, marked ``as_typed``; returns self."""
        self.as_typed = True
        return self

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        hand: str | None = None,
        action: str | None = None,
        session: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.hand = hand
        self.action = action
        self.session = session

    def located(self, **where: object) -> LedgerError:
        """Fill in location fields that are still unknown and return self."""
        for key, value in where.items():
            if getattr(self, key, None) is None and value is not None:
                setattr(self, key, value)
        return self

    def where(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(f"{self.file}" + (f":{self.line}" if self.line is not None else ""))
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.session is not None:
            parts.append(f"session {self.session}")
        if self.action is not None:
            parts.append(f"action {quoted(self.action)}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


@contextmanager
def locating(**where: str | int | None) -> Iterator[None]:
    """Within the block, a :class:`LedgerError` gets the location fields it lacks
    (:meth:`LedgerError.located`): ``with locating(hand=hand): ...`` makes every refusal of
    a command about one hand name it."""
    try:
        yield
    except LedgerError as exc:
        exc.located(**where)
        raise


class MalformedInput(LedgerError):
    """A file or value that cannot be parsed (bad TOML, CSV, JSON, amount or card)."""


class FileNotText(MalformedInput):
    """Bytes that are not text in a file read as text whole (a ``.phhs``): none of its hands is
    read, so the file is refused whole in this one line; ``others``: the hands the file holds
    besides the one the bytes are in, not written with it (README "Bad input": the summary
    counts them, ``N other hand(s) not written, their file refused``)."""

    def __init__(self, message: str, *, others: int, file: str | None = None,
                 line: int | None = None) -> None:
        super().__init__(message, file=file, line=line)
        self.others = others


class StoredFinding(MalformedInput):
    """A fact of an input that does not add up but is stored as the site played and paid it
    (FORMATS.md §2: a PokerNow hand whose starting stacks do not follow the previous hand,
    whose chips put in minus returned are not what was collected, or that has no ending line;
    a hand whose payouts are short of its pot by other than the rake it records): no
    refusal. The import reports it as a warning when its ``hand`` was stored: the audit
    reports the same hand (a payout, a stack that does not continue under table stakes,
    RULES.md §1.1, or an incomplete hand). When that hand was refused for another reason the
    import reports it as an error, as any other."""

    #: the end of its warning line (:func:`replay.ingest.write_lines.warning_line`)
    stored = "stored; the audit reports it"


class StacksNotLeft(StoredFinding):
    """A hand whose file gives ``finishing_stacks`` beside its ``winnings`` (FORMATS.md §1)
    that are not the stacks its actions and payouts leave: the winnings are what the table
    paid (what each collected), the finishing stacks only say again where that left each
    player, so the hand is stored as its winnings pay it and the import names both stacks
    in a warning. The audit has nothing more to report of it (the stacks are no payout)."""

    #: the end of its warning line (:func:`replay.ingest.write_lines.warning_line`)
    stored = "stored as its winnings pay it"


class DefaultTaken(StoredFinding):
    """A hand stored as its file's options say, taking a default a reader of its game's code
    may not expect (a declare hand of ``F7S/8`` whose ``_declare`` gives no
    ``low_qualifier``: none, RULES.md §3.11, §5): a warning naming the option, no finding of
    the audit (nothing about it is wrong)."""

    #: the end of its warning line (:func:`replay.ingest.write_lines.warning_line`)
    stored = "stored as its options say"


class RepeatedHand(MalformedInput):
    """Another copy of a hand that the same file gave earlier, with other text (a PokerStars
    hand number met twice): this copy is refused, a rejected hand of its own, whatever
    became of the first (docs/IMPORTING.md, "Bad input": an error line is a refusal)."""


class MalformedEvent(MalformedInput):
    """An event that does not validate against its schema."""


class IllegalHand(LedgerError):
    """A hand whose actions the engine rejects (out of turn, below the minimum raise, …)."""


class BadSignature(LedgerError):
    """A signed correction or void of an input whose signature does not verify against the key
    it names (or names another key under a signer's name), or whose key is not among the keys
    the command was given (``ledger.store.signing``, ``ledger.store.keys``)."""


class DuplicateEvent(LedgerError):
    """An append that would write a (hand, seq) or source key that is already stored."""


class LedgerBusy(LedgerError):
    """Another process holds the ledger file. ``holder``: ``"writer"`` (another process has it
    open for writing: nobody else may open it), ``"reader"`` (other processes only read it: it
    can be read, not written, meanwhile) or ``"mode"`` (this process has it open in the other
    mode: waiting cannot help). ``who``: that process in words (``another process (pid 4321:
    python3 -c ...)``, :mod:`ledger.store.holders`)."""

    def __init__(self, message: str, *, holder: str = "writer",
                 who: str = "another process", **where: object) -> None:
        super().__init__(message, **where)  # type: ignore[arg-type]
        self.holder = holder
        self.who = who


class LedgerReadOnly(LedgerError):
    """The ledger file cannot be written here (a read-only file or file system)."""


class ChainBroken(LedgerError):
    """The hash chain does not verify (raised only where a caller asks for an exception)."""


class NotFound(LedgerError):
    """A hand, session or player that the ledger does not hold (or no ledger file at all:
    :func:`no_ledger`)."""


def no_ledger(path: object) -> NotFound:
    """The one error of every command that finds no ledger file at ``path`` and does not
    create one (a read never creates a file; README, "Reads never write the ledger"), naming
    every command that does: ``init``, and the first write of ``import``, ``run``, ``session
    open`` and ``hand start``."""
    return NotFound(f"no ledger at {path} (`handledger init` creates one, and so do "
                    "`handledger import`, `run`, `session open` and `hand start`)")


def no_hand(path: object, hand: str, hint: str = "") -> NotFound:
    """The one error of every read or write of a hand the ledger at ``path`` does not hold
    (``show``, ``replay --hand``, ``view``, ``state``, ``act``, ``whatif``, ``correct``,
    ``history``): ``hand h9: ledger night.duckdb holds no such hand``, naming the file (a hand
    looked for in the wrong ledger) and the hand once, in its location (:meth:`LedgerError.where`);
    ``hint``: what follows (``": did you mean 'U1'?"``)."""
    return NotFound(f"ledger {path} holds no such hand{hint}", hand=hand)


class LedgerCorrupt(LedgerError):
    """The ledger file cannot be read as a ledger: not a DuckDB file, cut short, a block whose
    checksum fails, or a DuckDB file without the ledger's tables."""
