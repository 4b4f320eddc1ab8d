"""Every dialog of the app, opened on a small battle (Sherwood, ``wizard_battle``), with the
field that must have the keyboard focus when it opens: the list the dialog tests go through
(``test_dialogs_ready``: focus and laptop screens; ``test_passing_wheel``: the mouse wheel).
The fixtures that make a ``World`` (``sherwood_template``, ``world``) are in
``tests/ui/conftest.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog

from brikdesk.domain.rolling import RandomDice
from ui.bus import Bus


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


def _server_notice(w: World) -> tuple[QDialog, Any]:
    from ui.operation import ServerNotice

    d = ServerNotice(None, "Rename unit Little John")
    return d, d.cancel


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


def _action_roll(w: World) -> tuple[QDialog, Any]:
    from brikdesk.domain.rulesets import RULES_2020
    from ui.panels.action_roll import ActionRollDialog

    d = ActionRollDialog(None, "Little John", 6, RULES_2020)
    return d, d.entry.edit  # the die the table rolled


def _mom_question(w: World) -> tuple[QDialog, Any]:
    from brikdesk.domain.battle.momentum import MomAtTurnEnd
    from brikdesk.domain.ids import BattleUnitId
    from ui.panels.mom_question import MomQuestion

    asked = MomAtTurnEnd(
        ((BattleUnitId(1), "Will Scarlet"), (BattleUnitId(2), "Much")), True, "2020"
    )
    d = MomQuestion(None, "Robin", asked)
    return d, d.boxes[BattleUnitId(1)]  # did Will Scarlet use up his Move?


#: Each dialog class of the app, how to open it, and the field that must have the focus.
DIALOGS: dict[str, Callable[[World], tuple[QDialog, Any]]] = {
    "NewCampaignDialog": _new_campaign,
    "CampaignSettingsDialog": _campaign_settings,
    "OpenCampaignDialog": _open_campaign,
    "PlayerDialog": _player,
    "MomQuestion": _mom_question,
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
    "ServerNotice": _server_notice,
    "WhoFirstDialog": _who_first,
    "EditionChangeDialog": _edition_change,
    "ShareDialog": _share,
    "ActionRollDialog": _action_roll,
}
