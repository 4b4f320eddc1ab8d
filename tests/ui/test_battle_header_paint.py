"""The battle panel's header and the unit table's column header keep what they worked out
(the turn's text laid out, the column header's size hint) and still look as Qt draws them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QImage, QPainter, QPaintEvent, QStandardItemModel
from PySide6.QtWidgets import QApplication, QHeaderView, QTableView

from ui.panels.battle_header import TurnBadge
from ui.panels.table_paint import SteadyHeader
from ui.panels.theme import scaled


class _DrawnText(TurnBadge):
    """The badge as QPainter.drawText centres its text: what the kept glyphs must match."""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.band())
        painter.drawRoundedRect(QRectF(self.rect()), self.RADIUS, self.RADIUS)
        painter.setPen(self._ink)
        painter.setFont(self.font())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter), self.text())
        painter.end()


def _badge(kind: type[TurnBadge], font: QFont, text: str, extra: int) -> QImage:
    badge = kind()
    badge.setFont(font)
    badge.show_turn(text, "#c0392b", [text, "Somebody longer's turn"])
    hint = badge.sizeHint()
    badge.resize(hint.width() + extra, hint.height() + extra)  # odd and even room around it
    return badge.grab().toImage()


@pytest.mark.parametrize("scale", [0.8, 1.0, 1.3, 1.6, 2.2])
def test_the_turn_badge_draws_its_text_where_drawtext_puts_it(
    qapp: QApplication, scale: float
) -> None:
    """Each player's turn is laid out once; the badge still shows it pixel for pixel where
    Qt's drawText centres it, in every size of the header's font and of the badge."""
    font = scaled(qapp.font(), scale, bold=True)
    for text in ("Red's turn", "Blue will start", "Battle over", "Gräfin Jägerstraße's turn"):
        for extra in range(4):
            kept = _badge(TurnBadge, font, text, extra)
            assert kept == _badge(_DrawnText, font, text, extra), (text, extra)


def test_the_turn_badge_lays_its_text_out_again_in_a_new_font(qapp: QApplication) -> None:
    small = scaled(qapp.font(), 1.0, bold=True)
    big = scaled(qapp.font(), 2.0, bold=True)
    badge = TurnBadge()
    badge.setFont(small)
    badge.show_turn("Red's turn", "#c0392b", ["Red's turn"])
    badge.resize(badge.sizeHint())
    badge.grab()
    badge.setFont(big)
    badge.resize(badge.sizeHint())
    reference = _DrawnText()
    reference.setFont(big)
    reference.show_turn("Red's turn", "#c0392b", ["Red's turn"])
    reference.resize(badge.size())
    assert badge.grab().toImage() == reference.grab().toImage()


def _tables(qapp: QApplication) -> tuple[QStandardItemModel, list[QTableView]]:
    """The same model in a table with a steady header and in one with Qt's own header."""
    model = QStandardItemModel(3, 4)
    model.setHorizontalHeaderLabels(["Unit", "Type", "Action", "Counters"])
    views = []
    for header in (SteadyHeader(), QHeaderView(Qt.Orientation.Horizontal)):
        view = QTableView()
        view.setHorizontalHeader(header)
        view.setModel(model)
        view.show()
        views.append(view)
    qapp.processEvents()
    return model, views


def test_the_column_header_size_hint_follows_its_texts_font_and_sections(
    qapp: QApplication,
) -> None:
    """The unit table's column header keeps its size hint (Qt works it out after every
    layout of the table); whatever changes it, it is the one Qt's own header gives."""
    model, views = _tables(qapp)
    steady, plain = (view.horizontalHeader() for view in views)
    assert isinstance(steady, SteadyHeader)
    assert steady.sizeHint() == plain.sizeHint()
    model.setHeaderData(1, Qt.Orientation.Horizontal, "Type\n(and its die)")  # two lines
    assert steady.sizeHint() == plain.sizeHint()
    assert steady.sizeHint().height() > QHeaderView(Qt.Orientation.Horizontal).sizeHint().height()
    for header in (steady, plain):
        header.setFont(scaled(qapp.font(), 1.5))
    assert steady.sizeHint() == plain.sizeHint()
    for header in (steady, plain):
        header.setSectionHidden(1, True)
    assert steady.sizeHint() == plain.sizeHint()
    for header in (steady, plain):
        header.setSortIndicatorShown(True)
        header.setSortIndicator(2, Qt.SortOrder.DescendingOrder)
    assert steady.sizeHint() == plain.sizeHint()
    model.insertColumn(4)
    model.setHeaderData(4, Qt.Orientation.Horizontal, "A much longer title than the rest")
    assert steady.sizeHint() == plain.sizeHint()
