"""What End Turn and Undo cost the battle panel: the rules are asked about the current
unit once per action, rows are found by their keys without their display values, and the
header's turn label and End Turn button keep their size from one player's turn to the next."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QApplication

from brikdesk.domain.battle import ActionUse
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from ui.models.table import IdRole
from ui.panels import BattlePanel
from ui.panels import battle_panel as panel_module
from ui.panels.battle_model import GroupRole
from ui.panels.legal import attack_refusal, combat_context


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    return make_panel(qtbot, sv, table.battle_id, qsettings)


def test_the_keys_legend_is_worked_out_once_per_action_and_follows_undo(
    qtbot, panel: BattlePanel, table: Table, monkeypatch
) -> None:
    asked: list[object] = []
    real = panel_module.keys_legend

    def counting(view, unit):
        asked.append(unit)
        return real(view, unit)

    monkeypatch.setattr(panel_module, "keys_legend", counting)
    rifle = table.ids["Red Rifle"]
    panel.select_unit(rifle)
    assert "A attack" in panel.message.keys
    asked.clear()
    assert panel.commands.spend(rifle, ActionUse.ATTACK)
    assert asked == [rifle]
    assert "A attack" not in panel.message.keys
    asked.clear()
    assert panel.undo()
    assert asked == [rifle]
    assert "A attack" in panel.message.keys
    asked.clear()
    assert panel.end_turn()
    assert asked == [rifle]
    assert panel.message.keys.startswith("Red Rifle may respond")


def test_the_rows_kept_still_read_the_keys_the_table_shows(panel: BattlePanel) -> None:
    """Keeping rows still under the pointer reads every row's key on End Turn: a unit's id,
    or its player's for a header row, as the table's rows give them."""
    m = panel.model
    ids = [m.index(r, 0).data(IdRole) for r in range(m.rowCount())]
    assert [i for i in ids if i is not None] == m.unit_ids()
    groups = [m.index(r, 0).data(GroupRole) for r in range(m.rowCount())]
    assert panel.still_rows.model_keys() == [
        ("g", g) if g is not None else i for g, i in zip(groups, ids, strict=True)
    ]


def test_the_attack_check_asks_the_battle_as_it_stands_never_an_old_state(
    panel: BattlePanel, table: Table
) -> None:
    """The Act menu and the legend ask whether a unit may attack from the battle as it
    stands."""
    rifle = table.ids["Red Rifle"]
    before = panel.view
    assert before is not None and attack_refusal(before, rifle) is None
    assert panel.commands.spend(rifle, ActionUse.ATTACK)
    after = panel.view
    assert after is not None
    assert combat_context(after).state is after.state
    assert attack_refusal(after, rifle) is not None  # its Action is spent now
    assert attack_refusal(before, rifle) is None  # the old view still says what it said


def test_end_turn_keeps_the_header_and_act_button_widths_and_their_texts_fit(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """Whose turn it is and the End Turn button are as wide for Red as for Blue (nothing beside
    them moves on End Turn), in both looks, and never cut their text."""
    header = panel.header
    widgets = (header.turn_label, header.end_turn_button, panel.act_button)
    for table_mode in (False, True):
        panel.set_table_mode(table_mode, remember=False)
        qtbot.wait(1)  # widths are worked out again after the new fonts are in place
        panel.select_unit(table.ids["Red Rifle"])
        widths = [w.width() for w in widgets]
        texts = []
        for _turn in range(2):
            assert panel.end_turn()
            qtbot.wait(1)
            assert [w.width() for w in widgets] == widths
            texts.append((header.turn_label.text(), panel.act_button.text()))
            for w in widgets:
                fm = w.fontMetrics()
                assert fm.horizontalAdvance(w.text()) < w.width()
        assert {t for t, _a in texts} == {"Blue's turn", "Red's turn"}
        assert {a for _t, a in texts} == {"Act", "Respond"}


def test_a_longer_log_detail_scrolls_in_its_box_instead_of_moving_the_log(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """The selected log line's detail changes with every action; its box keeps its height, so
    the log above it does not move and the panel is not laid out again (a long detail
    scrolls)."""
    panel.show()
    qtbot.waitExposed(panel)
    pane = panel.log_pane
    box_height, log_height = pane.detail_box.height(), pane.view.height()
    pane.detail.setText("\n".join(f"line {n}" for n in range(12)))
    qtbot.wait(10)
    assert (pane.detail_box.height(), pane.view.height()) == (box_height, log_height)
    assert pane.detail_box.verticalScrollBar().maximum() > 0  # the rest is a scroll away
    assert panel.commands.spend(table.ids["Red Rifle"], ActionUse.ATTACK)
    qtbot.wait(10)
    assert (pane.detail_box.height(), pane.view.height()) == (box_height, log_height)
    assert "Red Rifle" in pane.detail.text()


def test_undo_of_end_turn_shows_the_rows_of_the_turn_before(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """End Turn changes every row; its Undo shows what the rows showed before, its Redo what
    they showed after."""
    m = panel.model
    shown = {uid: m.index_of_unit(uid, c).data() for uid in m.unit_ids() for c in range(3)}
    assert panel.end_turn()
    shown_after = {uid: m.index_of_unit(uid, c).data() for uid in m.unit_ids() for c in range(3)}
    assert shown_after != shown
    assert panel.undo()
    assert {uid: m.index_of_unit(uid, c).data() for uid in m.unit_ids() for c in range(3)} == shown
    assert panel.redo()  # the turn after, shown as it was
    assert {
        uid: m.index_of_unit(uid, c).data() for uid in m.unit_ids() for c in range(3)
    } == shown_after


def test_end_turn_paints_the_table_and_its_column_header_once(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """End Turn moves every row: the table lays its rows out at once, so the rows and the
    column header above them are painted once, in the same paint as the rest of the panel."""

    class Paints(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.seen: Counter[QObject] = Counter()

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.seen[watched] += 1
            return False

    qtbot.wait(20)
    paints = Paints()
    app = QApplication.instance()
    app.installEventFilter(paints)
    try:
        for action in (panel.end_turn, panel.undo):
            paints.seen.clear()
            assert action()
            qtbot.wait(30)
            assert paints.seen[panel.table.viewport()] == 1
            assert paints.seen[panel.table.horizontalHeader().viewport()] == 1
    finally:
        app.removeEventFilter(paints)
