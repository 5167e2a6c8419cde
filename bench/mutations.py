"""Mutated hand-history files for the bad-input campaigns (``bench/fuzz.py``, and a smaller run
in ``tests/test_hardening.py``).

Valid files, of the four formats handledger reads:

* **PHH**: the real single-hand files of ``../shared/data`` (hands and the rules' worked
  examples), the real ``.phhs`` excerpts, and seeded random legal hands of every PHH variant
  (:func:`replay.demo.randomhand.random_hand`) written as PHH, one or several to a file;
* **JSON lines**: the same random hands as events, and a session of the bundled series
  (``data/series``) with its buy-ins and cash-outs;
* **PokerNow** game logs: the real logs of ``../shared/data/pokernow``;
* **PokerStars** hand-history text: the real files of ``../shared/data/text``.

Each is mutated at random (seeded) by one kind of :data:`MUTATORS`: an amount changed (another
number, negative, fractional, not a number, beyond 2**53 - 1), actions or lines swapped,
dropped, repeated or reversed, a card made unknown, malformed or a duplicate, a player
renamed, a key, field or line dropped or repeated, the file cut or its bytes garbled, another
encoding (UTF-16, Latin-1, Windows-1252, a NUL byte), and the kinds a fuzzer found tracebacks
with: a byte that is not UTF-8, a byte-order mark, nesting 1,000 deep, a lone surrogate, a
CSV field over 128 KiB, a line of 2 MB, a zip archive under the file's name, CRLF line ends,
two files spliced. :func:`file_kind` adds what a file is rather than holds: a name that is not
UTF-8, a symbolic link to ``/dev/zero``, a named pipe.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
SERIES = ROOT / "data" / "series"

_NUMBER = re.compile(rb"(?<![A-Za-z0-9_.])-?\d+(?:\.\d+)?(?![A-Za-z0-9_])")
_CARD = re.compile(rb"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?=[2-9TJQKA?]|[^A-Za-z0-9]|$)")
_PLAYER = re.compile(rb"\bp[1-9]\b")
_ODD_NUMBERS = [b"-1", b"-250", b"0", b"1.5", b"0.001", b"1e400", b"NaN", b"abc", b"''", b'"7"',
                b"null", b"true", b"99999999999999999999999999", b"-0", b"0x10", b"1_000",
                b"9007199254740992", b"9007199254740991", b"1e30", b"1e23", b"Infinity"]
_ODD_CARDS = [b"Xx", b"1c", b"Tz", b"??", b"AS", b"a", b"10h", b"Jk"]
FORMATS = ("phh", "jsonl", "pokernow", "pokerstars")
SUFFIX = {"phh": ".phh", "phhs": ".phhs", "jsonl": ".jsonl", "pokernow": ".csv",
          "pokerstars": ".txt"}


# ------------------------------------------------------------------------------- valid files


def real_phh() -> list[bytes]:
    """The real single-hand PHH files (hands and the rules' worked examples)."""
    paths = sorted((SHARED / "phh").rglob("*.phh")) + sorted((SHARED / "rules").glob("*.phh"))
    return [p.read_bytes() for p in paths]


def real_files(fmt: str) -> list[bytes]:
    """The real files of ``fmt`` in ``../shared/data`` (``phhs``: the ``.phhs`` excerpts)."""
    if fmt == "phh":
        return real_phh()
    pattern = {"phhs": ("phh", "*.phhs"), "pokernow": ("pokernow", "*.csv"),
               "pokerstars": ("text", "*.txt")}[fmt]
    return [p.read_bytes() for p in sorted((SHARED / pattern[0]).rglob(pattern[1]))]


def random_files(rng: random.Random, ident: str) -> tuple[bytes, bytes]:
    """One random legal hand of a random PHH variant as (PHH text, JSON-lines text)."""
    from engine.games import PHH_CODES
    from ledger.formats.jsonl import write_jsonl
    from replay.demo.randomhand import random_hand
    from replay.ingest.export import phh_text

    code = rng.choice(PHH_CODES)
    hand = random_hand(rng, code, hand_id=ident)
    rows = [(ident, seq, e) for seq, e in enumerate(hand.events, 1)]
    return phh_text(hand.events).encode(), write_jsonl(rows).encode()


class Seeds:
    """Where valid files of each format come from (the real ones read once)."""

    def __init__(self) -> None:
        self.phh = real_phh()
        self.phhs = real_files("phhs")
        self.pokernow = real_files("pokernow")
        self.pokerstars = real_files("pokerstars")
        self.series = [p.read_bytes() for p in sorted(SERIES.glob("*.jsonl"))][:2]

    def valid(self, rng: random.Random, fmt: str, ident: str) -> tuple[bytes, str]:
        """A valid file of ``fmt`` and the suffix it is written with."""
        if fmt == "phh":
            roll = rng.random()
            if roll < 0.3:
                return rng.choice(self.phh), ".phh"
            if roll < 0.4:
                return rng.choice(self.phhs), ".phhs"
            if roll < 0.5:  # several random hands in one .phhs
                from ledger.formats.phh.read import write_phhs

                texts = [random_files(rng, f"{ident}-{k}")[0].decode()
                         for k in range(rng.randint(2, 4))]
                return write_phhs(texts).encode(), ".phhs"
            return random_files(rng, ident)[0], ".phh"
        if fmt == "jsonl":
            if rng.random() < 0.15:
                return _series_part(rng, self.series), ".jsonl"
            return random_files(rng, ident)[1], ".jsonl"
        if fmt == "pokernow":
            return rng.choice(self.pokernow), ".csv"
        return rng.choice(self.pokerstars), ".txt"


def _series_part(rng: random.Random, series: list[bytes]) -> bytes:
    """A session of the bundled series, its rows from the start up to a hand's end."""
    lines = rng.choice(series).split(b"\n")
    ends = [i for i, line in enumerate(lines) if b'"hand_ended"' in line]
    cut = rng.choice(ends[: max(1, len(ends) // 4)]) + 1 if ends else len(lines)
    return b"\n".join(lines[:cut]) + b"\n"


# ------------------------------------------------------------------------------- mutations


def _sub_match(rng: random.Random, data: bytes, pattern: re.Pattern[bytes],
               choices: Callable[[bytes, bytes], bytes]) -> bytes:
    found = list(pattern.finditer(data))
    if not found:
        return data[: len(data) // 2]
    m = rng.choice(found)
    return data[: m.start()] + choices(m.group(), data) + data[m.end():]


def _amount(rng: random.Random, data: bytes) -> bytes:
    def new(old: bytes, _: bytes) -> bytes:
        roll = rng.random()
        try:
            value = int(float(old))
        except (ValueError, OverflowError):
            value = 1
        if roll < 0.4:
            return str(value + rng.choice([-3, -2, -1, 1, 2, 5, 100])).encode()
        if roll < 0.55:
            return str(value * rng.choice([0, 2, 10, 1000])).encode()
        return rng.choice(_ODD_NUMBERS)

    return _sub_match(rng, data, _NUMBER, new)


def _card(rng: random.Random, data: bytes) -> bytes:
    def new(old: bytes, whole: bytes) -> bytes:
        if rng.random() < 0.5:  # a duplicate: another card of the file
            others = [m.group() for m in _CARD.finditer(whole) if m.group() != old]
            if others:
                return rng.choice(others)
        return rng.choice(_ODD_CARDS)

    return _sub_match(rng, data, _CARD, new)


def _player(rng: random.Random, data: bytes) -> bytes:
    return _sub_match(rng, data, _PLAYER,
                      lambda old, _: rng.choice([b"p9", b"p1", b"p2", b"", b"P1", b"p1 p2"]))


def _units(data: bytes, fmt: str) -> list[bytes]:
    """The pieces whose order matters: lines, or the quoted PHH actions."""
    if fmt != "phh":
        return data.split(b"\n")
    return re.findall(rb"'[^'\n]*'", data.split(b"actions = ", 1)[-1].split(b"]", 1)[0])


def _order(rng: random.Random, data: bytes, fmt: str) -> bytes:
    units = _units(data, fmt)
    if len(units) < 2:
        return data + data
    new = list(units)
    i, j = rng.sample(range(len(new)), 2)
    how = rng.choice(["swap", "drop", "repeat", "reverse", "shuffle"])
    if how == "swap":
        new[i], new[j] = new[j], new[i]
    elif how == "drop":
        del new[i]
    elif how == "repeat":
        new.insert(j, new[i])
    elif how == "reverse":
        new.reverse()
    else:
        rng.shuffle(new)
    if fmt != "phh":
        return b"\n".join(new)
    if b"actions = " not in data or b"]" not in data.split(b"actions = ", 1)[1]:
        return b"\n".join(new)
    head, rest = data.split(b"actions = ", 1)
    body, tail = rest.split(b"]", 1)
    old_items = re.findall(rb"'[^'\n]*'", body)
    joined = body
    for k, item in enumerate(old_items):  # rewrite the list in place, item by item
        joined = joined.replace(item, b"\0%d\0" % k, 1)
    for k in range(len(old_items)):
        joined = joined.replace(b"\0%d\0" % k, new[k] if k < len(new) else b"", 1)
    if len(new) > len(old_items):
        joined += b", " + b", ".join(new[len(old_items):])
    return head + b"actions = " + joined + b"]" + tail


def _line(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(rng.randrange(len(lines)), lines[i])
    return b"\n".join(lines)


def _json_field(rng: random.Random, data: bytes) -> bytes:
    """A JSON-lines event with a field dropped, added, retyped or its type renamed."""
    lines = data.split(b"\n")
    i = rng.randrange(max(1, len(lines) - 1))
    try:
        row = json.loads(lines[i])
        event = row["event"]
    except (ValueError, KeyError, TypeError):
        return data
    how = rng.choice(["drop", "extra", "type", "seq", "null", "list"])
    key = rng.choice(sorted(event))
    if how == "drop":
        event.pop(key)
    elif how == "extra":
        event["surprise"] = 1
    elif how == "type":
        event["type"] = rng.choice(["raise", "hand_started", "session_opened", "FOLD"])
    elif how == "seq":
        row["seq"] = rng.choice([0, -1, row["seq"] + 1, "2", 2.0, None])
    elif how == "null":
        event[key] = None
    else:
        event[key] = [event[key]]
    lines[i] = json.dumps(row).encode()
    return b"\n".join(lines)


def _csv_field(rng: random.Random, data: bytes) -> bytes:
    """A PokerNow row with a column dropped, added, emptied, or its quotes broken."""
    lines = data.split(b"\n")
    i = rng.randrange(1, max(2, len(lines) - 1))
    line = lines[i]
    how = rng.choice(["drop", "extra", "empty", "quote", "header"])
    if how == "drop":
        line = line.rsplit(b",", 1)[0]
    elif how == "extra":
        line += b",extra"
    elif how == "empty":
        line = b'"",' + line.split(b",", 1)[-1]
    elif how == "quote":
        line = line.replace(b'"', b"", 1)
    else:
        lines[0] = rng.choice([b"entry,at", b"at,order,entry", b"ENTRY,AT,ORDER",
                               b"entry,at,order"])
    lines[i] = line
    return b"\n".join(lines)


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data))]


def _garble(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        how = rng.random()
        if how < 0.5:
            out[i] = rng.randrange(256)
        elif how < 0.75:
            del out[i : i + rng.randint(1, 20)]
        else:
            out[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(out)


def _encoding(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace")
    how = rng.choice(["utf-16", "utf-16-le", "latin-1", "nul", "cp1252"])
    if how == "nul":
        i = rng.randrange(len(data))
        return data[:i] + b"\0" + data[i:]
    if how in ("latin-1", "cp1252"):
        text = text.replace("p1", "Zoë", 1) if "p1" in text else "é" + text
    return text.encode(how, "replace")


def _not_utf8(rng: random.Random, data: bytes) -> bytes:
    """One byte that is not UTF-8 (a lone continuation byte, 0xff, a cut sequence)."""
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice([b"\xff", b"\x80", b"\xc3", b"\xe2\x82", b"\xfe\xff"]) + data[i:]


def _bom(rng: random.Random, data: bytes) -> bytes:
    return rng.choice([b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe"]) + data


def _deep(rng: random.Random, data: bytes, fmt: str) -> bytes:
    """Nesting 1,000 (or a few hundred) levels deep where a value goes."""
    depth = rng.choice([1000, 1000, 300, 40, 33])
    open_, close = (b"{\"a\":" * depth, b"}" * depth) if rng.random() < 0.3 else (
        b"[" * depth, b"]" * depth)
    closed = rng.random() < 0.7
    value = open_ + b"1" + (close if closed else b"")
    if fmt == "jsonl":
        lines = data.split(b"\n")
        i = rng.randrange(max(1, len(lines) - 1))
        if rng.random() < 0.5:
            lines[i] = lines[i].replace(b'"event":{', b'"event":{"source":{"x":' + value + b"},", 1)
        else:
            lines[i] = lines[i].replace(b'"seq":', b'"deep":' + value + b',"seq":', 1)
        return b"\n".join(lines)
    if fmt == "phh":
        toml = (b"[" * depth + b"1" + b"]" * depth) if closed else b"[" * depth
        return data.replace(b"\n", b"\nextra = " + toml + b"\n", 1)
    i = rng.randrange(len(data) + 1)
    return data[:i] + value + data[i:]


def _surrogate(rng: random.Random, data: bytes) -> bytes:
    """A lone surrogate escape in a JSON string (``"B\\ud800b"``)."""
    escape = rng.choice([rb"\ud800", rb"\udfff", rb"\udc80", rb"\ud83d"])
    found = list(re.finditer(rb'"(player|hand|session|payee|payer|button|alias)":"', data))
    if not found:
        return data.replace(b'"', b'"' + escape, 1)
    m = rng.choice(found)
    return data[: m.end()] + escape + data[m.end():]


def _big_field(rng: random.Random, data: bytes) -> bytes:
    """A field (a CSV cell, a string) of 200 KiB."""
    big = b"x" * rng.choice([140_000, 200_000, 1_100_000])
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    line = lines[i]
    j = line.find(b'"')
    lines[i] = (line[: j + 1] + big + line[j + 1:]) if j >= 0 else line + big
    return b"\n".join(lines)


def _long_line(rng: random.Random, data: bytes) -> bytes:
    """A line of 2 MB (or 50 MB, rarely) in the middle of the file."""
    size = 50 << 20 if rng.random() < 0.02 else 2 << 20
    i = data.find(b"\n", rng.randrange(len(data) + 1))
    i = len(data) if i < 0 else i + 1
    return data[:i] + rng.choice([b"#", b"y", b'"']) * size + b"\n" + data[i:]


def _zip(rng: random.Random, data: bytes) -> bytes:
    buf = io.BytesIO()
    method = rng.choice([zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
    with zipfile.ZipFile(buf, "w", method) as archive:
        archive.writestr("hands", data)
    return buf.getvalue()


def _crlf(rng: random.Random, data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n") if rng.random() < 0.7 else data.replace(b"\n", b"\r")


def _splice(rng: random.Random, data: bytes) -> bytes:
    i, j = sorted(rng.sample(range(len(data) + 1), 2)) if len(data) > 1 else (0, 0)
    return data[:j] + data[i:]


MUTATORS: dict[str, Callable[[random.Random, bytes, str], bytes]] = {
    "amount": lambda rng, d, f: _amount(rng, d),
    "order": _order,
    "card": lambda rng, d, f: _card(rng, d),
    "player": lambda rng, d, f: _player(rng, d),
    "line": lambda rng, d, f: _line(rng, d),
    "field": lambda rng, d, f: (_json_field(rng, d) if f == "jsonl" else _csv_field(rng, d)
                                if f == "pokernow" else _line(rng, d)),
    "truncate": lambda rng, d, f: _truncate(rng, d),
    "garble": lambda rng, d, f: _garble(rng, d),
    "encoding": lambda rng, d, f: _encoding(rng, d),
    "not_utf8": lambda rng, d, f: _not_utf8(rng, d),
    "bom": lambda rng, d, f: _bom(rng, d),
    "deep": _deep,
    "surrogate": lambda rng, d, f: _surrogate(rng, d),
    "big_field": lambda rng, d, f: _big_field(rng, d),
    "long_line": lambda rng, d, f: _long_line(rng, d),
    "zip": lambda rng, d, f: _zip(rng, d),
    "crlf": lambda rng, d, f: _crlf(rng, d),
    "splice": lambda rng, d, f: _splice(rng, d),
}
#: The mutations of the suite before the fuzzer's kinds were added (PHH and JSON lines only).
CLASSIC = ("amount", "order", "card", "player", "line", "field", "truncate", "garble",
           "encoding")


@dataclass(frozen=True)
class Mutated:
    """One mutated file: where it is, its format and the mutation's kind."""

    path: Path
    fmt: str
    kind: str


def mutate(rng: random.Random, data: bytes, fmt: str, kind: str) -> bytes:
    """``data`` changed by the mutation ``kind`` (never left as it was)."""
    for _ in range(20):
        new = MUTATORS[kind](rng, data, fmt)
        if new != data:
            return new
    return data + b"\n#"


def mutated_files(n: int, seed: int, out: Path, *, formats: tuple[str, ...] = ("phh", "jsonl"),
                  kinds: tuple[str, ...] = CLASSIC) -> list[Mutated]:
    """``n`` mutated files in ``out``, the formats taking turns, each of a random kind."""
    rng = random.Random(seed)
    seeds = Seeds()
    files = []
    for i in range(n):
        fmt = formats[i % len(formats)]
        base, suffix = seeds.valid(rng, fmt, f"m{seed}-{i}")
        kind = rng.choice(kinds)
        path = out / f"m{i:05d}{suffix}"
        path.write_bytes(mutate(rng, base, fmt, kind))
        files.append(Mutated(path, fmt, kind))
    return files


def file_kind(rng: random.Random, item: Mutated) -> Mutated:
    """Sometimes turn a mutated file into what is not a plain file name: a name with a byte
    that is not UTF-8, a symbolic link to ``/dev/zero`` or a named pipe (each under the
    file's suffix)."""
    roll = rng.random()
    if roll < 0.03:
        raw = os.fsencode(item.path)
        odd = Path(os.fsdecode(raw[: -len(item.path.suffix)] + b"-\xff\xfe" +
                               item.path.suffix.encode()))
        item.path.rename(odd)
        return Mutated(odd, item.fmt, "name")
    if roll < 0.035:
        item.path.unlink()
        item.path.symlink_to("/dev/zero")
        return Mutated(item.path, item.fmt, "dev_zero")
    if roll < 0.04:
        item.path.unlink()
        os.mkfifo(item.path)
        return Mutated(item.path, item.fmt, "pipe")
    return item
