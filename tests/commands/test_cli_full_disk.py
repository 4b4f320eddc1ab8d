"""Every output of the command line on a full disk (a real small file system the test mounts):
``print`` (PDF, Markdown, text), ``report`` (a battle's PDF and Markdown, the campaign's PDF)
and ``export`` (JSON). Whether the disk has no room at all or part of what the file needs,
the command says "the disk is full", exits 2, and the file that was there stays byte for byte
as it was, with no temporary file left beside it. (Qt's PDF writer reports no write error: a
PDF written on a full disk used to come out empty while the command said "Wrote 4 pages".)"""

from __future__ import annotations

from pathlib import Path

import pytest

from brikdesk.cli import main
from tests.smalldisk import fill, only, small_disk

#: command x target: the arguments before ``--out`` and the file's name.
TARGETS = {
    "print-pdf": (["print", "--army", "red vanguard"], "roster.pdf"),
    "print-md": (["print", "--army", "red vanguard"], "roster.md"),
    "print-txt": (["print", "--army", "red vanguard"], "roster.txt"),
    "report-pdf": (["report", "--battle", "1"], "report.pdf"),
    "report-md": (["report", "--battle", "1"], "report.md"),
    "report-campaign-pdf": (["report", "--campaign", "1"], "campaign.pdf"),
    "export-json": (["export"], "club.json"),
}

#: The old file: large enough that a new one that fits in its place would still need more room.
OLD = b"the old file, which must stay as it was\n" * 20


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('full') / 'club.sqlite3'}"
    assert main(["--db", url, "demo"]) == 0
    return url


@pytest.mark.parametrize("room", [0.0, 0.5], ids=["no-room", "half-the-room"])
@pytest.mark.parametrize("target", TARGETS)
def test_a_full_disk_is_said_and_the_old_file_stays(
    tmp_path: Path, db_url: str, target: str, room: float, capsys, qapp
) -> None:
    """No room at all, or room for about half the new file (a PDF then used to come out
    truncated). (``qapp``: the PDFs are painted in this process, on the tests' QApplication.)"""
    args, name = TARGETS[target]
    roomy = tmp_path / name  # what the command writes where there is room
    assert main(["--db", db_url, *args, "--out", str(roomy)]) == 0
    with small_disk(tmp_path) as disk:
        out = disk / name
        out.write_bytes(OLD)
        fill(disk, leave=int(roomy.stat().st_size * room))
        capsys.readouterr()
        code = main(["--db", db_url, *args, "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2
        assert err == f"brikdesk {args[0]}: cannot write {out}: the disk is full\n"
        assert out.read_bytes() == OLD
        assert only(disk, name)
