"""The campaign's commands of the main window: create, open, edit and delete a campaign, the
recent campaigns, and the players and armies of the navigator (add, edit, delete; a delete
first says what goes with it). Each is one undoable step of the window's history.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from brikdesk.domain.ids import ArmyId, BattleId, CampaignId, PlayerId
from brikdesk.services.changes import Done
from brikdesk.services.summaries import (
    NO_BUDGET,
    ArmyPatch,
    ArmySummary,
    CampaignPatch,
    Navigator,
    PlayerPatch,
)
from ui.dialogs.campaign import (
    ArmyDialog,
    CampaignSettingsDialog,
    NewCampaignDialog,
    OpenCampaignDialog,
    PlayerDialog,
)
from ui.undo import chain
from ui.widgets.common import ServicesHost
from ui.windows.navigator import ARMY, BATTLE, PLAYER, CampaignNavigator


class ShownForCommands(Protocol):
    @property
    def campaign_id(self) -> CampaignId | None: ...
    @property
    def nav(self) -> Navigator | None: ...
    @property
    def cost_unit(self) -> str: ...
    def open_campaign(self, campaign_id: CampaignId, *, quiet: bool = False) -> bool: ...


class RecentMenu(Protocol):
    @property
    def recent_menu(self) -> QMenu: ...


class BattleOpener(Protocol):
    def open_battle(self, battle_id: BattleId) -> bool: ...


class CampaignCommandsHost(ServicesHost, Protocol):
    """What the campaign commands use of the window: the services and settings, the campaign
    shown, the navigator and its selection, the recent campaigns menu and opening a battle."""

    @property
    def shown(self) -> ShownForCommands: ...
    @property
    def menus(self) -> RecentMenu: ...
    @property
    def navigator(self) -> CampaignNavigator: ...
    @property
    def navigator_dock(self) -> QDockWidget: ...
    @property
    def battles(self) -> BattleOpener: ...
    def selected(self) -> tuple[str, int]: ...


class CampaignCommands(QObject):
    """Campaign, player and army commands over the campaign shown (``host.shown``)."""

    def __init__(self, window: QMainWindow, host: CampaignCommandsHost) -> None:
        super().__init__(window)
        self.window = window
        self.host = host
        self.services = host.services
        self.runner = host.runner
        self.settings = host.settings
        self.shown = host.shown

    def new_campaign(self) -> CampaignId | None:
        existing = self.runner.read(self.services.campaigns.list_campaigns) or ()
        answer = NewCampaignDialog.ask(
            self.window, [c.name for c in existing], edition=self.settings.new_campaign_edition
        )
        if answer is None:
            return None
        summary = self.runner.perform(
            lambda: self.services.campaigns.create_campaign(
                answer.name,
                edition=answer.edition,
                cost_system=answer.cost_system,
                default_budget=answer.default_budget,
                notes=answer.notes,
            )
        )
        if summary is None:
            return None
        self.shown.open_campaign(summary.id)
        self.window.statusBar().showMessage(
            f"Created {summary.name}: add players, then their armies (Campaign menu)", 10_000
        )
        return summary.id

    def edit_campaign(self) -> bool:
        """Campaign > Campaign settings: one undoable edit of what was changed."""
        if self.shown.nav is None:
            return False
        existing = self.runner.read(self.services.campaigns.list_campaigns) or ()
        campaign = self.shown.nav.campaign
        patch = CampaignSettingsDialog.ask(self.window, campaign, [c.name for c in existing])
        if patch is None:
            return False
        cid = campaign.id
        chosen = None
        if patch.edition is not None:
            chosen = self._edition_choices(cid, patch.edition)
            if chosen is None:
                return False  # cancelled: nothing changes
        edition, rest = patch.edition, replace(patch, edition=None)
        text = f"Edit campaign {campaign.name}"

        def call() -> Done[Any]:
            first = (
                self.services.editions.change(cid, edition, *chosen)
                if edition is not None and chosen is not None
                else None
            )
            if rest == CampaignPatch():
                assert first is not None
                return first
            try:
                second = self.services.campaigns.update_campaign(
                    cid, rest, version=None if first else campaign.version
                )
            except Exception:
                if first is not None:
                    first.undo()
                raise
            return chain(first, second, text) if first is not None else second

        return self.runner.perform(call, text) is not None

    def _edition_choices(
        self, cid: CampaignId, edition: str
    ) -> tuple[dict[str, str], dict[str, str]] | None:
        """What the edition change does (types and items to map, each army's costs), asked
        before anything is changed; the chosen maps, or None when cancelled."""
        from ui.dialogs.edition_change import EditionChangeDialog

        preview = self.runner.read(lambda: self.services.editions.preview(cid, edition))
        if preview is None:
            return None
        return EditionChangeDialog.ask(self.window, preview)

    def delete_campaign(self) -> bool:
        """Delete the campaign shown (Undo brings it back); another one is shown."""
        nav = self.shown.nav
        if self.shown.campaign_id is None or nav is None:
            return False
        cid, name = self.shown.campaign_id, nav.campaign.name
        version = nav.campaign.version
        if not self.confirm_delete("campaign", cid, f"the campaign {name}"):
            return False
        done = self.runner.perform(
            lambda: self.services.campaigns.delete_campaign(cid, version=version)
        )
        if done is not None:
            self.window.statusBar().showMessage(
                f"Deleted the campaign {name} (Ctrl+Z brings it back)", 10_000
            )
        return done is not None

    def choose_campaign(self) -> bool:
        campaigns = self.runner.read(self.services.campaigns.list_campaigns)
        if campaigns is None:
            return False
        chosen = OpenCampaignDialog.ask(self.window, campaigns, self.shown.campaign_id)
        return chosen is not None and self.shown.open_campaign(chosen)

    def fill_recent(self) -> None:
        """File > Recent campaigns, as it opens."""
        menu = self.host.menus.recent_menu
        menu.clear()
        campaigns = {
            c.id: c for c in (self.runner.read(self.services.campaigns.list_campaigns) or ())
        }
        n = 0
        for cid in self.settings.recent_campaigns:
            c = campaigns.get(cid)
            if c is None:
                continue
            n += 1
            action = menu.addAction(f"&{n} {c.name}")
            action.setData(cid)
            action.triggered.connect(lambda _=False, i=cid: self.shown.open_campaign(i))
        if n == 0:
            none = menu.addAction("No recent campaigns")
            none.setEnabled(False)

    def recent_actions(self) -> list[QAction]:
        self.fill_recent()
        return [a for a in self.host.menus.recent_menu.actions() if a.isEnabled()]

    def add_player(self) -> PlayerId | None:
        if self.shown.campaign_id is None:
            return None
        from brikdesk.services.campaigns import PLAYER_COLOURS

        nav = self.shown.nav
        n = len(nav.players) if nav is not None else 0
        answer = PlayerDialog.ask(
            self.window, "Add player", colour=PLAYER_COLOURS[n % len(PLAYER_COLOURS)]
        )
        if answer is None:
            return None
        cid = self.shown.campaign_id
        player = self.runner.perform(
            lambda: self.services.campaigns.add_player(
                cid, answer.name, colour=answer.colour, faction=answer.faction
            )
        )
        if player is None:
            return None
        self.host.navigator.select(PLAYER, player.id)
        return player.id

    def add_army(self) -> ArmyId | None:
        nav = self.shown.nav
        if nav is None:
            return None
        kind, ident = self.host.selected()
        player_id = PlayerId(ident) if kind == PLAYER else None
        if kind == ARMY:
            player_id = next((a.player_id for a in nav.armies if a.id == ident), None)
        answer = ArmyDialog.ask(
            self.window,
            nav.players,
            player_id=player_id,
            budget=nav.campaign.default_budget,
            cost_unit=self.shown.cost_unit,
        )
        if answer is None:
            return None
        campaigns = self.services.campaigns

        def no_budget(army: ArmySummary) -> Done[ArmyPatch] | None:
            return (
                None
                if answer.budget is not None
                else campaigns.update_army(army.id, ArmyPatch(budget=NO_BUDGET))
            )

        army = self.runner.perform_chain(
            lambda: campaigns.add_army(answer.player_id, answer.name, budget=answer.budget),
            no_budget,
        )
        if army is None:
            return None
        self.host.navigator.select(ARMY, army.id)
        return army.id

    def edit_selected(self) -> bool:
        kind, ident = self.host.selected()
        nav = self.shown.nav
        if nav is None:
            return False
        if kind == PLAYER:
            p = next((p for p in nav.players if p.id == ident), None)
            if p is None:
                return False
            player = PlayerDialog.ask(self.window, f"Edit {p.name}", p.name, p.colour, p.faction)
            if player is None:
                return False
            player_patch = PlayerPatch(
                name=player.name, colour=player.colour, faction=player.faction
            )
            return (
                self.runner.perform(
                    lambda: self.services.campaigns.update_player(
                        PlayerId(ident), player_patch, version=p.version
                    )
                )
                is not None
            )
        if kind == ARMY:
            a = next((a for a in nav.armies if a.id == ident), None)
            if a is None:
                return False
            army = ArmyDialog.ask(
                self.window,
                nav.players,
                title=f"Edit {a.name}",
                player_id=a.player_id,
                name=a.name,
                budget=a.budget,
                cost_unit=self.shown.cost_unit,
            )
            if army is None:
                return False
            army_patch = ArmyPatch(
                name=army.name,
                player_id=army.player_id,
                budget=NO_BUDGET if army.budget is None else army.budget,
            )
            return (
                self.runner.perform(
                    lambda: self.services.campaigns.update_army(
                        ArmyId(ident), army_patch, version=a.version
                    ),
                    f"Edit army {army.name}",
                )
                is not None
            )
        if kind == BATTLE:
            self.host.battles.open_battle(BattleId(ident))
            return True
        return False

    def delete_selected(self) -> bool:
        kind, ident = self.host.selected()
        calls: dict[str, Callable[..., Any]] = {
            PLAYER: self.services.campaigns.delete_player,
            ARMY: self.services.campaigns.delete_army,
            BATTLE: self.services.battles.delete_battle,
        }
        call = calls.get(kind)
        nav = self.shown.nav
        if call is None or nav is None:
            return False
        # The version the navigator shows: a row someone else changed since is not deleted.
        shown: dict[str, Sequence[Any]] = {
            PLAYER: nav.players,
            ARMY: nav.armies,
            BATTLE: nav.battles,
        }
        version = next((r.version for r in shown[kind] if r.id == ident), None)
        if self.host.navigator_dock.isHidden():  # nothing is deleted that is not in sight
            self.window.statusBar().showMessage(
                "Show the navigator (View > Navigator, Ctrl+1) and select what to delete", 8000
            )
            return False
        name = next((getattr(r, "name", "") for r in shown[kind] if r.id == ident), "")
        if not self.confirm_delete(kind, ident, f"the {kind} {name}".rstrip()):
            return False
        done = self.runner.perform(lambda: call(ident, version=version))
        if done is not None:
            self.window.statusBar().showMessage("Deleted (Ctrl+Z brings it back)", 8000)
        return done is not None

    def confirm_delete(self, kind: str, ident: int, what: str) -> bool:
        """Ask before a delete, naming what goes with it (Cancel is the default)."""
        from ui.dialogs.confirm_delete import ConfirmDelete

        goes = self.runner.read(lambda: self.services.deletions.what_goes(kind, ident))
        if goes is None:
            return False
        return ConfirmDelete.ask(self.window, what, goes)
