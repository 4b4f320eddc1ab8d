"""The battle panel's legal moves: Hold to respond, Attack through the combat
wizard, no question before a refusal, a key legend true for the current unit, rows that stay
still under the pointer, and warning signs the font has."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from shiboken6 import isValid

from brikdesk.domain.battle import ActionState, ActionUse
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from ui.glyphs import REFUSAL, WARNING, refusal_sign, sign, warning_sign
from ui.panels import BattlePanel
from ui.panels.action_roll import ActionRollDialog
from ui.panels.battle_model import log_line
from ui.panels.pickers import UnitPicker


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    return make_panel(qtbot, sv, table.battle_id, qsettings)


@pytest.fixture
def asked(monkeypatch) -> list[str]:
    """Every question the panel asks (a note, a target): none may come before a refusal."""
    questions: list[str] = []

    def note(cls, parent, name, action_die, rules, done, **_kw):
        questions.append(f"note for {name}")
        done("digs a trench, Action Roll d6 4 vs Use 3: success")

    def pick(cls, parent, title, prompt, choices):
        questions.append(prompt)
        return choices[0][0]

    monkeypatch.setattr(ActionRollDialog, "start", classmethod(note))
    monkeypatch.setattr(UnitPicker, "ask", classmethod(pick))
    return questions


@pytest.fixture
def popups(monkeypatch) -> list[QMenu]:
    """The menus the panel pops up (recorded, not shown: offscreen has no popups)."""
    opened: list[QMenu] = []
    monkeypatch.setattr(QMenu, "popup", lambda menu, *args: opened.append(menu))
    return opened


def press(qtbot, panel: BattlePanel, unit: int, key: Qt.Key) -> None:
    assert panel.select_unit(unit)
    panel.activateWindow()
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus, timeout=2000)
    qtbot.keyClick(panel.table, key)


def action(panel: BattlePanel, unit: int) -> ActionState:
    return panel.view.state.unit(unit).action


def entry(menu: QMenu, text: str):
    for a in menu.actions():
        if a.text().replace("&", "").startswith(text):
            return a
    raise LookupError(text)


# -- hold, then respond -----------------------------------------------------------------------


def test_an_unspent_action_is_saved_then_respond_from_the_panel(
    qtbot, panel: BattlePanel, sv: Services, table: Table, asked: list[str], popups: list[QMenu]
) -> None:
    """4.3 Enemy Response (every edition): "If a minifig doesn't spend his Action on his own
    turn, he can save it to use in response to other units' activity." Nothing to press: the
    panel offers no Hold (it changed nothing), the Act menu says the Action is saved."""
    pike, rifle = table.ids["Red Pike"], table.ids["Red Rifle"]
    panel.select_unit(pike)
    assert panel.findChild(QWidget, "holdButton") is None
    assert not any(a.objectName() == "holdAction" for a in panel.table.actions())
    panel.act_button.menu().aboutToShow.emit()
    saved = entry(panel.act_button.menu(), "Not spent this turn")
    assert not saved.isEnabled() and "(4.3)" in saved.text()
    with pytest.raises(LookupError):
        entry(panel.act_button.menu(), "Hold to respond")
    # R on its own turn opens nothing: the strip says the Action is saved by itself.
    press(qtbot, panel, pike, Qt.Key.Key_R)
    assert popups == [] and panel.message_kind == "error"
    assert panel.message_text.endswith(
        "it acts now, or its Action is saved for a response when the turn ends (4.3)."
    )
    # H does nothing any more: nothing recorded, the unit stays selected.
    press(qtbot, panel, pike, Qt.Key.Key_H)
    assert len(sv.battles.events(table.battle_id)) == 0 and panel.current_unit() == pike
    panel.commands.spend(rifle, ActionUse.BAIL, over_the_top=True)
    panel.end_turn()
    assert action(panel, pike) is ActionState.HELD
    assert action(panel, rifle) is ActionState.SPENT_OWN_TURN
    panel.select_unit(pike)
    assert panel.act_button.text() == "Respond"
    # R opens the Respond menu; its Bail is the response.
    press(qtbot, panel, pike, Qt.Key.Key_R)
    menu = panel.act_button.menu()
    assert popups == [menu]
    assert entry(menu, "Red Pike: respond") is not None
    entry(menu, "Bail, Over the Top").trigger()
    assert action(panel, pike) is ActionState.SPENT_RESPONSE
    assert asked == []
    # R again: it has responded; no menu, the reason in the strip.
    press(qtbot, panel, pike, Qt.Key.Key_R)
    assert popups == [menu]
    assert panel.message_kind == "error"
    assert "Red Pike has already responded since its last turn (4.3)" in panel.message_text


# -- Attack through the wizard -----------------------------------------------------------------


def test_attack_opens_the_combat_wizard_with_that_unit(
    qtbot, panel: BattlePanel, sv: Services, table: Table
) -> None:
    calls: list[tuple] = []
    panel.forms = replace(panel.forms, wizard=lambda *args: calls.append(args))
    # Red's turn: the Act menu's Attack opens the wizard for the Red Rifle.
    panel.select_unit(table.ids["Red Rifle"])
    panel.act_button.menu().aboutToShow.emit()
    attack = entry(panel.act_button.menu(), "Attack")
    assert attack.text().endswith("\tA")
    attack.trigger()
    assert [c[5] for c in calls] == [table.ids["Red Rifle"]]
    assert calls[0][0] is panel and calls[0][4] == table.battle_id
    # Off its turn, the Blue Rifle's Respond menu and its row's menu do the same (a response).
    panel.select_unit(table.ids["Blue Rifle"])
    panel.act_button.menu().aboutToShow.emit()
    entry(panel.act_button.menu(), "Attack").trigger()
    menu = QMenu(panel)
    panel.fill_unit_menu(menu, table.ids["Blue Pike"])
    entry(menu, "Attack").trigger()
    assert [c[5] for c in calls[1:]] == [table.ids["Blue Rifle"], table.ids["Blue Pike"]]
    assert len(sv.battles.events(table.battle_id)) == 0  # nothing recorded without the wizard


def test_the_real_wizard_opens_as_a_response(qtbot, panel: BattlePanel, table: Table) -> None:
    pytest.importorskip("ui.wizard")
    press(qtbot, panel, table.ids["Blue Rifle"], Qt.Key.Key_A)
    wizard = next(
        w
        for w in QApplication.topLevelWidgets()
        if type(w).__name__ == "CombatWizard" and w.isVisible()
    )
    assert wizard.draft.attacker_id == table.ids["Blue Rifle"]
    # It pays with the held Action (a response), not a Counter.
    assert wizard.draft.use is None
    wizard.reject()


# -- no question before a refusal ------------------------------------------------------------


def test_refused_moves_ask_nothing_and_say_why(
    qtbot, panel: BattlePanel, sv: Services, table: Table, asked: list[str], popups: list[QMenu]
) -> None:
    ids = table.ids
    knight, pike = ids["Red Knight"], ids["Red Pike"]
    calls: list[tuple] = []
    panel.forms = replace(panel.forms, wizard=lambda *args: calls.append(args))
    panel.commands.spend(pike, ActionUse.SPRINT)
    refusals = {
        # Other on a spent unit: no "What does Red Pike do?".
        Qt.Key.Key_O: "Red Pike has already spent its Action this turn.  (4.2 Action)",
        # Counters are for Close Combat: no empty menu.
        Qt.Key.Key_C: "Red Pike is not in Close Combat; Counters are only for Close Combat.",
        # R on its own turn: no Act menu in disguise.
        Qt.Key.Key_R: "It is Red Pike's own turn: R is for responding on another player's "
        "turn; it has spent its Action.",
        # A with its Action spent and no Counter: no wizard.
        Qt.Key.Key_A: "has already spent its Action this turn",
        Qt.Key.Key_S: "Red Pike has already spent its Action this turn.  (4.2 Action)",
    }
    for key, why in refusals.items():
        panel.clear_message()
        press(qtbot, panel, pike, key)
        assert popups == [], key
        assert panel.message_kind == "error", key
        assert why in panel.message_text, (key, panel.message_text)
    assert asked == [] and calls == []
    # F when the rules refuse every target (its Action is spent): the reason, no target asked.
    press(qtbot, panel, pike, Qt.Key.Key_F)
    assert asked == [] and panel.message_kind == "error"
    assert "Red Pike has already spent its Action this turn" in panel.message_text
    # The menus offer the same entries disabled, the reason as the tooltip.
    panel.select_unit(pike)
    act = panel.act_button.menu()
    act.aboutToShow.emit()
    other = entry(act, "Other")
    assert not other.isEnabled()
    assert other.toolTip() == "Red Pike has already spent its Action this turn. (4.2 Action)"
    counter = panel.counter_button.menu()
    counter.aboutToShow.emit()
    assert not any(a.isEnabled() for a in counter.actions())
    # A legal move still asks what it must: Other on the Knight asks for the words.
    press(qtbot, panel, knight, Qt.Key.Key_O)
    assert asked == ["note for Red Knight"]
    assert action(panel, knight) is ActionState.SPENT_OWN_TURN
    assert len(sv.battles.events(table.battle_id)) == 2


def test_a_responder_in_close_combat_names_only_a_legal_opponent(
    qtbot, panel: BattlePanel, table: Table, asked: list[str]
) -> None:
    """5.2 Close Combat: "a unit in Close Combat cannot respond to events outside it"."""
    ids = table.ids
    assert panel.commands.close_combat_attack(ids["Red Knight"], ids["Blue Knight"])
    # Its only opponent is taken without asking.
    press(qtbot, panel, ids["Blue Knight"], Qt.Key.Key_B)
    assert asked == []
    assert action(panel, ids["Blue Knight"]) is ActionState.SPENT_RESPONSE


# -- the key legend ------------------------------------------------------------------------


def test_the_key_legend_follows_what_the_selected_unit_may_do(
    panel: BattlePanel, table: Table
) -> None:
    ids = table.ids
    panel.select_unit(ids["Red Pike"])
    keys = panel.message.text()
    assert keys.startswith("Keys: Red Pike: Q quick attack · A attack · S Sprint")
    assert "H " not in keys and "R " not in keys.replace("Red ", "")
    panel.select_unit(ids["Blue Pike"])
    keys = panel.message.text()
    assert keys.startswith("Keys: Blue Pike may respond: R menu · Q quick attack · A attack")
    assert "S Sprint" not in keys and "H hold" not in keys  # a Sprint is never a response
    panel.commands.spend(ids["Red Pike"], ActionUse.SPRINT)
    panel.select_unit(ids["Red Pike"])
    keys = panel.message.text()
    assert "A attack" not in keys and "S Sprint" not in keys and "H hold" not in keys
    assert "T status" in keys and "Ctrl+E End Turn" in keys


# -- rows still under the pointer --------------------------------------------------------------


def test_rows_stay_still_under_the_pointer_after_end_turn(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    viewport = panel.table.viewport()
    ids = table.ids

    def y(name: str) -> int:
        return panel.table.rowViewportPosition(panel.model.row_of_unit(ids[name]))

    before = {name: y(name) for name in ids}
    assert y("Red Knight") < y("Blue Knight")
    QApplication.sendEvent(viewport, QEvent(QEvent.Type.Enter))
    panel.end_turn()
    assert panel.model.unit_ids()[0] == ids["Blue Knight"]  # the model's new order
    assert {name: y(name) for name in ids} == before  # ... not shown under the pointer
    assert (
        panel.table.indexAt(
            viewport.rect().topLeft()
            + panel.table.visualRect(panel.model.index_of_unit(ids["Red Knight"])).center()
        ).data()
        == "Red Knight"
    )
    QApplication.sendEvent(viewport, QEvent(QEvent.Type.Leave))
    assert y("Blue Knight") < y("Red Knight")  # the pointer left: Blue on top
    assert y("Blue Knight") == before["Red Knight"]


def test_rows_take_their_new_order_after_a_pause(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    panel.still_rows.timer.setInterval(50)
    QApplication.sendEvent(panel.table.viewport(), QEvent(QEvent.Type.Enter))
    panel.end_turn()
    assert panel.still_rows.holding
    qtbot.waitUntil(lambda: not panel.still_rows.holding, timeout=2000)
    row = panel.model.row_of_unit(table.ids["Blue Knight"])
    assert panel.table.rowViewportPosition(row) < panel.table.rowViewportPosition(
        panel.model.row_of_unit(table.ids["Red Knight"])
    )


# -- signs the font has -----------------------------------------------------------------------


def test_warning_and_refusal_signs_are_in_the_font_used(qtbot, panel: BattlePanel) -> None:
    fonts = [QApplication.font(), panel.font(), panel.message.font()]
    fonts += [QFont(family) for family in QFontDatabase.families()]
    for font in fonts:
        metrics = QFontMetrics(font)
        for chosen in (warning_sign(font), refusal_sign(font)):
            assert all(metrics.inFontUcs4(ord(c)) for c in chosen), (font.family(), chosen)
    # A sign no font has gives way to the next one.
    assert sign(("\U000f0001", "!"), QApplication.font()) == "!"
    assert warning_sign() in WARNING and refusal_sign() in REFUSAL


def test_the_log_and_the_strip_use_those_signs(panel: BattlePanel, table: Table) -> None:
    panel.commands.spend(table.ids["Red Pike"], ActionUse.SPRINT)
    panel.commands.spend(table.ids["Red Pike"], ActionUse.SPRINT)
    assert panel.message_text.startswith(refusal_sign() + " ")
    logged = panel.log_model.events()[0]
    from dataclasses import replace

    assert log_line(replace(logged, problem="no MOM recorded")).startswith(
        f"R1 Red  ·  {warning_sign()} "
    )


def test_the_roster_budget_warning_uses_a_sign_its_font_has(qtbot) -> None:
    from ui.windows.roster import ArmyHeader

    header = ArmyHeader()
    qtbot.addWidget(header)
    for family in ("DejaVu Sans", "Sans Serif", QApplication.font().family()):
        header.warning.setFont(QFont(family))
        header.show_total(25, 20, "CP")
        mark = header.warning.text().split(" ")[0]
        assert header.warning.text() == f"{mark} Over budget by 5 CP"
        assert all(QFontMetrics(header.warning.font()).inFontUcs4(ord(c)) for c in mark)


# -- Close Combat maneuvers go through the dice ---------------------------------------------


def test_a_strike_from_the_act_menu_opens_the_wizard_on_its_target(
    qtbot, panel: BattlePanel, sv: Services, table: Table, monkeypatch
) -> None:
    """Act > Close Combat attack > Strike > Blue Knight used to record "Strikes Blue Knight"
    with no dice and no result: it now opens the combat wizard on that target as a Strike,
    and nothing is recorded until its Finish."""
    from brikdesk.domain.combat import AttackKind
    from ui.wizard import CombatWizard

    red, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    monkeypatch.setattr(UnitPicker, "ask", classmethod(lambda cls, *a: blue))
    panel.select_unit(red)
    act = panel.act_button.menu()
    act.aboutToShow.emit()
    fight = entry(act, "Close Combat attack").menu()
    opened = []
    for maneuver, kind in (("Strike", AttackKind.STRIKE), ("Shove", AttackKind.SHOVE)):
        entry(entry(fight, maneuver).menu(), "Pick the target").trigger()
        wizard = next(w for w in panel.findChildren(CombatWizard) if w.isVisible())
        assert wizard.draft.attacker_id == red and wizard.draft.target_id == blue
        assert wizard.draft.kind is kind
        assert wizard.currentId() == CombatWizard.ATTACK
        assert len(sv.battles.events(table.battle_id)) == 0
        opened.append(wizard)
        wizard.reject()  # Cancel
        assert not wizard.isVisible()


def test_resolved_at_the_table_asks_the_outcome_and_says_so_in_the_log(
    qtbot, panel: BattlePanel, sv: Services, table: Table, monkeypatch
) -> None:
    from ui.panels.pickers import OutcomeAsker

    red = table.ids["Red Knight"]
    monkeypatch.setattr(UnitPicker, "ask", classmethod(lambda cls, *a: table.ids["Blue Knight"]))
    monkeypatch.setattr(OutcomeAsker, "ask", classmethod(lambda cls, *a: "hit, 1 Damage"))
    panel.select_unit(red)
    act = panel.act_button.menu()
    act.aboutToShow.emit()
    grab = entry(entry(act, "Close Combat attack").menu(), "Grab").menu()
    entry(grab, "Resolved at the table").trigger()
    assert [e.kind for e in sv.battles.events(table.battle_id)] == ["close_combat_attack"]
    assert (
        panel.log_model.index(0, 0)
        .data()
        .endswith(
            "Red Knight (Red) tries to Grab Blue Knight (Blue) — resolved at the table: hit, 1 Damage"
        )
    )


def test_q_opens_the_quick_attack_form_for_the_selected_unit(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    from ui.wizard.quick import QuickAttack

    knight = table.ids["Red Knight"]
    press(qtbot, panel, knight, Qt.Key.Key_Q)
    form = panel.findChild(QuickAttack)
    assert form is not None and form.isVisible()
    assert form.draft.attacker_id == knight
    assert "Red Knight" in form.attacker.text() and form.focusWidget() is form.target
    assert "Q quick attack" in panel.message.text() or "Q quick attack" in panel.message_text
    form.target.setText("blue r")
    form.distance.setText("7")
    grown = form.height() + 200  # as when a long result made it grow
    form.resize(form.width(), grown)
    form.reject()
    qtbot.waitUntil(lambda: not isValid(form))  # closed: deleted
    # The next Q shows a form afresh for the unit selected now.
    rifle = table.ids["Red Rifle"]
    press(qtbot, panel, rifle, Qt.Key.Key_Q)
    form = panel.findChild(QuickAttack)
    assert form is not None and form.isVisible()
    assert form.draft.attacker_id == rifle and "Red Rifle" in form.attacker.text()
    assert "Red Rifle" in form.windowTitle()
    assert form.draft.distance is None and form.distance.text() == ""
    assert not form.draft.action_faces and form.dice_entry.need is None  # the range first
    assert form.target.text() == "Blue Knight" and form.focusWidget() is form.target
    assert form.height() < grown and form.height() <= form.sizeHint().height()


def test_a_after_a_cancel_opens_the_wizard_afresh(qtbot, panel: BattlePanel, table: Table) -> None:
    """A shows the combat wizard; after a Cancel the next A shows it started afresh: at its
    first page, for the unit selected now, with none of the last attack's dice."""
    from ui.wizard import CombatWizard

    def shown() -> CombatWizard:
        return next(w for w in panel.findChildren(CombatWizard) if w.isVisible())

    knight, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    press(qtbot, panel, knight, Qt.Key.Key_A)
    wizard = shown()
    assert wizard.draft.attacker_id == knight and wizard.currentId() == CombatWizard.ATTACK
    wizard.pages[CombatWizard.ATTACK].target.choose(blue)
    wizard.next()
    wizard.next()
    assert wizard.currentId() == CombatWizard.ACTION
    dice = wizard.pages[CombatWizard.ACTION].dice
    qtbot.keyClicks(dice.edit, "5")  # typed, as at the table
    assert dice.chips_layout.count() == 2
    wizard.reject()
    qtbot.waitUntil(lambda: not isValid(wizard))
    pike = table.ids["Red Pike"]
    press(qtbot, panel, pike, Qt.Key.Key_A)
    wizard = shown()
    assert wizard.currentId() == CombatWizard.ATTACK
    assert wizard.draft.attacker_id == pike and not wizard.draft.action_faces
    assert "Red Pike" in wizard.pages[CombatWizard.ATTACK].summary.text()
    wizard.pages[CombatWizard.ATTACK].target.choose(blue)
    wizard.next()
    wizard.next()
    action = wizard.pages[CombatWizard.ACTION]
    assert action.dice.chips_layout.count() == 1  # no chip of the last attack
    assert action.dice.edit.text() == ""
    wizard.reject()


