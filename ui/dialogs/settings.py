"""Edit > Settings: the organizer's preferences, remembered in ``AppSettings``.

- the default paper and black-and-white printing (what the print dialogs offer first; the same
  choices they remember, ``ui.widgets.print_options``);
- the dice: BrikDesk rolls virtual dice, or the faces rolled at the table are typed in (what
  the combat wizard's dice cards offer first);
- table mode's text size;
- the theme: System (the computer's light or dark setting), Light or Dark;
- the rules edition a new campaign starts with.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox, QWidget

from brikdesk.domain.catalog import DEFAULT_EDITION, Edition
from ui.appearance import THEME_TEXT, ThemeMode, apply_theme
from ui.settings import MAX_TABLE_FONT, MIN_TABLE_FONT, AppSettings, DiceMode
from ui.widgets.dialogs import FormDialog, answer_of
from ui.widgets.print_options import KEY_BW, KEY_PAPER, PAPER_NAMES, default_paper

DICE_TEXT = {
    DiceMode.VIRTUAL: "Virtual dice: BrikDesk rolls",
    DiceMode.TYPED: "Typed in: the faces rolled at the table",
}


@dataclass(frozen=True)
class Preferences:
    paper: str
    black_and_white: bool
    dice_mode: DiceMode
    table_font_percent: int
    edition: str
    theme: ThemeMode = ThemeMode.SYSTEM


def load_preferences(settings: AppSettings) -> Preferences:
    """The preferences stored in ``settings`` (defaults for anything missing)."""
    paper = str(settings.qsettings.value(KEY_PAPER) or "").strip().lower()
    return Preferences(
        paper if paper in PAPER_NAMES else default_paper(),
        settings.get_bool(KEY_BW, False),
        settings.dice_mode,
        settings.table_font_percent,
        settings.new_campaign_edition or DEFAULT_EDITION.value,
        settings.theme,
    )


def save_preferences(settings: AppSettings, prefs: Preferences) -> None:
    settings.set(KEY_PAPER, prefs.paper)
    settings.set(KEY_BW, prefs.black_and_white)
    settings.dice_mode = prefs.dice_mode
    settings.table_font_percent = prefs.table_font_percent
    settings.new_campaign_edition = prefs.edition
    settings.theme = prefs.theme
    settings.sync()


class SettingsDialog(FormDialog):
    """The preferences, shown from ``settings``; Save stores them."""

    def __init__(self, parent: QWidget | None, settings: AppSettings) -> None:
        super().__init__(
            parent,
            "Settings",
            "How BrikDesk behaves on this computer. "
            "Campaigns keep their own rules edition and house rules.",
            "Save",
        )
        self.setObjectName("settingsDialog")
        self.settings = settings
        prefs = load_preferences(settings)
        self.paper = QComboBox(self)
        self.paper.setObjectName("paper")
        for key, text in PAPER_NAMES.items():
            self.paper.addItem(text, key)
        self.paper.setCurrentIndex(max(0, self.paper.findData(prefs.paper)))
        self.form.addRow("Default &paper:", self.paper)
        self.bw = QCheckBox("Print in black and &white (saves ink)", self)
        self.bw.setObjectName("blackAndWhite")
        self.bw.setChecked(prefs.black_and_white)
        self.form.addRow("", self.bw)
        self.dice = QComboBox(self)
        self.dice.setObjectName("diceMode")
        for mode in DiceMode:
            self.dice.addItem(DICE_TEXT[mode], mode.value)
        self.dice.setCurrentIndex(max(0, self.dice.findData(prefs.dice_mode.value)))
        self.dice.setToolTip(
            "What the combat wizard's dice cards offer first; either can always be used"
        )
        self.form.addRow("&Dice:", self.dice)
        self.table_font = QSpinBox(self)
        self.table_font.setObjectName("tableFont")
        self.table_font.setRange(MIN_TABLE_FONT, MAX_TABLE_FONT)
        self.table_font.setSingleStep(5)
        self.table_font.setSuffix(" %")
        self.table_font.setValue(prefs.table_font_percent)
        self.table_font.setToolTip(
            "Table mode's text size, compared with the rest of BrikDesk "
            "(large enough to read across the table)"
        )
        self.form.addRow("&Table mode text:", self.table_font)
        self.edition = QComboBox(self)
        self.edition.setObjectName("edition")
        for e in Edition:
            self.edition.addItem(f"BrikWars {e.value}", e.value)
        self.edition.setCurrentIndex(max(0, self.edition.findData(prefs.edition)))
        self.form.addRow("&New campaigns use:", self.edition)
        self.theme = QComboBox(self)
        self.theme.setObjectName("theme")
        for theme_mode in ThemeMode:
            self.theme.addItem(THEME_TEXT[theme_mode], theme_mode.value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(prefs.theme.value)))
        self.theme.setToolTip("Light or dark windows; System follows the computer's setting")
        self.form.addRow("T&heme:", self.theme)

    def value(self) -> Preferences:
        return Preferences(
            self.paper.currentData(),
            self.bw.isChecked(),
            DiceMode(self.dice.currentData()),
            self.table_font.value(),
            self.edition.currentData(),
            ThemeMode(self.theme.currentData()),
        )

    @classmethod
    def ask(cls, parent: QWidget | None, settings: AppSettings) -> Preferences | None:
        """Show the preferences; on Save store them and return them, else None."""
        dialog = cls(parent, settings)
        prefs = answer_of(dialog, dialog.value)
        if prefs is not None:
            save_preferences(settings, prefs)
            apply_theme(prefs.theme)
        return prefs
