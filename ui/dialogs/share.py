"""Battle > Share with players... and Campaign > Share with players...: the players' page.

``Sharing`` owns the one share the app runs at a time (``share_process.ShareProcess``: the
server runs as ``brikdesk share`` in a process of its own, so serving 50 phones takes nothing
from the window) and stops it when asked and when the app quits; if the server stops by itself
the dialog says so. ``ShareDialog`` shows it:
what is shared, the interface it is served on (the laptop's local-network address by default,
or 127.0.0.1), the address with its QR code (segno), how many devices are watching, Stop, and
"remember for this campaign": a remembered share starts again whenever that campaign is opened.

A campaign's share keeps its address: its token and port are kept (settings, per campaign)
whether or not it is remembered, so sharing again, after Stop, a crash or a restart of the
app, serves the same address and the phones' open pages come back by themselves. "New
address" (a link that reached the wrong people) makes a new token and port. If the kept port
is taken by another program now, the share moves to a free one with the same token, and if
this computer's address is not the last share's, the dialog says that the players must scan
the new code.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QProcess, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.ids import BattleId, CampaignId, PlayerId
from brikdesk.services import Services
from brikdesk.services.summaries import PlayerSummary
from brikdesk.share import Shared, new_token, valid_token
from brikdesk.share.network import lan_address
from ui.dialogs.share_players import LinkChooser, PlayerTokens
from ui.dialogs.share_process import ShareProcess
from ui.models.proposals import ProposalInbox
from ui.settings import AppSettings
from ui.wheel import guard_wheel

if TYPE_CHECKING:
    from brikdesk.persistence.db import Database
    from ui.printing.players_links import PlayerLink

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
NEW_ADDRESS_TIP = (
    "Serve the page on a new address (a link that reached the wrong people): the old one stops "
    "working, and the players scan the new code"
)
PRINT_TIP = (
    "A sheet with a card for each player of the campaign: their name and the page's QR code, to "
    "hand round the table"
)


class _Window(Protocol):
    campaign_id: CampaignId | None
    db: Database | None

    def current_battle(self) -> tuple[BattleId, str | None] | None: ...


def interface_addresses() -> list[str]:
    """This computer's IPv4 addresses, the local network's first, 127.0.0.1 last."""
    # Qt's network module loads when a share is first opened, not with the main window.
    from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface

    found = [
        a.toString()
        for a in QNetworkInterface.allAddresses()
        if a.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol and not a.isLoopback()
    ]
    lan = lan_address()
    ordered = [lan] if lan in found else []
    ordered += [a for a in found if a not in ordered]
    return [*ordered, LOOPBACK]


def qr_pixmap(text: str, scale: int = 5) -> QPixmap:
    """``text`` as a QR code (segno), dark on light with its quiet zone."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=4)
    pixmap = QPixmap()
    pixmap.loadFromData(out.getvalue(), "PNG")
    return pixmap


