"""The hash chain proven intact by DuckDB queries, the fast path of ``Ledger.verify``.

:func:`proven_intact` checks, a range of positions at a time, what the walk of
:func:`ledger.store.chain.verify_rows` checks of an intact ledger: every row hashes to its
stored hash (:func:`ledger.store.chain.row_hash`), links to the row before it
(:data:`ledger.store.chain.GENESIS` at position 1), the positions run 1..n without gap or
repeat, each stream's seqs run 1, 2, 3, … in position order, and the recorded head in ``meta``
is position n and its hash. It answers only "proven intact" or "not proven": on any
mismatch the caller walks the chain in Python for the exact diagnosis and message.

Soundness (a "proven" ledger is one the walk accepts). The walk accepts exactly when, in
position order, row k sits at position k, its ``prev_hash`` is row k-1's hash (GENESIS for
k = 1), its hash is ``row_hash`` of its content, its seq is its stream's previous seq + 1
(0 before the first), and the last row is the recorded head (position and hash; with no
rows or no head the walk is left to decide). The link, position, seq and head conditions
compare stored values with ``=`` only. The hash condition is checked in SQL only for a
*plain* row: its stream, hand id, session, type and source key are NULL (where allowed) or
text of the characters U+0020..U+007E other than ``"`` and ``\\``, its schema version,
payload and prev_hash are not NULL, its ``recorded_at`` NULL or in the years 1000..9999.
For a plain row the SQL text is character for character Python's: ``json.dumps`` with
``ensure_ascii`` escapes only ``"``, ``\\`` and characters outside ``" "``..``"~"``
(``json.encoder.ESCAPE_ASCII``), so a plain text ``s`` is written ``'"' + s + '"'``, as the
SQL writes it, and None ``null`` (each nullable part is written ``null`` or quoted by a
``CASE``, the others are not NULL in a plain row, so ``concat``, which would drop a NULL,
drops nothing); DuckDB writes a BIGINT or INTEGER in decimal as Python's
``str``; ``strftime('%Y-%m-%dT%H:%M:%S.%f')`` of a timestamp in those years is
``isoformat(timespec="microseconds")`` (four-digit year, two-digit fields, six-digit
microseconds); the payload and prev_hash are the stored text as Python reads it, and
``sha256`` hashes the UTF-8 bytes of the text, as ``hashlib`` does of ``str.encode()``.
Equal texts give equal hashes, so for a plain row the SQL match is the walk's match. Every
other row is hashed by ``row_hash`` itself, in Python. A text the SQL could write otherwise
than Python (a name with ``é`` that ``json.dumps`` escapes ``\\u00e9``) is never written by
the SQL at all: no row is accepted on a text that differs from the definition.

Positions: a range ``a..b`` must give ``b - a + 1`` pairs of a row and the row one position
before it (its rows joined, left, to those of ``a - 1..b - 1``), the least position ``a``, the
greatest ``b``, and no row past position 1 without such a row; so going down from ``b`` every
position of the range is held, each by one row (more rows would make more pairs). The ranges
cover 1..n and the table holds n rows: no row stands elsewhere, and the rows in position
order are the walk's. Seqs: in a range, each stream's seq follows its previous one there
(a stream whose rows lie one after the other by its count, least and greatest seq and
position - seq; any other by ``lag`` over the stream in position order) and its first follows
the last seq carried from the ranges before (0 for a new stream). :class:`ChainProof` makes
the same proof a range at a time for a caller that reads the ledger so.

Memory: the queries read ``_RANGE`` positions at a time (a hash join of one range on the
range before: a third of the CPU of ``lag`` over the rows sorted by position; and one
partitioned sort by stream), in the caller's
:meth:`ledger.store.store.Ledger.memory_capped`; DuckDB's temporary folder is switched off
meanwhile (a read never writes a file): a range that does not fit is an error, and then the
walk decides. Each stream's last seq is carried from range to range in a dict, one entry a
stream, as the walk carries it.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from ledger.store.chain import GENESIS, row_hash
from ledger.store.duck import duckdb

#: Positions per query: a range of 200,000 takes under DuckDB's 64 MB of a walk
#: (``_WALK_MEMORY``), 100,000 as much CPU (bench/PROFILE.md, "the chain proven by queries").
_RANGE = 200_000
_PLAIN_TEXT = r"'[ !#-\[\]-~]*'"
# concat skips a NULL part as coalesce(part, '') would, at half the CPU of a chain of || and
# coalesce (0.54 s against 1.10 for 3.5 million rows); stream and type must not be NULL.
_PLAIN = (
    "coalesce(stream IS NOT NULL AND type IS NOT NULL AND regexp_full_match(concat(stream,"
    f" hand_id, session, type, source_key), {_PLAIN_TEXT}) AND seq IS NOT NULL AND schema_version"
    " IS NOT NULL AND payload IS NOT NULL AND prev_hash IS NOT NULL AND (recorded_at IS NULL OR"
    " recorded_at BETWEEN TIMESTAMP '1000-01-01' AND TIMESTAMP '9999-12-31 23:59:59.999999'),"
    " false)"
)
_TEXT = (  # concat: no NULL among the parts of a plain row (each nullable one written 'null')
    "concat(prev_hash, chr(10), '[', position, ',\"', stream, '\",', CASE WHEN hand_id IS NULL"
    " THEN 'null' ELSE concat('\"', hand_id, '\"') END, ',', CASE WHEN session IS NULL THEN"
    " 'null' ELSE concat('\"', session, '\"') END, ',', seq, ',\"', type, '\",', schema_version,"
    " ',', CASE WHEN recorded_at IS NULL THEN 'null' ELSE concat('\"', strftime(recorded_at,"
    " '%Y-%m-%dT%H:%M:%S.%f'), '\"') END, ',', CASE WHEN source_key IS NULL THEN 'null' ELSE"
    " concat('\"', source_key, '\"') END, ']', chr(10), payload)"
)
# One range [$1, $2]: its rows, each joined to the row one position before it (the range
# before's last row for the first); the count of joined pairs, of rows whose link or
# plain hash fails, the range's least and greatest position and the positions of its rows
# that are not plain.
_LINKS = f"""
SELECT count(*), min(r.position), max(r.position),
       count(*) FILTER (WHERE r.prev_hash IS DISTINCT FROM
                        CASE WHEN r.position = 1 THEN '{GENESIS}' ELSE b.hash END
                        OR (r.position > 1 AND b.position IS NULL)),
       count(*) FILTER (WHERE r.plain AND r.computed IS DISTINCT FROM r.hash),
       list(r.position) FILTER (WHERE NOT r.plain)
