"""The combat wizard's Action Roll page follows a judgement with one paint.

A judgement can change the page's height (a modifier's explanation wraps on more or fewer
lines): the page is laid out, and its scroll area in turn, before Qt paints, so what the
change moves (the cards below the modifier list) is painted once in its final place, not
painted, moved and painted again (a flicker, and twice the work).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QWidget

from brikdesk.domain.attack import SizeClass
from brikdesk.domain.rolling import RandomDice
from tests.ui.wizard_battle import make_battle
from ui.bus import Bus
from ui.wizard import CombatWizard


class _Events(QObject):
    """Counts the events of one type each widget receives."""

    def __init__(self, kind: QEvent.Type = QEvent.Type.Paint) -> None:
        super().__init__()
        self.kind = kind
        self.seen: Counter[QWidget] = Counter()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if event.type() == self.kind and isinstance(watched, QWidget):
            self.seen[watched] += 1
        return False


def test_a_judgement_paints_what_it_moves_once(qtbot, tmp_path: Path) -> None:
    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w = CombatWizard(battle.services, Bus(), QUndoStack(), battle.battle_id,
                         battle.ids["Thieven Hood"], dice=RandomDice(1))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        w.next()
        w.change("range", replace(w.draft, distance=Fraction(12)))
        w.next()
        action = w.currentPage()
        qtbot.wait(action._unstick.interval() + 100)  # the page has scrolled to the dice
        app = QApplication.instance()
        paints = _Events(QEvent.Type.Paint)
        app.installEventFilter(paints)
        try:
            heights = set()
            # The size judgement and Disrupted: modifier rows change their explanations (and
            # so their heights), and the page its height.
            for size, shown, disrupted in ((SizeClass.MINIFIG, 2, True),
                                           (SizeClass.MINIFIG, 1, False),
                                           (SizeClass.BRICK_2X2, 3, True),
                                           (SizeClass.MINIFIG, 3, False),
                                           (SizeClass.MINIFIG, 2, True)):
                paints.seen.clear()
                w.change("action", replace(w.draft, size=size, sections_visible=shown,
                                           target_disrupted=disrupted))
                for _ in range(3):
                    app.processEvents()
                heights.add(action.scroller.widget().height())
                assert paints.seen[action.dice] <= 1
                assert paints.seen[action.reaction] <= 1
            assert len(heights) > 1, "the judgements must move the page to test anything"
        finally:
            app.removeEventFilter(paints)
    finally:
        battle.db.close()


def test_ticking_a_judgement_leaves_the_rows_and_its_box_in_place(qtbot, tmp_path: Path) -> None:
    """Disrupted gives a modifier, and the domain lists the modifiers that count first: the
    page keeps each row where it first showed it (and as tall as its tallest text), so the box
    stays under the mouse, and the page is not laid out again."""
    from PySide6.QtCore import QPoint, Qt

    battle = make_battle(tmp_path / "sherwood.sqlite3")
    try:
        w = CombatWizard(battle.services, Bus(), QUndoStack(), battle.battle_id,
                         battle.ids["Thieven Hood"], dice=RandomDice(1))
        qtbot.addWidget(w)
        w.show()
        w.resize(1280, 900)
        qtbot.waitExposed(w)
        w.next()
        w.change("range", replace(w.draft, distance=Fraction(12)))
        w.next()
        action = w.currentPage()
        qtbot.wait(action._unstick.interval() + 100)
        box = action.disrupted
        rows = [what for _value, what in action.row_widgets if what.isVisible()]
        reasons = [what.reason for what in rows]
        assert any("not Disrupted" in r for r in reasons)
        where = box.mapTo(w, QPoint(0, 0))
        geometry = [what.geometry() for what in rows]
        requests = _Events(QEvent.Type.LayoutRequest)
        QApplication.instance().installEventFilter(requests)
        try:
            for ticked in (True, False, True):
                qtbot.mouseClick(box, Qt.MouseButton.LeftButton,
                                 pos=QPoint(8, box.height() // 2))
                assert w.draft.target_disrupted is ticked
                for _ in range(3):
                    QApplication.instance().processEvents()
                assert box.mapTo(w, QPoint(0, 0)) == where
                assert [what.geometry() for what in rows] == geometry
        finally:
            QApplication.instance().removeEventFilter(requests)
        # The Disrupted row now says so and gives its modifier, in the same place.
        row = next(i for i, r in enumerate(reasons) if "Disrupted" in r)
        value, what = action.row_widgets[row]
        assert "is Disrupted" in what.reason and value.text() != "0"
        assert requests.seen[action.scroller.widget()] == 0
        assert requests.seen[action.mods_box] == 0
    finally:
        battle.db.close()
