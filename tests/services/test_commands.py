"""The campaign subcommands: export, import, list, demo, and the --db / BRIKDESK_DB choice."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from brikdesk.cli import main
from tests.databases import fresh_url


@pytest.fixture
def dburl(backend: str, tmp_path: Path) -> str:
    return fresh_url(tmp_path, "cli")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_list_export_import_round_trip(capsys, dburl: str, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "--db", dburl, "list")
    assert code == 0 and "No campaigns yet" in out  # an explicit --db gets no demo
    code, out, _ = run(capsys, "--db", dburl, "demo")
    assert code == 0 and "Demo: Battle for Baseplate Valley" in out
    code, out, _ = run(capsys, "--db", dburl, "list")
    assert "Campaign 1: Demo: Battle for Baseplate Valley" in out
    assert "1  The Red Vanguard (Margo; 11 units, budget 80)" in out
    assert "2  Raid on Bilge Cove (in progress; Tobias vs Ines; 9 units, 4 events)" in out
    first = tmp_path / "first.json"
    code, out, _ = run(capsys, "--db", dburl, "export", "--out", str(first))
    assert code == 0 and "30 units" in out
    code, _out, err = run(capsys, "--db", dburl, "import", str(first))
    assert code == 2 and "already exists" in err and "--name" in err
    code, out, _ = run(capsys, "--db", dburl, "import", str(first), "--name", "Copy")
    assert code == 0 and "Imported 'Copy' as campaign 2" in out
    code, _out, err = run(capsys, "--db", dburl, "export", "--out", str(tmp_path / "x.json"))
    assert code == 2 and err == (
        "brikdesk export: there are several campaigns; choose one with --campaign NAME_OR_ID: "
        "'Copy' (id 2), 'Demo: Battle for Baseplate Valley' (id 1)\n"
    )
    # The campaign is named as print and report name theirs: id, name or a unique part.
    for ref in ("1", "baseplate valley"):
        code, out, _ = run(capsys, "--db", dburl, "export", "--campaign", ref, "--out", "-")
        assert code == 0 and json.loads(out) == json.loads(first.read_text(encoding="utf-8"))
    code, _out, err = run(capsys, "--db", dburl, "export", "--campaign", "o", "--out", "-")
    assert code == 2 and "'o' matches 2 campaigns" in err and "give the id" in err
    code, out, _ = run(capsys, "--db", dburl, "export", "--campaign", "copy", "--out", "-")
    copy = json.loads(out)
    assert copy["campaign"]["name"] == "Copy"
    copy["campaign"]["name"] = json.loads(first.read_text(encoding="utf-8"))["campaign"]["name"]
    assert copy == json.loads(first.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "--db", dburl, "list", "--json")
    listed = json.loads(out)
    assert [c["name"] for c in listed["campaigns"]] == ["Copy", "Demo: Battle for Baseplate Valley"]


def test_a_broken_file_is_refused_with_its_place_and_nothing_written(
    capsys, dburl: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "brikdesk-campaign", "version": 1, "campaign": {"name": ', encoding="utf-8"
    )
    code, _out, err = run(capsys, "--db", dburl, "import", str(bad))
    assert code == 2
    assert err.startswith("brikdesk import: bad.json was not imported: $: not valid JSON")
    assert "truncated" in err
    code, out, _ = run(capsys, "--db", dburl, "list", "--json")
    assert json.loads(out)["campaigns"] == []


def test_brikdesk_db_selects_the_database(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BRIKDESK_DB", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    monkeypatch.setenv("BRIKDESK_HOME", str(tmp_path / "home"))
    run(capsys, "demo")
    assert (tmp_path / "env.sqlite3").exists()
    assert not (tmp_path / "home" / "brikdesk.sqlite3").exists()


def test_the_first_start_in_an_empty_data_folder_shows_the_demo(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.delenv("BRIKDESK_DB", raising=False)
    monkeypatch.setenv("BRIKDESK_HOME", str(tmp_path / "fresh"))
    code, out, _ = run(capsys, "list")
    assert code == 0 and "Demo: Battle for Baseplate Valley" in out
    assert (tmp_path / "fresh" / "brikdesk.sqlite3").exists()


def test_a_database_that_cannot_be_opened_is_one_line_and_exit_1(capsys, tmp_path: Path) -> None:
    code, _out, err = run(capsys, "--db", f"sqlite:///{tmp_path / 'no' / 'x.db'}", "list")
    assert code == 1
    assert err.strip().count("\n") == 0 and "does not exist" in err


def test_command_modules_do_not_import_sqlalchemy() -> None:
    code = (
        "import sys\n"
        "import brikdesk.cli, brikdesk.commands.export, brikdesk.commands.import_, "
        "brikdesk.commands.list, brikdesk.commands.demo\n"
        "from brikdesk.cli import main\n"
        "main(['roll', '2d6', '--seed', '3'])\n"
        "print('sqlalchemy' in sys.modules, 'alembic' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, encoding="utf-8", check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "False False"
