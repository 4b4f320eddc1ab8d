"""The dice entry of BrikDesk and what goes with it: the box that asks for exactly the die the
rules need, the dice shown as chips, and the Over the Top Benny chooser. The combat wizard,
the quick attack form and the Sprint dialog all type their dice here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.combat import BennyOption
from brikdesk.domain.rolling import DieRoll, NeedDie, Role
from ui import colours
from ui.widgets.combat_style import BASE_PT, BIG_PT, Card, label, set_role

#: Colours of the dice chips by role (the same colour codes the charts use).
ROLE_COLOURS = {
    Role.NATURAL: colours.ACCENT,
    Role.BONUS: colours.BONUS,
    Role.BENNY: colours.BENNY,
    Role.MOM: colours.MOVED,
    Role.POP: colours.POP,
}
CRIT_COLOUR = colours.CRITICAL


def spoken_die(need: NeedDie) -> str:
    """The name a screen reader says for the box a die is typed in: "Action die 1, d6",
    "Damage die 1, d6", "Armor die 2, d6" (what the die is for, without whose it is: the
    box's description says that)."""
    head = re.split(r" (?:for|of|at|against|from) ", need.why, maxsplit=1)[0].strip()
    head = head[:1].upper() + head[1:]
    what = head if head.lower().endswith("die") else f"{head} die"
    return f"{what} {need.index + 1}, d{need.sides}"


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
        set_role(self.edit, "die")
        self.edit.setTextMargins(4, 0, 4, 0)
        self.edit.setObjectName("faceEdit")
        self.edit.setAccessibleName("Die face")
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
            self.edit.setAccessibleName(spoken_die(need))
            self.edit.setAccessibleDescription(need.why)
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
            chip = DieChip(d, self.chips)
            lay.insertWidget(lay.count() - 1, chip)
            # Shown now, not on the layout's queued show: laid out before the next paint, not
            # after it (a second layout and paint of the whole page).
            chip.show()

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


class DieChip(QWidget):
    """A die as the players would point at it: its face large, its size and role below, in a
    white box edged in the role's colour (the tooltip says what it was rolled for). Painted
    in one widget: a chip is made for every die typed."""

    PAD = (8, 2, 8, 4)  # left, top, right, bottom, inside the 2px border
    NOTE_COLOUR = colours.NOTE

    def __init__(self, d: DieRoll, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.face = str(d.face)
        #: The words under the face: the die's size and what it was for.
        self.words = f"d{d.sides} {chip_word(d)}"
        colour = ROLE_COLOURS.get(d.role, colours.ACCENT)
        if d.role is Role.NATURAL and d.face == 1 and "Action die" in d.why:
            colour = CRIT_COLOUR
        self.named = colour
        self.setToolTip(d.why)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def _fonts(self) -> tuple[QFont, QFont]:
        """The face's font and the words' font."""
        big = QFont(self.font())
        big.setPointSize(BIG_PT - 2)
        big.setBold(True)
        small = QFont(self.font())
        small.setPointSize(BASE_PT - 4)
        return big, small

    def sizeHint(self) -> QSize:
        big, small = (QFontMetrics(f) for f in self._fonts())
        left, top, right, bottom = self.PAD
        width = max(big.horizontalAdvance(self.face), small.horizontalAdvance(self.words))
        return QSize(width + left + right + 4, big.height() + small.height() + top + bottom + 4)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self.updateGeometry()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        big, small = self._fonts()
        left, top, right, bottom = self.PAD
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.named.q(), 2))
        painter.setBrush(colours.DIE_FACE_BG.q())
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 6, 6)
        inner = self.rect().adjusted(left + 2, top + 2, -right - 2, -bottom - 2)
        face_h = QFontMetrics(big).height()
        painter.setFont(big)
        painter.drawText(
            QRect(inner.x(), inner.y(), inner.width(), face_h),
            Qt.AlignmentFlag.AlignCenter,
            self.face,
        )
        painter.setFont(small)
        painter.setPen(self.NOTE_COLOUR.q())
        painter.drawText(
            QRect(inner.x(), inner.y() + face_h, inner.width(), inner.height() - face_h),
            Qt.AlignmentFlag.AlignCenter,
            self.words,
        )
        painter.end()


class BennyChooser(Card):
    """How an Over the Top Benny is spent: one radio button per option (4.2 Over the Top),
    each with its letter; the letter picks it at once, Enter picks the highlighted one."""

    picked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
