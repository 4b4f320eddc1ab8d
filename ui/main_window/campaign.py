"""The campaign the main window shows: which one (the last one opened, the demo on the first
start), its navigator as last read, and the campaign overview with its standings (read on a
worker). It follows the bus: what anyone changes in the campaign is read again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget, QLabel, QStackedWidget, QWidget

from brikdesk.domain.catalog import DEFAULT_EDITION
from brikdesk.domain.ids import BattleId, CampaignId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Changes
from brikdesk.services.summaries import Navigator
from ui.widgets.common import MessageBanner, ServicesHost, show_storage_error
from ui.windows.navigator import BattlePage, CampaignNavigator, OverviewPage
from ui.workers import start_job

if TYPE_CHECKING:
    from brikdesk.domain.history import CampaignHistory

APP_TITLE = "BrikDesk"
NAVIGATOR_CHANGES = (
    Changes.CAMPAIGNS
    | Changes.PLAYERS
    | Changes.ARMIES
    | Changes.UNITS
    | Changes.BATTLES
    | Changes.EVENTS
)


class SharingForShown(Protocol):
    def campaign_opened(self, campaign_id: CampaignId) -> None: ...


class WindowsForShown(Protocol):
    def campaign_opened(self, campaign_id: CampaignId) -> None: ...


class BattleOpener(Protocol):
    def open_battle(self, battle_id: BattleId) -> bool: ...


class CampaignShownHost(ServicesHost, Protocol):
    """What showing a campaign uses of the window: the services and settings, the pages it
    shows the campaign on (the navigator, the overview, the battle page), the edition label,
    the players' page and the open windows to tell, and the window's overview and enabled actions."""

    @property
    def banner(self) -> MessageBanner: ...
    @property
    def sharing(self) -> SharingForShown: ...
    @property
    def windows(self) -> WindowsForShown: ...
    @property
    def navigator(self) -> CampaignNavigator: ...
    @property
    def navigator_dock(self) -> QDockWidget: ...
    @property
    def pages(self) -> QStackedWidget: ...
    @property
    def overview(self) -> OverviewPage: ...
    @property
    def battle_page(self) -> BattlePage: ...
    @property
    def battles(self) -> BattleOpener: ...
    @property
    def edition_label(self) -> QLabel: ...
    def show_overview(self) -> None: ...
    def update_enabled(self, *_args: object) -> None: ...


class CampaignShown(QObject):
    """The campaign shown (``campaign_id``, ``nav``) and the overview page of it."""

    def __init__(self, window: QWidget, host: CampaignShownHost) -> None:
        super().__init__(window)
        self.window = window
        self.host = host
        self.services = host.services
        self.runner = host.runner
        self.settings = host.settings
        self.campaign_id: CampaignId | None = None
        self.nav: Navigator | None = None
        #: The campaign's cost system (``CP``, ``BP``...), as the navigator shows costs.
        self.cost_unit = "CP"
        #: The overview's standings as last read: (campaign, HTML), and which read is wanted.
        self._standings: tuple[CampaignId | None, str] = (None, "")
        self._standings_wanted = 0

    def open_initial(self) -> None:
        """The last campaign opened, else the first one, else none."""
        last = self.settings.last_campaign
        if last is not None and self.open_campaign(last, quiet=True):
            return
        campaigns = self.runner.read(self.services.campaigns.list_campaigns) or ()
        if campaigns:
            self.open_campaign(campaigns[0].id)
        else:
            self.show_campaign(None)

    def open_campaign(self, campaign_id: CampaignId, *, quiet: bool = False) -> bool:
        """Show campaign ``campaign_id`` (False, and nothing changes, if it doesn't exist)."""
        window = self.window
        host = self.host
        try:
            nav = self.services.campaigns.navigator(campaign_id)
        except UserError as exc:
            if not quiet:
                host.banner.show_error(str(exc))
            self.settings.forget_recent(campaign_id)
            return False
        except StorageError as exc:
            show_storage_error(window, exc)
            return False
        changed = campaign_id != self.campaign_id
        self.campaign_id = campaign_id
        self.settings.last_campaign = campaign_id
        self.settings.add_recent(campaign_id)
        self.show_campaign(nav)
        if changed:
            host.show_overview()
            host.sharing.campaign_opened(campaign_id)
            host.windows.campaign_opened(campaign_id)
        return True

    def show_campaign(self, nav: Navigator | None) -> None:
        """Show ``nav`` in the title, the status bar, the navigator and the page shown."""
        window = self.window
        host = self.host
        self.nav = nav
        if nav is None:
            self.campaign_id = None
            window.setWindowTitle(APP_TITLE)
            host.edition_label.setText(f"Rules: BrikWars {DEFAULT_EDITION}")
        else:
            c = nav.campaign
            self.cost_unit = c.cost_system
            window.setWindowTitle(f"{c.name}: {APP_TITLE}")
            host.edition_label.setText(f"Rules: BrikWars {c.edition}")
            host.navigator_dock.setWindowTitle(c.name)
        host.navigator.show_navigator(nav, self.cost_unit)
        # The standings are read only while the overview is shown (not on every battle event).
        pages, battle_page = host.pages, host.battle_page
        if pages.currentWidget() is host.overview:
            self.show_overview_page(nav)
        else:
            host.overview.show_navigator(nav, self.cost_unit, "")
        if (
            nav is not None
            and battle_page.battle_id is not None
            and pages.currentWidget() is battle_page
        ):
            if battle_page.battle_id not in {b.id for b in nav.battles}:
                host.show_overview()
            else:
                host.battles.open_battle(battle_page.battle_id)
        host.update_enabled()

    def refresh(self) -> None:
        """View > Refresh: read the campaign again."""
        if self.campaign_id is None or not self.open_campaign(self.campaign_id, quiet=True):
            self.open_initial()

    def on_changed(self, changes: object) -> None:
        if not isinstance(changes, Changes) or not changes & NAVIGATOR_CHANGES:
            return
        if self.campaign_id is not None and self.open_campaign(self.campaign_id, quiet=True):
            return
        # The campaign shown is gone (an undone create or import): show the latest one.
        campaigns = self.runner.read(self.services.campaigns.list_campaigns) or ()
        if campaigns:
            self.open_campaign(campaigns[0].id, quiet=True)
        else:
            self.show_campaign(None)

    def show_overview_page(self, nav: Navigator | None) -> None:
        """The campaign overview at once (with the standings last read for this campaign);
        its standings are read again on a worker (the history reads every finished battle)
        and shown when read, if the overview still shows that campaign."""
        overview = self.host.overview
        cid = nav.campaign.id if nav is not None else None
        kept = self._standings[1] if self._standings[0] == cid else ""
        overview.show_navigator(nav, self.cost_unit, kept)
        self._standings_wanted += 1
        if nav is None or not any(b.status is BattleStatus.FINISHED for b in nav.battles):
            self._standings = (cid, "")
            return
        wanted = self._standings_wanted
        services = self.services

        def read(_progress: object) -> CampaignHistory:  # worker thread
            import ui.windows.standings  # noqa: F401  (imported here, not on the GUI thread)

            return services.history.history(nav.campaign.id, in_progress=False)

        def done(history: CampaignHistory) -> None:
            from ui.windows.standings import standings_html

            if wanted != self._standings_wanted or self.nav is not nav:
                return  # another campaign, or a newer read, is on its way
            html = standings_html(history)
            self._standings = (cid, html)
            overview.show_navigator(nav, self.cost_unit, html)

        def failed(exc: BaseException, _trace: str) -> None:
            if wanted == self._standings_wanted:
                self.host.banner.show_error(f"The standings could not be read: {exc}")

        start_job(
            self.window,
            read,
            on_done=done,
            on_error=failed,
        )

    def edition(self) -> str:
        """The rules edition of the campaign shown (else the default)."""
        edition = self.nav.campaign.edition if self.nav is not None else DEFAULT_EDITION
        return str(getattr(edition, "value", edition))

    def battle_name(self, battle_id: int) -> str | None:
        """The name of a battle of the campaign shown."""
        nav = self.nav
        return next((b.name for b in nav.battles if b.id == battle_id), None) if nav else None
