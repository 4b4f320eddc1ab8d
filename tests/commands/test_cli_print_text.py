"""``brikdesk print --army ... --out FILE.md|.txt|.bbcode`` and ``--out -``: the roster as text,
every unit with its cost, the total and the budget, in the format the file's ending chooses."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from brikdesk.cli import main
from tests.commands.headless import DEMO_VANGUARD


@pytest.fixture
def db_url(demo_copy: str) -> str:
    """The demo campaign, as ``brikdesk demo`` makes it."""
    return demo_copy


def vanguard(db_url: str) -> tuple[list[tuple[str, int]], int, int | None]:
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    db = open_database(db_url)
    try:
        sv = Services.open(db)
        army = next(a for a in sv.campaigns.list_armies(1) if a.name == "The Red Vanguard")
        roster = sv.roster.roster(army.id)
        return [(u.name, u.cost) for u in roster.units], roster.total, roster.budget
    finally:
        db.close()


@pytest.mark.parametrize(
    ("ending", "first"),
    [
        (".md", "## The Red Vanguard"),
        (".txt", "The Red Vanguard (11 units)"),
        (".bbcode", "[size=150][b]The Red Vanguard[/b][/size]"),
    ],
)
def test_the_ending_chooses_the_format_with_every_unit_total_and_budget(
    tmp_path: Path, db_url: str, capsys, ending: str, first: str
) -> None:
    units, total, budget = vanguard(db_url)
    assert [n for n, _c in units] == DEMO_VANGUARD
    out = tmp_path / f"vanguard{ending}"
    assert main(["--db", db_url, "print", "--army", "red vanguard", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("Wrote the roster of 'The Red Vanguard' as ")
    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[0] == first
    for name, cost in units:
        assert f"{cost} CP" in next(li for li in text.splitlines() if name in li)
    assert f"Total {total} / {budget} CP" in text
    # Written as any other file the user makes (their umask), not private to them.
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~_umask()


def test_the_markdown_battle_report_follows_the_umask_as_pdfs_do(
    tmp_path: Path, db_url: str
) -> None:
    out = tmp_path / "ford.md"
    assert main(["--db", db_url, "report", "--battle", "ford", "--out", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    import os

    old = os.umask(0)
    os.umask(old)
    return old


def test_out_dash_writes_the_text_to_standard_output(db_url: str, capsys) -> None:
    units, total, budget = vanguard(db_url)
    assert main(["--db", db_url, "print", "--army", "red vanguard", "--out", "-"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("The Red Vanguard (11 units)\n")
    assert all(f"- {n} (" in text for n, _c in units)
    assert budget is not None and total > budget  # the demo's Vanguard is over its budget
    assert text.endswith(f"Total {total} / {budget} CP (over budget by {total - budget} CP)\n")
    args = ["--db", db_url, "print", "--army", "red vanguard", "--out", "-", "--format", "bbcode"]
    assert main(args) == 0
    assert capsys.readouterr().out.count("[*]") == len(units)


def test_a_battle_or_an_unknown_ending_is_refused_with_one_line(
    tmp_path: Path, db_url: str, capsys
) -> None:
    assert main(["--db", db_url, "print", "--battle", "ford", "--out", "-"]) == 2
    assert "text formats are for an army" in capsys.readouterr().err
    out = tmp_path / "vanguard.html"
    assert main(["--db", db_url, "print", "--army", "red vanguard", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "must end in .pdf or .txt or .md or .bbcode" in err
    assert not out.exists()
