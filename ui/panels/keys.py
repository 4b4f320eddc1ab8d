"""The battle panel's keys as actions: single keys on the unit table act on the current unit;
End Turn, table mode, undo and redo work anywhere in the window. ``keys_legend`` says which
keys work on the current unit now (the message strip shows it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from brikdesk.domain.battle import ActionUse, is_own_turn, why_not_respond
from brikdesk.domain.ids import BattleUnitId
from brikdesk.services.tracker import BattleView
from ui.panels.legal import (
    attack_refusal,
    counter_refusal,
    fight_targets,
    spend_refusal,
)
from ui.panels.unit_moves import UnitMoves


def make_action(
    owner: QWidget,
    text: str,
    name: str,
    slot: Callable[[], Any],
    keys: Sequence[str] = (),
    *,
    window: bool = False,
    tip: str = "",
) -> QAction:
    """An action on ``owner`` (its keys work while it has focus, or anywhere in the window)."""
    a = QAction(text, owner)
    a.setObjectName(name)
    if keys:
        a.setShortcuts([QKeySequence(k) for k in keys])
    a.setShortcutContext(
        Qt.ShortcutContext.WindowShortcut if window else Qt.ShortcutContext.WidgetShortcut
    )
    if tip:
        a.setToolTip(tip)
        a.setStatusTip(tip)
    a.triggered.connect(slot)
    owner.addAction(a)
    return a


def unit_keys(table: QWidget, moves: UnitMoves) -> list[QAction]:
    """Q quick attack (one page), A attack (the combat wizard), S Sprint, B Bail (Shift+B Over the Top), P Parry, O other,
    F Close Combat, C Counter, R respond, T status: on the table's current
    unit. Each checks the rules first and shows a refusal in the strip (no dialog)."""
    m = moves
    return [
        make_action(table, "Attack… (combat wizard)", "attackAction", m.attack_current, ("A",)),
        make_action(table, "Quick attack…", "quickAttackAction", m.quick_current, ("Q",)),
        make_action(table, "Sprint", "sprintAction", m.sprint_current, ("S",)),
        make_action(table, "Bail (ends Disrupted)", "bailAction", m.bail_current, ("B",)),
        make_action(
            table,
            "Bail, Over the Top (lands on its feet)",
            "bailOverTheTopAction",
            m.bail_over_the_top_current,
            ("Shift+B",),
        ),
        make_action(table, "Parry", "parryAction", m.parry_current, ("P",)),
        make_action(table, "Other…", "otherAction", m.other_current, ("O",)),
        make_action(table, "Close Combat attack…", "fightAction", m.fight_current, ("F",)),
        make_action(table, "Use a Counter…", "counterAction", m.counter_current, ("C",)),
        make_action(table, "Respond…", "respondAction", m.respond_current, ("R",)),
        make_action(table, "Status…", "statusAction", m.status_current, ("T",)),
    ]


#: The legend's keys for spending the Action: how, Over the Top, key, words.
SPENDS = (
    (ActionUse.SPRINT, False, "S", "Sprint"),
    (ActionUse.BAIL, False, "B", "Bail"),
    (ActionUse.BAIL, True, "Shift+B", "Bail Over the Top"),
    (ActionUse.PARRY, False, "P", "Parry"),
    (ActionUse.OTHER, False, "O", "other"),
)


def first_to_act(view: BattleView | None, units: Sequence[BattleUnitId]) -> BattleUnitId | None:
    """The first of ``units`` (in the table's order) that may attack or spend its Action on
    its own turn now; else the first whose turn it is; else the first unit (``None`` with no
    units). The rules are asked unit by unit until one may act."""
    if not units:
        return None
    if view is None or not view.in_progress or view.state.finished:
        return units[0]
    own = [u for u in units if is_own_turn(view.state, u)]
    for unit in own:
        if attack_refusal(view, unit) is None or any(
            spend_refusal(view, unit, how, over_the_top=ott) is None for how, ott, *_ in SPENDS
        ):
            return unit
    return own[0] if own else units[0]


def keys_legend(view: BattleView | None, unit_id: BattleUnitId | None) -> str:
    """The keys that work on the current unit now, as the strip shows them (the
    legend changes with what the selected unit may do)."""
    end = "Ctrl+E End Turn"
    if view is None or unit_id is None or not view.in_progress or view.state.finished:
        return "Select a unit to see what it may do"
    state = view.state
    name = view.setup.name(unit_id)
    own = is_own_turn(state, unit_id)
    moves: list[str] = []
    why_not = why_not_respond(state, unit_id) if not own else None
    if own or why_not is None:
        if attack_refusal(view, unit_id) is None:
            moves += ["Q quick attack", "A attack"]
        moves += [
            f"{key} {words.replace('Over the Top', view.setup.rules.over_the_top)}"
            for how, ott, key, words in SPENDS
            if spend_refusal(view, unit_id, how, over_the_top=ott) is None
        ]
        if fight_targets(view, unit_id, first_only=True)[0]:
            moves.append("F Close Combat")
    if counter_refusal(view, unit_id) is None:
        moves.append("C Counter")
    if own:
        head = f"{name}: " if moves else f"{name} has nothing left to do this turn: "
    elif why_not is None:
        head = f"{name} may respond: R menu · "
    else:
        head = f"{name} cannot respond ({why_not.rstrip('.')}): "
    return head + " · ".join([*moves, "T status", end])
