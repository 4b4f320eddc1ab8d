"""What the battle panel shows around End Turn, an action and its Undo: the keys legend follows
the battle, the rows show the turn they belong to, the header and the log stay in place, and
the rows kept still under the pointer read the keys the table shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from brikdesk.domain.battle import ActionUse
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from ui.models.table import IdRole
from ui.panels import BattlePanel
from ui.panels.battle_model import GroupRole
from ui.panels.legal import attack_refusal


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    return make_panel(qtbot, sv, table.battle_id, qsettings)


def test_the_keys_legend_follows_an_action_its_undo_and_end_turn(
    panel: BattlePanel, table: Table
) -> None:
    """The legend under the table says what the selected unit may do as the battle stands:
    not attack once its Action is spent, attack again after Undo, respond on the other
    player's turn."""
    rifle = table.ids["Red Rifle"]
    panel.select_unit(rifle)
    assert "A attack" in panel.message.keys
    assert panel.commands.spend(rifle, ActionUse.ATTACK)
    assert "A attack" not in panel.message.keys
    assert panel.undo()
    assert "A attack" in panel.message.keys
    assert panel.end_turn()
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
    assert attack_refusal(after, rifle) is not None  # its Action is spent now
    assert attack_refusal(before, rifle) is None  # the old view still says what it said


def test_end_turn_keeps_the_header_and_act_button_widths_and_their_texts_fit(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """Whose turn it is and the End Turn button are as wide for Red as for Blue (nothing beside
    them moves on End Turn), in both styles, and never cut their text."""
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
