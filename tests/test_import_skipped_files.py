"""An import of a directory names each file under it that it does not read, in a ``note:``
line saying why (replay/ingest/survey.py; README, "import"), and counts them in its summary;
exit 0, since what it reads is imported (a folder with nothing it reads is refused in one
line, exit 2, no ledger made). Hidden files, documentation and scripts, and the
statement given with ``--ledger`` are left without a note. Named on the command line, such a
file is refused (``error:``, exit 2), as before."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import DATA, SHARED
from tests.test_live_table import one_shot

FORMATS = ("JSON lines (.jsonl), PHH (.phh, .phhs), PokerNow game logs (.csv), PokerStars "
           "hand histories (text)")
LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
STATEMENT = ("player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,"
             "net\nTA,gE4aE_Yhc3,2022-01-13T19:50:00.000Z,,100,,100,0\n")


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "unknown.csv").write_text("a,b,c\n1,2,3\n")
    (folder / "empty.csv").write_bytes(b"")
    (folder / "good.phh").write_text((DATA / "dispute" / "wrong-push.phh").read_text())
    return folder


def test_each_file_a_directory_import_skips_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(folder))
    assert code == 0
    assert out == ("imported 1 hand(s) (24 events) from 1 file(s); 0 already in the ledger; 0 "
                   "rejected; 2 other file(s) skipped (each in a note)\n")
    assert err == (f"note: {folder / 'empty.csv'}: skipped: an empty file\n"
                   f"note: {folder / 'unknown.csv'}: skipped: not a hand history handledger "
                   f"reads ({FORMATS})\n")
    for name in ("unknown.csv", "empty.csv"):  # named, each is refused as before
        code, _, err = one_shot(tmp_path / "t.duckdb", "import", str(folder / name))
        assert (code, err) == (2, f"error: {folder / name}: not a hand history handledger "
                                  f"reads ({FORMATS})\n")


def test_hidden_files_docs_and_the_given_statement_say_nothing(tmp_path: Path) -> None:
    """A PokerNow log with its statement: noted as a statement without ``--ledger``, silent
    with it (then stored: one more event); a hidden file, a file in a hidden folder, a
    README and a script say nothing; a pipe is noted, never opened."""
    folder = tmp_path / "pn"
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "config").write_text("[core]\n")
    (folder / ".DS_Store").write_bytes(b"\0\1")
    (folder / "README.md").write_text("# Friday\n")
    (folder / "fetch.sh").write_text("echo\n")
    (folder / "log.csv").write_bytes(LOG.read_bytes())
    (folder / "ledger_fri.csv").write_text(STATEMENT)
    os.mkfifo(folder / "pipe")
    code, out, err = one_shot(tmp_path / "a.duckdb", "import", str(folder))
    assert code == 0, err
    assert err == (f"note: {folder / 'ledger_fri.csv'}: skipped: a PokerNow ledger statement, "
                   "not a game log (import it with --ledger beside its log)\n"
                   f"note: {folder / 'pipe'}: skipped: not a regular file (a pipe): "
                   "handledger reads files\n")
    assert out.startswith("imported 4 hand(s) (60 events) from 1 file(s);")
    assert out.endswith("; 2 other file(s) skipped (each in a note)\n")
    code, out, err = one_shot(tmp_path / "b.duckdb", "import", str(folder), "--ledger",
                              str(folder / "ledger_fri.csv"))
    assert code == 0, err
    assert err == (f"note: {folder / 'pipe'}: skipped: not a regular file (a pipe): "
                   "handledger reads files\n")
    assert out.startswith("imported 4 hand(s) (61 events) from 1 file(s);")


def test_the_bundled_folders_import_without_a_note(tmp_path: Path) -> None:
    """data/ (READMEs and scripts beside the hands) and the real PokerStars texts (a
    README): nothing skipped worth a note."""
    for n, folder in enumerate((DATA, SHARED / "text")):
        code, out, err = one_shot(tmp_path / f"{n}.duckdb", "import", str(folder))
        assert code == 0 and "note:" not in err and "skipped" not in out, (out, err)


def test_run_names_what_it_skipped_too(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    code, out, err = one_shot(tmp_path / "t.duckdb", "run", str(folder))
    assert code == 0
    assert err.splitlines()[:2] == [f"note: {folder / 'empty.csv'}: skipped: an empty file",
                                    f"note: {folder / 'unknown.csv'}: skipped: not a hand "
                                    f"history handledger reads ({FORMATS})"]
    assert "; 2 other file(s) skipped (each in a note)\n" in out


def test_an_empty_file_is_a_note_whatever_its_suffix(tmp_path: Path) -> None:
    """An empty ``.phh`` or ``.jsonl`` (no byte, or only whitespace) in a folder is a note as
    an empty ``.csv`` is, for ``import`` and ``run``: exit 0; named, it is still refused."""
    folder = _folder(tmp_path)
    (folder / "b.phh").write_bytes(b"")
    (folder / "c.jsonl").write_bytes(b"")
    (folder / "d.phh").write_bytes(b" \n\t\r\n")
    (folder / "e.txt").write_bytes(b"\xef\xbb\xbf\n\n")
    empty = ("b.phh", "c.jsonl", "d.phh", "e.txt", "empty.csv")
    notes = sorted(f"note: {folder / name}: skipped: an empty file" for name in empty)
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(folder))
    assert code == 0, err
    assert err.splitlines() == [*notes, f"note: {folder / 'unknown.csv'}: skipped: not a hand "
                                         f"history handledger reads ({FORMATS})"]
    assert out == ("imported 1 hand(s) (24 events) from 1 file(s); 0 already in the ledger; 0 "
                   "rejected; 6 other file(s) skipped (each in a note)\n")
    code, out, err = one_shot(tmp_path / "r.duckdb", "run", str(folder))
    assert code == 0, err
    assert err.splitlines()[:5] == notes
    assert "; 6 other file(s) skipped (each in a note)\n" in out
    code, _, err = one_shot(tmp_path / "t.duckdb", "import", str(folder / "b.phh"))
    assert (code, err) == (2, f"error: {folder / 'b.phh'}:1: no hand in the file\n")


def test_a_folder_with_nothing_to_import_is_refused(tmp_path: Path) -> None:
    """A folder none of whose files a format reads (a CSV no format reads, an empty file, a
    statement without its log; a README not counted), named to `import` or `run`: refused in
    one line naming the folder and what it skipped, exit 2, no ledger file made; so is a
    folder with no file at all. One file of it that imports brings back the notes, exit 0."""
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "a.csv").write_text("x\n")
    (folder / "b.phh").write_bytes(b"")
    (folder / "ledger_fri.csv").write_text(STATEMENT)
    (folder / "README.md").write_text("# Friday\n")
    db = tmp_path / "t.duckdb"
    for command in ("import", "run"):
        assert one_shot(db, command, str(folder)) == (2, "", (
            f"error: {folder}: nothing to import: 3 file(s) skipped, 1 empty, 1 of no format "
            "handledger reads, 1 PokerNow ledger statement(s) (imported with --ledger beside "
            f"their log); handledger reads {FORMATS}; nothing written\n"))
        assert not db.exists()
    bare = tmp_path / "bare"
    bare.mkdir()
    assert one_shot(db, "import", str(bare)) == (2, "", (
        f"error: {bare}: nothing to import: no file in it that import reads (hidden files and "
        f".md, .rst, .sh files are left unread); handledger reads {FORMATS}; nothing "
        "written\n"))
    assert not db.exists()
    (folder / "good.phh").write_text((DATA / "dispute" / "wrong-push.phh").read_text())
    code, out, _ = one_shot(db, "import", str(folder))
    assert (code, out) == (0, "imported 1 hand(s) (24 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 3 other file(s) skipped (each in a "
                              "note)\n")


def test_a_statement_named_alone_is_said_to_be_one(tmp_path: Path) -> None:
    """A PokerNow ledger statement named on the command line without its log is refused with
    the words a folder's note has for it, not as a file of no format."""
    statement = tmp_path / "st.csv"
    statement.write_text(STATEMENT)
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(statement)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
           "rejected\n",
        f"error: {statement}: a PokerNow ledger statement, not a game log (import it with "
        "--ledger beside its log)\n")
