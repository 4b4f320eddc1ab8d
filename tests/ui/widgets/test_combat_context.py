"""The battle the combat forms resolve against.

The battle panel hands its combat context to the quick attack form (and the combat wizard
shares the panel's cache of fighters), so that 500 units' fighters are not made again at each
attack. A context handed over is used only while it is the battle as it stands: after an End
Turn, an Undo, a death or with another battle's context, a form shows and records the battle
as the tracker has it now.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack

from brikdesk.domain.battle import ActionState
from brikdesk.domain.combat import Reaction
from brikdesk.domain.rolling import RandomDice
from tests.ui.keyboard import keys, shown
from tests.ui.wizard_battle import WizardBattle, battle_from
from ui.bus import Bus
from ui.widgets.combat_context import combat_context
from ui.wizard import CombatWizard
from ui.wizard.quick import QuickAttack


def quick(qtbot, battle: WizardBattle, attacker: str, stack: QUndoStack, ctx) -> QuickAttack:
    form = QuickAttack(
        battle.services,
        Bus(),
        stack,
        battle.battle_id,
        battle.ids[attacker],
        dice=RandomDice(1),
        ctx=ctx,
    )
    form.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    shown(qtbot, form)
    form.target.setFocus()
    form.target.selectAll()
    return form


def kill_guy(qtbot, battle: WizardBattle, stack: QUndoStack) -> None:
    """Will Scarlet strikes Guy of Gisbourne, who Parries with his shield and rolls a natural
    1: the Parry fails, the 5 Damage destroys him (recorded through the quick form)."""
    form = quick(qtbot, battle, "Will Scarlet", stack, None)
    guy = battle.ids["Guy of Gisbourne"]
    form.set_draft(
        replace(
            form.draft,
            target_id=guy,
            reaction=Reaction.PARRY,
            parry_item="shield",
            action_faces=(5, 1),
            damage_faces=(5,),
        )
    )
    form.record_button.setFocus()
    form.accept()
    assert not form.isVisible(), form.problem.text()
    assert battle.view().state.unit(guy).dead


def test_a_context_from_before_a_death_is_not_used(qtbot, battle):
    """The panel's context made before Guy of Gisbourne fell: the next form does not offer him
    as a target (typing his name finds nobody) and knows he is dead."""
    stack = QUndoStack()
    before = combat_context(battle.view())
    kill_guy(qtbot, battle, stack)
    form = quick(qtbot, battle, "Thieven Hood", stack, before)
    assert form.ctx.state == battle.view().state
    assert form.ctx.state.unit(battle.ids["Guy of Gisbourne"]).dead
    keys(qtbot, "gisb")
    assert "no unit by that name" in form.target_hint.text()


def test_a_context_from_before_an_undo_is_not_used(qtbot, battle):
    """Guy of Gisbourne's death undone: a form handed the context made while he lay dead
    offers him again, alive."""
    stack = QUndoStack()
    kill_guy(qtbot, battle, stack)
    dead = combat_context(battle.view())
    stack.undo()
    assert not battle.view().state.unit(battle.ids["Guy of Gisbourne"]).dead
    form = quick(qtbot, battle, "Thieven Hood", stack, dead)
    assert not form.ctx.state.unit(battle.ids["Guy of Gisbourne"]).dead
    keys(qtbot, "gisb\t")
    assert form.draft.target_id == battle.ids["Guy of Gisbourne"]


def test_the_wizard_follows_an_end_turn(qtbot, battle):
    """A context made on the Merry Men's turn, handed to the wizard after End Turn: the wizard
    resolves on the Sheriff's turn (Will Scarlet then pays with a held Action, not his own)."""
    before = combat_context(battle.view())
    will = battle.ids["Will Scarlet"]
    battle.services.tracker.end_turn(battle.battle_id)
    now = battle.view()
    assert now.state.active != before.state.active
    w = CombatWizard(battle.services, Bus(), QUndoStack(), battle.battle_id, will, ctx=before)
    qtbot.addWidget(w)
    assert w.ctx.state == now.state
    assert w.ctx.state.unit(will).action is ActionState.HELD
    assert f"{now.active_player.name}'s turn" in w.windowTitle()


def test_a_context_that_is_the_battle_now_is_used_as_it_is(qtbot, battle):
    """The panel's context, when it is the battle as it stands, is the form's: its fighters are
    not made again."""
    ctx = combat_context(battle.view())
    form = quick(qtbot, battle, "Thieven Hood", QUndoStack(), ctx)
    assert form.ctx is ctx


def test_another_battles_context_is_not_used(qtbot, battle, wizard_templates, tmp_path):
    """A context of another campaign file's battle is never the form's."""
    other_path = tmp_path / "other"
    other_path.mkdir()
    for other in battle_from(wizard_templates("2020"), other_path):
        foreign = combat_context(other.view())
        form = quick(qtbot, battle, "Thieven Hood", QUndoStack(), foreign)
        assert form.ctx is not foreign
        assert form.ctx.setup is battle.view().setup


def test_a_refused_target_stays_in_the_wizards_list_greyed_with_its_reason(qtbot, battle):
    """The wizard's target list (a model over the choices, not an item per unit): a dead unit
    is listed, disabled, and says why."""
    kill_guy(qtbot, battle, QUndoStack())
    w = CombatWizard(
        battle.services, Bus(), QUndoStack(), battle.battle_id, battle.ids["Thieven Hood"]
    )
    shown(qtbot, w)
    combo = w.pages[CombatWizard.ATTACK].target
    texts = [combo.itemText(i) for i in range(combo.count())]
    row = next(i for i, t in enumerate(texts) if t.startswith("Guy of Gisbourne"))
    assert "can't: Guy of Gisbourne is already dead" in texts[row]
    assert not combo.model().flags(combo.model().index(row, 0)) & Qt.ItemFlag.ItemIsEnabled
    alive = next(i for i, t in enumerate(texts) if t.startswith("Guard Alan"))
    assert combo.model().flags(combo.model().index(alive, 0)) & Qt.ItemFlag.ItemIsEnabled
