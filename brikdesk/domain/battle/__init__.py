"""The battle tracker's rules: players in turn order, Actions, responses, Counters, statuses.

A battle is an event log ("Battles are an event log", docs/conventions.md). ``BattleSetup`` (players
in turn order, mustered units) is fixed; ``initial_state(setup)`` and ``apply(setup, state, event)``
give the state after each event; ``replay(setup, events)`` is the state after all of them. Illegal
events raise ``RuleViolation`` (a ``UserError``) naming the reason and the rule section. The rules,
and the readings chosen where they are vague, are in the docstring of ``rules`` and in ``READINGS``.

- ``model``: ``BattleSetup``, ``BattleState``, ``UnitState``, ``ActionState``, ``Status``.
- ``events``: the events and their stored form (``to_payload`` / ``from_payload``).
- ``rules``: ``apply``, ``replay``, ``end_turn`` and the panel's query helpers.
- ``text``: ``describe`` (the battle log) and ``summarize_turn_change`` (the End Turn message).
- ``first``: ``who_acts_first`` (4.3, per edition) and its ``FirstToAct`` event.
- ``warnings``: ``rule_warnings``, what to check at the table before recording (overrulable).
- ``busy``: ``busy_until`` / ``busy_text``, when a unit's long Action (4.2) is done.
- ``history``: ``BattleHistory``, an immutable log with undo and redo.
- ``snapshot``: ``state_to_json`` / ``state_from_json``, an optional cache of a state.
"""

from brikdesk.domain.battle.events import (
    EVENT_KINDS,
    ActionSpent,
    ActionUse,
    AttackResolved,
    BattleFinished,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    EventFormatError,
    FirstToAct,
    LongActionStarted,
    Maneuver,
    Participant,
    StatusChange,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    Use,
    WarningOverruled,
    from_payload,
    to_record,
)
from brikdesk.domain.battle.history import BattleHistory
from brikdesk.domain.battle.model import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    ActionState,
    BattleSetup,
    BattleState,
    PlayerSetup,
    Status,
    UnitSetup,
    UnitState,
    counters_for_loadout,
)
from brikdesk.domain.battle.rules import (
    READINGS,
    RuleViolation,
    acted,
    apply,
    attack_use,
    attackers_left,
    automatic_hit_reasons,
    brawl_opponents,
    can_respond_now,
    close_combat_attack,
    close_combat_refusal,
    close_combat_sides,
    disengage,
    disengage_counterstrikers,
    disengage_refusal,
    end_turn,
    engagement,
    in_close_combat,
    initial_state,
    is_own_turn,
    outnumbered,
    outnumbered_modifier,
    replay,
    spend_action,
    why_not_respond,
)
from brikdesk.domain.battle.snapshot import state_from_json, state_to_json
from brikdesk.domain.battle.text import EndTurnSummary, describe, summarize_turn_change
from brikdesk.domain.battle.warnings import RuleWarning, rule_warnings

__all__ = [
    "EVENT_KINDS",
    "MAX_CLOSE_COMBAT_ATTACKERS",
    "READINGS",
    "ActionSpent",
    "ActionState",
    "ActionUse",
    "AttackResolved",
    "BattleFinished",
    "BattleHistory",
    "BattleSetup",
    "BattleState",
    "CloseCombatAttack",
    "CounterUse",
    "CounterUsed",
    "EndTurnSummary",
    "Event",
    "EventFormatError",
    "FirstToAct",
    "LongActionStarted",
    "Maneuver",
    "Participant",
    "PlayerSetup",
    "RuleViolation",
    "RuleWarning",
    "Status",
    "StatusChange",
    "StatusCleared",
    "StatusSet",
    "TurnEnded",
    "UnitKilled",
    "UnitSetup",
    "UnitState",
    "Use",
    "WarningOverruled",
    "acted",
    "apply",
    "attack_use",
    "attackers_left",
    "automatic_hit_reasons",
    "brawl_opponents",
    "can_respond_now",
    "close_combat_attack",
    "close_combat_sides",
    "counters_for_loadout",
    "describe",
    "end_turn",
    "disengage",
    "disengage_counterstrikers",
    "disengage_refusal",
    "engagement",
    "from_payload",
    "in_close_combat",
    "initial_state",
    "is_own_turn",
    "outnumbered",
    "outnumbered_modifier",
    "replay",
    "rule_warnings",
    "spend_action",
    "state_from_json",
    "state_to_json",
    "summarize_turn_change",
    "to_record",
    "why_not_respond",
    "close_combat_refusal",
]
