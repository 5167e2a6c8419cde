"""The report labels each amendment of a hand by what the host did: a correction, an undo, a
void (a void of an ended hand is stored as a correction that drops its end and the void, one
write: one void), on the session page and in the index's list of corrected hands."""

from __future__ import annotations

import re
from pathlib import Path

#: Ann's aces win the 6-chip pot; the table pushed it to Bob.
_PLAY = ("d dh Ann AsAd\nd dh Bob KsKd\nd dh Cy QsQd\nCy cc\nAnn cc\nBob cc\nd db 2c3d4h\n"
         "Ann cc\nBob cc\nCy cc\nd db 9s\nAnn cc\nBob cc\nCy cc\nd db Jc\nAnn cc\nBob cc\n"
         "Cy cc\npay Bob 6\nend\n")


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_corrections_undos_and_voids_are_labelled_as_the_host_made_them(user, tmp_path) -> None:  # noqa: ANN001
    assert user("session", "open", "s", "--date", "2026-12-01")[0] == 0
    for player in ("Ann", "Bob", "Cy"):
        assert user("buyin", "s", player, "100")[0] == 0
    assert user("hand", "start", "--hand", "w1", "--session", "s", "--game", "NT", "--stakes",
                "1/2", "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy")[0] == 0
    assert user("table", "w1", input=_PLAY)[0] == 0
    assert user("correct", "w1", "--replace", "22", "pay Cy 6", "--reason", "to Cy", "--by",
                "host")[0] == 0
    assert user("undo", "w1", "--by", "dee")[0] == 0
    assert user("correct", "w1", "--replace", "22", "pay Ann 6", "--reason", "Ann aces",
                "--by", "host")[0] == 0
    assert user("hand", "start", "--hand", "w2", "--session", "s", "--game", "NT", "--stakes",
                "1/2", "--seats", "Ann:106,Bob:94,Cy:100", "--button", "Ann")[0] == 0
    assert user("table", "w2", input="d dh Ann ????\nd dh Bob ????\nd dh Cy ????\nAnn f\n"
                                     "Bob f\nend\n")[0] == 0
    assert user("void", "w2", "--reason", "misdeal", "--by", "floor")[0] == 0
    out = tmp_path / "site"
    assert user("report", str(out))[0] == 0
    session = (out / "sessions" / "s.html").read_text(encoding="utf-8")
    cells = [_text(c) for c in re.findall(r"(?:complete|voided) · .*?</td>", session)]
    assert cells == ["complete · corrected by host, undone by dee, corrected by host",
                     "voided · voided by floor"]
    index = (out / "index.html").read_text(encoding="utf-8")
    items = [_text(i) for i in re.findall(r"<li>(?:Corrected|Undone|Voided) by .*?</li>", index)]
    assert items == ["Corrected by host: to Cy",
                     "Undone by dee: undo of the correction at seq 24 (by host: to Cy)",
                     "Corrected by host: Ann aces", "Voided by floor: misdeal"]


def test_an_undo_of_a_void_is_an_undo(user, tmp_path: Path) -> None:  # noqa: ANN001
    assert user("hand", "start", "--hand", "v1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    assert user("table", "v1", input="d dh Ann ????\nd dh Bob ????\nAnn f\nend\n")[0] == 0
    assert user("void", "v1", "--reason", "misdeal", "--by", "floor")[0] == 0
    assert user("undo", "v1", "--by", "floor")[0] == 0
    out = tmp_path / "site"
    assert user("report", str(out))[0] == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    items = [_text(i) for i in re.findall(r"<li>(?:Corrected|Undone|Voided) by .*?</li>", index)]
    assert items == ["Voided by floor: misdeal",
                     "Undone by floor: undo of the void at seq 9 (by floor: misdeal)"]


def test_a_void_in_play_is_labelled_on_the_report_and_its_page(user, tmp_path: Path) -> None:  # noqa: ANN001
    """A void of a hand not yet ended is one write of a lone ``hand_voided`` (no correction):
    the report and the hand's page label it, as a void of an ended hand."""
    assert user("hand", "start", "--hand", "v1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:200,Bob:200", "--button", "Ann")[0] == 0
    assert user("void", "v1", "--reason", "misdeal", "--by", "host")[0] == 0
    out = tmp_path / "site"
    assert user("report", str(out))[0] == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    items = [_text(i) for i in re.findall(r"<li>(?:Corrected|Undone|Voided) by .*?</li>", index)]
    assert items == ["Voided by host: misdeal"]
    code, text = user("view", "v1", "-o", str(tmp_path / "v1.html"))[:2]
    assert code == 0, text
    html = (tmp_path / "v1.html").read_text(encoding="utf-8")
    page = re.sub(r"\s+", " ", _text(re.sub(r"<(script|style).*?</\1>", "", html, flags=re.S)))
    assert re.search(r"Corrections and voids Voided \(seq 4, ledger position 4\) by host at "
                     r"[-0-9]+ [:0-9]+ UTC: misdeal Unsigned\.", page), page[-400:]
