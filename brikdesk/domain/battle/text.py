"""Plain words for the battle log and the End Turn message."""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.battle.events import (
    ActionSpent,
    ActionUse,
    AttackResolved,
    BattleFinished,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    FirstToAct,
    LongActionStarted,
    StatusChange,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    Use,
    WarningOverruled,
)
from brikdesk.domain.battle.model import ActionState, BattleSetup, BattleState, Status
from brikdesk.domain.ids import BattleUnitId, PlayerId


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _names(setup: BattleSetup, ids: tuple[BattleUnitId, ...] | frozenset[BattleUnitId]) -> str:
    labels = [setup.label(i) for i in ids]
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def _player(setup: BattleSetup, player_id: PlayerId) -> str:
    if player_id in setup.player_index:
        return setup.player(player_id).name
    return f"player {player_id}"


def _status_on(
    setup: BattleSetup, who: str, status: Status, with_ids: tuple[BattleUnitId, ...]
) -> str:
    others = _names(setup, with_ids)
    return {
        Status.HALF_SPEED: f"{who} moves at Half Speed",
        Status.STOPPED: f"{who} is Stopped",
        Status.DISRUPTED: f"{who} is Disrupted",
        Status.RECOVERING: f"{who} is recovering from Disruption (Half Speed)",
        Status.DEAD: f"{who} is dead",
        Status.IN_CLOSE_COMBAT: f"{who} is in Close Combat with {others}",
        Status.GRABBED: f"{who} is Grabbed by {others}",
        Status.GRABBING: f"{who} Grabs {others}",
        Status.MOM: f"{who} gains a MOM",
        Status.OUT: f"{who} leaves the battle",
        Status.BUSY: f"{who} is Busy",
        Status.STANDING_UP: f'{who} stands up (2" of Move)',
    }[status]


def _status_off(
    setup: BattleSetup, who: str, status: Status, with_ids: tuple[BattleUnitId, ...]
) -> str:
    others = _names(setup, with_ids)
    return {
        Status.HALF_SPEED: f"{who} is back to full speed",
        Status.STOPPED: f"{who} is no longer Stopped",
        Status.DISRUPTED: f"{who} is no longer Disrupted",
        Status.RECOVERING: f"{who} has recovered from Disruption",
        Status.DEAD: f"{who} is alive again",
        Status.IN_CLOSE_COMBAT: (
            f"{who} Disengages from {others}" if others else f"{who} Disengages from Close Combat"
        ),
        Status.GRABBED: (
            f"{who} is released by {others}" if others else f"{who} is released from every Grab"
        ),
        Status.GRABBING: (f"{who} releases {others}" if others else f"{who} releases every Grab"),
        Status.MOM: f"{who} loses its MOM",
        Status.OUT: f"{who} returns to the battle",
        Status.BUSY: f"{who} is no longer Busy",
        Status.STANDING_UP: f"{who} is up",
    }[status]


def _change(setup: BattleSetup, change: StatusChange) -> str:
    """What an attack did to a status. Parting from Close Combat is what came of it (a Bail
    out of the Strike, a KnockBack), not a Disengage the unit made (5.2 Disengaging)."""
    who = setup.label(change.unit)
    if change.status is Status.IN_CLOSE_COMBAT and not change.on:
        others = _names(setup, change.with_ids)
        return f"{who} is out of Close Combat" + (f" with {others}" if others else "")
    if change.on:
        return _status_on(setup, who, change.status, change.with_ids)
    return _status_off(setup, who, change.status, change.with_ids)


