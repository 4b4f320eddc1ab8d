"""The README's examples run as written: each ``$ brikdesk ...`` of its console blocks prints
what the README shows (up to a ``…`` line, where the README leaves the rest out), each dice
expression its ``roll`` row gives rolls as typed there, quoted or not, and the ``export | import``
pipeline it shows copies a campaign."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.command_line import BIN, run

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def console_examples() -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the README's console blocks with the lines shown under it."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


def roll_expressions() -> list[str]:
    """The expressions of the ``brikdesk roll`` row, as the README writes them."""
    row = next(line for line in README.splitlines() if line.startswith("| `brikdesk roll "))
    listed = re.search(r"rolls a dice expression \((.*?)\) and", row)
    assert listed is not None
    return re.findall(r"`([^`]+)`", listed.group(1))


def brikdesk(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "brikdesk"
    return [str(BIN / "brikdesk"), *words[1:]]


def test_the_readme_has_examples_to_run() -> None:
    assert len(console_examples()) >= 3
    assert "1d10 Exp" in roll_expressions()


@pytest.mark.parametrize(("command", "shown"), console_examples(), ids=lambda v: str(v)[:40])
def test_each_console_example_prints_what_the_readme_shows(
    tmp_path: Path, command: str, shown: list[str]
) -> None:
    done = run(brikdesk(command), tmp_path)
    printed = (done.stdout + done.stderr).splitlines()
    if shown and shown[-1] == "…":
        shown = shown[:-1]
        printed = printed[: len(shown)]
    assert printed == shown


@pytest.mark.parametrize("expr", roll_expressions())
def test_each_roll_expression_rolls_as_written(tmp_path: Path, expr: str) -> None:
    done = run(brikdesk(f"brikdesk roll {expr} --seed 1"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^  d\d+ +\d+  natural", done.stdout, flags=re.M), done.stdout


def test_the_export_import_pipeline_copies_a_campaign(tmp_path: Path) -> None:
    import subprocess

    pipeline = "brikdesk export --out - | brikdesk --db sqlite:///other.sqlite3 import -"
    escaped = pipeline.replace("|", "\\|")  # as a Markdown table cell writes it
    assert f"`{escaped}`" in README
    assert run(brikdesk("brikdesk demo"), tmp_path, timeout=120).returncode == 0
    done = run(
        ["bash", "-c", pipeline],
        tmp_path,
        timeout=120,
        path=str(BIN),
    )
    assert done.returncode == 0, done.stderr
    listed = run(brikdesk("brikdesk --db sqlite:///other.sqlite3 list"), tmp_path)
    assert listed.returncode == 0 and listed.stdout.strip()
    assert isinstance(done, subprocess.CompletedProcess)
