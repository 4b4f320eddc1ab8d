"""Widgets the combat wizard's pages share: selectors that explain what they refuse, the odds
panel, cards, and a chart slot that loads pyqtgraph only when a chart is first shown. The
dice entry and the Benny chooser are shared with the other combat forms (``ui.widgets.dice``),
and so is their style (``ui.widgets.combat_style``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPaintEvent,
    QPalette,
)
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QListView,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from brikdesk.domain.combat import Choice
from brikdesk.domain.odds import percent
from ui import colours
from ui.widgets.combat_style import BASE_PT, BIG_PT, CARD_BG, Card, label, set_text_style
from ui.widgets.dice import CRIT_COLOUR

#: The odds' font size (points).
ODDS_PT = 22


def card(parent: QWidget | None = None) -> tuple[Card, QVBoxLayout]:
    frame = Card(parent)
    lay = QVBoxLayout(frame)
    lay.setContentsMargins(12, 10, 12, 10)
    lay.setSpacing(6)
    return frame, lay


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
        colours.follow_theme(widget, functools.partial(_fill_card, widget))


def _fill_card(widget: QWidget) -> None:
    """Fill ``widget`` with the card's colour in the theme in use."""
    # A label fills with its window colour; a check box or a combo box with a colour its
    # style does not draw with (the style derives its outlines from the window colour,
    # and a button's own background role is the colour of its face).
    role = (
        QPalette.ColorRole.Window
        if isinstance(widget, (QLabel, ModifierText))
        else QPalette.ColorRole.AlternateBase
    )
    palette = widget.palette()
    palette.setColor(role, CARD_BG.q())
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

    NOTE_COLOUR = colours.NOTE

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

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._colours is None:
            self._colours = (self.palette().windowText().color(), self.NOTE_COLOUR.q())
        painter = QPainter(self)
        width = max(self.width(), 1)
        top = 0
        for part, (font, text) in enumerate(
            zip(self._fonts(), (self.reason, self.note), strict=True)
        ):
            if not text:
                continue
            painter.setFont(font)
            painter.setPen(self._colours[part])
            # As measure() lays it out; the text's bounding rect gives the next one's top.
            drawn = painter.drawText(QRect(0, top, width, 100_000), Qt.TextFlag.TextWordWrap, text)
            top += drawn.height()
        painter.end()


class ModifierValue(QWidget):
    """A modifier's value in the Action Roll list, large, bold and right-aligned in its colour;
    or, with ``total``, the sum of the modifiers under a rule.

    Painted directly on the card's colour (the list's values change with every judgement): a
    new value repaints this widget alone, and costs no rich-text document or style sheet."""

    RULE = 2  # the rule above a total, in pixels
    RULE_COLOUR = colours.ACCENT
    POINTS = BASE_PT + 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self._text = ""
        self._named: colours.Named | None = None
        self.total = False
        self._font: QFont | None = None
        fix_size(self, "+10", self.POINTS)

    def text(self) -> str:
        return self._text

    def show_value(self, text: str, colour: colours.Named | None, *, total: bool = False) -> None:
        """Show ``text`` in ``colour`` (``total``: under a rule); repaint only on a change."""
        if (text, colour, total) != (self._text, self._named, self.total):
            self._text, self._named, self.total = text, colour, total
            self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._font = None
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._font is None:
            self._font = QFont(self.font())
            self._font.setPointSize(self.POINTS)
            self._font.setBold(True)
        painter = QPainter(self)
        rect = self.rect()
        painter.fillRect(rect, CARD_BG.q())
        if self.total:
            painter.fillRect(0, 0, rect.width(), self.RULE, self.RULE_COLOUR.q())
            rect.setTop(self.RULE)
        painter.setFont(self._font)
        painter.setPen(
            self._named.q() if self._named is not None else self.palette().windowText().color()
        )
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rect, align, self._text)
        painter.end()