class Sharing(QObject):
    """The app's one share: its two menu actions, starting, stopping, remembering."""

    def __init__(self, window: QWidget | None, services: Services, settings: AppSettings) -> None:
        # The window is the parent (what to share is asked of it); no other reference to it
        # is kept, so no cycle holds a window past the application's end.
        super().__init__(window)
        self.services = services
        self.settings = settings
        self.server: ShareProcess | None = None
        #: Servers asked to stop that have not ended yet (waited for when the app quits).
        self._stopping: list[ShareProcess] = []
        self.title = ""
        #: What the dialog says beside the address: the address moved, or is new.
        self.notice = ""
        self.dialog: ShareDialog | None = None
        #: The players' own links' tokens, kept per campaign; the shared campaign's players.
        self.tokens = PlayerTokens(settings)
        #: The players' proposals waiting for the organizer (the battle panel lists them).
        self.inbox = ProposalInbox(self)
        self.players: tuple[PlayerSummary, ...] = ()
        self.campaign_action = QAction("Share with &players…", self)
        self.campaign_action.setObjectName("shareCampaignAction")
        self.campaign_action.setStatusTip(
            "Serve a read-only live page of the campaign to the players' phones"
        )
        self.campaign_action.triggered.connect(self.share_campaign)
        self.battle_action = QAction("Share with &players…", self)
        self.battle_action.setObjectName("shareBattleAction")
        self.battle_action.setStatusTip(
            "Serve a read-only live page of this battle to the players' phones"
        )
        self.battle_action.triggered.connect(self.share_battle)

    def set_enabled(self, campaign: bool, battle: bool) -> None:
        self.campaign_action.setEnabled(campaign)
        self.battle_action.setEnabled(battle)

    # -- what to share ------------------------------------------------------------------------

    def _window(self) -> _Window | None:
        return self.parent()  # type: ignore[return-value]

    def _target(self, battle: bool) -> tuple[Shared, str] | None:
        window = self._window()
        if window is None:
            return None
        cid = window.campaign_id
        if cid is None:
            return None
        name = self.services.campaigns.get_campaign(cid).name
        if battle:
            current = window.current_battle()
            if current is not None:
                return Shared(cid, current[0]), f"the battle {current[1] or current[0]} ({name})"
        return Shared(cid), f"the campaign {name}"

    def share_campaign(self) -> None:
        self.show_dialog(self._target(battle=False))

    def share_battle(self) -> None:
        self.show_dialog(self._target(battle=True))

    def show_dialog(self, target: tuple[Shared, str] | None) -> ShareDialog | None:
        if target is None:
            return None
        if self.dialog is None:
            parent = self.parent()
            self.dialog = ShareDialog(self, parent if isinstance(parent, QWidget) else None)
            self.dialog.destroyed.connect(self._dialog_gone)
        self.dialog.set_target(*target)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def _dialog_gone(self) -> None:
        self.dialog = None

    # -- running ------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def starting(self) -> bool:
        return self.server is not None and self.server.starting

    def start(
        self,
        shared: Shared,
        title: str,
        host: str,
        *,
        port: int | None = None,
        token: str | None = None,
    ) -> None:
        """Start sharing (a running share stops first): the server starts in a process of its
        own, and the dialog shows what it says as it says it (its address, the watchers).
        Without ``port`` and ``token``, the campaign's last share's are used (its phones'
        pages come back by themselves), until ``new_address()``."""
        self.stop()
        window = self._window()
        db = window.db if window is not None else None
        if db is None:
            return
        kept = self.address(shared.campaign_id) or {}
        kept_token, kept_port, kept_host = kept.get("token"), kept.get("port"), kept.get("host")
        if token is None and isinstance(kept_token, str):
            token = kept_token
        if port is None:
            port = kept_port if isinstance(kept_port, int) else 0
        self.notice = ""
        if isinstance(kept_host, str) and kept_host != host and token == kept_token:
            self.notice = (
                f"This computer's address is not the last share's ({kept_host}, now {host}): "
                "the players open the new address or scan the new code."
            )
        server = ShareProcess(
            shared,
            db.url,
            host=host,
            port=port,
            token=token if token is not None and valid_token(token) else new_token(),
            parent=self,
        )
        server.changed.connect(partial(self._changed, server))
        server.proposed.connect(self.inbox.add)
        server.dropped.connect(self.inbox.drop)
        self.inbox.answerer = server.answer
        self.players = self.services.campaigns.list_players(shared.campaign_id)
        server.players = self.tokens.for_players(shared.campaign_id, self.players)
        self.server, self.title = server, title
        server.start()
        self._tell()

    def new_address(self) -> None:
        """A new token and port for the campaign's share (its link leaked, say): the old
        address stops working; a running share starts again on the new one."""
        server = self.server
        if server is not None:
            self.forget_address(server.shared.campaign_id)
            self.tokens.forget(server.shared.campaign_id)
            shared, title, host = server.shared, self.title, server.host
            self.start(shared, title, host, port=0, token=new_token())
            self.notice = (
                "A new address: the old one no longer works. The players open this one or "
                "scan this code."
            )
            self._tell()

    def revoke(self, player_id: PlayerId) -> None:
        """A new link for the player: their old one stops working at once."""
        server = self.server
        if server is None:
            return
        server.send_players(self.tokens.revoke(server.shared.campaign_id, player_id))
        name = next((p.name for p in self.players if p.id == player_id), "the player")
        self.notice = (
            f"{name}'s old link no longer works. Show them this code, or print the "
            "players' links again."
        )
        self._tell()

    def player_url(self, player_id: PlayerId) -> str:
        """The player's own link ("" while nothing is served, or they have none)."""
        server = self.server
        token = server.players.get(player_id) if server is not None else None
        if server is None or not server.url or token is None:
            return ""
        return server.url.replace(f"/{server.token}/", f"/{token}/")

    def _changed(self, server: ShareProcess) -> None:
        if server is not self.server:  # one asked to stop: forget it once it ended
            if server.process.state() == QProcess.ProcessState.NotRunning:
                with contextlib.suppress(ValueError):
                    self._stopping.remove(server)
                server.deleteLater()
            return
        if server.running and server.url:
            self._keep_address(server)
            saved = self.remembered(server.shared.campaign_id)
            if saved is not None and saved.get("port") != server.port:
                self.remember(True)  # the port it really got
            self._tell()
            return
        if (
            server.problem
            and not server.url
            and server.requested_port
            and (server.problem.startswith("cannot listen on"))
        ):  # the kept port is taken now: the same token on a free port
            port = server.requested_port
            self.start(server.shared, self.title, server.host, port=0, token=server.token)
            self.notice = (
                f"Port {port} is taken by another program now, so the page moved to a new "
                "port: the players open the new address or scan the new code."
            )
            self._tell()
            server.deleteLater()
            return
        if server.problem:  # it could not start, or it stopped by itself
            self.server = None
            self.inbox.answerer = None
            self.inbox.clear()
            log.warning("share: %s", server.problem)
            verb = "Could not share on" if not server.url else "Sharing stopped on"
            self._tell(f"{verb} {server.host}: {server.problem}")
            server.deleteLater()

    def stop(self) -> None:
        server, self.server = self.server, None
        self.inbox.answerer = None
        self.inbox.clear()
        if server is not None:
            server.stop()
            if server.process.state() == QProcess.ProcessState.NotRunning:
                server.deleteLater()
            else:
                self._stopping.append(server)
            self._tell()

    def quit(self) -> None:
        """The app quits: stop sharing and wait (briefly) for the servers to end."""
        self.stop()
        for server in self._stopping:
            server.wait()
        self._stopping.clear()

    def _tell(self, problem: str = "") -> None:
        if self.dialog is not None:
            self.dialog.refresh(problem)

    # -- remembering --------------------------------------------------------------------------

    def _key(self, campaign_id: CampaignId) -> str:
        return self.settings.campaign_key(campaign_id, "share")

    def _address_key(self, campaign_id: CampaignId) -> str:
        return self.settings.campaign_key(campaign_id, "share_address")

    def address(self, campaign_id: CampaignId) -> dict[str, object] | None:
        """The campaign's last share's address (host, port, token), kept whether or not it
        is remembered, so that sharing again serves the same address."""
        return self._json_setting(self._address_key(campaign_id))

    def _keep_address(self, server: ShareProcess) -> None:
        kept = {"host": server.host, "port": server.port, "token": server.token}
        if self.address(server.shared.campaign_id) != kept:
            self.settings.set(self._address_key(server.shared.campaign_id), json.dumps(kept))

    def forget_address(self, campaign_id: CampaignId) -> None:
        self.settings.qsettings.remove(self._address_key(campaign_id))

    def remembered(self, campaign_id: CampaignId) -> dict[str, object] | None:
        return self._json_setting(self._key(campaign_id))

    def _json_setting(self, key: str) -> dict[str, object] | None:
        raw = self.settings.qsettings.value(key)
        try:
            value = json.loads(str(raw)) if raw else None
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def remember(self, on: bool) -> None:
        server = self.server
        if server is None:
            return
        key = self._key(server.shared.campaign_id)
        if on:
            self.settings.set(
                key,
                json.dumps(
                    {
                        "battle": server.shared.battle_id,
                        "host": server.host,
                        "port": server.port,
                        "token": server.token,
                        "title": self.title,
                    }
                ),
            )
        else:
            self.settings.qsettings.remove(key)

    def forget(self, campaign_id: CampaignId) -> None:
        self.settings.qsettings.remove(self._key(campaign_id))

    def campaign_opened(self, campaign_id: CampaignId) -> None:
        """Start the campaign's remembered share, if it has one and nothing is shared, once
        the window is shown and holds its database."""
        if self.remembered(campaign_id) is not None:
            QTimer.singleShot(0, self, partial(self._start_remembered, campaign_id))

    def _start_remembered(self, campaign_id: CampaignId) -> None:
        window = self._window()
        saved = self.remembered(campaign_id)
        if saved is None or self.running or window is None or window.campaign_id != campaign_id:
            return
        battle = saved.get("battle")
        port, token = saved.get("port"), saved.get("token")
        host = str(saved.get("host") or LOOPBACK)
        if host not in interface_addresses():
            host = interface_addresses()[0]  # the laptop is on another network today
        self.start(
            Shared(campaign_id, BattleId(battle) if isinstance(battle, int) else None),
            str(saved.get("title") or ""),
            host,
            port=port if isinstance(port, int) else 0,
            token=token if isinstance(token, str) else None,
        )