FROM (SELECT position, prev_hash, hash, plain, CASE WHEN plain THEN sha256({_TEXT}) END AS computed
      FROM (SELECT *, {_PLAIN} AS plain FROM events WHERE position BETWEEN $1 AND $2)) r
LEFT JOIN (SELECT position, hash FROM events WHERE position BETWEEN $1 - 1 AND $2 - 1) b
       ON b.position = r.position - 1
"""
# One range's streams: each one's row count, least and greatest seq and the least and
# greatest of position - seq. A stream whose seqs are not NULL, count max - min + 1 and whose
# position - seq is one value has its seqs min, min + 1, ..., max in position order (its
# positions are distinct, proven by _LINKS first, so its seqs are too: ``count`` distinct
# integers between min and max are all of them, and they rise with the position); its first
# seq is min, its last max. A grouping, no sort: 0.15 s against 0.7 for ``lag`` over the
# rows sorted by stream (3.5 million rows, bench/PROFILE.md). The others (a session's rows,
# spread among its hands; a hand corrected later) go to _SEQS_SPREAD.
_SEQS = """
SELECT stream, count(*) = count(seq) AND max(seq) - min(seq) + 1 = count(*)
       AND min(position - seq) = max(position - seq), min(seq), max(seq)
FROM events WHERE position BETWEEN $1 AND $2
GROUP BY stream
"""
# The range's streams named in $3 (a NULL stream when $4): each one's first and last seq in
# position order, and whether every other seq follows the one before it.
_SEQS_SPREAD = """
SELECT stream, arg_min(seq, position), arg_max(seq, position),
       bool_and(before IS NULL OR seq = before + 1)
FROM (SELECT stream, seq, position,
             lag(seq) OVER (PARTITION BY stream ORDER BY position) AS before
      FROM events WHERE position BETWEEN $1 AND $2
                        AND (list_contains($3::VARCHAR[], stream) OR ($4 AND stream IS NULL)))
