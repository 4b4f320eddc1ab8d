"""What the combat wizard's Action Roll page shows: judgements that leave the rows in place,
modifier values in their colours where Qt would write them, a sentence never cut, the dice card
in view as dice are typed, the chart's label inside its plot, and the focus on the dice from
the page's first paint.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QUndoStack
from PySide6.QtWidgets import QApplication, QWidget

from brikdesk.domain.rolling import RandomDice
from tests.ui.wizard_battle import make_battle
from ui.app import FirstPaintWatcher
from ui.bus import Bus
from ui.colours import ACCENT, ERROR, GOOD, NOTE
from ui.widgets.combat_style import CARD_BG
from ui.wizard import CombatWizard
from ui.wizard.widgets import ModifierValue


def _wizard(qtbot, battle, attacker: str, height: int = 900) -> CombatWizard:
    """The wizard for ``attacker``, shown at 1280 by ``height`` with the dice seeded."""
    w = CombatWizard(
        battle.services,
        Bus(),
        QUndoStack(),
        battle.battle_id,
        battle.ids[attacker],
        dice=RandomDice(1),
    )
    qtbot.addWidget(w)
    w.show()
    w.resize(1280, height)
    qtbot.waitExposed(w)
    return w


def _action_page(qtbot, battle, distance: Fraction) -> tuple[CombatWizard, object]:
    """Thieven Hood's longbow at Guy of Gisbourne, ``distance`` away, on the Action Roll page
    once it has settled (scrolled to the dice)."""
    w = _wizard(qtbot, battle, "Thieven Hood")
    w.next()
    w.change("range", replace(w.draft, distance=distance))
    w.next()
    action = w.currentPage()
    qtbot.wait(action._unstick.interval() + 100)
    return w, action


def test_ticking_a_judgement_leaves_the_rows_and_its_box_in_place(qtbot, tmp_path: Path) -> None:
    """Disrupted gives a modifier, and the domain lists the modifiers that count first: the
    page keeps each row where it first showed it (and as tall as its tallest text), so the box
    stays under the mouse."""
    from PySide6.QtCore import QPoint, Qt

    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w, action = _action_page(qtbot, battle, Fraction(12))
        box = action.modifiers.disrupted
        rows = [what for _value, what in action.modifiers.row_widgets if what.isVisible()]
        reasons = [what.reason for what in rows]
        assert any("not Disrupted" in r for r in reasons)
        where = box.mapTo(w, QPoint(0, 0))
        geometry = [what.geometry() for what in rows]
        for ticked in (True, False, True):
            qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
            assert w.draft.target_disrupted is ticked
            for _ in range(3):
                QApplication.instance().processEvents()
            assert box.mapTo(w, QPoint(0, 0)) == where
            assert [what.geometry() for what in rows] == geometry
        # The Disrupted row now says so and gives its modifier, in the same place.
        row = next(i for i, r in enumerate(reasons) if "Disrupted" in r)
        value, what = action.modifiers.row_widgets[row]
        assert "is Disrupted" in what.reason and value.text() != "0"
    finally:
        battle.db.close()


def _colours(widget: QWidget) -> set[str]:
    image = widget.grab().toImage()
    return {
        QColor(image.pixel(x, y)).name()
        for x in range(image.width())
        for y in range(image.height())
    }


def test_the_modifier_values_show_their_colours_from_the_first_paint(qtbot, tmp_path: Path) -> None:
    """A penalty is red, a modifier of 0 grey, the total black under its rule: as soon as the
    page shows, before any judgement."""
    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        _w, action = _action_page(qtbot, battle, Fraction(19))
        shown = {
            value.text(): value
            for value, _what in action.modifiers.row_widgets
            if value.isVisible()
        }
        out_of_range = next(
            value
            for value, what in action.modifiers.row_widgets
            if value.isVisible() and "beyond Range" in what.reason
        )
        zero = next(
            value
            for value, _what in action.modifiers.row_widgets
            if value.isVisible() and value.text() == "0"
        )
        total = next(
            value
            for value, what in action.modifiers.row_widgets
            if value.isVisible() and what.reason.startswith("all Action Roll")
        )
        assert out_of_range.text().startswith("-") and len(shown) >= 2
        assert ERROR.light in _colours(out_of_range)
        assert NOTE.light in _colours(zero)
        assert {"#000000", ACCENT.light} <= _colours(total)  # the figure and its rule
    finally:
        battle.db.close()


def test_a_modifier_value_sits_where_qt_would_write_it(qtbot) -> None:
    """The values are drawn from texts laid out once: each still sits right-aligned and
    centred upright in its box, pixel for pixel where QPainter.drawText puts it, in a new
    value, a value shown again, and a total under its rule."""
    value = ModifierValue()
    qtbot.addWidget(value)
    for text, colour, total in (
        ("+2", GOOD, False),
        ("-10", ERROR, False),
        ("0", NOTE, False),
        ("+2", GOOD, False),
        ("-3", None, True),  # the total: the palette's text colour
    ):
        value.show_value(text, colour, total=total)
        shown = value.grab().toImage()
        expected = QImage(shown.size(), shown.format())
        expected.setDevicePixelRatio(shown.devicePixelRatio())
        painter = QPainter(expected)
        rect = value.rect()
        painter.fillRect(rect, CARD_BG.q())
        if total:
            painter.fillRect(0, 0, rect.width(), value.RULE, value.RULE_COLOUR.q())
            rect.setTop(value.RULE)
        font = QFont(value.font())
        font.setPointSize(value.POINTS)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(colour.q() if colour is not None else value.palette().windowText().color())
        painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
        painter.end()
        assert shown == expected, text


def test_the_sentence_under_the_number_needed_is_never_cut(qtbot, tmp_path: Path) -> None:
    """An Automatic Hit explains itself at length under "no roll": its box grows to show the
    whole sentence (on the wizard's smaller size too), and keeps its height afterwards."""
    from brikdesk.domain.battle import Status, StatusSet

    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        bert = battle.ids["Guard Bert"]
        battle.services.tracker.record(battle.battle_id, [StatusSet(bert, Status.DISRUPTED)])
        w = _wizard(qtbot, battle, "Will Scarlet", height=720)
        w.pages[0].target.choose(bert)
        w.next()
        w.next()
        action = w.currentPage()
        sentence = action.need_text
        assert "Automatic Hit" in sentence.text() and sentence.text().endswith("still spent")
        shown = sentence.contentsRect()
        needed = sentence.fontMetrics().boundingRect(
            QRect(0, 0, shown.width(), 100_000), Qt.TextFlag.TextWordWrap, sentence.text()
        )
        assert needed.height() > 2 * sentence.fontMetrics().lineSpacing()  # three lines
        assert needed.height() <= shown.height()
        assert sentence.heightForWidth(sentence.width()) <= sentence.height()
        height = sentence.height()
        w.change("action", replace(w.draft, target_disrupted=False))  # a short sentence again
        assert "Automatic Hit" not in sentence.text()
        assert sentence.height() == height
    finally:
        battle.db.close()


def test_each_die_typed_shows_its_chip_with_the_dice_card_in_view(qtbot, tmp_path: Path) -> None:
    """A die typed shows its chip at once, and the page scrolls the dice card into view (a
    short window: the card is below the modifiers)."""
    from PySide6.QtTest import QTest

    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w = _wizard(qtbot, battle, "Will Scarlet", height=620)
        attack = w.pages[CombatWizard.ATTACK]
        attack.target.choose(battle.ids["Guy of Gisbourne"])
        joiners = attack.joiners
        john = next(
            joiners.item(i)
            for i in range(joiners.count())
            if "Little John" in joiners.item(i).text()
        )
        john.setCheckState(Qt.CheckState.Checked)
        assert len(w.draft.joiners) == 1
        w.next()
        w.next()
        action = w.currentPage()
        qtbot.wait(50)
        app = QApplication.instance()
        for typed in (1, 2):  # Will's Action die, then Little John's
            assert QApplication.focusWidget() is action.dice.edit
            QTest.keyClicks(action.dice.edit, "5")
            for _ in range(3):
                app.processEvents()
            chips = action.dice.chips_layout
            assert chips.count() - 1 == typed
            assert all(chips.itemAt(i).widget().isVisible() for i in range(typed))
        assert action.scroller.verticalScrollBar().value() > 0, "the dice card was not shown"
        card = action.dice.mapTo(action.scroller.viewport(), action.dice.rect().topLeft())
        assert 0 <= card.y() < action.scroller.viewport().height()
    finally:
        battle.db.close()


def test_the_charts_line_label_is_whole_inside_the_plot_and_over_the_bars(qtbot) -> None:
    """The Action Roll chart's "needs 2" sat half over the plot's top edge on a laptop's short
    chart: its label now hangs from the top, inside, and is drawn over the bars it may cover."""
    from ui.wizard.charts import action_bars, make_action_chart

    host = QWidget()
    qtbot.addWidget(host)
    chart = make_action_chart(host)
    chart.resize(580, 130)  # the Action Roll page's chart at 1366x768
    host.show()
    qtbot.waitExposed(host)
    faces = [(face, Fraction(1, 10)) for face in range(1, 11)]
    chart.show_bars(action_bars([(f, float(p)) for f, p in faces], 0, 2), 1.5, "needs 2")
    chart.grab()  # lays the plot out and places the label
    plot = chart.getPlotItem().vb.sceneBoundingRect()
    label = chart.line.label.sceneBoundingRect()
    assert chart.line.label.isVisible()
    assert plot.contains(label), (label, plot)
    assert label.top() - plot.top() < label.height()  # at the top, not down among the bars
    assert chart.line.zValue() > chart.bars.zValue()


class _FocusAtFirstPaint(FirstPaintWatcher):
    """Notes which widget has the keyboard focus when ``window`` is first painted."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window, lambda: None)
        self.focus: QWidget | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.first_paint(watched, event):
            self.focus = QApplication.focusWidget()
        return False


def test_a_page_turned_to_is_painted_with_its_focus_already_on_the_dice(
    qtbot, tmp_path: Path
) -> None:
    """Next to the Action Roll and to Damage: the page is first painted with the focus where
    the organizer types (the die box), not on another field and then moved there: a key
    typed at once after Next went to that field."""
    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w = _wizard(qtbot, battle, "Thieven Hood")
        w.next()
        w.change("range", replace(w.draft, distance=Fraction(6)))
        app = QApplication.instance()
        for turn in ("Action Roll", "Damage"):
            seen = _FocusAtFirstPaint(w)
            app.installEventFilter(seen)
            try:
                if turn == "Damage":
                    w.add_face("action", 5)  # a hit, not Over the Top: Damage comes next
                w.next()
                for _ in range(3):
                    app.processEvents()
            finally:
                app.removeEventFilter(seen)
            page = w.currentPage()
            focus = QApplication.focusWidget()
            assert seen.painted, turn
            assert focus is not None and page.dice.isAncestorOf(focus), (turn, focus)
            assert seen.focus is focus, (turn, seen.focus, focus)
    finally:
        battle.db.close()
