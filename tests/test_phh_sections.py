"""ledger.formats.phh: a ``.phhs`` read section by section gives what reading its TOML whole
gives (hands, errors, lines, source keys), and the line-at-a-time layout scan agrees with the
character walk.

The texts are real hands of ../shared/data/phh put together as ``.phhs`` files, with edits
that make a file not plain (a top-level key, a table twice, a header inside a multi-line
string or array, a sub-table out of order, an indented header, a broken hand).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.formats.phh import scan
from ledger.formats.phh.read import iter_phh, read_phh, read_phh_text, read_phh_whole
from ledger.model.errors import MalformedInput

PHH = Path(__file__).parents[1] / ".." / "shared" / "data" / "phh"


def _bodies() -> list[str]:
    bodies = []
    for path in sorted(PHH.rglob("*.phh*")):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".phhs":
            bodies += [s.text.split("\n", 1)[1] for s in scan.split_sections(text)[1]]
        else:
            bodies.append(text)
    return bodies


BODIES = _bodies()

EDITS = [
    lambda t: "note = 'x'\n" + t,
    lambda t: t.replace("\n[2]\n", "\n  [2]\n", 1),
    lambda t: t.replace("\n[3]\n", "\n[2]\n", 1),
    lambda t: t + "\n[[more]]\na = 1\n",
    lambda t: t.replace("\n[3]\n", "\n[1._x]\ny = 1\n[3]\n", 1),
    lambda t: t.replace("\n[2]\n", "\n[2]\n_z = '''\n[9]\nabc'''\n", 1),
    lambda t: t.replace("\n[2]\n", "\n[2]\n_z = [\n['a'],\n]\n", 1),
    lambda t: t.replace("\n[2]\n", '\n["2"]\n', 1),
    lambda t: t.replace("\n[2]\n", "\n[2] # the second\n", 1),
    lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("min_bet = ", "min_bet = = ", 1),
    lambda t: t.replace("'NT'", "'XT'", 1),
    lambda t: t.replace("\n[2]\n", "\n[2]\nhand = 5\nvenue = 'v'\n", 1)
              .replace("\n[3]\n", "\n[3]\nhand = 5\nvenue = 'v'\n", 1),
    lambda t: t.replace("actions = [", "actions = [\n", 1),
    lambda t: t.replace("', '", "' # c\n, '", 1),
    lambda t: re.sub(r"actions = \[(.*)\]", _one_a_line, t, count=2),
    lambda t: re.sub(r"actions = \[(.*)\]", lambda m: _one_a_line(m, "\n  # c\n\n"), t, count=1),
    lambda t: re.sub(r"actions = \[(.*)\]", lambda m: _one_a_line(m, "  'x', 'y',\n"), t,
                     count=1),
]


def _one_a_line(match: re.Match[str], extra: str = "") -> str:
    """An actions array written one string a line, as the writer does."""
    items = "".join(f"  {a},\n" for a in re.findall(r"'[^']*'", match[1]))
    return f"actions = [\n{items}{extra}]"


def phhs(picks: list[int]) -> str:
    return "# real hands\n" + "".join(
        f"\n[{i}]\n{BODIES[k % len(BODIES)]}" for i, k in enumerate(picks, 1))


def outcome(result: object) -> tuple:
    return (result.hands, [(str(e), e.line, e.hand, e.action) for e in result.errors])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=5),
       st.lists(st.sampled_from(range(len(EDITS))), max_size=3))
def test_section_by_section_reads_what_the_whole_text_reads(picks: list[int],
                                                            edits: list[int]) -> None:
    text = phhs(picks)
    for k in edits:
        text = EDITS[k](text)
    for multi in (True, None):
        assert (outcome(read_phh_text(text, file="f.phhs", multi=multi))
                == outcome(read_phh_whole(text, file="f.phhs", multi=multi)))


def test_a_big_plain_file_is_read_whole_hand_for_hand() -> None:
    text = phhs(list(range(3 * len(BODIES))))
    result = read_phh_text(text, file="big.phhs", multi=True)
    assert len(result.hands) == 3 * len(BODIES) and result.errors == []
    assert outcome(result) == outcome(read_phh_whole(text, file="big.phhs", multi=True))
    assert [h.line for h in result.hands[:2]] == [3, 5 + BODIES[0].count("\n")]


def test_a_dotted_top_level_key_is_not_a_hand() -> None:
    result = read_phh_text(f"x.y = 1\n[1]\n{BODIES[0]}", file="d.phhs")
    assert [h.section for h in result.hands] == ["1"]
    assert [(e.line, e.message) for e in result.errors] == [(1, "'x' is not a hand table")]


def test_a_header_inside_a_multi_line_string_is_not_a_hand() -> None:
    text = f"[1]\n{BODIES[0]}_note = '''\n[2]\nstill the note'''\n"
    (hand,) = read_phh_text(text, file="s.phhs").check()
    assert hand.started.source["_note"] == "[2]\nstill the note"


def test_a_sub_table_out_of_order_belongs_to_its_hand() -> None:
    text = f"[1]\n{BODIES[0]}\n[2]\n{BODIES[1]}\n[1._extra]\nk = 7\n"
    first, second = read_phh_text(text, file="o.phhs").check()
    assert first.started.source["_extra"] == {"k": 7} and "_extra" not in second.started.source


def test_lines_count_newlines_only() -> None:
    """A U+2028 in a comment does not end a line for TOML, nor for the reader."""
    text = f"# a\u2028b\n[1]\n{BODIES[0]}\n[2]\n{BODIES[1].replace('min_bet =', 'min_bet = =')}"
    result = read_phh_text(text, file="u.phhs")
    assert result.hands[0].line == 2
    line = 5 + BODIES[0].count("\n") + BODIES[1].split("min_bet")[0].count("\n")
    assert [e.line for e in result.errors] == [line]
    assert f"at line {line}," in result.errors[0].message


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=3),
       st.lists(st.sampled_from(range(len(EDITS))), max_size=3), st.integers(1, 50))
def test_the_line_scan_agrees_with_the_character_walk(picks: list[int], edits: list[int],
                                                      first: int) -> None:
    text = phhs(picks)
    for k in edits:
        text = EDITS[k](text)
    for piece in [text, *(s.text for s in scan.split_sections(text)[1])]:
        try:
            tomllib.loads(piece)
        except tomllib.TOMLDecodeError:
            continue
        fast = scan.scan_lines(piece, first)
        walked = scan.scan_chars(piece, first)
        if fast is not None:
            assert (fast.tables, fast.keys, fast.actions) == (walked.tables, walked.keys,
                                                              walked.actions)


def test_a_file_is_handed_out_one_hand_at_a_time(tmp_path: Path) -> None:
    """iter_phh gives read_phh's hands in file order, each before the next is read."""
    bad = BODIES[1].replace("min_bet =", "min_bet = =")
    path = tmp_path / "three.phhs"
    path.write_text(f"[1]\n{BODIES[0]}\n[2]\n{bad}\n[3]\n{BODIES[2]}", encoding="utf-8")
    items = iter_phh(path)
    first = next(items)
    assert first.section == "1" and first == read_phh(path).hands[0]
    rest = list(items)
    errors = [i for i in rest if isinstance(i, MalformedInput)]
    assert [i.section for i in rest if i not in errors] == ["3"]
    assert len(errors) == 1 and "[2] bad TOML" in str(errors[0])