class ChoiceModel(QAbstractListModel):
    """The rows of a :class:`ChoiceCombo`: one per :class:`Choice`, its text and tooltip read
    from the choice when Qt asks (a list of 500 targets makes no item per unit), a refused
    choice disabled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choices: tuple[Choice[Any], ...] = ()

    def set_choices(self, choices: tuple[Choice[Any], ...]) -> None:
        self.beginResetModel()
        self.choices = choices
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.choices)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.choices):
            return None
        c = self.choices[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return c.label if c.allowed else f"{c.label}  —  can't: {c.problem}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return c.problem or c.label
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid() or not 0 <= index.row() < len(self.choices):
            return Qt.ItemFlag.NoItemFlags
        if self.choices[index.row()].allowed:
            return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return Qt.ItemFlag.ItemIsSelectable


class ChoiceCombo(QComboBox):
    """A combo box over :class:`Choice` values: a choice the rules refuse stays in the list,
    greyed, with its reason ("explained, not hidden")."""

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: list[Any] = []
        self._model = ChoiceModel(self)
        self.setModel(self._model)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(24)
        # Every row is one line of text in one font: the list measures one row, not each of
        # 500 targets again whenever the box is shown or its rows change.
        view = self.view()
        if isinstance(view, QListView):
            view.setUniformItemSizes(True)
        self.activated.connect(self._on_activated)

    def set_choices(self, choices: Sequence[Choice[Any]], current: object) -> None:
        self.blockSignals(True)
        choices = tuple(choices)
        if choices != self._model.choices:
            self._model.set_choices(choices)
            self._values = [c.value for c in choices]
            # As the rows' first insertion into an empty box would: the first row, also when
            # it is refused (``current`` then chooses).
            self.setCurrentIndex(0 if choices else -1)
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


class OddsPanel(Card):
    """The four exact chances in large type: critical failure, Over the Top, hit, destroy."""

    NAMES = (
        ("critical_failure", "Critical failure"),
        ("over_the_top", "Over the Top"),
        ("hit", "Hit"),
        ("kill", "Destroy"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
        tones = {
            "critical_failure": CRIT_COLOUR,
            "over_the_top": colours.BENNY,
            "hit": colours.GOOD,
            "kill": colours.ERROR,
        }
        for key, lab in self.values.items():
            set_text_style(lab, ODDS_PT, 700, tones[key])
            fix_size(lab, ">99.9%", ODDS_PT)
        on_card(*self.heads.values(), *self.values.values())

    def name_bonus(self, name: str) -> None:
        """The edition's name for a natural roll's bonus (4.2: "Over the Top" in 2020,
        "Overskill" in 2010); an edition without one (2005) shows no such column."""
        head, value = self.heads["over_the_top"], self.values["over_the_top"]
        head.setText(name)
        head.setVisible(bool(name))
        value.setVisible(bool(name))

    def name_kill(self, name: str, tip: str = "") -> None:
        """The Destroy column's name ("Both destroy" in a Combined Attack of two, 5.1) and
        its tooltip."""
        head = self.heads["kill"]
        if head.text() != name:
            head.setText(name)
        if head.toolTip() != tip:
            head.setToolTip(tip)

    def show_odds(self, values: dict[str, Fraction | float | None]) -> None:
        for key, lab in self.values.items():
            lab.setText(percent(values.get(key)))


#: The chart of a closed wizard, one per maker (the Action Roll's, the Damage's), for the next
#: wizard's slot: making a pyqtgraph chart takes ~35 ms, inside Next to the Action Roll and to
#: the Damage. bench_table_flow, combined, 500 units, p99 (median) CPU scaled: without it Next
#: to the Action Roll 113.9 (64.0) ms and Next to the Damage 132.0 (51.1) ms, over a command's
#: 100 ms; with it 63.0 (31.6) and 50.3 (24.1) ms. A chart kept here has no parent.
_spare_charts: dict[Callable[[QWidget], QWidget], QWidget] = {}


class ChartSlot(QWidget):
    """Holds a chart; pyqtgraph is imported (through ``ui.wizard.charts``) the first time a
    chart is drawn, so opening the wizard does not pay for it. A closed wizard's chart serves
    the next wizard (``_spare_charts``)."""

    def __init__(
        self,
        make: Callable[[QWidget], QWidget],
        parent: QWidget | None = None,
        height: int = 210,
    ) -> None:
        super().__init__(parent)
        self._make = make
        self.chart: Any = None
        self._drawn: tuple[str, tuple[Any, ...], dict[str, Any]] | None = None
        self.setFixedHeight(height)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def release(self) -> None:
        """Let the chart go before its window is deleted, out of the window: a paint event
        that arrives while the window's children are being deleted must not reach a
        pyqtgraph view whose scene is already gone. Kept for the next wizard, or closed when
        one is kept already."""
        chart, self.chart = self.chart, None
        self._drawn = None
        if chart is None:
            return
        chart.hide()
        self._layout.removeWidget(chart)
        chart.setParent(None)
        spare = _spare_charts.get(self._make)
        if spare is None or not isValid(spare):
            _spare_charts[self._make] = chart
            return
        chart.setUpdatesEnabled(False)
        chart.close()
        chart.deleteLater()

    def draw(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Draw with the chart's ``method`` (made first if the slot has none yet); the same
        drawing again (a die typed that changes no odds) leaves the chart as it is,
        unpainted."""
        drawing = (method, args, kwargs)
        if self.chart is not None and drawing == self._drawn:
            return
        self._drawn = drawing
        if self.chart is None:
            spare = _spare_charts.pop(self._make, None)
            if spare is not None and isValid(spare):
                spare.setParent(self)
                self.chart = spare
            else:
                self.chart = self._make(self)
            self.chart.setMinimumSize(0, 0)
            self._layout.addWidget(self.chart)
            self.chart.show()
        getattr(self.chart, method)(*args, **kwargs)
