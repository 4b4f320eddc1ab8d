"""Writing the user's files: every file BrikDesk writes goes through :func:`write_atomically`
or :func:`replacing`.

The content is produced whole first (a PDF or a chart is rendered to memory and checked by its
maker), then written to a temporary file beside the target (same folder, so the same file
system) and renamed into place only when complete and checked: every write's count is checked,
the file is synced to the disk (``fsync``: a full disk or a failing one says so here, not
later), and its size on disk must equal what was produced. So a failure, a full disk or a kill
never leaves half a file, and a file that was there stays byte for byte as it was until the
new one replaces it. A full disk is said as "the disk is full". Before anything is
written the target is checked (:func:`writable_target`):

- an existing target that is not a regular file (a device such as ``/dev/full``, a FIFO, a
  socket, a folder) is refused: renaming over it would replace the device or pipe with a file;
- a symbolic link is followed and the file it points to is replaced: the link itself is never
  replaced by a file (a dangling link gets its target created);
- a too-long name, a missing folder or a folder that can't be written is one clear line.

A replaced file keeps its permissions; a new one gets the usual ones (0666 less the umask).
Errors are ``UserError`` (with ``field``, the option or field the path came from), never a
traceback. Nothing here imports anything beyond the standard library and ``brikdesk.errors``.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from brikdesk.errors import UserError

#: The longest file name (one path component, in bytes) where the system does not say.
NAME_MAX = 255
#: Why a complete new file could not replace the old one (Windows: a PDF viewer or a
#: spreadsheet has it open; anywhere: it is marked read-only).
HELD_OPEN = (
    "another program has the file open, or it is read-only: close it there (a PDF viewer, "
    "an editor) and try again"
)
#: Written at a time, so that a progress callback is called between pieces.
_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


#: The errors of a write that found no room: no space left, or the user's quota used up.
_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


class IncompleteOutput(OSError):
    """What was written is not what was produced (a short write the system did not report)."""


def file_kind(mode: int) -> str:
    """What a ``st_mode`` that is not a regular file is, in words ("a FIFO (named pipe)")."""
    return next((what for test, what in _KINDS if test(mode)), "not a file")


def _refuse(target: str | os.PathLike[str], why: str, field: str) -> UserError:
    return UserError(f"cannot write {os.fspath(target)}: {why}", field=field)


def _name_max(folder: Path) -> int:
    if not hasattr(os, "pathconf"):  # Windows: no pathconf; NTFS takes 255 characters
        return NAME_MAX
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return NAME_MAX


def _why(exc: OSError, folder: Path) -> str:
    """One line for an ``OSError`` of writing in ``folder``."""
    if isinstance(exc, IncompleteOutput):
        return str(exc.strerror)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied (the folder {folder} can't be written)"
    if exc.errno == errno.EROFS:
        return f"the folder {folder} is on a read-only file system"
    if exc.errno in _FULL:
        return "the disk is full"
    if exc.errno == errno.EFBIG:
        return "the file is larger than this file system allows"
    if exc.errno == errno.EIO:
        return "the disk reported an input/output error"
    if exc.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    if exc.errno == errno.ENOENT:
        if folder.is_dir():  # /proc, /sys: there, but the system makes no files in it
            return f"the folder {folder} does not take new files"
        return f"the folder {folder} does not exist"
    return str(exc.strerror or exc)


def writable_target(path: str | os.PathLike[str], *, field: str = "out") -> Path:
    """The regular file to replace when writing ``path`` (a symbolic link's target), checked:
    ``UserError`` if it is something else (a device, a FIFO, a socket, a folder), if its name
    is too long, or if its folder is missing or can't be written. Nothing is created."""
    shown = Path(path)
    if not str(path):
        raise UserError("name the file to write", field=field)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    limit = _name_max(folder) if folder.is_dir() else NAME_MAX
    if len(os.fsencode(target.name)) > limit:
        raise _refuse(
            shown,
            f"the file name is too long ({len(os.fsencode(target.name))} bytes; "
            f"at most {limit} here)",
            field,
        )
    try:
        st = target.stat()
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise _refuse(shown, f"{folder} is not a folder", field) from None
    except OSError as exc:
        raise _refuse(shown, _why(exc, folder), field) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = file_kind(st.st_mode)
        link = f" (the link {shown} points to {target})" if target != shown else ""
        raise _refuse(shown, f"it is {kind}, not a file{link}; choose a file name", field)
    if not folder.is_dir():
        raise _refuse(shown, f"the folder {folder} does not exist", field)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _refuse(shown, f"permission denied (the folder {folder} can't be written)", field)
    return target


def _new_file_mode() -> int:
    """0666 less the process's umask (read without changing it where the system tells)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, and put it back at once
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def replacing(
    path: str | os.PathLike[str], *, field: str = "out", suffix: str = ".part"
) -> Iterator[Path]:
    """``with replacing(path) as part:`` write the whole content to ``part`` (a new, empty
    file beside the target); when the block ends normally it is renamed into place, and on
    any exception it is removed and the target left as it was. Returns through the block the
    path to write (ending in ``suffix``, for writers that choose a format by the ending); the
    target is checked first (:func:`writable_target`)."""
    target = writable_target(path, field=field)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(target.stat().st_mode) if target.is_file() else _new_file_mode()
        fd, tmp = tempfile.mkstemp(prefix=".brikdesk-", suffix=suffix, dir=folder)
    except OSError as exc:
        raise _refuse(path, _why(exc, folder), field) from None
    part = Path(tmp)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            else:  # Windows before Python 3.13: only the read-only flag, by name
                os.chmod(part, mode)
        finally:
            os.close(fd)
        yield part
        with open(part, "rb+") as f:
            os.fsync(f.fileno())
        # Checked again just before the rename: a device or FIFO put there meanwhile stays.
        writable_target(path, field=field)
        try:
            os.replace(part, target)
        except PermissionError:  # the folder took the new file: the old one is held
            raise _refuse(path, HELD_OPEN, field) from None
        _sync_folder(folder)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise _refuse(path, _why(exc, folder), field) from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the system allows a folder to be synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems (and systems) do not sync a folder; the rename stands
    finally:
        os.close(fd)


def write_atomically(
    path: str | os.PathLike[str],
    content: str | bytes,
    *,
    field: str = "out",
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Write ``content`` (text as UTF-8 with ``\\n`` line ends, or bytes) to ``path`` through a
    temporary file renamed into place (see the module docstring). ``progress(done, total)`` is
    called between megabytes and may raise to cancel (the target is then left as it was).
    Returns the path written (as given)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with replacing(path, field=field) as part, open(part, "r+b", buffering=0) as f:
        view = memoryview(data)
        done = 0
        while done < len(data):
            if progress is not None and done % _CHUNK == 0:
                progress(done, len(data))
            end = min(len(data), done + _CHUNK - done % _CHUNK)
            wrote = f.write(view[done:end])
            if not wrote:  # a write that takes nothing and says nothing: never loop on it
                raise IncompleteOutput(errno.EIO, "the system took none of the data")
            done += wrote
        os.fsync(f.fileno())
        on_disk = os.fstat(f.fileno()).st_size
        if on_disk != len(data):
            raise IncompleteOutput(
                errno.EIO, f"the file came out {on_disk:,} bytes long, not {len(data):,}"
            )
    if progress is not None:
        progress(len(data), len(data))
    return Path(path)
