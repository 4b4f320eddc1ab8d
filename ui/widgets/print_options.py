"""The small dialogs shown before a roster sheet or a battle report is previewed, printed or
exported: what the sheet shows (paper, turns of tick boxes, folding, black and white, warnings,
reference, blank cards, units dead in the campaign) and, for a report, paper and black and
white. The choices are remembered in ``QSettings`` (through ``AppSettings``) and offered again
next time; the paper and black and white are shared by sheets and reports.

Each dialog has a classmethod ``ask(parent, settings, ...)`` returning the choice (and storing
it) or ``None`` when cancelled; tests replace ``ask`` and never run the modal ``QDialog.exec``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QLabel,
    QSpinBox,
    QWidget,
)

from brikdesk.domain.report import READINGS as REPORT_READINGS
from brikdesk.domain.sheets import (
    MAX_BLANK_CARDS,
    MAX_TURNS,
    MIN_TURNS,
    READINGS,
    RosterSheetOptions,
)
from brikdesk.services.printing import READINGS as PRINT_READINGS
from ui.settings import AppSettings
from ui.widgets.dialogs import FormDialog, answer_of

#: The keys the choices are stored under.
KEY_PAPER = "print/paper"
KEY_BW = "print/black_and_white"
KEY_TURNS = "print/roster/turns"
KEY_FOLD = "print/roster/fold"
KEY_WARNINGS = "print/roster/warnings"
KEY_REFERENCE = "print/roster/reference"
KEY_BLANK = "print/roster/blank_cards"
KEY_DEAD = "print/roster/include_dead"
KEY_FOLDER = "print/folder"

PAPER_NAMES = {"a4": "A4 (210 × 297 mm)", "letter": "Letter (8.5 × 11 in)"}


C = TypeVar("C")  # a choice: RosterChoice or ReportChoice


def default_paper() -> str:
    """Letter where it is the usual paper (the US and Canada), A4 elsewhere."""
    locale = QLocale.system()
    if locale.measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem:
        return "letter"
    return (
        "letter" if locale.territory() in (QLocale.Country.Canada, QLocale.Country.Mexico) else "a4"
    )


@dataclass(frozen=True)
class RosterChoice:
    """What the organizer chose for a roster sheet."""

    options: RosterSheetOptions = field(default_factory=RosterSheetOptions)
    include_dead: bool = False


@dataclass(frozen=True)
class ReportChoice:
    """What the organizer chose for a battle report."""

    paper: str = "a4"
    black_and_white: bool = False


def _defaults() -> RosterChoice:
    return RosterChoice(RosterSheetOptions(paper=default_paper(), include_warnings=False))


def _paper(settings: AppSettings) -> str:
    value = str(settings.qsettings.value(KEY_PAPER) or "").strip().lower()
    return value if value in PAPER_NAMES else default_paper()


def _clamp(value: int | None, lo: int, hi: int, default: int) -> int:
    return default if value is None else max(lo, min(hi, value))


def load_roster_choice(settings: AppSettings) -> RosterChoice:
    """The roster choices stored last (the defaults for anything missing or unreadable: as
    ``brikdesk print`` with no options, warnings printed only when asked for)."""
    d = RosterSheetOptions()
    return RosterChoice(
        RosterSheetOptions(
            paper=_paper(settings),
            turns=_clamp(settings.get_int(KEY_TURNS), MIN_TURNS, MAX_TURNS, d.turns),
            fold_identical=settings.get_bool(KEY_FOLD, d.fold_identical),
            black_and_white=settings.get_bool(KEY_BW, d.black_and_white),
            include_warnings=settings.get_bool(KEY_WARNINGS, False),
            include_reference=settings.get_bool(KEY_REFERENCE, d.include_reference),
            blank_cards=_clamp(settings.get_int(KEY_BLANK), 0, MAX_BLANK_CARDS, d.blank_cards),
        ),
        include_dead=settings.get_bool(KEY_DEAD, False),
    )


def save_roster_choice(settings: AppSettings, choice: RosterChoice) -> None:
    o = choice.options
    for key, value in (
        (KEY_PAPER, o.paper),
        (KEY_TURNS, o.turns),
        (KEY_FOLD, o.fold_identical),
        (KEY_BW, o.black_and_white),
        (KEY_WARNINGS, o.include_warnings),
        (KEY_REFERENCE, o.include_reference),
        (KEY_BLANK, o.blank_cards),
        (KEY_DEAD, choice.include_dead),
    ):
        settings.set(key, value)


def load_report_choice(settings: AppSettings) -> ReportChoice:
    return ReportChoice(_paper(settings), settings.get_bool(KEY_BW, False))


def save_report_choice(settings: AppSettings, choice: ReportChoice) -> None:
    settings.set(KEY_PAPER, choice.paper)
    settings.set(KEY_BW, choice.black_and_white)


def _paper_box(parent: QWidget, paper: str) -> QComboBox:
    box = QComboBox(parent)
    box.setObjectName("paper")
    for key, text in PAPER_NAMES.items():
        box.addItem(text, key)
    box.setCurrentIndex(max(0, box.findData(paper)))
    box.setToolTip("Portrait, 12 mm margins")
    return box


def _check(parent: QWidget, name: str, text: str, tip: str, checked: bool) -> QCheckBox:
    box = QCheckBox(text, parent)
    box.setObjectName(name)
    box.setToolTip(tip)
    box.setChecked(checked)
    return box


class RosterOptionsDialog(FormDialog):
    """Paper, turns, blank cards and what else the roster sheet shows."""

    def __init__(
        self, parent: QWidget | None, choice: RosterChoice, *, title: str = "", verb: str = "OK"
    ) -> None:
        super().__init__(
            parent,
            "Roster sheet",
            (f"<b>{_html(title)}</b>: " if title else "")
            + "what the roster sheet shows. BrikDesk remembers these choices.",
            ok_text=verb,
        )
        self.setObjectName("rosterPrintOptions")
        o = choice.options
        self.paper = _paper_box(self, o.paper)
        self.form.addRow("&Paper:", self.paper)
        self.turns = QSpinBox(self)
        self.turns.setObjectName("turns")
        self.turns.setRange(MIN_TURNS, MAX_TURNS)
        self.turns.setSuffix(" turns")
        self.turns.setToolTip(
            "Columns of tick boxes beside each card: the Action, each Counter "
            "and Dead, once per turn"
        )
        self.form.addRow("&Tick boxes for:", self.turns)
        self.blank = QSpinBox(self)
        self.blank.setObjectName("blankCards")
        self.blank.setRange(0, MAX_BLANK_CARDS)
        self.blank.setSpecialValueText("none")
        self.blank.setToolTip(
            "Empty cards at the end, for units gained at the table (six to a page)"
        )
        self.form.addRow("&Blank cards:", self.blank)
        self.fold = _check(
            self,
            "fold",
            "&Fold identical units into one card (x6 Minifig with …)",
            READINGS["fold"],
            o.fold_identical,
        )
        self.bw = _check(
            self,
            "blackAndWhite",
            "Black and &white (saves ink)",
            "No coloured or filled areas: outlines and text only",
            o.black_and_white,
        )
        self.reference = _check(
            self,
            "reference",
            "&Reference: the rules and items this army uses",
            READINGS["reference"],
            o.include_reference,
        )
        self.warnings = _check(
            self,
            "warnings",
            "Roster &warnings at the end",
            "What the roster check found (over budget, too many hands, armour stacked...)",
            o.include_warnings,
        )
        self.dead = _check(
            self,
            "includeDead",
            "Include units &dead in the campaign",
            PRINT_READINGS["dead_units"],
            choice.include_dead,
        )
        for box in (self.fold, self.bw, self.reference, self.warnings, self.dead):
            self.form.addRow("", box)
        self.buttons.addButton(QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            self.restore_defaults
        )
        self._show(choice)

    def _show(self, choice: RosterChoice) -> None:
        o = choice.options
        self.paper.setCurrentIndex(max(0, self.paper.findData(o.paper)))
        self.turns.setValue(o.turns)
        self.blank.setValue(o.blank_cards)
        self.fold.setChecked(o.fold_identical)
        self.bw.setChecked(o.black_and_white)
        self.reference.setChecked(o.include_reference)
        self.warnings.setChecked(o.include_warnings)
        self.dead.setChecked(choice.include_dead)

    def restore_defaults(self) -> None:
        self._show(_defaults())

    def choice(self) -> RosterChoice:
        return RosterChoice(
            RosterSheetOptions(
                paper=self.paper.currentData(),
                turns=self.turns.value(),
                fold_identical=self.fold.isChecked(),
                black_and_white=self.bw.isChecked(),
                include_warnings=self.warnings.isChecked(),
                include_reference=self.reference.isChecked(),
                blank_cards=self.blank.value(),
            ),
            include_dead=self.dead.isChecked(),
        )

    @classmethod
    def ask(
        cls, parent: QWidget | None, settings: AppSettings, title: str = "", verb: str = "OK"
    ) -> RosterChoice | None:
        """Offer the stored choices; on OK store and return the new ones."""
        return _ask_and_store(
            cls, parent, settings, title, verb, load_roster_choice, save_roster_choice
        )


class ReportOptionsDialog(FormDialog):
    """Paper and black and white for a battle report."""

    def __init__(
        self, parent: QWidget | None, choice: ReportChoice, *, title: str = "", verb: str = "OK"
    ) -> None:
        super().__init__(
            parent,
            "Battle report",
            (f"<b>{_html(title)}</b>: " if title else "")
            + "the account round by round, the casualties per player and a "
            "chart of casualties per round.",
            ok_text=verb,
        )
        self.setObjectName("reportPrintOptions")
        self.paper = _paper_box(self, choice.paper)
        self.form.addRow("&Paper:", self.paper)
        self.bw = _check(
            self,
            "blackAndWhite",
            "Black and &white (saves ink)",
            "No coloured or filled areas: the players are told apart by line "
            "patterns in the chart and the tables",
            choice.black_and_white,
        )
        self.form.addRow("", self.bw)
        note = QLabel(f"{REPORT_READINGS['rounds']} {REPORT_READINGS['casualties']}", self)
        note.setObjectName("reportNote")
        note.setToolTip(REPORT_READINGS["dice"])
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(placeholder-text);")
        self.form.addRow(note)

    def choice(self) -> ReportChoice:
        return ReportChoice(self.paper.currentData(), self.bw.isChecked())

    @classmethod
    def ask(
        cls, parent: QWidget | None, settings: AppSettings, title: str = "", verb: str = "OK"
    ) -> ReportChoice | None:
        """Offer the stored choices; on OK store and return the new ones."""
        return _ask_and_store(
            cls, parent, settings, title, verb, load_report_choice, save_report_choice
        )


def _ask_and_store(
    dialog_cls: Any,
    parent: QWidget | None,
    settings: AppSettings,
    title: str,
    verb: str,
    load: Callable[[AppSettings], C],
    save: Callable[[AppSettings, C], None],
) -> C | None:
    """Open ``dialog_cls`` on the choices ``load`` reads from ``settings``; on OK ``save`` the
    dialog's new choice and return it, else ``None``."""
    dialog = dialog_cls(parent, load(settings), title=title, verb=verb)
    choice: C | None = answer_of(dialog, dialog.choice)
    if choice is not None:
        save(settings, choice)
    return choice


def _html(text: str) -> str:
    import html

    return html.escape(text)


__all__ = [
    "KEY_FOLDER",
    "ReportChoice",
    "ReportOptionsDialog",
    "RosterChoice",
    "RosterOptionsDialog",
    "default_paper",
    "load_report_choice",
    "load_roster_choice",
    "save_report_choice",
    "save_roster_choice",
]
