"""``--out`` of ``export``, ``print`` and ``report`` as a careless user gives it: a FIFO, a
device, a symlink, a folder without the file, a 260-character name. What is there is never
replaced by a file; each refusal is one line (exit 2), never a traceback."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from brikdesk.cli import main

COMMANDS = {
    "export": (["export"], ".json"),
    "print": (["print", "--army", "red vanguard"], ".pdf"),
    "report": (["report", "--battle", "1"], ".md"),
}


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('out') / 'club.sqlite3'}"
    assert main(["--db", url, "demo"]) == 0
    return url


def out_run(db_url: str, command: str, out: str, capsys) -> tuple[int, str]:
    args, _suffix = COMMANDS[command]
    capsys.readouterr()
    code = main(["--db", db_url, *args, "--out", out])
    err = capsys.readouterr().err
    return code, err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_at_out_is_refused_and_stays(
    tmp_path: Path, db_url: str, command: str, capsys
) -> None:
    fifo = tmp_path / f"pipe{COMMANDS[command][1]}"
    os.mkfifo(fifo)
    code, err = out_run(db_url, command, str(fifo), capsys)
    assert code == 2
    assert (
        err == f"brikdesk {command}: cannot write {fifo}: it is a FIFO (named pipe), not a "
        "file; choose a file name\n"
    )
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == [fifo.name]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_at_out_is_refused(tmp_path: Path, db_url: str, command: str, capsys) -> None:
    """``/dev/null`` under the name the command wants (a link to it: the suffix checks pass)."""
    link = tmp_path / f"null{COMMANDS[command][1]}"
    link.symlink_to("/dev/null")
    code, err = out_run(db_url, command, str(link), capsys)
    assert code == 2
    assert "it is a character device, not a file (the link" in err
    assert err.count("\n") == 1
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and link.is_symlink()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_at_out_keeps_pointing_at_the_written_file(
    tmp_path: Path, db_url: str, command: str, capsys, qapp
) -> None:
    """(``qapp``: ``print`` paints its PDF in this process, on the tests' QApplication, not on
    a QGuiApplication of its own that the window tests could not use.)"""
    suffix = COMMANDS[command][1]
    real = tmp_path / f"real{suffix}"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(real)
    code, err = out_run(db_url, command, str(link), capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.stat().st_size > 3 and real.read_bytes() != b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([real.name, link.name])


@pytest.mark.parametrize("command", COMMANDS)
def test_a_too_long_name_and_a_missing_folder_are_one_line(
    tmp_path: Path, db_url: str, command: str, capsys
) -> None:
    suffix = COMMANDS[command][1]
    long = tmp_path / ("n" * 256 + suffix)
    code, err = out_run(db_url, command, str(long), capsys)
    assert code == 2
    assert err.startswith(f"brikdesk {command}: cannot write {long}: the file name is too long")
    assert err.count("\n") == 1
    missing = tmp_path / "no such folder" / f"a{suffix}"
    code, err = out_run(db_url, command, str(missing), capsys)
    assert code == 2
    assert err == (
        f"brikdesk {command}: cannot write {missing}: the folder {missing.parent} does not exist\n"
    )
    assert list(tmp_path.iterdir()) == []
