"""``brikdesk print`` and ``brikdesk report`` as a user runs them: against a database holding the
demo campaign, with no window and no display; unknown or ambiguous names exit 2 with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from brikdesk.cli import main
from tests.commands.headless import DEMO_VANGUARD, run
from tests.pdfread import PAPER_POINTS, pdf_page_size, pdf_pages, pdf_text


@pytest.fixture
def db_url(demo_copy: str) -> str:
    """The demo campaign, as ``brikdesk demo`` makes it."""
    return demo_copy


# --------------------------------------------------------------------------- in a subprocess


def test_print_writes_the_roster_pdf_with_no_display(tmp_path: Path, db_url: str) -> None:
    out = tmp_path / "vanguard.pdf"
    done = run(["--db", db_url, "print", "--army", "red vanguard", "--out", str(out)], tmp_path)
    assert done.returncode == 0, done.stderr
    pages = pdf_pages(out)
    assert done.stdout == (
        f"Wrote {pages} pages to {out}: 'The Red Vanguard' (Margo), 11 units "
        "on 11 cards, A4, 6 turns\n"
    )
    text = pdf_text(out)
    assert all(name in text for name in DEMO_VANGUARD)
    assert "Page 1 of" in text and "Units gained at the table" in text
    assert "Roster warnings" not in text  # only with --warnings


def test_an_unknown_army_exits_2_with_one_line(tmp_path: Path, db_url: str) -> None:
    out = tmp_path / "x.pdf"
    done = run(["--db", db_url, "print", "--army", "Nobody", "--out", str(out)], tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "brikdesk print: there is no army called 'Nobody'; the armies "
        "are: 'The Red Vanguard' (id 1, Margo, "
    )
    assert not out.exists()


def test_a_markdown_report_never_loads_qt(tmp_path: Path, db_url: str) -> None:
    script = (
        "import sys\nfrom brikdesk.cli import main\ncode = main(sys.argv[1:])\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'PySide6', 'shiboken6', 'pyqtgraph', 'ui'})\nprint('QT:', qt)\nsys.exit(code)\n"
    )
    out = tmp_path / "ford.md"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            "--db",
            db_url,
            "report",
            "--battle",
            "ford",
            "--out",
            str(out),
        ],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "QT: []"
    assert out.read_text(encoding="utf-8").startswith("# Skirmish at Baseplate Ford\n")


# --------------------------------------------------------------------------- through main()


def test_an_ambiguous_army_lists_the_candidates(tmp_path: Path, db_url: str, capsys) -> None:
    code = main(["--db", db_url, "print", "--army", "the", "--out", str(tmp_path / "a.pdf")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'the' matches 2 armies: 'The Red Vanguard' (id 1, Margo, " in err
    assert "'The Salty Bilge Crew' (id 3, Ines, " in err and err.endswith("give the id\n")


def test_print_options_paper_turns_black_and_white_warnings(
    tmp_path: Path, db_url: str, capsys, qapp
) -> None:
    out = tmp_path / "posse.pdf"
    code = main(
        [
            "--db",
            db_url,
            "print",
            "--army",
            "2",
            "--out",
            str(out),
            "--paper",
            "Letter",
            "--turns",
            "8",
            "--bw",
            "--no-fold",
            "--warnings",
            "--blank-cards",
            "0",
        ]
    )
    assert code == 0
    stdout = capsys.readouterr().out.splitlines()
    pages = pdf_pages(out)
    assert stdout == [
        f"Wrote {pages} pages to {out}: 'Moonlight Posse' (Tobias), 8 units on 8 cards, "
        "Letter, 8 turns, black and white",
        'Left out 2 units dead in the campaign: Rusty "Two-Studs" McGee, Cactus Pete '
        "(--include-dead prints them)",
    ]
    assert pdf_page_size(out) == PAPER_POINTS["letter"]
    text = pdf_text(out)
    assert "Roster warnings" in text and "over budget" in text
    assert "Units gained at the table" not in text
    assert "Cactus Pete" not in text
    # eight turns of tick boxes: the grid's heading reads "Turn 1 2 ... 8", then the rows
    assert "Turn 1 2 3 4 5 6 7 8 Action" in " ".join(text.split())


def test_report_as_pdf_and_markdown(tmp_path: Path, db_url: str, capsys, qapp) -> None:
    pdf = tmp_path / "cove.pdf"
    assert (
        main(
            [
                "--db",
                db_url,
                "report",
                "--battle",
                "Raid on Bilge Cove",
                "--campaign",
                "demo: battle for baseplate valley",
                "--out",
                str(pdf),
                "--paper",
                "letter",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out == (
        f"Wrote 1 page to {pdf}: 'Raid on Bilge Cove' (in progress "
        f"{_date_in(pdf_text(pdf))}; 1 round, 3 attacks: 2 hits, 1 kill; 1 Over "
        "the Top)\n"
    )
    assert pdf_page_size(pdf) == PAPER_POINTS["letter"]
    text = pdf_text(pdf)
    assert "Dynamite Dot (Tobias) attacks Deckhand Dory (Ines) with an Explosive" in text
    assert "Ines's turn (in progress)" in text

    md = tmp_path / "ford.md"
    assert main(["--db", db_url, "report", "--battle", "1", "--out", str(md)]) == 0
    assert capsys.readouterr().out.startswith(
        f"Wrote Markdown to {md}: 'Skirmish at Baseplate Ford' (finished "
    )
    lines = md.read_text(encoding="utf-8").splitlines()
    assert '| Tobias | 4 | 2 | 2 | 0 | Cactus Pete, Rusty "Two-Studs" McGee |' in lines
    assert "| 1 | 0 | 1 | █ 1 |" in lines and "| 2 | 0 | 1 | █ 1 |" in lines


def test_report_in_black_and_white(tmp_path: Path, db_url: str, capsys, qapp) -> None:
    pdf = tmp_path / "ford-bw.pdf"
    assert main(["--db", db_url, "report", "--battle", "1", "--out", str(pdf), "--bw"]) == 0
    assert capsys.readouterr().out.startswith(
        f"Wrote 1 page, black and white to {pdf}: 'Skirmish at Baseplate Ford'"
    )
    assert "Skirmish at Baseplate Ford: battle report" in pdf_text(pdf)


def _date_in(text: str) -> str:
    import re

    found = re.search(r"In progress (\d{4}-\d\d-\d\d)", text)
    assert found, text[:300]
    return found.group(1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["print", "--army", "1", "--out", "x.pdf", "--turns", "13"],
            "brikdesk print: argument --turns: '13' is not a whole number from 1 to 12\n",
        ),
        (
            ["print", "--army", "1", "--out", "x.pdf", "--paper", "a3"],
            "brikdesk print: argument --paper: 'a3' is not a paper size; use a4 or letter\n",
        ),
        (
            ["report", "--battle", "1", "--out", "x.txt"],
            "brikdesk report: --out: 'x.txt' must end in .pdf or .md or .markdown\n",
        ),
        (
            ["report", "--battle", "1", "--out", "x.md", "--bw"],
            "brikdesk report: --bw is for a PDF; Markdown has no colours\n",
        ),
        (
            ["report", "--battle", "Siege", "--out", "x.md"],
            "brikdesk report: there is no battle called 'Siege'; the battles are: 'Skirmish at "
            "Baseplate Ford' (id 1, finished, Demo: Battle for Baseplate Valley), 'Raid on Bilge "
            "Cove' (id 2, in progress, Demo: Battle for Baseplate Valley)\n",
        ),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    db_url: str, capsys, args, message, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["--db", db_url, *args])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    assert code == 2
    assert capsys.readouterr().err == message
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("x.")]
