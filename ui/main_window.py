"""BrikDesk's main window: menus, status bar and (for now) a welcome page.

The window gets everything it needs through its constructor (design: no globals, no service
locator); ``ui.app`` builds it. Rosters, the catalog, battles and the combat wizard will be
added here as docks, pages and menu entries.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from brikdesk import __version__
from brikdesk.domain.catalog import DEFAULT_EDITION

APP_TITLE = "BrikDesk"


def about_text() -> str:
    """What Help > About BrikDesk says (rich text)."""
    return (
        f"<h3>BrikDesk {__version__}</h3>"
        "<p>A campaign manager for the BrikWars tabletop wargame: army rosters and the "
        "weapon catalog, a battle tracker, a combat wizard that explains every modifier, "
        "and printed roster sheets.</p>"
        f"<p>Rules edition: BrikWars {DEFAULT_EDITION}.</p>"
        "<p>BrikWars is a free rules set by Mike Rayhawk; BrikDesk is an independent tool "
        "and is not affiliated with it or with the LEGO Group.</p>"
    )


class MainWindow(QMainWindow):
    """The top-level window. ``icon`` is the app icon (the window shows it)."""

    def __init__(self, icon: QIcon | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowTitle(APP_TITLE)
        self._icon = icon or QIcon()
        if icon is not None:
            self.setWindowIcon(icon)
        self.resize(1100, 720)
        self.setMinimumSize(QSize(640, 420))

        self._build_actions()
        self._build_menus()
        self._build_central()
        self._build_status_bar()

    # -- construction ---------------------------------------------------------------------

    def _build_actions(self) -> None:
        self.quit_action = QAction("&Quit", self)
        self.quit_action.setObjectName("quitAction")
        self.quit_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
        self.quit_action.setStatusTip("Close BrikDesk")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self.close)

        self.about_action = QAction("&About BrikDesk", self)
        self.about_action.setObjectName("aboutAction")
        self.about_action.setStatusTip("Version and rules edition")
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(self.show_about)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.file_menu.setObjectName("fileMenu")
        self.file_menu.addAction(self.quit_action)
        self.help_menu = bar.addMenu("&Help")
        self.help_menu.setObjectName("helpMenu")
        self.help_menu.addAction(self.about_action)

    def _build_central(self) -> None:
        page = QWidget(self)
        page.setObjectName("welcomePage")
        layout = QVBoxLayout(page)
        layout.addStretch(1)

        logo = QLabel(page)
        logo.setObjectName("welcomeLogo")
        logo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        if not self._icon.isNull():
            logo.setPixmap(self._icon.pixmap(QSize(128, 128)))
        layout.addWidget(logo)

        self.welcome_label = QLabel(page)
        self.welcome_label.setObjectName("welcomeLabel")
        self.welcome_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome_label.setWordWrap(True)
        self.welcome_label.setTextFormat(Qt.TextFormat.RichText)
        self.welcome_label.setText(
            "<h1>Welcome to BrikDesk</h1>"
            "<p>Your BrikWars campaigns: army rosters, the weapon catalog, battles and the "
            "combat wizard will live here.</p>"
        )
        layout.addWidget(self.welcome_label)
        layout.addStretch(2)
        self.setCentralWidget(page)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        status.setObjectName("statusBar")
        self.edition_label = QLabel(f"Rules: BrikWars {DEFAULT_EDITION}", status)
        self.edition_label.setObjectName("editionLabel")
        status.addPermanentWidget(self.edition_label)
        status.showMessage("Ready")

    # -- actions --------------------------------------------------------------------------

    def show_about(self) -> QMessageBox:
        """Open the About box (window-modal, not blocking) and return it."""
        box = QMessageBox(self)
        box.setObjectName("aboutBox")
        box.setWindowTitle("About BrikDesk")
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(about_text())
        if not self._icon.isNull():
            box.setIconPixmap(self._icon.pixmap(QSize(64, 64)))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box
