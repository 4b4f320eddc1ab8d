"""Widgets the combat wizard's pages share: selectors that explain what they refuse, the dice
entry that asks for exactly the die the rules need, the Benny chooser, the odds panel, and a
chart slot that loads pyqtgraph only when a chart is first shown.

Everything here is sized for a table: the wizard sets a large base font (``BASE_PT``), and the
numbers the players look for (the number needed, the odds, the Armor) are larger still.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QStandardItem,
    QStandardItemModel,
    QStaticText,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.combat import BennyOption, Choice, readings_for
from brikdesk.domain.rolling import DieRoll, NeedDie, Role
from ui.static_texts import StaticTexts

#: Base font size of the wizard (points): readable from across a table.
BASE_PT = 15
BIG_PT = 25
ODDS_PT = 22
#: The background of a card (``QFrame[role="card"]``), which the labels on it fill in too.
CARD_BG = "#f7f9fb"

STYLE = f"""
QWizard, QWizardPage, QWidget {{ font-size: {BASE_PT}pt; }}
QLabel[role="big"] {{ font-size: {BIG_PT}pt; font-weight: 600; }}
QLabel[role="section"] {{ font-size: {BASE_PT + 2}pt; font-weight: 600; color: #1d3557; }}
QLabel[role="note"] {{ font-size: {BASE_PT - 3}pt; color: #52606d; }}
QLabel[role="problem"] {{ color: #8a1c12; background: #fdecea; border: 1px solid #e6a19a;
    border-radius: 3px; padding: 6px 10px; }}
QLabel[role="good"] {{ color: #14532d; background: #e8f5e9; border: 1px solid #9ccc9c;
    border-radius: 3px; padding: 6px 10px; }}
QLabel[role="event"] {{ font-size: {BASE_PT + 1}pt; }}
QLabel[role="paragraph"] {{ font-size: {BASE_PT + 5}pt; }}
QLabel[role="prompt"] {{ font-size: {BASE_PT + 2}pt; font-weight: 600; }}
QLineEdit[role="die"] {{ font-size: {BIG_PT}pt; font-weight: 600; padding: 2px 8px; }}
QFrame[role="card"] {{ background: {CARD_BG}; border: 1px solid #d5dde5; border-radius: 6px; }}
QFrame[role="chip"] {{ border: 2px solid #9aa5b1; border-radius: 6px; background: white; }}
QPushButton {{ padding: 6px 14px; }}
"""

#: Colours of the dice chips by role (the same colour codes the charts use).
ROLE_COLOURS = {
    Role.NATURAL: "#1d3557",
    Role.BONUS: "#2a9d8f",
    Role.BENNY: "#b8860b",
    Role.MOM: "#7b2cbf",
    Role.POP: "#6c757d",
}
CRIT_COLOUR = "#c0392b"


def percent(p: Fraction | float | None) -> str:
    """``"41.7%"``; ``"<0.1%"`` for a tiny chance that is not zero; ``"-"`` for none."""
    if p is None:
        return "-"
    x = float(p)
    if x == 0:
        return "0%"
    if x == 1:
        return "100%"
    if x < 0.001:
        return "<0.1%"
    if x > 0.999:
        return ">99.9%"
    return f"{x * 100:.1f}%"


def label(
    text: str = "",
    role: str | None = None,
    parent: QWidget | None = None,
    *,
    wrap: bool = True,
    selectable: bool = True,
) -> QLabel:
    """A label of the wizard; its text can be selected with the mouse, but for a figure that
    changes with every judgement (``selectable=False``): a selectable label holds a rich-text
    document, rebuilt at each new text and slower to paint."""
    lab = QLabel(text, parent)
    if role:
        lab.setProperty("role", role)
    lab.setWordWrap(wrap)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


@functools.lru_cache(maxsize=256)
def reading_tip(*sections: str) -> str:
    """A tooltip with BrikDesk's readings of these rule sections (rich text, so it wraps);
    empty when the rules need none."""
    found = readings_for(*sections)
    return "".join(
        f"<p><b>BrikDesk's reading, {html.escape(s)}</b>: {html.escape(text, quote=False)}</p>"
        for s, text in found
    )


def show_readings(widget: QWidget, *sections: str) -> bool:
    """Put the readings of ``sections`` in ``widget``'s tooltip; whether there were any."""
    tip = reading_tip(*sections)
    if widget.toolTip() != tip:
        widget.setToolTip(tip)
    return bool(tip)


def card(parent: QWidget | None = None) -> tuple[QFrame, QVBoxLayout]:
    frame = QFrame(parent)
    frame.setProperty("role", "card")
    lay = QVBoxLayout(frame)
    lay.setContentsMargins(12, 10, 12, 10)
    lay.setSpacing(6)
    return frame, lay


def set_problem(lab: QLabel, text: str | None, *, good: str | None = None) -> None:
    """Show ``text`` as a problem (red), else ``good`` (green), else hide the label."""
    role = "problem" if text else "good" if good else None
    if role is None:
        lab.hide()
        return
    if lab.property("role") != role:
        lab.setProperty("role", role)
        lab.style().unpolish(lab)
        lab.style().polish(lab)
    lab.setText(text or good or "")
    lab.show()


def fix_size(lab: QWidget, widest: str, pt: int = BIG_PT) -> None:
    """Give a label that changes often (an odds figure) a fixed size, wide enough for
    ``widest`` in a bold ``pt``-point font: a new figure then repaints the label alone instead
    of laying out the whole page again."""
    font = QFont(lab.font())
    font.setPointSize(pt)
    font.setBold(True)
    metrics = QFontMetrics(font)
    lab.setFixedSize(metrics.horizontalAdvance(widest) + 14, metrics.height() + 8)


def on_card(*widgets: QWidget) -> None:
    """Make widgets that change often and sit on a card paint their own background (the
    card's colour, so they look the same): Qt then repaints such a widget alone when it
    changes, instead of the card, the page and every widget under it first."""
    for widget in widgets:
        # A label fills with its window colour; a check box or a combo box with a colour its
        # style does not draw with (the style derives its outlines from the window colour,
        # and a button's own background role is the colour of its face).
        role = (
            QPalette.ColorRole.Window
            if isinstance(widget, (QLabel, ModifierText))
            else QPalette.ColorRole.AlternateBase
        )
        palette = widget.palette()
        palette.setColor(role, QColor(CARD_BG))
        widget.setPalette(palette)
        widget.setBackgroundRole(role)
        widget.setAutoFillBackground(True)


def lay_out_now() -> None:
    """Do now the layouts a change asked for (a label's page, then the scroll area holding it),
    before Qt paints: otherwise it paints, lays the scroll area out and paints again."""
    for _ in range(6):  # the label's layout, its card, the page's body, the scroll area...
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


class ModifierText(QWidget):
    """A modifier's explanation: its reason, and under it, smaller and grey, its rule section
    (and whether BrikDesk had to read the rule), both word-wrapped to the column's width.

    Plain text painted directly: measuring it is cheap (no rich-text document). The row holds
    the height of the tallest text it has shown since :meth:`forget`: a judgement that
    shortens a text, or moves a modifier to another row, moves nothing below (nor the check
    box under the mouse) and only repaints the row; the page is laid out again only when a
    text is taller than any the row has shown."""

    NOTE_COLOUR = "#52606d"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.reason = ""
        self.note = ""
        self._seen: set[tuple[str, str]] = set()
        self._tallest: dict[int, int] = {}
        self._font_pair: tuple[QFont, QFont] | None = None
        #: Caches of the reasons and notes laid out lately, at their width: painting them again
        #: (a scroll, an expose, a judgement changed back) lays out only what is new.
        self._text_caches = (StaticTexts(), StaticTexts())  # the reasons', the notes'
        self._colours: tuple[QColor, QColor] | None = None  # the reason's, the note's

    def set_texts(self, reason: str, note: str = "") -> None:
        """Show ``reason`` over ``note``; the layout hears of it only if the height changes."""
        if (reason, note) == (self.reason, self.note):
            return
        before = self.heightForWidth(self.width())
        self.reason, self.note = reason, note
        if (reason, note) not in self._seen:
            self._seen.add((reason, note))
            self._tallest.clear()
        if self.heightForWidth(self.width()) != before:
            self.updateGeometry()
        self.update()

    def forget(self) -> None:
        """Take the height of the text shown now (a new attack: its own modifiers)."""
        self._seen = {(self.reason, self.note)}
        self._tallest.clear()
        self.updateGeometry()

    def text(self) -> str:
        """The two lines as the rich text a label would show (``reason<br>note``)."""
        return f"{self.reason}<br>{self.note}" if self.note else self.reason

    def _fonts(self) -> tuple[QFont, QFont]:
        if self._font_pair is None:
            note = QFont(self.font())
            note.setPointSize(BASE_PT - 3)
            self._font_pair = (QFont(self.font()), note)
        return self._font_pair

    def _rect(self, font: QFont, width: int, text: str) -> QRect:
        return QFontMetrics(font).boundingRect(
            QRect(0, 0, max(width, 1), 100_000), Qt.TextFlag.TextWordWrap, text
        )

    def measure(self, width: int, reason: str, note: str) -> int:
        """The height of ``reason`` over ``note`` word-wrapped at ``width``."""
        fonts = self._fonts()
        return sum(
            self._rect(font, width, text).height()
            for font, text in zip(fonts, (reason, note), strict=True)
            if text
        )

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """The height of the tallest text shown since :meth:`forget`, at ``width``."""
        if width not in self._tallest:
            self._tallest[width] = max(
                (self.measure(width, *seen) for seen in self._seen), default=0
            )
        return self._tallest[width]

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._tallest.clear()
            self._font_pair = None
            for cache in self._text_caches:
                cache.clear()
        if event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
            QEvent.Type.PaletteChange,
        ):
            self._colours = None
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        metrics = QFontMetrics(self.font())
        width = min(metrics.horizontalAdvance(self.reason), metrics.averageCharWidth() * 30)
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        # Narrow if need be; the layout asks heightForWidth for the height at the width given.
        return QSize(QFontMetrics(self.font()).averageCharWidth() * 12, 0)

    def _layout(self) -> list[tuple[int, QFont, float, QStaticText]]:
        """The texts laid out at the widget's width: which (0 the reason, 1 the note), font,
        top, and the laid out text."""
        width = max(self.width(), 1)
        laid: list[tuple[int, QFont, float, QStaticText]] = []
        top = 0.0
        for part, (font, text) in enumerate(
            zip(self._fonts(), (self.reason, self.note), strict=True)
        ):
            if not text:
                continue
            static = self._text_caches[part].get(text, font, width)
            laid.append((part, font, top, static))
            top += static.size().height()  # as measure(): the wrapped text's height
        return laid

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._colours is None:
            self._colours = (self.palette().windowText().color(), QColor(self.NOTE_COLOUR))
        painter = QPainter(self)
        for part, font, top, static in self._layout():
            painter.setFont(font)
            painter.setPen(self._colours[part])
            painter.drawStaticText(QPointF(0, top), static)
        painter.end()


class ModifierValue(QWidget):
    """A modifier's value in the Action Roll list, large, bold and right-aligned in its colour;
    or, with ``total``, the sum of the modifiers under a rule.

    Painted directly on the card's colour (the list's values change with every judgement): a
    new value repaints this widget alone, and costs no rich-text document or style sheet."""

    RULE = 2  # the rule above a total, in pixels
    RULE_COLOUR = "#1d3557"
    POINTS = BASE_PT + 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self._text = ""
        self._colour = QColor("#000000")
        self._colour_name = "#000000"
        self.total = False
        self._font: QFont | None = None
        self._texts = StaticTexts(8)  # the values shown lately ("+1", "-2"...)
        fix_size(self, "+10", self.POINTS)

    def text(self) -> str:
        return self._text

    def show_value(self, text: str, colour: str, *, total: bool = False) -> None:
        """Show ``text`` in ``colour`` (``total``: under a rule); repaint only on a change."""
        if (text, colour, total) != (self._text, self._colour_name, self.total):
            self._text, self._colour_name, self.total = text, colour, total
            self._colour = QColor(colour)
            self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._font = None
            self._texts.clear()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._font is None:
            self._font = QFont(self.font())
            self._font.setPointSize(self.POINTS)
            self._font.setBold(True)
        painter = QPainter(self)
        rect = self.rect()
        painter.fillRect(rect, QColor(CARD_BG))
        if self.total:
            painter.fillRect(0, 0, rect.width(), self.RULE, QColor(self.RULE_COLOUR))
            rect.setTop(self.RULE)
        # Right-aligned and centred upright, as QPainter.drawText would place it.
        static = self._texts.get(self._text, self._font)
        size = static.size()
        painter.setFont(self._font)
        painter.setPen(self._colour)
        painter.drawStaticText(
            QPointF(
                rect.x() + rect.width() - size.width(),
                rect.y() + (rect.height() - size.height()) / 2,
            ),
            static,
        )
        painter.end()


class ChoiceCombo(QComboBox):
    """A combo box over :class:`Choice` values: a choice the rules refuse stays in the list,
    greyed, with its reason ("explained, not hidden")."""

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: list[Any] = []
        self._choices: tuple[Choice[Any], ...] | None = None
        self._model = QStandardItemModel(self)
        self.setModel(self._model)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(24)
        self.activated.connect(self._on_activated)

    def set_choices(self, choices: Sequence[Choice[Any]], current: object) -> None:
        self.blockSignals(True)
        choices = tuple(choices)
        if choices != self._choices:
            self._choices = choices
            self._model.clear()
            self._values = []
            for c in choices:
                text = c.label if c.allowed else f"{c.label}  —  can't: {c.problem}"
                item = QStandardItem(text)
                item.setEnabled(c.allowed)
                item.setToolTip(c.problem or c.label)
                self._model.appendRow(item)
                self._values.append(c.value)
        if current in self._values and self.currentIndex() != self._values.index(current):
            self.setCurrentIndex(self._values.index(current))
        self.blockSignals(False)

    def value(self) -> Any:
        i = self.currentIndex()
        return self._values[i] if 0 <= i < len(self._values) else None

    def values(self) -> list[Any]:
        return list(self._values)

    def choose(self, value: Any) -> None:
        """Select ``value`` as the user would (emits ``chosen``)."""
        self.setCurrentIndex(self._values.index(value))
        self._on_activated(self.currentIndex())

    def _on_activated(self, index: int) -> None:
        if 0 <= index < len(self._values):
            self.chosen.emit(self._values[index])


class FaceEdit(QLineEdit):
    """The box where a die's face is typed. Enter, Tab or Space hands the face on (the next
    die, or Next when the dice are in); on an empty box Enter is the window's (Next) and Tab
    moves the focus as usual. Backspace in an empty box goes back one die."""

    submitted = Signal()
    back = Signal()

    #: The keys that hand a typed face on.
    SUBMIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab, Qt.Key.Key_Space)

    def event(self, event: QEvent) -> bool:
        # Tab is taken for focus moves before keyPressEvent sees it: a face waiting in the
        # box goes in first (the focus then stays on the dice for the next die).
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Tab
            and self.text()
        ):
            self.submitted.emit()
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in self.SUBMIT_KEYS:
            if self.text():
                self.submitted.emit()
                event.accept()
                return
            if event.key() == Qt.Key.Key_Space:
                event.accept()  # a space is never part of a face
                return
            event.ignore()  # empty: let the window's default button (Next) have it
            return
        if event.key() == Qt.Key.Key_Backspace and not self.text():
            self.back.emit()
            event.accept()
            return
        super().keyPressEvent(event)


def face_typed(text: str, sides: int) -> int | None:
    """The face ``text`` stands for on a d``sides``: its number, or 10 for ``0`` on a d10
    (a d10 shows 0 for ten); ``None`` when it is no face of that die."""
    if not text.isdigit():
        return None
    n = int(text)
    if text == "0" and sides == 10:
        return 10
    return n if 1 <= n <= sides and not text.startswith("0") else None


def _prefix_of_face(text: str, sides: int) -> bool:
    """Whether ``text`` is a face of a d``sides`` or the start of one."""
    if text == "0" and sides == 10:
        return True
    if not text.isdigit() or text.startswith("0"):
        return False
    return any(str(f).startswith(text) for f in range(1, sides + 1))


def _only_face(text: str, sides: int) -> bool:
    """Whether ``text`` is a face and no longer face starts with it (taken at once)."""
    n = face_typed(text, sides)
    return n is not None and not any(
        str(f).startswith(text) and f != n for f in range(1, sides + 1)
    )


class DiceEntry(QWidget):
    """Asks for exactly the die the rules need next (``NeedDie``), refuses a face that die
    can't show, and shows every die so far with its role. The one dice entry of BrikDesk: the
    combat wizard, the quick attack form and the Sprint dialog all type their dice here.

    A digit no longer face can start with (any face of a d4, d6 or d8; 0 and 2 to 9 on a d10,
    0 meaning 10) is taken as soon as it is typed and the box at once asks for the next die;
    ``1`` on a d10 waits for a second digit, or Enter, Tab or Space. While dice are being typed
    the focus stays in the box: a bonus die the roll asks for, or the die after a Benny choice,
    is asked with the focus already in the box. ``face(n)`` is emitted with each face;
    ``undo()`` for Backspace on an empty box (back one die); ``roll()`` for the virtual dice
    button.
    """

    face = Signal(int)
    undo = Signal()
    roll = Signal()
    clear = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        row = QHBoxLayout()
        self.prompt = label("", "prompt", self)
        self.prompt.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.edit = FaceEdit(self)
        self.edit.setProperty("role", "die")
        self.edit.setObjectName("faceEdit")
        self.edit.setMaxLength(3)
        self.edit.setFixedWidth(96)
        self.edit.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.edit.setPlaceholderText("?")
        self.roll_button = QPushButton("&Roll virtual dice", self)
        self.roll_button.setObjectName("rollButton")
        self.clear_button = QPushButton("&Clear dice", self)
        self.clear_button.setObjectName("clearButton")
        self.roll_button.setAutoDefault(False)
        self.clear_button.setAutoDefault(False)
        row.addWidget(self.prompt, 1)
        row.addWidget(self.edit)
        row.addWidget(self.roll_button)
        row.addWidget(self.clear_button)
        lay.addLayout(row)
        self.refusal = label("", "problem", self)
        self.refusal.hide()
        lay.addWidget(self.refusal)
        self.chips = QWidget(self)
        self.chips_layout = QHBoxLayout(self.chips)
        self.chips_layout.setContentsMargins(0, 0, 0, 0)
        self.chips_layout.setSpacing(8)
        self.chips_layout.addStretch(1)
        lay.addWidget(self.chips)
        self.need: NeedDie | None = None
        self._shown: tuple[DieRoll, ...] = ()
        #: Dice are being typed here: the focus stays in the box for the next die.
        self.typing = False
        self.edit.textEdited.connect(self._edited)
        self.edit.submitted.connect(self._submit)
        self.edit.back.connect(self._back)
        self.roll_button.clicked.connect(self.roll)
        self.clear_button.clicked.connect(self.clear)

    def ask(self, need: NeedDie | None, dice: Sequence[DieRoll], waiting: str = "") -> None:
        """Ask for ``need`` (or nothing: ``waiting`` says why) and show ``dice``."""
        self.need = need
        if self.edit.text():
            self.edit.clear()
        self.refusal.hide()
        if need is None:
            self.prompt.setText(
                waiting or ("All the dice needed are in." if dice else "No dice to roll.")
            )
        else:
            self.prompt.setText(
                f"Die {need.index + 1}: a <b>d{need.sides}</b> "
                f"<span style='font-weight:400'>— {need.why}</span>"
            )
        self.edit.setVisible(need is not None)
        self.roll_button.setVisible(need is not None)
        self.clear_button.setVisible(bool(dice))
        self._show_dice(dice)
        if need is not None and self._focus_stays():
            self.edit.setFocus()

    def _focus_stays(self) -> bool:
        """Whether the next die asked takes the focus: dice are being typed here, or the
        focus is on this entry or on a Benny choice (a bonus die after the choice)."""
        if not self.isVisible():
            return False
        focus = QApplication.focusWidget()
        return (
            self.typing
            or focus is None
            or focus is self
            or self.isAncestorOf(focus)
            or isinstance(focus, BennyChooser)
        )

    def _show_dice(self, dice: Sequence[DieRoll]) -> None:
        dice = tuple(dice)
        if dice == self._shown:
            return
        self._shown = dice
        lay = self.chips_layout
        while lay.count() > 1:
            item = lay.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()
                w.deleteLater()
        for d in dice:
            lay.insertWidget(lay.count() - 1, die_chip(d, self.chips))

    def _edited(self, text: str) -> None:
        need = self.need
        if need is None or not text:
            self.refusal.hide()
            return
        if not _prefix_of_face(text, need.sides):
            self.edit.setText(text[:-1])
            self.refusal.setText(f"A d{need.sides} shows 1 to {need.sides}: it can't show {text}.")
            self.refusal.show()
            return
        self.refusal.hide()
        if _only_face(text, need.sides):
            self._submit()

    def _submit(self) -> None:
        need = self.need
        text = self.edit.text()
        if need is None or not text.isdigit():
            return
        n = face_typed(text, need.sides)
        if n is None:
            self.refusal.setText(
                f"A d{need.sides} shows 1 to {need.sides}: it can't show {int(text)}."
            )
            self.refusal.show()
            return
        self.edit.clear()
        self._emit_typing(self.face, n)

    def _back(self) -> None:
        self._emit_typing(self.undo)

    def _emit_typing(self, signal: Any, *args: object) -> None:
        """Emit ``signal``: whatever the receiver asks next, the focus stays in the box."""
        self.typing = True
        try:
            signal.emit(*args)
        finally:
            self.typing = False


def chip_word(d: DieRoll) -> str:
    """What a die was for, in a word the players know: Action, Parry, Bail, Damage, Armor,
    distance; a bonus, Benny, MOM or POP die by its role."""
    if d.role is not Role.NATURAL:
        return str(d.role)
    why = d.why
    for word, shown in (
        ("Parry", "Parry"),
        ("Bail", "Bail"),
        ("knocked away", "distance"),
        ("Action die", "Action"),
        ("Armor", "Armor"),
        ("Damage", "Damage"),
    ):
        if word in why:
            return shown
    return "die"


def die_chip(d: DieRoll, parent: QWidget | None = None) -> QFrame:
    """A die as the players would point at it: its face large, its size and role below."""
    frame = QFrame(parent)
    frame.setProperty("role", "chip")
    colour = ROLE_COLOURS.get(d.role, "#1d3557")
    crit = d.role is Role.NATURAL and d.face == 1 and "Action die" in d.why
    if crit:
        colour = CRIT_COLOUR
    frame.setStyleSheet(
        f"QFrame {{ border: 2px solid {colour}; border-radius: 6px; background: white; }}"
    )
    lay = QVBoxLayout(frame)
    lay.setContentsMargins(8, 2, 8, 4)
    lay.setSpacing(0)
    face = QLabel(str(d.face), frame)
    face.setAlignment(Qt.AlignmentFlag.AlignCenter)
    face.setStyleSheet(
        f"border: none; font-size: {BIG_PT - 2}pt; font-weight: 700; color: {colour};"
    )
    sub = QLabel(f"d{d.sides} {chip_word(d)}", frame)
    sub.setAlignment(Qt.AlignmentFlag.AlignCenter)
    sub.setStyleSheet(f"border: none; font-size: {BASE_PT - 4}pt; color: #52606d;")
    frame.setToolTip(d.why)
    lay.addWidget(face)
    lay.addWidget(sub)
    return frame


class BennyChooser(QFrame):
    """How an Over the Top Benny is spent: one radio button per option (rules facts §1),
    each with its letter; the letter picks it at once, Enter picks the highlighted one."""

    picked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 8, 12, 8)
        self.title = label("", "prompt", self)
        lay.addWidget(self.title)
        self.grid = QGridLayout()
        lay.addLayout(self.grid)
        self.policy = label("", "note", self)
        lay.addWidget(self.policy)
        self.options: list[BennyOption] = []
        self.buttons: list[QRadioButton] = []
        self._offered: tuple[Any, ...] | None = None

    def offer(self, title: str, options: Sequence[BennyOption], policy: str = "") -> None:
        if (title, tuple(options), policy) == self._offered:
            return
        self._offered = (title, tuple(options), policy)
        for b in self.buttons:
            b.deleteLater()
        self.buttons = []
        self.options = list(options)
        self.title.setText(title)
        self.policy.setText(policy)
        self.policy.setVisible(bool(policy))
        first = None
        for i, opt in enumerate(options):
            text = f"[{opt.key}]  {opt.label}"
            if opt.problem:
                text += "  (can't: hover for why)"
            b = QRadioButton(text, self)
            b.setToolTip(f"Can't: {opt.problem}" if opt.problem else "")
            b.setEnabled(opt.problem is None)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(self._clicked)
            self.grid.addWidget(b, i // 2, i % 2)
            self.buttons.append(b)
            if first is None and opt.problem is None:
                first = b
        if first is not None:
            first.setChecked(True)

    def _clicked(self) -> None:
        for b, opt in zip(self.buttons, self.options, strict=True):
            if b.isChecked():
                self.picked.emit(opt.use)

    def pick_letter(self, letter: str) -> bool:
        for b, opt in zip(self.buttons, self.options, strict=True):
            if opt.key.lower() == letter.lower() and opt.problem is None:
                b.setChecked(True)
                self.picked.emit(opt.use)
                return True
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        text = event.text()
        if text and text.isalpha() and self.pick_letter(text):
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._clicked()
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            allowed = [b for b in self.buttons if b.isEnabled()]
            if allowed:
                cur = next((i for i, b in enumerate(allowed) if b.isChecked()), 0)
                step = 1 if event.key() == Qt.Key.Key_Down else -1
                allowed[(cur + step) % len(allowed)].setChecked(True)
            event.accept()
            return
        super().keyPressEvent(event)


class OddsPanel(QFrame):
    """The four exact chances in large type: critical failure, Over the Top, hit, destroy."""

    NAMES = (
        ("critical_failure", "Critical failure"),
        ("over_the_top", "Over the Top"),
        ("hit", "Hit"),
        ("kill", "Destroy"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 6, 8, 6)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(0)
        self.values: dict[str, QLabel] = {}
        self.heads: dict[str, QLabel] = {}
        for col, (key, name) in enumerate(self.NAMES):
            head = label(name, "note", self, wrap=False)
            self.heads[key] = head
            value = label("-", None, self, wrap=False, selectable=False)
            value.setObjectName(f"odds_{key}")
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(head, 0, col, Qt.AlignmentFlag.AlignHCenter)
            grid.addWidget(value, 1, col, Qt.AlignmentFlag.AlignHCenter)
            self.values[key] = value
        colours = {
            "critical_failure": CRIT_COLOUR,
            "over_the_top": "#b8860b",
            "hit": "#14532d",
            "kill": "#8a1c12",
        }
        for key, lab in self.values.items():
            lab.setStyleSheet(f"color: {colours[key]}; font-size: {ODDS_PT}pt; font-weight: 700;")
            fix_size(lab, ">99.9%", ODDS_PT)
        on_card(*self.heads.values(), *self.values.values())

    def name_bonus(self, name: str) -> None:
        """The edition's name for a natural roll's bonus (4.2: "Over the Top" in 2020,
        "Overskill" in 2010); an edition without one (2005) shows no such column."""
        head, value = self.heads["over_the_top"], self.values["over_the_top"]
        head.setText(name)
        head.setVisible(bool(name))
        value.setVisible(bool(name))

    def show_odds(self, values: dict[str, Fraction | float | None]) -> None:
        for key, lab in self.values.items():
            lab.setText(percent(values.get(key)))


class ChartSlot(QWidget):
    """Holds a chart; pyqtgraph is imported (through ``ui.wizard.charts``) the first time a
    chart is drawn, so opening the wizard does not pay for it."""

    def __init__(
        self, make: Callable[[QWidget], QWidget], parent: QWidget | None = None, height: int = 210
    ) -> None:
        super().__init__(parent)
        self._make = make
        self.chart: Any = None
        self.setFixedHeight(height)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def release(self) -> None:
        """Let the chart go before its window is deleted: pyqtgraph's view must be closed
        (its scene cleared) first, or a paint event that arrives while the window's children
        are being deleted reaches a view whose scene is already gone."""
        chart, self.chart = self.chart, None
        if chart is not None:
            chart.setUpdatesEnabled(False)
            chart.hide()
            chart.close()
            chart.deleteLater()

    def draw(self, method: str, *args: Any, **kwargs: Any) -> None:
        if self.chart is None:
            self.chart = self._make(self)
            self.chart.setMinimumSize(0, 0)
            self._layout.addWidget(self.chart)
        getattr(self.chart, method)(*args, **kwargs)
