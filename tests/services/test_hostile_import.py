"""Hostile import files: devices, FIFOs, huge payloads, bad text. Refused with one line naming
the place, quickly and in bounded memory, and nothing is written."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from brikdesk.cli import main
from brikdesk.errors import UserError
from brikdesk.limits import MAX_FILE_BYTES, NAME_LEN
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.services.campaigns import PlayerPatch
from tests.databases import copy_database
from tests.services.campaign_data import demo_id, table_counts


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block takes longer than ``seconds``."""

    def give_up(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def demo_doc(sv: Services) -> dict[str, Any]:
    return sv.transfer.export_campaign(demo_id(sv))


# -- 1: devices and FIFOs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "device, kind", [("/dev/zero", "character device"), ("/dev/urandom", "character device")]
)
def test_a_symlink_to_a_device_is_refused_without_reading_it(
    sv: Services, db: Database, tmp_path: Path, device: str, kind: str
) -> None:
    link = tmp_path / "campaign.json"
    link.symlink_to(device)
    before = table_counts(db)
    with within(5), pytest.raises(UserError) as err:
        sv.transfer.import_file(link)
    assert (
        str(err.value) == f"campaign.json was not imported: it is not a regular file (it is "
        f"a {kind})"
    )
    assert table_counts(db) == before


