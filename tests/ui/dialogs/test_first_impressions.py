"""A new user's first hour: the toolbar that does not jump, Add several's defaults,
the roster's Name column, an over-budget army at the start of a battle, the crash dialog and
its log, a database that can't be opened, and Edit > Settings."""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QApplication

import ui.app as app_module
from brikdesk.errors import StorageError
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from ui.crash import CrashDialog, log_file_handler, log_folder
from ui.dialogs.campaign import NewCampaignDialog
from ui.dialogs.open_failed import FailureKind, OpenFailedDialog, describe, failure_kind
from ui.dialogs.settings import Preferences, SettingsDialog, load_preferences, save_preferences
from ui.models import roster as cols
from ui.panels.start_dialog import StartBattleDialog
from ui.settings import AppSettings, DiceMode
from ui.widgets.print_options import load_report_choice, load_roster_choice
from ui.windows.roster_edits import ADD_COUNT_KEY, DEFAULT_ADD_COUNT, typical_unit
from ui.windows.unit_dialogs import AddUnitsDialog

# -- the toolbar keeps its geometry ("Dialogs open ready to type" in docs/conventions.md) ----------


class _Named(QUndoCommand):
    def __init__(self, text: str) -> None:
        super().__init__(text)


def test_a_long_undo_text_leaves_the_toolbar_as_it_was(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    bar = main.toolbar
    undo_button = bar.widgetForAction(main.main_actions.undo_action)
    before = [
        bar.widgetForAction(a).geometry()
        for a in bar.actions()
        if bar.widgetForAction(a) is not None
    ]
    long_text = "Rename unit Sir Reginald Studsworth the Unbreakable of the Red Vanguard"
    main.undo_stack.push(_Named(long_text))
    qtbot.wait(1)
    after = [
        bar.widgetForAction(a).geometry()
        for a in bar.actions()
        if bar.widgetForAction(a) is not None
    ]
    assert after == before
    assert undo_button.text() == "Undo"
    assert long_text in main.main_actions.undo_action.toolTip()
    assert long_text in main.main_actions.undo_action.text()  # the Edit menu says it in full


# -- Add several, the Name column ---------------------------------------------------------------


def _rows(main, army_id: int):
    return main.services.roster.roster(army_id).units


def test_add_several_offers_the_most_common_type_its_equipment_and_the_last_count(
    open_main, demo_db, monkeypatch, qtbot
) -> None:
    main = open_main(demo_db)
    army = main.nav.armies[0].id
    roster = main.open_roster(army)
    qtbot.waitExposed(roster)
    rows = _rows(main, army)
    # The demo army: a Hero first, then mostly Minifigs.
    assert rows[0].type_key == "hero"
    typical = typical_unit(rows)
    assert typical is not None and typical.type_key == "minifig"
    minifigs = [r for r in rows if r.type_key == "minifig"]
    assert sum(r.loadout == typical.loadout for r in minifigs) == max(
        sum(r.loadout == m.loadout for r in minifigs) for m in minifigs
    )
    roster.select_units([rows[0].id])  # the Hero selected: not what Add several offers
    offered: list = []

    def ask(cls, parent, catalog, *, type_key=None, count=1, template=None):
        dialog = AddUnitsDialog(parent, catalog, type_key, count, template)
        offered.append(
            (dialog.type.currentData(), dialog.count.value(), dialog.equipment.currentText())
        )
        dialog.count.setValue(4)
        value = dialog.value()
        dialog.deleteLater()
        return value

    monkeypatch.setattr(AddUnitsDialog, "ask", classmethod(ask))
    added = roster.edits.add_copies()
    assert offered[0][:2] == ("minifig", DEFAULT_ADD_COUNT)
    assert offered[0][2].startswith(f"Same as {typical.name} (")
    assert len(added) == 4
    new = [r for r in _rows(main, army) if r.id in added]
    assert all(r.type_key == "minifig" and r.loadout == typical.loadout for r in new)
    # The next time, as many as last time.
    assert roster.settings.get_int(ADD_COUNT_KEY) == 4
    roster.edits.add_copies()
    assert offered[1][1] == 4


def test_typical_unit_of_an_empty_army_is_none() -> None:
    assert typical_unit(()) is None


def test_the_name_column_shows_the_longest_name_whole(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    roster = main.open_roster(main.nav.armies[0].id)
    qtbot.waitExposed(roster)
    longest = max((r.name for r in roster.model.all_rows()), key=len)
    width = roster.table.fontMetrics().horizontalAdvance(longest)
    assert roster.table.columnWidth(cols.NAME) > width
    # A longer name typed later widens it too.
    unit = roster.model.all_rows()[0]
    roster.select_units([unit.id])
    name = "Sir Alistair Brickworth the Unbending"
    from brikdesk.services.roster import UnitPatch

    roster.edits.perform_edit({unit.id: UnitPatch(name=name)})
    roster.reload()
    assert roster.table.columnWidth(cols.NAME) > roster.table.fontMetrics().horizontalAdvance(name)


# -- an over-budget army at the start of a battle -----------------------------------------------


@pytest.fixture
def demo(demo_db: str) -> Iterator[Services]:
    db = open_database(demo_db)
    yield Services.open(db)
    db.close()


def test_an_army_over_its_own_budget_is_named_when_mustered_and_may_still_fight(
    qtbot, demo: Services
) -> None:
    [c] = demo.campaigns.list_campaigns()
    armies = demo.campaigns.list_armies(c.id)
    rosters = {a.id: demo.roster.roster(a.id) for a in armies}
    over = next(a for a in armies if rosters[a.id].over_budget)
    fine = next(
        a for a in armies if not rosters[a.id].over_budget and a.player_id != over.player_id
    )
    r = rosters[over.id]
    dialog = StartBattleDialog(None, demo, c.id)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.budget.setValue(0)  # no budget for the battle: only the army's own counts
    dialog.check_player(fine.player_id)
    qtbot.waitUntil(lambda: not dialog.budget_warning.isVisible())
    dialog.check_player(over.player_id)
    qtbot.waitUntil(dialog.budget_warning.isVisible)
    assert dialog.budget_warning.text() == (
        f"{over.name} is over its own budget of {r.budget} CP by {r.total - r.budget} CP "
        f"({r.total} CP): the battle can still start."
    )
    assert dialog.start_button.isEnabled()
    assert dialog.request() is not None


# -- the crash dialog and the log ("Two kinds of errors" in docs/conventions.md) -------------------


@pytest.fixture
def crash_log(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    """The crash handler installed, logging to a file under ``tmp_path``."""
    monkeypatch.setenv("BRIKDESK_HOME", str(tmp_path))
    handler = log_file_handler()
    root = logging.getLogger()
    root.addHandler(handler)
    crash = app_module.CrashHandler()
    crash.install()
    yield log_folder() / "brikdesk.log"
    crash.uninstall()
    root.removeHandler(handler)
    handler.close()
    for dialog in [w for w in QApplication.topLevelWidgets() if isinstance(w, CrashDialog)]:
        dialog.close()


def _fail_in_event_loop(qtbot, message: str) -> None:
    def bad_slot() -> None:
        raise ValueError(message)

    QTimer.singleShot(0, bad_slot)
    qtbot.wait(50)


@pytest.mark.qt_no_exception_capture
def test_a_bug_in_a_slot_shows_one_crash_dialog_and_is_logged(
    qtbot, crash_log: Path, open_main, demo_db
) -> None:
    main = open_main(demo_db)
    main.activateWindow()
    assert sys.excepthook is not sys.__excepthook__
    _fail_in_event_loop(qtbot, "the roster burned")
    _fail_in_event_loop(qtbot, "and again")
    dialogs = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, CrashDialog) and w.isVisible()
    ]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert dialog.summary == "ValueError: the roster burned"
    assert "bad_slot" in dialog.details.toPlainText()
    assert str(crash_log) in dialog.details.toPlainText()
    dialog.copy_button.click()
    assert "ValueError: the roster burned" in QApplication.clipboard().text()
    logging.getLogger().handlers[-1].flush()
    text = crash_log.read_text(encoding="utf-8")
    assert "ValueError: the roster burned" in text and "ValueError: and again" in text
    assert crash_log.parent == Path(os.environ["BRIKDESK_HOME"]) / "logs"


def test_the_log_folder_is_the_platforms_user_log_folder(monkeypatch) -> None:
    from platformdirs import user_log_dir

    monkeypatch.delenv("BRIKDESK_HOME", raising=False)
    assert log_folder() == Path(user_log_dir("BrikDesk", appauthor=False))


def test_the_log_rotates(tmp_path: Path) -> None:
    handler = log_file_handler(tmp_path)
    assert handler.maxBytes > 0 and handler.backupCount >= 1
    handler.close()


# -- a database that can't be opened -----------------------------------------------------------


def _error(url: str) -> StorageError:
    with pytest.raises(StorageError) as caught:
        db = open_database(url)
        db.close()
    return caught.value


def test_a_damaged_database_offers_the_backup(tmp_path: Path, qtbot) -> None:
    path = tmp_path / "campaigns.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    backup = tmp_path / "campaigns.sqlite3.bak-0007-20260101T120000"
    backup.write_bytes(b"a backup")
    before = path.read_bytes()
    failure = describe(_error(f"sqlite:///{path}"), str(path), path)
    assert failure.kind == FailureKind.DAMAGED and failure.backup == backup
    dialog = OpenFailedDialog(None, failure)
    qtbot.addWidget(dialog)
    dialog.show()
    assert "damaged" in dialog.headline.text()
    assert dialog.backup_button is not None and dialog.backup_button.isVisible()
    assert dialog.focusWidget() is dialog.backup_button
    dialog.backup_button.click()
    assert dialog.choice == backup
    assert path.read_bytes() == before  # the refused file is left as it was


def test_a_damaged_database_without_a_backup_does_not_offer_one(tmp_path: Path, qtbot) -> None:
    path = tmp_path / "campaigns.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    failure = describe(_error(f"sqlite:///{path}"), str(path), path)
    assert failure.kind == FailureKind.DAMAGED and failure.backup is None
    dialog = OpenFailedDialog(None, failure)
    qtbot.addWidget(dialog)
    assert dialog.backup_button is None
    assert "no backup" in dialog.advice.text() and "Open the backup" not in dialog.advice.text()


def test_a_database_of_a_newer_brikdesk_says_so_without_a_backup(
    tmp_path: Path, qtbot, monkeypatch
) -> None:
    path = tmp_path / "new.sqlite3"
    db = open_database(f"sqlite:///{path}")
    db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfacecafe'")
    failure = describe(_error(f"sqlite:///{path}"), str(path), path)
    assert failure.kind == FailureKind.NEWER and failure.backup is None
    dialog = OpenFailedDialog(None, failure)
    qtbot.addWidget(dialog)
    dialog.show()
    assert "newer version" in dialog.headline.text()
    assert dialog.backup_button is None
    other = tmp_path / "other.sqlite3"
    from ui.widgets.dialogs import FileChooser

    monkeypatch.setattr(FileChooser, "open_path", classmethod(lambda cls, *a, **k: other))
    dialog.other_button.click()
    assert dialog.choice == other


def test_a_locked_database_is_named_as_locked(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "locked.sqlite3"
    db = open_database(f"sqlite:///{path}")
    db.close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        monkeypatch.setattr("brikdesk.persistence.db.BUSY_TIMEOUT_MS", 50)
        error = _error(f"sqlite:///{path}")
    finally:
        holder.rollback()
        holder.close()
    assert failure_kind(str(error)) == FailureKind.LOCKED, str(error)


def test_a_read_only_database_that_needs_an_upgrade_is_named_as_read_only(
    tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "old.sqlite3"
    db = open_database(f"sqlite:///{path}")
    db.close()
    with sqlite3.connect(path) as conn:  # an older schema revision, as if made long ago
        first = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        from alembic.script import ScriptDirectory

        from brikdesk.persistence.db import alembic_config

        base = [s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()][
            -1
        ]
        assert base != first
        conn.execute("UPDATE alembic_version SET version_num = ?", (base,))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file: read-only reads no WAL
    conn.close()
    real_open = Path.open

    def open_for(self, mode="r", *args, **kwargs):  # the file can't be written (even by root)
        if self == path and any(c in mode for c in "+wa"):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_for)  # what BrikDesk's write probe meets
    error = _error(f"sqlite:///{path}")
    assert failure_kind(str(error)) == FailureKind.READ_ONLY, str(error)


def test_a_missing_folder_is_named_as_missing(tmp_path: Path) -> None:
    error = _error(f"sqlite:///{tmp_path / 'no-such-folder' / 'x.sqlite3'}")
    assert failure_kind(str(error)) == FailureKind.MISSING, str(error)


def test_choosing_the_backup_at_start_opens_it(
    tmp_path: Path, demo_db: str, monkeypatch, settings
) -> None:
    """run_app: the database fails, the organizer picks the backup, and BrikDesk starts on
    it (exit 0 once the window is closed)."""
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    good = Path(demo_db.removeprefix("sqlite:///"))
    asked: list[str] = []

    def choose(error: StorageError, url: str | None = None) -> Path:
        asked.append(str(error))
        return good

    monkeypatch.setattr(app_module, "show_start_error", choose)
    monkeypatch.setattr(app_module, "setup_logging", lambda: None)
    monkeypatch.setattr(AppSettings, "for_app", classmethod(lambda cls: settings))
    opened: list[str] = []
    real_ready = app_module.MainWindow.database_opened

    def database_opened(window, database: str) -> None:
        real_ready(window, database)
        opened.append(database)
        QTimer.singleShot(0, window.close)

    monkeypatch.setattr(app_module.MainWindow, "database_opened", database_opened)
    import argparse

    code = app_module.run_app(argparse.Namespace(db=f"sqlite:///{broken}", check_start=False))
    assert len(asked) == 1 and "damaged" in asked[0]
    assert opened == [str(good)]
    assert code == 0


# -- Edit > Settings ----------------------------------------------------------------------------


def test_settings_are_remembered_and_used(qtbot, settings: AppSettings) -> None:
    dialog = SettingsDialog(None, settings)
    qtbot.addWidget(dialog)
    dialog.paper.setCurrentIndex(dialog.paper.findData("letter"))
    dialog.bw.setChecked(True)
    dialog.dice.setCurrentIndex(dialog.dice.findData(DiceMode.TYPED.value))
    dialog.table_font.setValue(200)
    dialog.edition.setCurrentIndex(dialog.edition.findData("2010"))
    save_preferences(settings, dialog.value())
    again = AppSettings.at(settings.qsettings.fileName())
    assert load_preferences(again) == Preferences("letter", True, DiceMode.TYPED, 200, "2010")
    # Used where they govern: the print dialogs, the new-campaign dialog.
    assert load_roster_choice(again).options.paper == "letter"
    assert load_roster_choice(again).options.black_and_white
    assert load_report_choice(again).black_and_white
    assert again.dice_mode is DiceMode.TYPED and again.table_font_percent == 200
    new = NewCampaignDialog(None, [], edition=again.new_campaign_edition)
    qtbot.addWidget(new)
    assert new.edition.currentData() == "2010"


def test_settings_from_the_edit_menu_reach_new_campaigns(
    open_main, demo_db, monkeypatch, settings: AppSettings
) -> None:
    main = open_main(demo_db)
    assert main.main_actions.preferences_action in main.menus.edit_menu.actions()
    monkeypatch.setattr(
        SettingsDialog,
        "ask",
        classmethod(
            lambda cls, parent, s: (
                save_preferences(s, Preferences("a4", False, DiceMode.VIRTUAL, 150, "2005")) or True
            )
        ),
    )
    assert main.edit_preferences()
    seen: list = []
    monkeypatch.setattr(
        NewCampaignDialog,
        "ask",
        classmethod(lambda cls, parent, taken=(), edition=None: seen.append(edition)),
    )
    main.new_campaign()
    assert seen == ["2005"]


def test_unreadable_settings_fall_back_to_the_defaults(settings: AppSettings) -> None:
    settings.set("preferences/dice_mode", "loaded dice")
    settings.set("preferences/table_font_percent", "huge")
    assert settings.dice_mode is DiceMode.VIRTUAL
    assert settings.table_font_percent == 155
    settings.table_font_percent = 5000
    assert settings.table_font_percent == 300


@pytest.mark.parametrize(
    ("mode", "focus"), [(DiceMode.VIRTUAL, "roll_button"), (DiceMode.TYPED, "edit")]
)
def test_the_dice_setting_decides_what_the_wizard_offers_first(
    qtbot, tmp_path: Path, mode: DiceMode, focus: str
) -> None:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QWizard

    from brikdesk.domain.rolling import RandomDice
    from tests.ui.wizard_battle import make_battle
    from ui.bus import Bus
    from ui.wizard import CombatWizard

    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w = CombatWizard(
            battle.services,
            Bus(),
            QUndoStack(),
            battle.battle_id,
            battle.ids["Little John"],
            dice=RandomDice(1),
        )
        qtbot.addWidget(w)
        w.set_dice_mode(mode)
        w.show()
        qtbot.waitExposed(w)
        w.windowHandle().requestActivate()
        qtbot.waitUntil(w.isActiveWindow)
        w.pages[w.ATTACK].target.choose(battle.ids["Guard Bert"])
        while w.currentId() != w.ACTION:
            w.button(QWizard.WizardButton.NextButton).click()
        action = w.pages[w.ACTION]
        qtbot.waitUntil(lambda: QApplication.focusWidget() is getattr(action.dice, focus))
        w.close()
    finally:
        battle.db.close()


def test_table_mode_uses_the_text_size_from_the_settings(
    open_main, demo_db, settings: AppSettings
) -> None:
    main = open_main(demo_db)
    battle = next(
        b.id
        for b in main.services.battles.list_battles(main.campaign_id)
        if b.status == "in_progress"
    )
    assert main.open_battle(battle)
    panel = main.battle_panel
    panel.set_table_mode(False)
    normal = panel.font().pointSizeF()
    settings.table_font_percent = 200
    panel.set_table_mode(True)
    assert panel.font().pointSizeF() == pytest.approx(normal * 2)
    settings.table_font_percent = 120
    panel.set_table_mode(True)
    assert panel.font().pointSizeF() == pytest.approx(normal * 1.2)
    panel.set_table_mode(False)
    assert panel.font().pointSizeF() == pytest.approx(normal)


def test_another_programs_database_is_named_as_not_brikdesks(tmp_path: Path) -> None:
    other = tmp_path / "recipes.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY)")
    conn.close()
    failure = describe(_error(f"sqlite:///{other}"), str(other), other)
    assert failure.kind == FailureKind.FOREIGN and failure.backup is None
