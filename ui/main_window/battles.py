"""The battles in the main window: the battle page shows the battle tracker's panel
(``ui.panels``, one battle at a time) with the combat forms it opens; the Battle menu's
entries (new battle, End battle with the post-battle dialog, the battle's roster sheet); table
mode, which gives the panel the whole window.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow, QStackedWidget, QVBoxLayout

from brikdesk.domain.ids import BattleId, CampaignId
from brikdesk.errors import ConflictError
from brikdesk.words import outcome_words
from ui.bus import Bus
from ui.undo import UndoScopes
from ui.widgets.common import MessageBanner, ServicesHost
from ui.windows.battle_sheet_printing import BattleSheetPrinting
from ui.windows.navigator import BATTLE, BattlePage, CampaignNavigator
from ui.windows.printing import ReportPrinting

if TYPE_CHECKING:
    from brikdesk.domain.aftermath import BattleResult
    from brikdesk.services.aftermath import Aftermath, FinishedBattle
    from brikdesk.services.changes import Done
    from ui.dialogs.end_battle import EndBattleDialog
    from ui.models.proposals import ProposalInbox
    from ui.panels import BattlePanel
    from ui.panels.forms import CombatForms
    from ui.panels.proposals import ProposalList


def combat_forms() -> CombatForms:
    """The combat forms the battle panel opens: the combat wizard, the quick attack form and
    the Sprint dialog (imported when a battle is first shown: the wizard brings its charts)."""
    from ui.dialogs.sprint import open_sprint
    from ui.panels.forms import CombatForms
    from ui.wizard import open_combat_wizard, open_quick_attack

    return CombatForms(wizard=open_combat_wizard, quick=open_quick_attack, sprint=open_sprint)


class ShownForBattles(Protocol):
    @property
    def campaign_id(self) -> CampaignId | None: ...
    def battle_name(self, battle_id: int) -> str | None: ...


class BattleMenu(Protocol):
    def show_battle_entries(self, panel_actions: Sequence[QAction | None]) -> None: ...


class BattlesHost(ServicesHost, Protocol):
    """What the battles use of the window: the services, bus, undo histories and settings the
    panel is built with, the battle page and the pages it is shown among, the navigator, the
    campaign shown, the Battle menu, the banner and the battle's two printing paths."""

    @property
    def bus(self) -> Bus: ...
    @property
    def undo_scopes(self) -> UndoScopes: ...
    @property
    def battle_page(self) -> BattlePage: ...
    @property
    def pages(self) -> QStackedWidget: ...
    @property
    def navigator(self) -> CampaignNavigator: ...
    @property
    def navigator_dock(self) -> QDockWidget: ...
    @property
    def shown(self) -> ShownForBattles: ...
    @property
    def menus(self) -> BattleMenu: ...
    @property
    def banner(self) -> MessageBanner: ...
    @property
    def battle_sheet_printing(self) -> BattleSheetPrinting: ...
    @property
    def report_printing(self) -> ReportPrinting: ...
    def selected(self) -> tuple[str, int]: ...
    def follow_page(self, *_args: object) -> None: ...
    @property
    def proposals(self) -> ProposalInbox: ...


