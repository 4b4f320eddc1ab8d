"""The windows the main window opens beside itself: an army's roster (one per army), the
campaign's catalog and history (one per campaign), the rules reference, the user guide, About,
and Edit > Settings. Each is made when first opened (the window modules load then) and raised
when asked again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMainWindow, QWidget
from shiboken6 import isValid

from brikdesk.domain.ids import ArmyId, CampaignId
from ui.bus import Bus
from ui.dialogs.campaign import ArmyDialog
from ui.screen import place_over
from ui.undo import UndoScopes
from ui.wheel import guard_wheel
from ui.widgets.common import MessageBanner, ServicesHost
from ui.windows.navigator import ARMY, CampaignNavigator

if TYPE_CHECKING:
    from ui.dialogs.about import AboutDialog
    from ui.dialogs.rules_reference import RulesReferenceDialog
    from ui.windows.catalog import CatalogWindow
    from ui.windows.history import HistoryWindow
    from ui.windows.roster import RosterWindow


def _raise(window: QWidget) -> None:
    guard_wheel(window)  # its boxes take the wheel only once the organizer chose them
    window.show()
    window.raise_()
    window.activateWindow()


class ShownForWindows(Protocol):
    @property
    def campaign_id(self) -> CampaignId | None: ...
    def edition(self) -> str: ...


class WindowsHost(ServicesHost, Protocol):
    """What opening windows and dialogs uses of the main window: the services, bus, undo
    histories and settings they are built with, the campaign shown and the selection, the
    banner for what fails, and what About names."""

    @property
    def bus(self) -> Bus: ...
    @property
    def undo_scopes(self) -> UndoScopes: ...
    @property
    def banner(self) -> MessageBanner: ...
    @property
    def navigator(self) -> CampaignNavigator: ...
    @property
    def shown(self) -> ShownForWindows: ...
    @property
    def database(self) -> str: ...
    @property
    def app_icon(self) -> QIcon: ...
    @property
    def preferences_changed(self) -> SignalInstance: ...
    def selected(self) -> tuple[str, int]: ...


class Windows(QObject):
    """The roster, catalog and history windows open, and the Help and Settings dialogs."""

    def __init__(self, window: QMainWindow, host: WindowsHost) -> None:
        super().__init__(window)
        self.window = window
        self.host = host
        self.rosters: dict[ArmyId, RosterWindow] = {}
        self.catalogs: dict[CampaignId, CatalogWindow] = {}
        #: Campaign > History windows, one per campaign.
        self.histories: dict[CampaignId, HistoryWindow] = {}
        self.rules_reference: RulesReferenceDialog | None = None

    def open_roster(self, army_id: ArmyId) -> RosterWindow | None:
        """Open (or raise) the roster window of an army."""
        main = self.window
        host = self.host
        window = self.rosters.get(army_id)
        if window is None:
            from ui.windows.roster import RosterWindow

            window = RosterWindow(
                host.services,
                host.bus,
                host.undo_scopes.army(army_id),
                host.settings,
                army_id,
                main,
            )
            if window.roster is None:
                host.banner.show_error(
                    f"There is no army with id {army_id} (it may have been deleted)"
                )
                return None
            self.rosters[army_id] = window
            window.closed.connect(self._roster_closed)
            window.army_made.connect(self._army_made)
            window.ask_army = self._ask_army
            # Where the last roster was closed, when it is the only one open; else over the
            # main window, each new roster a step down and right of the last one (so it does
            # not hide it); wholly on the main window's screen either way.
            if not window.came_back or len(self.rosters) > 1:
                place_over(window, main, len(self.rosters) - 1)
        _raise(window)
        return window

    def _ask_army(self, *args: Any, **kwargs: Any) -> Any:
        """The army dialog for a roster's Duplicate army (screens do not import the shell's
        dialogs)."""
        return ArmyDialog.ask(*args, **kwargs)

    def _army_made(self, army_id: int) -> None:
        """A roster made a new army (Duplicate army): select it and open its roster."""
        self.host.navigator.select(ARMY, army_id)
        self.open_roster(ArmyId(army_id))

    def _roster_closed(self, army_id: ArmyId) -> None:
        self.rosters.pop(army_id, None)

    def open_selected_roster(self) -> RosterWindow | None:
        kind, ident = self.host.selected()
        return self.open_roster(ArmyId(ident)) if kind == ARMY else None

    def open_catalog(self) -> CatalogWindow | None:
        main = self.window
        host = self.host
        campaign_id = host.shown.campaign_id
        if campaign_id is None:
            return None
        window = self.catalogs.get(campaign_id)
        if window is None:
            from ui.windows.catalog import CatalogWindow

            window = CatalogWindow(
                host.services,
                host.bus,
                host.undo_scopes.catalog(campaign_id),
                host.settings,
                campaign_id,
                main,
            )
            self.catalogs[campaign_id] = window
            place_over(window, main)
            window.closed.connect(lambda cid: self.catalogs.pop(cid, None))
        _raise(window)
        return window

    def open_history(self) -> HistoryWindow | None:
        """Campaign > History (one window per campaign)."""
        from ui.windows.history import HistoryWindow

        main = self.window
        host = self.host
        campaign_id = host.shown.campaign_id
        if campaign_id is None:
            return None
        window = self.histories.get(campaign_id)
        if window is None:
            window = HistoryWindow(host.services, host.bus, campaign_id, main)
            self.histories[campaign_id] = window
            place_over(window, main)
            window.destroyed.connect(self._history_closed)
        _raise(window)
        return window

    def campaign_opened(self, campaign_id: CampaignId) -> None:
        """The main window shows another campaign: an open history window shows its history
        (one already open for it stays, the other closes)."""
        for shown, window in list(self.histories.items()):
            if shown == campaign_id or not isValid(window):
                continue
            del self.histories[shown]
            if campaign_id in self.histories:
                window.close()
            else:
                self.histories[campaign_id] = window
                window.show_campaign(campaign_id)

    def _history_closed(self, *_args: object) -> None:
        self.histories = {k: w for k, w in self.histories.items() if isValid(w)}

    def close_all(self) -> None:
        """Close the roster and catalog windows (the app is closing)."""
        for window in [*self.rosters.values(), *self.catalogs.values()]:
            window.close()

    # -- help and settings ----------------------------------------------------------------

    def show_rules_reference(self) -> RulesReferenceDialog:
        from ui.dialogs.rules_reference import RulesReferenceDialog

        reference = self.rules_reference
        if reference is None:
            reference = self.rules_reference = RulesReferenceDialog(self.window)
        _raise(reference)
        return reference

    def show_user_guide(self) -> QWidget | None:
        """Help > User guide: the guide shipped with the app, in a window (offline)."""
        from ui.dialogs.user_guide import UserGuideWindow

        try:
            guide = UserGuideWindow(self.window)
        except (FileNotFoundError, OSError) as exc:
            self.host.banner.show_error(f"The user guide can't be shown: {exc}")
            return None
        guide.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        guide.show()
        return guide

    def show_about(self) -> AboutDialog:
        """Open the About dialog (window-modal, not blocking) and return it."""
        from ui.dialogs.about import AboutDialog

        main = self.window
        host = self.host
        dialog = AboutDialog(main, host.database, host.shown.edition(), host.app_icon)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def edit_preferences(self) -> bool:
        """Edit > Settings: the preferences; True when saved."""
        from ui.dialogs.settings import SettingsDialog

        main = self.window
        host = self.host
        prefs = SettingsDialog.ask(main, host.settings)
        if prefs is None:
            return False
        host.preferences_changed.emit()
        main.statusBar().showMessage("Settings saved.", 5000)
        return True
