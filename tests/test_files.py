"""Writing the user's files (``brikdesk.files``): atomic, never over a device, FIFO or link,
and one clear line for what can't be written. The command line's ``export``, ``print`` and
``report`` go through it (tests/commands/test_cli_out_files.py checks them end to end)."""

from __future__ import annotations

import errno
import os
import socket
import stat
from pathlib import Path

import pytest

from brikdesk import files
from brikdesk.errors import UserError
from brikdesk.files import writable_target, write_atomically


def test_a_new_file_gets_the_content_and_no_temporary_file_stays(tmp_path: Path) -> None:
    out = tmp_path / "a.txt"
    assert write_atomically(out, "one\ntwo\n") == out
    assert out.read_text(encoding="utf-8") == "one\ntwo\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    out = tmp_path / "a.txt"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    write_atomically(out, b"new")
    assert out.read_bytes() == b"new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_failure_while_writing_leaves_the_old_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "a.txt"
    out.write_text("old", encoding="utf-8")

    def cancel(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(out, "x" * (3 << 20), progress=cancel)
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_a_symlink_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new"


def test_a_fifo_is_refused_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UserError, match=r"cannot write .*pipe: it is a FIFO \(named pipe\)"):
        write_atomically(fifo, "x")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_link_to_a_fifo_is_refused_naming_both(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.json"
    link.symlink_to(fifo)
    with pytest.raises(UserError, match="the link .*out.json points to .*pipe"):
        write_atomically(link, "x")
    assert link.is_symlink() and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_device_is_refused_and_left_alone() -> None:
    before = os.stat("/dev/null")
    with pytest.raises(UserError, match="/dev/null: it is a character device, not a file"):
        write_atomically("/dev/null", "x")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(UserError, match="it is a socket"):
            write_atomically(path, "x")
    finally:
        sock.close()
    with pytest.raises(UserError, match="it is a folder"):
        write_atomically(tmp_path, "x")


def test_a_too_long_name_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / ("n" * 260 + ".json")
    with pytest.raises(UserError) as info:
        write_atomically(out, "x")
    assert "the file name is too long (265 bytes; at most 255 here)" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"the folder .*nowhere does not exist"):
        writable_target(tmp_path / "nowhere" / "a.txt")


def test_a_system_folder_that_makes_no_files_is_not_called_missing() -> None:
    """``/proc`` is there, but creating a file in it fails as if it were not (ENOENT)."""
    with pytest.raises(UserError) as info:
        write_atomically(Path("/proc/brikdesk-export.json"), "x")
    assert str(info.value) == (
        "cannot write /proc/brikdesk-export.json: the folder /proc does not take new files"
    )


def test_a_folder_without_permission_is_named(tmp_path: Path, monkeypatch) -> None:
    """The folder can't be written (as the system says when the file is created: as root
    ``chmod`` does not stop a write, so the refusal is the system's own)."""

    def refused(*_a: object, **_k: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("brikdesk.files.tempfile.mkstemp", refused)
    with pytest.raises(UserError) as info:
        write_atomically(tmp_path / "a.txt", "x")
    assert str(info.value) == (
        f"cannot write {tmp_path / 'a.txt'}: permission denied "
        f"(the folder {tmp_path} can't be written)"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_file_another_program_holds_open_is_named_so_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows refuses to replace a file a PDF viewer has open (PermissionError, "being used
    by another process"); the message says so instead of blaming the folder."""
    out = tmp_path / "roster.pdf"
    out.write_bytes(b"%PDF old")

    def held(src: object, dst: object) -> None:
        raise PermissionError(13, "The process cannot access the file because it is being used")

    monkeypatch.setattr(files.os, "replace", held)
    with pytest.raises(UserError) as refused:
        write_atomically(out, b"%PDF new")
    assert str(refused.value) == f"cannot write {out}: {files.HELD_OPEN}"
    assert "another program has the file open" in str(refused.value)
    assert "folder" not in str(refused.value)
    assert out.read_bytes() == b"%PDF old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.pdf"]  # no part left