def describe(setup: BattleSetup, event: Event) -> str:
    """The event in plain words for the battle log: "Sir Bob (Red) Sprints"."""
    label = setup.label
    if isinstance(event, TurnEnded):
        return f"{_player(setup, event.player)} ends their turn (round {event.round})"
    if isinstance(event, ActionSpent):
        who = label(event.actor)
        on = f" {label(event.target)}" if event.target is not None else ""
        prefix = f"{who} responds: " if event.as_response else f"{who} "
        how = event.how
        if how is ActionUse.ATTACK:
            text = f"{prefix}attacks{on}"
        elif how is ActionUse.SPRINT:
            text = f"{prefix}Sprints" + (f": {event.note}" if event.note else "")
        elif how is ActionUse.BAIL:
            away = f" away from{on}" if on else ""
            text = (
                f"{prefix}Bails{away} and lands on its feet ({setup.rules.over_the_top})"
                if event.over_the_top
                else f"{prefix}Bails{away} and is Disrupted"
            )
        elif how is ActionUse.PARRY:
            text = f"{prefix}Parries{on}"
        else:
            text = f"{prefix}spends its Action" + (f" on{on}" if on else "")
            if event.note:
                text += f": {event.note}"
        return text
    if isinstance(event, CounterUsed):
        verb = "Counterstrikes" if event.how is CounterUse.COUNTERSTRIKE else "Parries"
        return f"{label(event.actor)} uses a Counter: {verb} {label(event.target)}"
    if isinstance(event, CloseCombatAttack):
        prefix = "responds: " if event.as_response else ""
        hands = f" ({_plural(event.hands, 'hand', 'hands')})" if event.hands != 1 else ""
        verb = {
            "strike": "Strikes",
            "grab": "tries to Grab",
            "shove": "Shoves",
            "charge": "Charges",
        }[event.maneuver.value]
        text = f"{label(event.actor)} {prefix}{verb} {label(event.target)}{hands}"
        if event.brawl is not None:
            text += f", joining the brawl of {label(event.brawl)}"
        if event.outcome:
            text += f" — resolved at the table: {event.outcome}"
        return text
    if isinstance(event, StatusSet):
        return _status_on(setup, label(event.actor), event.status, event.with_ids)
    if isinstance(event, StatusCleared):
        return _status_off(setup, label(event.actor), event.status, event.with_ids)
    if isinstance(event, UnitKilled):
        text = f"{label(event.target)} is killed"
        if event.actor is not None:
            text += f" by {label(event.actor)}"
        if event.cause:
            text += f" ({event.cause})"
        return text
    if isinstance(event, AttackResolved):
        return _describe_attack(setup, event)
    if isinstance(event, BattleFinished):
        return "The battle is over" + (f": {event.note}" if event.note else "")
    if isinstance(event, LongActionStarted):
        turns = " for its whole turn" if event.turns == 1 else f" for {event.turns} of its turns"
        return f"{label(event.actor)} is Busy {event.what}{turns} (Stopped, 4.2)"
    if isinstance(event, FirstToAct):
        head = (
            f"{label(event.actor)} and {label(event.target)} act at the same time"
            if event.simultaneous
            else f"{label(event.actor)} acts before {label(event.target)}"
        )
        return f"Who acts first: {head}" + (f" ({event.reason})" if event.reason else "")
    if isinstance(event, WarningOverruled):
        rule = f" ({event.rule})" if event.rule else ""
        return f"Warning overruled by the organizer for {label(event.actor)}: {event.warning}{rule}"
    raise TypeError(f"not a battle event: {event!r}")


def _describe_attack(setup: BattleSetup, e: AttackResolved) -> str:
    parts = []
    for p in e.participants:
        text = setup.label(p.unit)
        if p.use is Use.RESPONSE:
            text += " in response"
        elif p.use is Use.COUNTER:
            text += " with a Counter"
        parts.append(text)
    who = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    kind = "Close Combat " if e.close_combat else ""
    what = e.maneuver if e.maneuver != "attack" else f"{kind}attack"
    on = f" on {setup.label(e.target)}" if e.target is not None else ""
    text = f"{who}: {what}{on}"
    if e.passing_by:
        text += " (passing by)"
    if e.brawl is not None:
        text += f", joining the brawl of {setup.label(e.brawl)}"
    results = [_change(setup, c) for c in e.effects]
    results += [f"{setup.label(k)} is killed" for k in e.killed]
    text += ": " + "; ".join(results) if results else ": no effect"
    overruled = e.details.get("overruled")
    if isinstance(overruled, list) and overruled:
        text += (
            " [rule warning overruled by the organizer: "
            + "; ".join(str(w) for w in overruled)
            + "]"
        )
    return text


