"""The application's theme: System, Light or Dark (Edit > Settings; System by default).

Dark is a palette of BrikDesk's own on Qt's Fusion style, so it looks the same on a Linux
desktop that has no theme at all. System follows the colour scheme the platform reports
(``QStyleHints.colorScheme``) and changes with it while BrikDesk runs; where the platform
reports none, System is light. A change of theme shows at once: the palette changes, and every
widget with colours of its own repaints them (``ui.colours.follow_theme``).
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from ui import colours


class ThemeMode(StrEnum):
    """Edit > Settings' Theme; stored as its value."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


THEME_TEXT = {
    ThemeMode.SYSTEM: "System (follows the computer's light or dark setting)",
    ThemeMode.LIGHT: "Light",
    ThemeMode.DARK: "Dark",
}


def system_is_dark() -> bool:
    """Whether the platform asks for a dark colour scheme (False where it says nothing)."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return False
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def dark_palette() -> QPalette:
    """The dark theme's palette (``ui.colours.DARK_PALETTE``)."""
    pal = QPalette()
    for role_name, value in colours.DARK_PALETTE.items():
        role = getattr(QPalette.ColorRole, role_name)
        for group in (
            QPalette.ColorGroup.Active,
            QPalette.ColorGroup.Inactive,
            QPalette.ColorGroup.Disabled,
        ):
            pal.setColor(group, role, QColor(value))
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(colours.DARK_DISABLED_TEXT))
    return pal


def light_palette(standard: QPalette) -> QPalette:
    """The style's standard palette with ``ui.colours.LIGHT_PALETTE``'s roles."""
    pal = QPalette(standard)
    for role_name, value in colours.LIGHT_PALETTE.items():
        role = getattr(QPalette.ColorRole, role_name)
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            pal.setColor(group, role, QColor(value))
    return pal


class _Appearance(QObject):
    """Holds the mode chosen and the style the application started with; re-applies the
    theme when the platform's colour scheme changes and System is chosen."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.mode = ThemeMode.SYSTEM
        self.native_style = app.style().name()
        self.dark: bool | None = None
        app.styleHints().colorSchemeChanged.connect(self._scheme_changed)

    def _scheme_changed(self, _scheme: object) -> None:
        if self.mode is ThemeMode.SYSTEM:
            self.apply(self.mode)

    def apply(self, mode: ThemeMode) -> None:
        self.mode = mode
        dark = mode is ThemeMode.DARK or (mode is ThemeMode.SYSTEM and system_is_dark())
        if dark == self.dark:
            return
        self.dark = dark
        colours.set_dark(dark)
        if dark:
            if self.app.style().name().lower() != "fusion":
                self.app.setStyle(QStyleFactory.create("Fusion"))
            self.app.setPalette(dark_palette())
        else:
            if self.app.style().name().lower() != self.native_style.lower():
                self.app.setStyle(QStyleFactory.create(self.native_style))
            self.app.setPalette(light_palette(self.app.style().standardPalette()))
        # A widget styled by a style sheet (even one since emptied) keeps the palette it was
        # polished with: set its sheet again so that it takes the new one.
        for widget in QApplication.allWidgets():
            if widget.testAttribute(Qt.WidgetAttribute.WA_StyleSheet):
                sheet = widget.styleSheet()
                widget.setStyleSheet(sheet + " ")
                widget.setStyleSheet(sheet)
        colours.theme_changed()


def _appearance() -> _Appearance | None:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return None
    found = app.findChild(_Appearance)
    return found if isinstance(found, _Appearance) else _Appearance(app)


def apply_theme(mode: ThemeMode) -> None:
    """Show BrikDesk in ``mode`` from now on (live: open windows change at once)."""
    appearance = _appearance()
    if appearance is not None:
        appearance.apply(mode)


def theme_mode() -> ThemeMode:
    """The mode in use (System before any was applied)."""
    appearance = _appearance()
    return appearance.mode if appearance is not None else ThemeMode.SYSTEM