GROUP BY stream
"""

def proven_intact(con: Any, head: tuple[int, str] | None, *,
                  in_transaction: bool = False) -> tuple[int, str] | None:
    """``(n, hash of row n)`` when the queries prove the chain intact as the walk would find it
    (module doc), else None: not proven (a mismatch anywhere, no rows, no recorded head, a
    range that does not fit in memory), and the walk must decide.

    ``con``: the ledger's DuckDB connection; ``head``: the recorded head ``(position, hash)``
    from ``meta``, None when gone. DuckDB's temporary folder is off meanwhile and set back
    after (module doc). ``in_transaction``: a transaction is open on ``con``, which DuckDB
    aborts at any error: the folder is left as it is and running out of memory is raised
    (the transaction rolls back) instead of None.

    Raises:
        duckdb.Error: the file cannot be read (any error but running out of memory outside a
            transaction, which is None); the caller translates it.
    """
    if in_transaction:
        return _proven(lambda sql, params=(): con.execute(sql, list(params)).fetchall(), head)
    (folder,), = con.execute("SELECT current_setting('temp_directory')").fetchall()
    try:
        con.execute("SET temp_directory = ''")
    except duckdb.Error:  # not switched off (files of a capped write in it): the walk decides
        return None
    try:
        return _proven(lambda sql, params=(): con.execute(sql, list(params)).fetchall(), head)
    except duckdb.OutOfMemoryException:
        return None
    finally:
        with suppress(duckdb.Error):  # never in place of the queries' own error
            con.execute(f"SET temp_directory = '{_quoted(folder)}'")


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def _proven(query: Any, head: tuple[int, str] | None) -> tuple[int, str] | None:
    proof = ChainProof(query, head)
    last = proof.last
    for start in range(1, last + 1, _RANGE):
        if not proof.add(start, min(start + _RANGE - 1, last)):
            return None
    return proof.finish()


class ChainProof:
    """The queries' proof (module doc) made one range of positions at a time, in order from
    position 1, so that a caller reading the ledger a range at a time (the first replay over
    ranges, :mod:`replay.ranges`) proves each range as it reads it. ``query(sql, params)``
    runs one query on the ledger's connection and returns its rows; ``head``: the recorded
    head ``(position, hash)`` from ``meta``, None when gone.

    :attr:`last` is the last position to prove (0: nothing will prove: no head, no rows, or
    the table's count or greatest position not the head's). :meth:`add` proves the next
    range; :meth:`finish`, once every position up to :attr:`last` is proven, gives ``(n,
    hash of row n)`` or None. Not proven anywhere (False or None): the walk must decide.

    Raises (each method):
        duckdb.Error: the file cannot be read (out of memory included: the caller decides).
    """

    def __init__(self, query: Any, head: tuple[int, str] | None) -> None:
        self._query = query
        self._head = head
        self._next = 1  # the first position not yet proven
        self._failed = False
        self._last_seq: dict[str | None, int] = {}
        self.last = 0
        if head is None or head[0] < 1:
            return
        (total, last), = query("SELECT count(*), max(position) FROM events")
        if total == head[0] and last == head[0]:
            self.last = last

    def add(self, start: int, end: int) -> bool:
        """Prove positions ``start..end``, the range right after those proven (``start`` is
        1 first), ``end`` at most :attr:`last`; False when not proven (then, and after any
        False, nothing more is)."""
        if self._failed or start != self._next or not start <= end <= self.last:
            self._failed = True
            return False
        query = self._query
        pairs, low, high, bad_links, bad_hashes, odd = query(_LINKS, [start, end])[0]
        proven = ((pairs, low, high, bad_links, bad_hashes) == (end - start + 1, start, end, 0, 0)
                  and (not odd or _hash_in_python(query, odd)) and self._seqs(start, end))
        self._failed = not proven
        self._next = end + 1
        return proven

    def _seqs(self, start: int, end: int) -> bool:
        last_seq = self._last_seq
        spread: list[str] = []
        null_spread = False
        for stream, steps, first, final in self._query(_SEQS, [start, end]):
            if not steps:  # NULL too (a NULL seq)
                if stream is None:
                    null_spread = True
                else:
                    spread.append(stream)
                continue
            if first != last_seq.get(stream, 0) + 1:
                return False
            last_seq[stream] = final
        if not spread and not null_spread:
            return True
        for stream, first, final, steps in self._query(_SEQS_SPREAD,
                                                       [start, end, spread, null_spread]):
            if not steps or first != last_seq.get(stream, 0) + 1:
                return False
            last_seq[stream] = final
        return True

    def finish(self) -> tuple[int, str] | None:
        """``(n, hash of row n)`` when every position up to :attr:`last` is proven and row
        n's hash is the recorded head's, else None."""
        if self._failed or self.last < 1 or self._next != self.last + 1:
            return None
        assert self._head is not None
        (digest,), = self._query("SELECT hash FROM events WHERE position = $1", [self.last])
        return (self.last, digest) if digest == self._head[1] else None


def _hash_in_python(query: Any, positions: list[int]) -> bool:
    """Whether every row at ``positions`` hashes to its stored hash by ``row_hash`` itself."""
    rows = query("SELECT prev_hash, position, stream, hand_id, session, seq, type,"
                 " schema_version, payload, recorded_at, source_key, hash FROM events"
                 " WHERE position IN (SELECT unnest($1))", [positions])
    return len(rows) == len(positions) and all(
        row_hash(prev, position=position, stream=stream, hand_id=hand_id, session=session,
                 seq=seq, type=kind, schema_version=version, payload=payload,
                 recorded_at=recorded_at, source_key=source_key) == digest
        for (prev, position, stream, hand_id, session, seq, kind, version, payload,
             recorded_at, source_key, digest) in rows)