@dataclass(frozen=True)
class EndTurnSummary:
    """What End Turn changed, in numbers and plain words for the panel."""

    ended: str  # name of the player whose turn ended
    started: str  # name of the player whose turn begins
    round: int
    new_round: bool
    recharged: int  # the starting player's spent Actions that are Ready again
    recovering: int  # its units that got up from Disruption (Half Speed this turn)
    unstopped: int  # its units no longer Stopped
    holding: int  # the ending player's units that saved their Action and may respond
    full_speed: int  # the ending player's units back to full speed after recovering
    counters_reset: int  # units whose used Counters came back
    standing_up: int = 0  # 2005: its units that got up from Disruption, 2" of Move spent
    busy: int = 0  # its units whose turn goes on a full-turn or extended Action (4.2)
    #: What became of the ending player's MOMs (5.4), in words; "" when none had one.
    moms: str = ""

    @property
    def headline(self) -> str:
        """``"Red: 12 Actions recharged; 2 units recover from Disruption"``."""
        parts = []
        if self.recharged:
            parts.append(_plural(self.recharged, "Action", "Actions") + " recharged")
        if self.recovering:
            parts.append(
                f"{_plural(self.recovering, 'unit recovers', 'units recover')} from Disruption "
                "(Half Speed this turn)"
            )
        if self.standing_up:
            parts.append(
                f"{_plural(self.standing_up, 'unit stands', 'units stand')} up from Disruption "
                '(2" of Move)'
            )
        if self.busy:
            parts.append(f"{_plural(self.busy, 'unit is', 'units are')} Busy this turn")
        if self.unstopped:
            parts.append(f"{_plural(self.unstopped, 'unit', 'units')} no longer Stopped")
        return f"{self.started}: " + ("; ".join(parts) if parts else "turn begins")

    @property
    def lines(self) -> tuple[str, ...]:
        out = []
        if self.new_round:
            out.append(f"Round {self.round} begins")
        out.append(self.headline)
        after = []
        if self.holding:
            after.append(
                f"{_plural(self.holding, 'unit holds its', 'units hold their')} Action and may "
                "respond"
            )
        if self.full_speed:
            after.append(f"{_plural(self.full_speed, 'unit', 'units')} back to full speed")
        if after:
            out.append(f"{self.ended}: " + "; ".join(after))
        if self.moms:
            out.append(f"{self.ended}: {self.moms}")
        if self.counters_reset:
            out.append(f"Counters reset for {_plural(self.counters_reset, 'unit', 'units')}")
        return tuple(out)

    @property
    def text(self) -> str:
        return ". ".join(self.lines) + "."


def summarize_turn_change(
    setup: BattleSetup, before: BattleState, after: BattleState
) -> EndTurnSummary:
    """Compare the states on either side of an End Turn."""
    ended, started = before.active, after.active
    recharged = recovering = unstopped = holding = full_speed = counters_reset = 0
    standing_up = busy = 0
    for b, a in zip(before.units, after.units, strict=True):
        if not a.in_battle:
            continue
        if b.counters_used and not a.counters_used:
            counters_reset += 1
        if a.player_id == started:
            if b.action.spent and a.action is ActionState.READY:
                recharged += 1
            if a.recovering and not b.recovering:
                recovering += 1
            if a.standing_up and not b.standing_up:
                standing_up += 1
            if a.busy:
                busy += 1
            if b.stopped and not a.stopped:
                unstopped += 1
        if a.player_id == ended:
            if a.action is ActionState.HELD and not a.disrupted:
                holding += 1
            if b.recovering and not a.recovering:
                full_speed += 1
    return EndTurnSummary(
        ended=_player(setup, ended),
        started=_player(setup, started),
        round=after.round,
        new_round=after.round != before.round,
        recharged=recharged,
        recovering=recovering,
        unstopped=unstopped,
        holding=holding,
        full_speed=full_speed,
        counters_reset=counters_reset,
        standing_up=standing_up,
        busy=busy,
    )
