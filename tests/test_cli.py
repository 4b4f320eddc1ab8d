"""The ``brikdesk`` command as a user runs it: version, headless subcommands, argument errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import brikdesk
from brikdesk.paths import DB_FILENAME
from tests.command_line import BIN, run
from tests.databases import copy_database

QT_MODULES = ("PySide6", "shiboken6", "pyqtgraph", "ui")


def test_brikdesk_version(tmp_path: Path) -> None:
    done = run([str(BIN / "brikdesk"), "--version"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"brikdesk {brikdesk.__version__}"


def test_python_m_brikdesk_version(tmp_path: Path) -> None:
    done = run([sys.executable, "-m", "brikdesk", "--version"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"brikdesk {brikdesk.__version__}"


_NO_QT_SCRIPT = """
import sys
from brikdesk.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {qt!r})
print("QT-MODULES:", ",".join(loaded))
sys.exit(code)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "2d6", "--seed", "1"],
        ["roll", "1dA-2", "--seed", "5", "--action-die", "d10"],
        ["roll", "1d10 Exp", "--json", "--seed", "3"],
    ],
)
def test_subcommands_never_load_qt(tmp_path: Path, args: list[str]) -> None:
    script = _NO_QT_SCRIPT.format(qt=set(QT_MODULES))
    done = run([sys.executable, "-c", script, *args], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "QT-MODULES: "
    assert len(lines) > 1  # the roll itself was printed


def test_the_campaign_subcommands_never_load_qt(tmp_path: Path) -> None:
    """demo, list, export and import open the database (SQLAlchemy) but never Qt."""
    script = _NO_QT_SCRIPT.format(qt=set(QT_MODULES))
    out = tmp_path / "demo.json"
    for args in (
        ["demo"],
        ["list"],
        ["export", "--out", str(out)],
        ["import", str(out), "--name", "Demo copy"],
        ["list", "--json"],
    ):
        done = run([sys.executable, "-c", script, *args], tmp_path)
        assert done.returncode == 0, (args, done.stderr)
        lines = done.stdout.splitlines()
        assert lines[-1] == "QT-MODULES: ", args
        assert len(lines) > 1, args  # the command said what it did
    assert '"name": "Demo copy"' in done.stdout


def test_roll_with_a_seed_shows_every_die_and_repeats(tmp_path: Path) -> None:
    cmd = [str(BIN / "brikdesk"), "roll", "3d6+1", "--seed", "11"]
    first, second = run(cmd, tmp_path), run(cmd, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    head, *dice = first.stdout.splitlines()
    assert head.startswith("3d6+1: ")
    shown = [int(line.split()[1]) for line in dice]
    assert len([line for line in dice if "natural" in line]) == 3
    assert head.endswith(f"= {sum(shown) + 1}")


def test_roll_says_which_die_earned_a_bonus_die(capsys) -> None:
    from brikdesk.cli import main

    assert main(["roll", "1d6", "--seed", "19"]) == 0  # this seed rolls a 6, then a 1
    assert capsys.readouterr().out.splitlines() == [
        "1d6: 6+1 = 7",
        "  d6     6  natural",
        "  d6     1  bonus  (for the 6 on the d6)",
    ]


@pytest.mark.parametrize(("expr", "column"), [("2d", 3), ("2d6+", 5), ("1d6 x", 5)])
def test_a_bad_dice_expression_exits_2_with_one_line(
    tmp_path: Path, expr: str, column: int
) -> None:
    done = run([str(BIN / "brikdesk"), "roll", expr], tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("brikdesk roll: argument EXPR: ")
    assert f"'{expr}'" in lines[0]
    assert lines[0].endswith(f"at column {column}")


def test_the_2d_message_in_full(tmp_path: Path) -> None:
    done = run([str(BIN / "brikdesk"), "roll", "2d"], tmp_path)
    assert done.stderr == (
        "brikdesk roll: argument EXPR: '2d': missing number of sides after 'd' at column 3\n"
    )


def test_a_bad_action_die_names_the_option(tmp_path: Path) -> None:
    done = run([str(BIN / "brikdesk"), "roll", "1dA", "--action-die", "d7"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "brikdesk roll: argument --action-die: 'd7' is not an Action "
        "die; use one of d4, d6, d8, d10, d12"
    )


def test_history_prints_text_and_json_without_qt(tmp_path: Path, cli_demo_template: Path) -> None:
    import json

    script = _NO_QT_SCRIPT.format(qt=set(QT_MODULES))
    copy_database(cli_demo_template, tmp_path / DB_FILENAME)  # as `brikdesk demo` leaves it
    done = run([sys.executable, "-c", script, "history"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "QT-MODULES: "
    assert "Skirmish at Baseplate Ford" in done.stdout and "Standings" in done.stdout
    done = run(
        [sys.executable, "-m", "brikdesk", "history", "--json", "--campaign", "demo"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["timeline"][0]["winner"] == "Margo"
    assert {s["player"] for s in data["standings"]} == {"Margo", "Tobias", "Ines"}
    bad = run([sys.executable, "-m", "brikdesk", "history", "--campaign", "nope"], tmp_path)
    assert bad.returncode == 2 and "nope" in bad.stderr


_NO_CONSOLE_SCRIPT = """
import sys
sys.stdout = sys.stderr = None  # what Windows gives a windowed (pythonw) launcher
sys.argv = ["brikdesk-app", "roll", "2d6", "--seed", "1"]
from brikdesk.cli import gui_main
code = gui_main()
sys.stdout.write("lost")  # the app may print: it goes nowhere instead of failing
sys.__stdout__.write(f"exit {code}")
"""


def test_the_windowed_launcher_runs_with_no_console_at_all(tmp_path: Path) -> None:
    done = run([sys.executable, "-c", _NO_CONSOLE_SCRIPT], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "exit 0"
