"""Every dialog opens ready to type (convention 16) and every window fits a laptop screen.

A new user typed "Walkthrough Campaign" into New campaign and the dialog closed at the space:
Cancel had the focus. Here each dialog class of the app is opened and its focus checked, and a
check keeps the list complete. Then every window, dialog and wizard page opens on a 1366x768
screen (and 1280x720) and all its buttons must lie on the screen.
"""

from __future__ import annotations

import importlib
import pkgutil
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QWidget

import ui
from brikdesk.domain.rolling import RandomDice
from brikdesk.persistence.db import open_database
from tests.ui.wizard_battle import make_battle, services_for
from ui.bus import Bus
from ui.screen import fit_to_screen, pretend_screen, usable_size

# -- a small battle to open the dialogs on ---------------------------------------------------


@dataclass
class World:
    services: Any
    campaign_id: int
    battle_id: int
    unit_ids: dict[str, int]
    settings: Any

    @property
    def catalog(self) -> Any:
        return self.services.catalog.catalog(self.campaign_id)

    def army_rows(self) -> Any:
        army = self.services.campaigns.list_armies(self.campaign_id)[0]
        return self.services.roster.roster(army.id).units


@pytest.fixture(scope="module")
def sherwood_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    path = tmp_path_factory.mktemp("ready") / "sherwood.sqlite3"
    b = make_battle(path)
    with b.db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    b.db.close()
    return path, (b.campaign_id, b.battle_id, b.ids)


@pytest.fixture
def world(sherwood_template, tmp_path: Path, settings) -> Iterator[World]:
    src, (campaign_id, battle_id, ids) = sherwood_template
    path = tmp_path / "sherwood.sqlite3"
    shutil.copyfile(src, path)
    db = open_database(f"sqlite:///{path}")
    yield World(services_for(db), campaign_id, battle_id, dict(ids), settings)
    db.close()


# -- every dialog, with the field that must have the focus ------------------------------------