def test_a_fifo_with_no_writer_is_refused_at_once(sv: Services, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with within(5), pytest.raises(UserError, match="not a regular file .*FIFO"):
        sv.transfer.import_file(fifo)


def test_the_command_line_refuses_a_device_in_one_line(capsys, tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with within(10):
        code = main(["--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "import", str(link)])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        err == "brikdesk import: zero.json was not imported: it is not a regular file "
        "(it is a character device)\n"
    )


def test_a_file_that_grows_past_the_limit_is_read_no_further(
    sv: Services, tmp_path: Path, monkeypatch
) -> None:
    from brikdesk.services import transfer

    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", 1000)
    reads: list[int] = []
    real_read = os.read

    path = tmp_path / "growing.json"
    path.write_text(" " * 900, encoding="utf-8")

    def progress(stage: str, done: int, total: int) -> None:
        reads.append(done)
        if stage == "Reading" and done == 900:  # another program appends while we read
            with path.open("a", encoding="utf-8") as f:
                f.write(" " * 5000)

    with pytest.raises(UserError, match="larger than"):
        sv.transfer.import_file(path, progress=progress)
    assert max(reads) <= 1001
    assert real_read is os.read


# -- 2: bounded work -----------------------------------------------------------------------------


def test_sixty_megabytes_of_small_numbers_are_refused_before_parsing(
    demo_sv: Services, demo_db: Database, tmp_path: Path
) -> None:
    doc = demo_doc(demo_sv)
    path = tmp_path / "numbers.json"
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(doc)[:-1] + ', "x": [')
        f.write("1," * 30_000_000)
        f.write("1]}")
    assert 59_000_000 < path.stat().st_size < MAX_FILE_BYTES
    before = table_counts(demo_db)
    with (
        within(20),
        pytest.raises(
            UserError,
            match=r"\$: the file holds more than 6,000,000 values; a campaign",
        ),
    ):
        demo_sv.transfer.import_file(path, name="Numbers")
    assert table_counts(demo_db) == before


# -- 3 and 4: text -------------------------------------------------------------------------------


def import_text(sv: Services, text: str) -> str:
    with pytest.raises(UserError) as err:
        sv.transfer.import_campaign(text.encode("utf-8"), name="Hostile", source="h.json")
    return str(err.value)


def test_a_lone_surrogate_in_a_name_is_refused_naming_the_place(
    demo_sv: Services, demo_db: Database
) -> None:
    text = json.dumps(demo_doc(demo_sv)).replace('"Margo"', '"Margo\\ud800"', 1)
    before = table_counts(demo_db)
    assert import_text(demo_sv, text) == (
        "h.json was not imported: $.players[0].name: contains a lone surrogate U+D800 at "
        "position 6 (not a character; the text is not valid Unicode)"
    )
    assert table_counts(demo_db) == before


def test_a_lone_surrogate_in_an_event_text_is_refused_naming_the_place(demo_sv: Services) -> None:
    doc = demo_doc(demo_sv)
    doc["battles"][0]["events"][0]["payload"]["text"] = "PLACEHOLDER"
    text = json.dumps(doc).replace('"PLACEHOLDER"', '"Kate \\udfff hits"')
    assert import_text(demo_sv, text) == (
        "h.json was not imported: $.battles[0].events[0].payload.text: contains a "
        "lone surrogate U+DFFF at position 6 (not a character; the text is not valid Unicode)"
    )


@pytest.mark.parametrize(
    "where, value, message",
    [
        (
            ("players", 0, "name"),
            "Margo\x1b[2J",
            "$.players[0].name: contains the control character U+001B at position 6",
        ),
        (
            ("armies", 0, "units", 0, "notes"),
            "ding\x07\x08",
            "$.armies[0].units[0].notes: contains the control character U+0007",
        ),
        (
            ("campaign", "notes"),
            "a\x1bb",
            "$.campaign.notes: contains the control character U+001B",
        ),
        (
            ("battles", 0, "events", 0, "payload", "text"),
            "\x1b[31mred",
            "$.battles[0].events[0].payload.text: contains the control character U+001B",
        ),
    ],
)
def test_control_characters_are_refused_on_import_as_in_the_app(
    demo_sv: Services, where, value, message
) -> None:
    doc = demo_doc(demo_sv)
    node: Any = doc
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    assert message in import_text(demo_sv, json.dumps(doc))


def test_the_app_refuses_the_same_text(demo_sv: Services) -> None:
    player = demo_sv.campaigns.list_players(demo_id(demo_sv))[0]
    for bad, reason in (
        ("Margo\x1b[2J", "control character U+001B"),
        ("Margo\ud800", "lone surrogate U+D800"),
    ):
        with pytest.raises(UserError, match=re.escape(reason)):
            demo_sv.campaigns.update_player(player.id, PlayerPatch(name=bad))


def test_list_prints_control_characters_stored_earlier_as_escapes(capsys, tmp_path: Path) -> None:
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    assert main(["--db", url, "demo"]) == 0
    from brikdesk.persistence.db import open_database

    with open_database(url) as db, db.sessions.begin() as s:  # as an older BrikDesk stored it
        s.execute(
            text("UPDATE player SET name = :n WHERE name = 'Margo'"), {"n": "Margo\x1b[2J\x07"}
        )
    capsys.readouterr()
    assert main(["--db", url, "list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "Margo\\x1b[2J\\x07 (#" in out


# -- 9: messages ---------------------------------------------------------------------------------


def test_a_megabyte_name_is_reported_against_the_name_limit(demo_sv: Services) -> None:
    doc = demo_doc(demo_sv)
    doc["armies"][0]["units"][0]["name"] = "x" * 1_000_000
    assert import_text(demo_sv, json.dumps(doc)).endswith(
        f"$.armies[0].units[0].name: is too long (1000000 characters; at most {NAME_LEN})"
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_naming_their_place(demo_sv: Services, constant: str) -> None:
    doc = demo_doc(demo_sv)
    doc["armies"][1]["units"][2]["kills"] = "PLACEHOLDER"
    text = json.dumps(doc).replace('"PLACEHOLDER"', constant)
    assert import_text(demo_sv, text).endswith(
        f"$.armies[1].units[2].kills: {constant} is not a number JSON allows"
    )


# -- 9: export file modes ------------------------------------------------------------------------


def test_export_keeps_an_existing_files_mode_and_gives_a_new_one_the_usual_mode(
    demo_sv: Services, tmp_path: Path
) -> None:
    cid = demo_id(demo_sv)
    existing = tmp_path / "shared.json"
    existing.write_text("old", encoding="utf-8")
    existing.chmod(0o644)
    demo_sv.transfer.write_export(cid, existing)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o644
    assert json.loads(existing.read_text(encoding="utf-8"))["format"] == "brikdesk-campaign"
    mask = os.umask(0o027)
    try:
        new = demo_sv.transfer.write_export(cid, tmp_path / "new.json")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o640


def test_a_cancelled_export_leaves_the_old_file_and_no_temporary_file(
    demo_sv: Services, tmp_path: Path
) -> None:
    from brikdesk.services.transfer import Cancelled

    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")

    def cancel(stage: str, done: int, total: int) -> None:
        if stage == "Writing":
            raise Cancelled

    with pytest.raises(Cancelled):
        demo_sv.transfer.write_export(demo_id(demo_sv), target, progress=cancel)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir() if "out.json" in p.name] == ["out.json"]


def test_a_cancelled_import_writes_nothing(demo_sv: Services, demo_db: Database) -> None:
    from brikdesk.services.transfer import Cancelled

    text = demo_sv.transfer.export_json(demo_id(demo_sv))
    before = table_counts(demo_db)
    seen: list[str] = []

    def cancel(stage: str, done: int, total: int) -> None:
        seen.append(stage)
        if stage == "Saving":  # the last moment: everything is written, not yet committed
            raise Cancelled

    with pytest.raises(Cancelled):
        demo_sv.transfer.import_campaign(text, name="Copy", progress=cancel)
    assert {"Reading", "Checking", "Writing", "Saving"} <= set(seen)
    assert table_counts(demo_db) == before


# -- 5: dice the app accepts anywhere have bounded odds -----------------------------------------


@pytest.mark.parametrize("damage", ["100d100+5", "39d100", "11d100"])
def test_a_house_rule_damage_beyond_the_dice_limits_is_refused(
    demo_sv: Services, damage: str
) -> None:
    cid = demo_id(demo_sv)
    with pytest.raises(UserError, match="dice"):
        demo_sv.catalog.set_item_field(cid, "long-ranged-weapon", "damage", damage)


def test_an_imported_house_rule_beyond_the_dice_limits_is_refused(demo_sv: Services) -> None:
    sv = demo_sv
    cid = demo_id(sv)
    sv.catalog.set_item_field(cid, "long-ranged-weapon", "damage", "10d100")  # the most
    doc = sv.transfer.export_campaign(cid)
    [entry] = [h for h in doc["catalog"]["items"] if h["key"] == "long-ranged-weapon"]
    entry["entry"]["damage"] = "100d100+5"
    message = import_text(sv, json.dumps(doc))
    assert "$.catalog.items[0].entry" in message and "more than 20 dice" in message


# -- 9: a killed import committed and said so, or wrote nothing ----------------------------------


@pytest.mark.slow
def test_a_killed_import_either_committed_and_said_so_or_wrote_nothing(
    tmp_path: Path, empty_template: Path
) -> None:
    """``brikdesk import`` killed (SIGKILL) at moments spread over its run, its output going to
    a pipe: the campaign is there whole or not at all, and "Imported" reached the pipe only
    if it is there. (A kill between the commit and the line, a window of microseconds, leaves
    the campaign without the line: no program can print and commit as one step.)"""
    import subprocess
    import sys
    import time

    from sqlalchemy import text

    from brikdesk.persistence.db import open_database

    source_url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    assert main(["--db", source_url, "demo"]) == 0
    export = tmp_path / "demo.json"
    assert main(["--db", source_url, "export", "--out", str(export)]) == 0
    brikdesk = str(Path(sys.executable).parent / "brikdesk")
    start = time.perf_counter()
    full = subprocess.run(
        [brikdesk, "--db", f"sqlite:///{tmp_path / 'timing.sqlite3'}", "import", str(export)],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )
    took = time.perf_counter() - start
    assert full.returncode == 0 and full.stdout.startswith("Imported")
    for n in range(10):
        url = copy_database(empty_template, tmp_path / f"killed-{n}.sqlite3")  # an empty one
        proc = subprocess.Popen(
            [brikdesk, "--db", url, "import", str(export)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
        )
        time.sleep(took * (0.3 + 0.08 * n))
        proc.kill()
        out, _err = proc.communicate(timeout=30)
        with open_database(url) as db, db.sessions.begin() as s:
            campaigns = s.execute(text("SELECT count(*) FROM campaign")).scalar_one()
            units = s.execute(text("SELECT count(*) FROM unit")).scalar_one()
        assert (campaigns, units) in ((0, 0), (1, 30))
        if "Imported" in out:
            assert campaigns == 1, (n, out)


# -- progress on a terminal ----------------------------------------------------------------------


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.text = ""
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_terminal_progress_shows_only_after_a_second_and_only_on_a_terminal() -> None:
    from brikdesk.commands.common import TerminalProgress

    now = [0.0]
    term = _Terminal(tty=True)
    progress = TerminalProgress("Importing", term, clock=lambda: now[0])
    progress("Reading", 10, 100)
    assert term.text == ""  # quick work shows nothing
    now[0] = 1.5
    progress("Writing", 42, 100)
    assert term.text == "\rImporting: Writing 42%"
    progress.finish()
    assert term.text.endswith("\r")  # the line is cleared before the result is printed
    pipe = _Terminal(tty=False)
    quiet = TerminalProgress("Importing", pipe, clock=lambda: now[0])
    now[0] = 10.0
    quiet("Writing", 42, 100)
    assert pipe.text == ""