class ShareDialog(QDialog):
    """Shows the share: address and QR code, interface, watchers, Stop, remember."""

    def __init__(self, sharing: Sharing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ShareDialog")
        self.setWindowTitle("Share with players")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.sharing = sharing
        self._target: tuple[Shared, str] | None = None

        self.what = QLabel(self)
        self.what.setWordWrap(True)
        self.interface = QComboBox(self)
        self.interface.setObjectName("interfaceBox")
        self.interface.setAccessibleName("Network the page is served on")
        self.interface.addItems(interface_addresses())
        self.interface.setToolTip(
            "The network the page is served on: the laptop's address on the local network "
            "(the players' phones must be on it), or 127.0.0.1 for this computer only"
        )
        self.start_button = QPushButton("&Start sharing", self)
        self.start_button.setObjectName("startButton")
        self.start_button.setAccessibleName("Start sharing")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton("S&top", self)
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleName("Stop sharing")
        self.stop_button.clicked.connect(sharing.stop)
        self.address = QLineEdit(self)
        self.address.setObjectName("addressField")
        self.address.setAccessibleName("The page's address")
        self.address.setReadOnly(True)
        self.address.setMinimumWidth(460)
        self.link_for = LinkChooser(self)
        self.link_for.chosen.connect(self._show_link)
        self.link_for.revoke_asked.connect(sharing.revoke)
        self.copy_button = QPushButton("&Copy", self)
        self.copy_button.setAccessibleName("Copy the address")
        self.copy_button.clicked.connect(self.copy)
        self.new_button = self._button("&New address", "newAddressButton", NEW_ADDRESS_TIP)
        self.new_button.clicked.connect(sharing.new_address)
        self.print_button = self._button(
            "&Print the players' links…", "printLinksButton", PRINT_TIP
        )
        self.print_button.clicked.connect(self.print_links)
        self.preview: QDialog | None = None
        self.qr = QLabel(self)
        self.qr.setObjectName("qrCode")
        self.qr.setAccessibleName("QR code of the page's address")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr.setMinimumSize(220, 220)
        self.watching = QLabel(self)
        self.watching.setObjectName("watchersLabel")
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.remember_box = QCheckBox("&Remember for this campaign (share it whenever it opens)")
        self.remember_box.setObjectName("rememberBox")
        self.remember_box.setAccessibleName("Remember for this campaign")
        self.remember_box.toggled.connect(self._remember)

        row = QHBoxLayout()
        row.addWidget(self.interface, 1)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        address_row = QHBoxLayout()
        address_row.addWidget(self.address, 1)
        address_row.addWidget(self.copy_button)
        address_row.addWidget(self.new_button)
        form = QFormLayout()
        form.addRow("Sharing:", self.what)
        form.addRow("Served on:", row)
        form.addRow("&Link for:", self.link_for)
        form.addRow("Address:", address_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        buttons.addButton(self.print_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.qr)
        layout.addWidget(self.watching)
        layout.addWidget(self.status)
        layout.addWidget(self.remember_box)
        layout.addWidget(buttons)
        guard_wheel(self)

        self.interface.setFocus()

    def _button(self, text: str, name: str, tip: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setAccessibleName(text.replace("&", "").removesuffix("…"))
        button.setToolTip(tip)
        return button

    def set_target(self, shared: Shared, title: str) -> None:
        self._target = (shared, title)
        self.refresh()

    def start(self) -> None:
        if self._target is None:
            return
        self.sharing.start(*self._target, self.interface.currentText())

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.address.text())

    def players_links(self) -> list[PlayerLink]:
        """A card for each player of the shared campaign, with the page's address."""
        from ui.printing.players_links import PlayerLink

        server = self.sharing.server
        if server is None or not server.url:
            return []
        return [
            PlayerLink(p.name, p.colour, self.sharing.player_url(p.id) or server.url)
            for p in self.sharing.players
        ]

    def print_links(self) -> None:
        """Preview (and from there print) the players' links: a card per player."""
        from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

        from ui.printing.players_links import paint_players_links

        links = self.players_links()
        if not links:
            return
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName("The players' links")
        preview = QPrintPreviewDialog(printer, self)
        preview.setObjectName("linksPreview")
        preview.setWindowTitle("Print preview: the players' links")
        preview.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        preview.paintRequested.connect(lambda device: paint_players_links(device, links))
        preview.printer_ref = printer  # type: ignore[attr-defined]  # alive with the dialog
        self.preview = preview
        preview.open()

    def _remember(self, on: bool) -> None:
        if self.sharing.server is not None:
            self.sharing.remember(on)
        elif self._target is not None and not on:
            self.sharing.forget(self._target[0].campaign_id)

    def refresh(self, problem: str = "") -> None:
        sharing, server = self.sharing, self.sharing.server
        live = server is not None and not sharing.starting
        if server is not None:
            self.what.setText(sharing.title)
            index = self.interface.findText(server.host)
            if index >= 0:
                self.interface.setCurrentIndex(index)
        elif self._target is not None:
            self.what.setText(self._target[1])
        self.interface.setEnabled(server is None)
        self.start_button.setEnabled(server is None and self._target is not None)
        self.stop_button.setEnabled(server is not None)
        self.copy_button.setEnabled(live)
        self.new_button.setEnabled(live)
        self.print_button.setEnabled(live)
        self.remember_box.setEnabled(server is not None)
        campaign = server.shared.campaign_id if server else None
        self.remember_box.blockSignals(True)
        self.remember_box.setChecked(
            campaign is not None and sharing.remembered(campaign) is not None
        )
        self.remember_box.blockSignals(False)
        self.link_for.set_players(tuple((p.id, p.name) for p in sharing.players))
        self.link_for.setEnabled(live)
        if live:
            self._show_link(self.link_for.player)
            self.status.setText(
                (sharing.notice + "\n\n" if sharing.notice else "")
                + "Players open the address, or scan the code, on a phone on the same network. "
                "The link for everyone only watches; a player's own link also sends their "
                "rolls here, for you to accept. Sharing again later serves the same addresses."
            )
        else:
            self.address.clear()
            self.qr.clear()
            self.qr.setText("Starting…" if server is not None else "Not shared.")
            self.status.setText(problem)
        self._count()

    def _show_link(self, player: PlayerId | None) -> None:
        """The address field and the QR code show the chosen link."""
        server = self.sharing.server
        if server is None or not server.url:
            return
        url = (self.sharing.player_url(player) if player is not None else "") or server.url
        if self.address.text() != url:
            self.address.setText(url)
            self.qr.setPixmap(qr_pixmap(url))

    def _count(self) -> None:
        server = self.sharing.server
        if server is None or self.sharing.starting:
            self.watching.setText("")
            return
        n = server.watchers
        self.watching.setText(
            "No device is watching yet."
            if n == 0
            else f"{n} device{'s' if n != 1 else ''} watching."
        )