def _new_campaign(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.campaign import NewCampaignDialog

    d = NewCampaignDialog(None, ["Sherwood"])
    return d, d.name


def _campaign_settings(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.campaign import CampaignSettingsDialog

    [c] = w.services.campaigns.list_campaigns()
    d = CampaignSettingsDialog(None, c)
    return d, d.name


def _open_campaign(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.campaign import OpenCampaignDialog

    d = OpenCampaignDialog(None, w.services.campaigns.list_campaigns())
    return d, d.list


def _player(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.campaign import PlayerDialog

    d = PlayerDialog(None, "Add player")
    return d, d.name


def _army(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.campaign import ArmyDialog

    players = w.services.campaigns.list_players(w.campaign_id)
    d = ArmyDialog(None, "Add army", players, players[0].id)
    return d, d.name


def _add_units(w: World) -> tuple[QDialog, Any]:
    from ui.windows.unit_dialogs import AddUnitsDialog

    d = AddUnitsDialog(None, w.catalog, None, 3, None)
    return d, d.count


def _unit_editor(w: World) -> tuple[QDialog, Any]:
    from ui.windows.unit_dialogs import UnitEditor

    d = UnitEditor(None, w.army_rows()[0], w.catalog)
    return d, d.name


def _change_type(w: World) -> tuple[QDialog, Any]:
    from ui.windows.unit_dialogs import ChangeTypeDialog

    d = ChangeTypeDialog(None, w.catalog, "minifig", 2)
    return d, d.type


def _roster_options(w: World) -> tuple[QDialog, Any]:
    from ui.widgets.print_options import RosterOptionsDialog, load_roster_choice

    d = RosterOptionsDialog(None, load_roster_choice(w.settings), title="Merry Men")
    return d, d.paper


def _report_options(w: World) -> tuple[QDialog, Any]:
    from ui.widgets.print_options import ReportOptionsDialog, load_report_choice

    d = ReportOptionsDialog(None, load_report_choice(w.settings))
    return d, d.paper


def _new_entry(w: World) -> tuple[QDialog, Any]:
    from ui.windows.catalog_dialogs import ITEM, NewEntryDialog

    d = NewEntryDialog(None, ITEM, w.catalog, None)
    return d, d.name


def _end_battle(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.end_battle import EndBattleDialog

    d = EndBattleDialog(None, w.services, w.battle_id)
    for _ in range(1000):  # the battle is read on a worker: at most 10 s
        if d.loaded():
            break
        QTest.qWait(10)
    assert d.loaded()
    return d, d.status_boxes[0]


def _rules_reference(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.rules_reference import RulesReferenceDialog

    d = RulesReferenceDialog(None)
    return d, d.filter


def _user_guide(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.user_guide import UserGuideWindow

    d = UserGuideWindow(None)
    return d, d.browser  # a page to read: Page Down scrolls it at once


def _order(w: World) -> tuple[QDialog, Any]:
    from ui.panels.start_dialog import OrderDialog, PlayerChoice

    players = [
        PlayerChoice(p.id, p.name, p.colour)
        for p in w.services.campaigns.list_players(w.campaign_id)
    ]
    d = OrderDialog(None, "Ambush", players)
    return d, d.editor.list


def _start_battle(w: World) -> tuple[QDialog, Any]:
    from ui.panels.start_dialog import StartBattleDialog

    d = StartBattleDialog(None, w.services, w.campaign_id)
    return d, d.name


def _unit_picker(w: World) -> tuple[QDialog, Any]:
    from ui.panels.pickers import UnitPicker

    d = UnitPicker(None, "Pick a unit", "Who?", [(1, "Little John"), (2, "Friar Tuck")])
    return d, d.filter


def _combat_wizard(w: World) -> tuple[QDialog, Any]:
    from ui.wizard import CombatWizard

    d = CombatWizard(
        w.services, Bus(), QUndoStack(), w.battle_id, w.unit_ids["Thieven Hood"], dice=RandomDice(1)
    )
    return d, d.pages[d.ATTACK].target  # the attacker comes chosen


def _sprint(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.sprint import SprintDialog

    d = SprintDialog(None, w.services, w.battle_id, w.unit_ids["Will Scarlet"], dice=RandomDice(1))
    return d, d.entry.edit  # the first die's face


def _quick_attack(w: World) -> tuple[QDialog, Any]:
    from ui.wizard.quick import QuickAttack

    d = QuickAttack(
        w.services, Bus(), QUndoStack(), w.battle_id, w.unit_ids["Thieven Hood"], dice=RandomDice(1)
    )
    d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    return d, d.target  # the target's letters


def _settings(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.settings import SettingsDialog

    d = SettingsDialog(None, w.settings)
    return d, d.paper


def _about(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.about import AboutDialog

    d = AboutDialog(None, "sqlite:////tmp/brikdesk.sqlite3")
    return d, d.details


def _crash(w: World) -> tuple[QDialog, Any]:
    from ui.crash import CrashDialog

    d = CrashDialog(
        None,
        "Traceback (most recent call last):\n  ...\nValueError: boom",
        Path("/tmp/brikdesk.log"),
    )
    return d, d.details


def _open_failed(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.open_failed import OpenFailedDialog, OpenFailure

    d = OpenFailedDialog(
        None,
        OpenFailure(
            "locked",
            "/tmp/x.sqlite3",
            "The database is locked by another program.",
            backup=Path("/tmp/x.sqlite3.bak"),
        ),
    )
    return d, d.backup_button


def _long_action(w: World) -> tuple[QDialog, Any]:
    from brikdesk.domain.rulesets import RULES_2005
    from ui.panels.long_action import LongActionDialog

    d = LongActionDialog(None, "Little John", RULES_2005)
    return d, d.what


def _edition_change(w: World) -> tuple[QDialog, Any]:
    from ui.dialogs.edition_change import EditionChangeDialog

    army = w.services.campaigns.list_armies(w.campaign_id)[0]
    w.services.roster.add_unit(army.id, "skirmisher", name="Scout")
    d = EditionChangeDialog(None, w.services.editions.preview(w.campaign_id, "2010"))
    return d, next(iter(d.choices.values()))  # what the first missing type becomes


def _who_first(w: World) -> tuple[QDialog, Any]:
    from ui.panels.who_first import WhoFirstDialog

    view = w.services.tracker.view(w.battle_id)
    a, r = (
        (u.id for u in view.units if u.player_id == view.state.active),
        (u.id for u in view.units if u.player_id != view.state.active),
    )
    d = WhoFirstDialog(None, view, next(a), next(r))
    return d, d.inch  # the battle plays 2020: the inch decides first


def _share(w: World) -> tuple[QDialog, Any]:
    from brikdesk.share import Shared
    from ui.dialogs.share import ShareDialog, Sharing

    sharing = Sharing(None, w.services, w.settings)
    d = ShareDialog(sharing, None)
    sharing.setParent(d)  # deleted with the dialog
    d.set_target(Shared(w.campaign_id), "the campaign Sherwood")
    return d, d.interface  # where to serve it, then Start


#: Each dialog class of the app, how to open it, and the field that must have the focus.
DIALOGS: dict[str, Callable[[World], tuple[QDialog, Any]]] = {
    "NewCampaignDialog": _new_campaign,
    "CampaignSettingsDialog": _campaign_settings,
    "OpenCampaignDialog": _open_campaign,
    "PlayerDialog": _player,
    "ArmyDialog": _army,
    "AddUnitsDialog": _add_units,
    "UnitEditor": _unit_editor,
    "ChangeTypeDialog": _change_type,
    "RosterOptionsDialog": _roster_options,
    "ReportOptionsDialog": _report_options,
    "NewEntryDialog": _new_entry,
    "EndBattleDialog": _end_battle,
    "RulesReferenceDialog": _rules_reference,
    "UserGuideWindow": _user_guide,
    "OrderDialog": _order,
    "StartBattleDialog": _start_battle,
    "UnitPicker": _unit_picker,
    "CombatWizard": _combat_wizard,
    "SprintDialog": _sprint,
    "QuickAttack": _quick_attack,
    "SettingsDialog": _settings,
    "AboutDialog": _about,
    "CrashDialog": _crash,
    "OpenFailedDialog": _open_failed,
    "LongActionDialog": _long_action,
    "WhoFirstDialog": _who_first,
    "EditionChangeDialog": _edition_change,
    "ShareDialog": _share,
}


def _all_dialog_classes() -> set[str]:
    """The public QDialog subclasses defined anywhere under ``ui/``."""
    for info in pkgutil.walk_packages(ui.__path__, "ui."):
        importlib.import_module(info.name)
    found: set[str] = set()
    todo = list(QDialog.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("ui.") and not cls.__name__.startswith("_"):
            found.add(cls.__name__)
    return found - {"FormDialog"}  # the base of the form dialogs, never shown itself


def test_the_list_covers_every_dialog_of_the_app() -> None:
    assert _all_dialog_classes() == set(DIALOGS)


def _open(qtbot, dialog: QDialog) -> None:
    """Show ``dialog`` and make it the active window, as it is for the user who opened it."""
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.windowHandle().requestActivate()
    qtbot.waitUntil(dialog.isActiveWindow)


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_each_dialog_opens_with_the_focus_on_its_first_field(
    qtbot, world: World, name: str
) -> None:
    dialog, first = DIALOGS[name](world)
    _open(qtbot, dialog)
    focus = QApplication.focusWidget()
    assert focus is first, (
        f"{name}: focus on {type(focus).__name__} {focus and focus.objectName()!r}"
    )
    dialog.close()


def test_typing_a_campaign_name_with_spaces_stays_in_the_dialog(qtbot, world: World) -> None:
    from ui.dialogs.campaign import NewCampaignDialog

    dialog = NewCampaignDialog(None, [])
    _open(qtbot, dialog)
    qtbot.keyClicks(dialog.focusWidget(), "Walkthrough Campaign")
    assert dialog.isVisible()
    assert dialog.value().name == "Walkthrough Campaign"
    dialog.close()


def test_tab_goes_through_the_fields_before_the_buttons(qtbot, world: World) -> None:
    from ui.dialogs.campaign import PlayerDialog

    dialog = PlayerDialog(None, "Add player")
    _open(qtbot, dialog)
    chain = []
    widget: QWidget = dialog.name
    for _ in range(5):
        chain.append(widget)
        widget = widget.nextInFocusChain()
        while not (widget.focusPolicy() & widget.focusPolicy().TabFocus) or not widget.isVisible():
            widget = widget.nextInFocusChain()
    assert chain[:3] == [dialog.name, dialog.faction, dialog.colour]
    assert [b.text() for b in chain[3:]] == ["OK", "Cancel"]
    dialog.close()


# -- screen fit -------------------------------------------------------------------------------


def _buttons_off_screen(window: QWidget) -> list[str]:
    """The visible buttons of ``window`` that would not lie wholly on the screen, with the
    window placed at the screen's top-left corner (Qt places a window that fits the screen
    inside it; where it goes is not this check's business)."""
    out = []
    room = QRect(QPoint(0, 0), usable_size(window))
    for button in window.findChildren(QAbstractButton):
        if not button.isVisibleTo(window) or button.window() is not window:
            continue
        rect = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        if _clipped_inside(button, window):
            continue  # scrolled, or cut by its own panel: the panel's business, not the window's
        if not room.contains(rect):
            out.append(f"{button.text() or button.objectName()} at {rect.getRect()}")
    return out


def _clipped_inside(button: QWidget, window: QWidget) -> bool:
    """Whether a panel between ``button`` and ``window`` hides part of the button."""
    parent = button.parentWidget()
    rect = QRect(QPoint(0, 0), button.size())
    child: QWidget = button
    while parent is not None and parent is not window:
        rect = rect.translated(child.pos())
        if not QRect(QPoint(0, 0), parent.size()).contains(rect):
            return True
        child, parent = parent, parent.parentWidget()
    return False


SCREENS = [(1366, 768), (1280, 720)]


@pytest.mark.parametrize(("width", "height"), SCREENS)
@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_each_dialog_fits_a_laptop_screen(
    qtbot, world: World, name: str, width: int, height: int
) -> None:
    with pretend_screen(width, height):
        dialog, _first = DIALOGS[name](world)
        _open(qtbot, dialog)
        room = usable_size(dialog)
        assert dialog.width() <= room.width() and dialog.height() <= room.height()
        assert _buttons_off_screen(dialog) == []
        pages = getattr(dialog, "pages", ())
        for i in range(1, len(pages)):  # the combat wizard's pages, one by one
            dialog.setCurrentId(i)  # type: ignore[attr-defined]
            qtbot.wait(1)
            assert dialog.height() <= room.height(), f"page {i}"
            assert _buttons_off_screen(dialog) == [], f"page {i}"
        dialog.close()


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_every_window_fits_a_laptop_screen(
    qtbot, open_main, demo_db: str, width: int, height: int
) -> None:
    with pretend_screen(width, height):
        main = open_main(demo_db)
        room = usable_size(main)
        army = main.nav.armies[0].id
        windows = [main, main.open_roster(army), main.open_catalog(), main.open_history()]
        for window in windows:
            qtbot.waitExposed(window)
            assert window.width() <= room.width(), window.objectName()
            assert window.height() <= room.height(), window.objectName()
            assert _buttons_off_screen(window) == [], window.objectName()


def test_a_window_kept_from_a_larger_screen_comes_back_onto_this_one(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.move(2400, 1300)  # where it was on a 2560x1440 monitor
    with pretend_screen(1366, 768) as screen:
        size = fit_to_screen(window, 1600, 1000)
        room = usable_size(window)
        assert size == room
        assert screen.contains(QRect(window.pos(), size))
