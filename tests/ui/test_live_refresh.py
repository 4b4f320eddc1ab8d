"""Live refresh: what another BrikDesk or the command line writes to the same database shows in
the open windows within about two seconds, keeping the selection and the scroll."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.summaries import PlayerPatch


def _in_another_process(url: str, body: str) -> None:
    script = (
        textwrap.dedent("""
        from brikdesk.persistence.db import open_database
        from brikdesk.services import Services
        from brikdesk.services.roster import UnitPatch
        db = open_database(URL)
        sv = Services.open(db)
    """).replace("URL", repr(url))
        + textwrap.dedent(body)
        + "\ndb.close()\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def test_a_roster_shows_a_rename_made_by_another_process(open_main, demo_db, qtbot) -> None:
    setup = open_database(demo_db)
    sv = Services.open(setup)
    army_id = sv.campaigns.list_armies(sv.campaigns.list_campaigns()[0].id)[0].id
    sv.roster.add_units(army_id, "minifig", 60)  # enough rows to scroll
    setup.close()
    main = open_main(demo_db)
    roster = main.open_roster(army_id)
    qtbot.waitExposed(roster)
    rows = roster.model.all_rows()
    chosen, renamed = rows[-3], rows[0]
    roster.select_units([chosen.id])
    bar = roster.table.verticalScrollBar()
    bar.setValue(bar.maximum())
    scrolled = bar.value()
    assert scrolled > 0
    _in_another_process(
        demo_db, f"sv.roster.edit_unit({renamed.id}, UnitPatch(name='Renamed Elsewhere'))"
    )
    qtbot.waitUntil(
        lambda: "Renamed Elsewhere" in [r.name for r in roster.model.all_rows()], timeout=3000
    )
    assert [r.id for r in roster.selected_rows()] == [chosen.id]
    assert bar.value() == scrolled
    assert "another BrikDesk" in main.statusBar().currentMessage()


def test_the_navigator_shows_a_player_added_by_another_process(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    before = main.live.changed_elsewhere
    _in_another_process(
        demo_db, "sv.campaigns.add_player(sv.campaigns.list_campaigns()[0].id, 'Late Arrival')"
    )
    qtbot.waitUntil(lambda: "Late Arrival" in [p.name for p in main.nav.players], timeout=3000)
    assert main.live.changed_elsewhere == before + 1


def test_own_actions_do_not_reload_every_view(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    player = main.nav.players[0]
    assert main.runner.perform(
        lambda: main.services.campaigns.update_player(
            player.id, PlayerPatch(faction="Bricklanders")
        )
    )
    qtbot.wait(2500)  # two polls
    assert main.live.changed_elsewhere == 0


class _DownServer:
    """A watch whose server refuses connections until ``up`` is set (a stopped server)."""

    on_server = True

    def __init__(self) -> None:
        self.up = False
        self.polls = 0

    def poll(self) -> bool:
        self.polls += 1
        if not self.up:
            raise OSError(
                'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
                "Connection refused\n\tIs the server running on that host and accepting\n"
                "\tTCP/IP connections?\n"
            )
        return False

    def close(self) -> None:
        pass


def test_a_server_that_is_down_is_said_once_not_every_second(qtbot, caplog) -> None:
    from ui.bus import Bus
    from ui.live import LiveRefresh

    bus = Bus()
    said: list[str] = []
    bus.status.connect(said.append)
    watch = _DownServer()
    live = LiveRefresh(watch, bus, interval=20)  # type: ignore[arg-type]
    caplog.set_level("WARNING", logger="ui.live")
    live.start()
    try:
        qtbot.waitUntil(lambda: watch.polls >= 6, timeout=5000)
        assert said == [
            "The database server is not answering; changes made elsewhere show once it does."
        ]
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1
        assert "database server is not answering" in lines[0]
        assert "\n" not in lines[0]  # one line, not the driver's four
        watch.up = True
        qtbot.waitUntil(lambda: len(said) == 2, timeout=5000)
        assert said[1] == "The database server answers again."
        assert live.down == ""
    finally:
        live.stop()
