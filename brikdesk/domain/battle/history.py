"""An immutable battle log with undo and redo, keeping the state after every event.

Undo drops the last event and returns to the state before it (no recomputation); redo applies
the undone event again. Recording a new event forgets what was undone. At every step
``history.state == replay(history.setup, history.events)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from brikdesk.domain.battle.events import Event
from brikdesk.domain.battle.model import BattleSetup, BattleState
from brikdesk.domain.battle.rules import apply, initial_state
from brikdesk.errors import UserError


@dataclass(frozen=True)
class BattleHistory:
    setup: BattleSetup
    events: tuple[Event, ...] = ()
    states: tuple[BattleState, ...] = field(default=(), repr=False)
    undone: tuple[Event, ...] = ()  # the redo stack; the next to redo is last

    def __post_init__(self) -> None:
        if not self.states:
            object.__setattr__(self, "states", (initial_state(self.setup),))
        if len(self.states) != len(self.events) + 1:
            raise ValueError("a history needs one state per event plus the initial state")

    @classmethod
    def from_events(cls, setup: BattleSetup, events: Iterable[Event]) -> BattleHistory:
        states = [initial_state(setup)]
        evs = tuple(events)
        for event in evs:
            states.append(apply(setup, states[-1], event))
        return cls(setup, evs, tuple(states))

    @property
    def state(self) -> BattleState:
        return self.states[-1]

    @property
    def can_undo(self) -> bool:
        return bool(self.events)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def record(self, event: Event) -> BattleHistory:
        """Apply ``event`` (raising ``RuleViolation`` if illegal); clears the redo stack."""
        new = apply(self.setup, self.state, event)
        return BattleHistory(self.setup, self.events + (event,), self.states + (new,), ())

    def undo(self) -> BattleHistory:
        if not self.events:
            raise UserError("Nothing to undo.")
        return BattleHistory(
            self.setup, self.events[:-1], self.states[:-1], self.undone + (self.events[-1],)
        )

    def redo(self) -> BattleHistory:
        if not self.undone:
            raise UserError("Nothing to redo.")
        event = self.undone[-1]
        new = apply(self.setup, self.state, event)
        return BattleHistory(
            self.setup, self.events + (event,), self.states + (new,), self.undone[:-1]
        )
