"""The players' own links in the Share dialog: each player of the shared campaign gets a link
of their own (from which their phone sends their rolls) beside the watch-only one.

``PlayerTokens`` keeps a campaign's players' tokens in the settings, per campaign, the way the
share's own token and port are kept: a player's link stays the same when sharing starts
again (after Stop, a crash or a restart of the app) until it is revoked or the share gets a new
address. ``LinkChooser`` is the dialog's row that picks whose link the address field and the QR
code show, with "Revoke" for a player's link that reached the wrong hands.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QWidget

from brikdesk.domain.ids import CampaignId, PlayerId
from brikdesk.services.summaries import PlayerSummary
from brikdesk.share import new_token
from brikdesk.share.players import parse_tokens
from ui.settings import AppSettings

#: The chooser's first entry: the link for everyone, which only watches.
WATCH_ONLY = "Everyone (watch only)"
REVOKE_TIP = (
    "Give this player a new link: the old one stops working at once (a phone that is not "
    "theirs has it). Print or show them the new code"
)


class PlayerTokens:
    """The players' tokens of each campaign, kept in the settings."""

    def __init__(self, settings: AppSettings) -> None:
        self.settings = settings

    def _key(self, campaign_id: CampaignId) -> str:
        return self.settings.campaign_key(campaign_id, "share_players")

    def kept(self, campaign_id: CampaignId) -> dict[PlayerId, str]:
        raw = self.settings.qsettings.value(self._key(campaign_id))
        return parse_tokens(str(raw)) if raw else {}

    def for_players(
        self, campaign_id: CampaignId, players: tuple[PlayerSummary, ...]
    ) -> dict[PlayerId, str]:
        """A token for each of ``players``: the kept one, else a new one (kept from now on)."""
        kept = self.kept(campaign_id)
        tokens = {p.id: kept.get(p.id) or new_token() for p in players}
        if tokens != kept:
            self._keep(campaign_id, tokens)
        return tokens

    def revoke(self, campaign_id: CampaignId, player_id: PlayerId) -> dict[PlayerId, str]:
        """A new token for ``player_id``: their old link no longer works."""
        tokens = {**self.kept(campaign_id), player_id: new_token()}
        self._keep(campaign_id, tokens)
        return tokens

    def forget(self, campaign_id: CampaignId) -> None:
        self.settings.qsettings.remove(self._key(campaign_id))

    def _keep(self, campaign_id: CampaignId, tokens: dict[PlayerId, str]) -> None:
        self.settings.set(
            self._key(campaign_id), json.dumps({str(k): v for k, v in tokens.items()})
        )


class LinkChooser(QWidget):
    """Whose link the dialog shows: everyone's (watch only) or a player's own; ``chosen``
    (the player, ``None`` for everyone) and ``revoke_asked`` (the player shown)."""

    chosen = Signal(object)
    revoke_asked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QComboBox(self)
        self.box.setObjectName("linkFor")
        self.box.setAccessibleName("Whose link is shown")
        self.box.setToolTip(
            "The link for everyone only watches; a player's own link also sends their rolls "
            "to this app, for you to accept"
        )
        self.box.currentIndexChanged.connect(self._picked)
        self.revoke = QPushButton("Re&voke", self)
        self.revoke.setObjectName("revokeButton")
        self.revoke.setAccessibleName("Revoke this player's link")
        self.revoke.setToolTip(REVOKE_TIP)
        self.revoke.clicked.connect(self._revoke)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.box, 1)
        row.addWidget(self.revoke)
        self.set_players(())

    def set_players(self, players: tuple[tuple[PlayerId, str], ...]) -> None:
        """The players to offer (id, name); the one shown stays if still there."""
        shown = self.player
        entries = [(None, WATCH_ONLY), *players]
        if [(self.box.itemData(i), self.box.itemText(i)) for i in range(self.box.count())] != [
            (pid, f"{name}'s own link" if pid is not None else name) for pid, name in entries
        ]:
            self.box.blockSignals(True)
            self.box.clear()
            for pid, name in entries:
                self.box.addItem(f"{name}'s own link" if pid is not None else name, pid)
            index = self.box.findData(shown)
            self.box.setCurrentIndex(max(index, 0))
            self.box.blockSignals(False)
        self.revoke.setEnabled(self.player is not None)

    @property
    def player(self) -> PlayerId | None:
        data = self.box.currentData()
        return PlayerId(int(data)) if isinstance(data, int) else None

    def _picked(self) -> None:
        self.revoke.setEnabled(self.player is not None)
        self.chosen.emit(self.player)

    def _revoke(self) -> None:
        if self.player is not None:
            self.revoke_asked.emit(self.player)
