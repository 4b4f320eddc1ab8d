"""``brikdesk odds``: the table, the JSON object, one-line errors, and a light start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from brikdesk.cli import main

ROOT = Path(__file__).resolve().parents[2]
RIFLE = ["odds", "--action", "d6", "--use", "3", "--damage", "1d6+1", "--armor", "4"]


def run_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    assert main([*RIFLE, *extra, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    return json.loads(out)


def test_json_has_the_four_chances_and_the_damage(capsys):
    data = run_json(capsys)
    assert data["critical_failure"] == pytest.approx(1 / 6)
    assert data["over_the_top"] == pytest.approx(1 / 6)
    assert data["hit"] == pytest.approx(4 / 6)
    assert data["kill"] == pytest.approx(29 / 72)
    damage = data["damage"]
    assert all(key == str(int(key)) for key in damage)
    assert damage["2"] == pytest.approx(1 / 6)  # a 1 on the d6, +1
    assert "7" not in damage  # a 6 always brings a bonus d6: 1d6+1 never totals 7
    assert damage["8"] == pytest.approx(1 / 36)
    assert sum(damage.values()) == pytest.approx(1, abs=1e-12)


def test_json_damage_modifier_is_applied_and_floored(capsys):
    damage = run_json(capsys, "--damage-mod", "-3")["damage"]
    assert damage["0"] == pytest.approx(2 / 6)  # 1d6+1-3 <= 0 on a 1 or a 2
    assert min(int(k) for k in damage) == 0


def test_hero_against_hero_armor_with_deflection(capsys):
    assert (
        main(
            [
                "odds",
                "--action",
                "d10",
                "--use",
                "2",
                "--damage",
                "2dA",
                "--armor",
                "2d6",
                "--deflection",
                "3",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    # Three levels strip 2d10 to nothing, and 3d10 with a Benny's d10 to nothing too.
    assert data["damage"] == {"0": 1.0}
    assert data["kill"] == 0
    assert data["hit"] == pytest.approx(9 / 10)
    assert data["over_the_top"] == pytest.approx(1 / 2)


def test_trivial_use_and_automatic_hit(capsys):
    for option in (["--use", "-"], ["--use", "3", "--auto-hit"]):
        assert main(["odds", *option, "--damage", "1d6+1", "--armor", "4", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert (data["hit"], data["critical_failure"], data["over_the_top"]) == (1, 0, 0)
        assert data["kill"] == pytest.approx(1 / 2)


def test_negative_modifier_and_d4(capsys):
    assert (
        main(
            [
                "odds",
                "--action",
                "d4",
                "--use",
                "5",
                "--mod",
                "-1",
                "--damage",
                "1dA",
                "--armor",
                "4",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["over_the_top"] == 0
    assert data["hit"] == pytest.approx(1 / 4 * 3 / 4)  # natural 4 and a bonus d4 of 2 or more


def test_table_shows_percentages_and_damage_rows(capsys):
    assert main(RIFLE) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.split() == ["hit", "66.67%"] for line in lines)
    assert any(line.split()[:2] == ["destroy", "40.28%"] for line in lines)
    assert any(line.split() == ["Over", "the", "Top", "16.67%"] for line in lines)
    assert any(line.split() == ["2", "16.67%", "100.00%"] for line in lines)  # exactly, at least
    assert any(line.split() == ["5", "16.67%", "50.00%"] for line in lines)
    assert "Benny" in out


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--use", "x"], "--use"),
        (["--armor", "2dA"], "--armor"),
        (["--armor", "lots"], "--armor"),
        (["--damage", "2d"], "--damage"),
        (["--action", "d7"], "--action"),
        (["--deflection", "-1"], "--deflection"),
        (["--mod", "1.5"], "--mod"),
        (["--damage-mod", "many"], "--damage-mod"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(capsys, args, option):
    base = {"--use": "3", "--damage": "1d6", "--armor": "4"}
    for key, value in zip(args[::2], args[1::2], strict=True):
        base[key] = value
    argv = ["odds", *[x for kv in base.items() for x in kv]]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and option in err


def test_too_many_dice_is_one_line_and_status_2(capsys):
    argv = ["odds", "--use", "3", "--damage", "30d10", "--armor", "20d6"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "brikdesk odds: argument --damage: '30d10': more than 20 dice in one "
        "expression (30) at column 1\n"
    )


@pytest.mark.parametrize(
    "armor, reason",
    [
        ("-5", "Armor must be from 0 to 99, not -5"),
        ("-3", "Armor must be from 0 to 99, not -3"),
        ("100", "Armor is at most 99, not 100"),
        ("2dA", "Armor dice can't use dA"),
    ],
)
def test_armor_is_refused_as_the_unit_editor_refuses_it(capsys, armor: str, reason: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["odds", "--use", "3", "--damage", "1d6", "--armor", armor])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"brikdesk odds: argument --armor: '{armor}': {reason}")


def test_a_control_character_is_escaped_visibly_and_quoted_once(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["roll", "1d6\x1b"])
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert err == (
        "brikdesk roll: argument EXPR: '1d6\\x1b': unexpected character U+001B at column 4\n"
    )


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def test_module_command_prints_json():
    done = _python(
        "-m",
        "brikdesk",
        "odds",
        "--action",
        "d10",
        "--use",
        "3",
        "--damage",
        "2dA",
        "--armor",
        "2d6",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hit"] == pytest.approx(8 / 10)
    assert 0 < data["kill"] < data["hit"]
    assert sum(data["damage"].values()) == pytest.approx(1, abs=1e-12)


def test_odds_command_imports_no_qt_and_no_sqlalchemy():
    script = (
        "import sys\n"
        "from brikdesk.cli import main\n"
        "main(['odds', '--use', '3', '--damage', '1d6+1', '--armor', '2d6', '--json'])\n"
        "heavy = ['PySide6', 'shiboken6', 'pyqtgraph', 'sqlalchemy', 'numpy']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = _python("-c", script)
    assert done.returncode == 0, done.stderr
    first, last = done.stdout.strip().splitlines()
    assert json.loads(first)["hit"] == pytest.approx(4 / 6)
    assert last == "[]"


@pytest.mark.parametrize(
    ("edition", "over_the_top", "kill"),
    [("2005", 0.0, 1 / 3), ("2010", 1 / 6, 29 / 72), ("2020", 1 / 6, 29 / 72)],
)
def test_the_edition_decides_the_benny_of_a_natural_six(capsys, edition, over_the_top, kill):
    """2005 has no Over the Top: the rifle destroys when 1d6+1 beats Armor 4 on a hit, 4/6 x
    3/6 = 1/3; 2010's Overskill and 2020's Over the Top add the Benny's chance (29/72)."""
    data = run_json(capsys, "--edition", edition)
    assert data["edition"] == edition
    assert data["hit"] == pytest.approx(4 / 6)
    assert data["over_the_top"] == pytest.approx(over_the_top)
    assert data["kill"] == pytest.approx(kill)


@pytest.mark.parametrize(
    ("edition", "line"),
    [("2005", "  (no Over the Top in 2005)"), ("2010", "  Overskill          16.67%")],
)
def test_the_table_names_a_natural_six_as_the_edition_does(capsys, edition, line):
    assert main([*RIFLE, "--edition", edition]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_an_unknown_edition_is_one_line_and_status_2(capsys):
    with pytest.raises(SystemExit) as exited:
        main([*RIFLE, "--edition", "1999"])
    assert exited.value.code == 2
    assert "--edition" in capsys.readouterr().err