def test_each_attackers_wizard_lists_its_own_joiners(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """5.1 Combined Attacks: the wizard lists, for each attacker, the others of its side who
    may join and never the attacker itself; ticking a row joins that unit."""
    from ui.wizard import CombatWizard

    reds = {name: table.ids[name] for name in ("Red Knight", "Red Rifle", "Red Pike")}
    for attacker in ("Red Pike", "Red Knight", "Red Rifle"):
        press(qtbot, panel, reds[attacker], Qt.Key.Key_A)
        wizard = next(w for w in panel.findChildren(CombatWizard) if w.isVisible())
        assert wizard.draft.attacker_id == reds[attacker]
        page = wizard.pages[CombatWizard.ATTACK]
        page.target.choose(table.ids["Blue Knight"])
        rows = [page.joiners.item(i) for i in range(page.joiners.count())]
        listed = {r.data(Qt.ItemDataRole.UserRole): r.text() for r in rows}
        others = {uid for name, uid in reds.items() if name != attacker}
        assert set(listed) == others, attacker
        assert all(name in listed[uid] for name, uid in reds.items() if uid in others)
        if attacker == "Red Pike":  # bare hands: the Knight and the Rifle may join him
            knight = next(r for r in rows if r.data(Qt.ItemDataRole.UserRole) == reds["Red Knight"])
            knight.setCheckState(Qt.CheckState.Checked)
            assert [j.unit_id for j in wizard.draft.joiners] == [reds["Red Knight"]]
        wizard.reject()
        qtbot.waitUntil(lambda w=wizard: not isValid(w))


def test_closing_the_battle_with_the_wizard_open_cancels_the_attack(
    qtbot, panel: BattlePanel, sv: Services, table: Table
) -> None:
    """The window closes (or another page shows) while the wizard is open: the attack is
    cancelled, nothing is recorded, and the wizard is closed before its panel goes (no form
    paints while its window is taken down)."""
    from ui.wizard import CombatWizard

    press(qtbot, panel, table.ids["Red Knight"], Qt.Key.Key_A)
    wizard = next(w for w in panel.findChildren(CombatWizard) if w.isVisible())
    wizard.next()
    panel.hide()
    assert not wizard.isVisible()
    assert len(sv.battles.events(table.battle_id)) == 0