class Battles(QObject):
    """The battle page, the Battle menu's entries and table mode."""

    def __init__(self, window: QMainWindow, host: BattlesHost) -> None:
        super().__init__(window)
        self.window = window
        self.host = host
        self.services = host.services
        self.runner = host.runner
        #: The battle tracker's panel on the battle page (the battle last shown).
        self.panel: BattlePanel | None = None
        #: The players' proposals shown in the panel (while a share runs).
        self.proposals: ProposalList | None = None
        #: Table mode hid the navigator (it comes back when table mode ends).
        self._navigator_hidden_for_table = False

    def open_battle(self, battle_id: BattleId) -> bool:
        """Show battle ``battle_id`` in the main window: the battle tracker's panel."""
        host = self.host
        detail = self.runner.read(lambda: self.services.battles.battle(battle_id))
        if detail is None:
            return False
        host.battle_page.battle_id = battle_id
        host.battle_page.title.setText(detail.battle.status_text)
        self._show_panel(battle_id)
        host.pages.setCurrentWidget(host.battle_page)
        host.navigator.select(BATTLE, battle_id)
        if self.panel is not None:
            self.panel.ready_for_keys()
        return True

    def open_selected_battle(self) -> bool:
        kind, ident = self.host.selected()
        return kind == BATTLE and self.open_battle(BattleId(ident))

    def new_battle(self) -> BattleId | None:
        from ui.panels import start_new_battle

        window = self.window
        host = self.host
        campaign_id = host.shown.campaign_id
        if campaign_id is None:
            return None
        battle_id = start_new_battle(window, self.services, host.bus, host.undo_scopes, campaign_id)
        if battle_id is not None:
            self.open_battle(battle_id)
        return battle_id

    def _show_panel(self, battle_id: BattleId) -> None:
        """The battle page shows the tracker's panel (one battle at a time)."""
        from ui.main_window.proposals import proposal_list
        from ui.panels import BattlePanel

        host = self.host
        panel = self.panel
        if panel is None or panel.battle_id != battle_id:
            if panel is not None:
                panel.hide()
                panel.deleteLater()
            panel = BattlePanel(
                self.services,
                host.bus,
                host.undo_scopes.battle(battle_id),
                battle_id,
                settings=host.settings.qsettings,
                forms=combat_forms(),
                parent=host.battle_page,
            )
            page_layout = host.battle_page.layout()
            assert isinstance(page_layout, QVBoxLayout)  # BattlePage's own
            page_layout.addWidget(panel, 1)
            self.panel = panel
            panel.table_mode_changed.connect(self.table_mode)
            self.proposals = proposal_list(panel, host.proposals)
            self._wire_aftermath(panel)
            host.menus.show_battle_entries(panel.menu_actions())
        panel.show()
        self.table_mode(panel.table_mode)
        host.follow_page()

    def table_mode(self, on: bool) -> None:
        """Table mode gives the panel the whole window: the navigator steps aside while it is
        on (and comes back when it is off, or when the campaign overview is shown)."""
        dock = self.host.navigator_dock
        if on and dock.isVisible():
            self._navigator_hidden_for_table = True
            dock.hide()
        elif not on and self._navigator_hidden_for_table:
            self._navigator_hidden_for_table = False
            dock.show()

    def current_battle(self) -> tuple[BattleId, str | None] | None:
        """The battle the Battle > Battle report entries use: the one shown, else the one
        selected in the navigator."""
        host = self.host
        ident = host.battle_page.battle_id
        if ident is None or host.pages.currentWidget() is not host.battle_page:
            kind, selected = host.selected()
            if kind != BATTLE:
                return None
            ident = BattleId(selected)
        return ident, host.shown.battle_name(ident)

    def _menu_battle(self, none_chosen: str) -> BattleId | None:
        """The battle a Battle menu entry acts on; ``none_chosen`` in the banner if none."""
        current = self.current_battle()
        if current is None:
            self.host.banner.show_error(none_chosen)
            return None
        return current[0]

    def print_current_battle_sheet(self) -> bool:
        """Battle > Roster sheet of the mustered units: of the battle shown, else selected."""
        battle_id = self._menu_battle("Open or select a battle to print its mustered units.")
        return battle_id is not None and self.print_battle_sheet(battle_id)

    def print_battle_sheet(self, battle_id: BattleId) -> bool:
        """The roster sheet of exactly the units mustered into the battle, in the preview."""
        return self.host.battle_sheet_printing.preview(battle_id)

    # -- the end of a battle (ui.dialogs.end_battle) --------------------------------------

    def _wire_aftermath(self, panel: BattlePanel) -> None:
        bar = panel.aftermath_bar
        bar.result_text = self._result_text
        bar.end_requested.connect(self.end_battle)
        bar.report_requested.connect(self._battle_report)
        if panel.view is not None:
            bar.show_view(panel.view)

    def _result_text(self, battle_id: int) -> str:
        """Called on a worker by the battle bar (it shows the text when read)."""
        am = self.services.aftermath.aftermath(BattleId(battle_id))
        result = am.result
        winner = am.suggestion.winner if result is None else result.winner
        name = next((p.name for p in am.players if p.id == winner), None)
        return f" ({outcome_words(name or None)})"

    def _battle_report(self, battle_id: BattleId) -> bool:
        name = self.host.shown.battle_name(battle_id)
        return self.host.report_printing.preview(battle_id, name)

    def end_current_battle(self) -> bool:
        """Battle > End battle…: end the battle shown, else the one selected."""
        battle_id = self._menu_battle("Open or select the battle to end.")
        return battle_id is not None and self.end_battle(battle_id)

    def end_battle(self, battle_id: BattleId) -> bool:
        """The post-battle dialog, then the campaign updated in one undoable step."""
        from ui.dialogs.end_battle import EndBattleDialog

        window = self.window
        dialog = EndBattleDialog(window, self.services, battle_id)  # reads on a worker
        try:
            done = self._finish_from(dialog, battle_id)
        finally:
            dialog.deleteLater()
        if done is None:
            return False
        lost = f"; fallen: {', '.join(done.casualties)}" if done.casualties else ""
        window.statusBar().showMessage(f"{done.name} is finished{lost}.", 10_000)
        return True

    def _finish_from(self, dialog: EndBattleDialog, battle_id: BattleId) -> FinishedBattle | None:
        """Show ``dialog`` until the battle is ended or it is cancelled. A result made from
        what someone else has changed since the dialog opened is refused by the service; the
        dialog then reads the battle again, says why at its top and is shown again."""
        while dialog.exec() == QDialog.DialogCode.Accepted:
            stale: list[str] = []
            done = self.runner.perform(
                partial(self._finish, battle_id, dialog.battle_result(), dialog.aftermath, stale),
                # Undo on the battle's page reopens it.
                stack=self.host.undo_scopes.battle(battle_id),
            )
            if done is not None or not stale:
                return done
            dialog.refresh(stale[0])  # read again on a worker while the dialog shows
        return None

    def _finish(
        self, battle_id: BattleId, result: BattleResult, seen: Aftermath, stale: list[str]
    ) -> Done[FinishedBattle]:
        """End the battle with ``result`` made from ``seen``; a refusal because someone else
        changed the battle since is also put in ``stale`` (the dialog then refreshes)."""
        try:
            return self.services.aftermath.finish(battle_id, result, seen.basis)
        except ConflictError as exc:
            stale.append(str(exc))
            raise
