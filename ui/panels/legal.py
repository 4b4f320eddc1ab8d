"""What a unit may do now, asked of the rules before anything is asked of the user.

Every entry of the panel's menus and every key builds the event it would record and tries it
on the battle as it stands (``brikdesk.domain.battle.apply`` returns a new state and changes
nothing); a refusal is the rules' own ``RuleViolation`` with its reason and section. So a menu
entry the rules refuse is disabled with the reason as its tooltip, a key the rules refuse
shows the reason in the message strip, and a dialog (a target, a note) is opened only when
there is something legal to pick. Attacks are asked of the combat domain
(``brikdesk.domain.combat``: how the attacker may pay, ``use_options``), as the combat wizard
itself does. No rule is decided here.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Iterator

from brikdesk.domain.battle import (
    ActionUse,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    Maneuver,
    RuleViolation,
    Status,
    StatusSet,
    Use,
    apply,
    brawl_opponents,
    close_combat_refusal,
    is_own_turn,
    spend_action,
)
from brikdesk.domain.combat import (
    Choice,
    opening,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError
from brikdesk.services.tracker import BattleView
from ui.widgets.combat_context import combat_context

#: A stand-in note for trying "Other" before asking the user what the unit does.
TRIAL_NOTE = "(something else)"


def refusal(view: BattleView, events: Iterable[Event]) -> UserError | None:
    """Why the rules refuse ``events`` from the battle as it stands (``None``: they allow it)."""
    state = view.state
    try:
        for event in events:
            state = apply(view.setup, state, event)
    except UserError as exc:
        return exc
    return None


def first_allowed(
    view: BattleView, tries: Iterable[tuple[BattleUnitId, Event]], *, first_only: bool = False
) -> tuple[list[BattleUnitId], UserError | None]:
    """The keys of ``tries`` whose event the rules allow (``first_only``: the first of them,
    enough to know whether there is one), and the first refusal when none is."""
    allowed: list[BattleUnitId] = []
    first: UserError | None = None
    for key, event in tries:
        why = refusal(view, [event])
        if why is None:
            allowed.append(key)
            if first_only:
                break
        elif first is None:
            first = why
    return allowed, (first if not allowed else None)


def opponents(view: BattleView, unit_id: BattleUnitId) -> list[BattleUnitId]:
    """The units ``unit_id`` may fight in its Close Combat: its brawl's other side (and whom it
    fights directly), then those Disengaging from it this turn (``brawl_opponents``)."""
    return list(brawl_opponents(view.state, unit_id))


def enemies(view: BattleView, unit_id: BattleUnitId) -> list[BattleUnitId]:
    """Who it could fight: its Close Combat opponents first, then every other player's unit
    still in the battle."""
    return list(each_enemy(view, unit_id))


def each_enemy(view: BattleView, unit_id: BattleUnitId) -> Iterator[BattleUnitId]:
    """:func:`enemies` one by one, found as they are asked for (is there one?)."""
    state = view.state
    me = state.unit(unit_id)
    near = opponents(view, unit_id)
    yield from near
    for u in state.units:
        if u.player_id != me.player_id and u.in_battle and u.unit_id not in near:
            yield u.unit_id


def spend_targets(
    view: BattleView, unit_id: BattleUnitId, how: ActionUse, *, over_the_top: bool = False
) -> tuple[list[BattleUnitId | None], UserError | None]:
    """How the unit may spend its Action this way: ``[None]`` (no target needed), or the
    Close Combat opponents a response may name (5.2); with the refusal when there is none."""
    state = view.state
    note = TRIAL_NOTE if how is ActionUse.OTHER else ""
    others = opponents(view, unit_id)
    targets: list[BattleUnitId | None] = (
        [*others] if others and not is_own_turn(state, unit_id) else [None]
    )
    allowed: list[BattleUnitId | None] = []
    first: UserError | None = None
    for target in targets:
        why = refusal(
            view,
            [
                spend_action(
                    state, unit_id, how, target=target, over_the_top=over_the_top, note=note
                )
            ],
        )
        if why is None:
            allowed.append(target)
        elif first is None:
            first = why
    return allowed, (first if not allowed else None)


def spend_refusal(
    view: BattleView, unit_id: BattleUnitId, how: ActionUse, *, over_the_top: bool = False
) -> UserError | None:
    return spend_targets(view, unit_id, how, over_the_top=over_the_top)[1]


def fight_targets(
    view: BattleView,
    unit_id: BattleUnitId,
    maneuver: Maneuver = Maneuver.STRIKE,
    *,
    first_only: bool = False,
    exclude: Collection[BattleUnitId] = (),
) -> tuple[list[BattleUnitId], UserError | None]:
    """The units (not in ``exclude``) a Close Combat attack (this maneuver) may go against
    now; ``first_only``: the first of them (is there one?)."""
    own = is_own_turn(view.state, unit_id)
    targets = (t for t in each_enemy(view, unit_id) if t not in exclude)
    first = next(targets, None)
    if first is None:
        return [], UserError("There is nobody to fight.")
    # What refuses the attacker refuses it against everyone: said once, not tried 250 times.
    why = close_combat_refusal(view.setup, view.state, unit_id, maneuver, as_response=not own)
    if why is not None:
        return [], why
    # Built as they are tried: "is there one?" usually stops at the first enemy.
    return first_allowed(
        view,
        (
            (t, CloseCombatAttack(unit_id, t, maneuver, 1, as_response=not own))
            for t in itertools.chain((first,), targets)
        ),
        first_only=first_only,
    )


def counter_targets(
    view: BattleView,
    unit_id: BattleUnitId,
    how: CounterUse = CounterUse.COUNTERSTRIKE,
    *,
    first_only: bool = False,
) -> tuple[list[BattleUnitId], UserError | None]:
    """The opponents the unit may use a Counter on now (5.2); out of Close Combat the rules'
    refusal says why there are none."""
    candidates = opponents(view, unit_id) or list(itertools.islice(each_enemy(view, unit_id), 1))
    if not candidates:
        return [], UserError("There is nobody to fight.")
    return first_allowed(
        view, [(t, CounterUsed(unit_id, t, how)) for t in candidates], first_only=first_only
    )


def counter_refusal(view: BattleView, unit_id: BattleUnitId) -> UserError | None:
    """Why the unit cannot use any Counter now (``None``: it can use one)."""
    allowed, why = counter_targets(view, unit_id, CounterUse.COUNTERSTRIKE, first_only=True)
    if allowed:
        return None
    parry, _ = counter_targets(view, unit_id, CounterUse.PARRY, first_only=True)
    return None if parry else why


def join_targets(
    view: BattleView, unit_id: BattleUnitId, *, first_only: bool = False
) -> tuple[list[BattleUnitId], UserError | None]:
    """The units it may be put in Close Combat with (a correction by the organizer)."""
    tries = [
        (t, StatusSet(unit_id, Status.IN_CLOSE_COMBAT, (t,)))
        for t in enemies(view, unit_id)
        if t not in view.state.unit(unit_id).close_combat
    ]
    if not tries:
        return [], UserError("There is nobody to put it in Close Combat with.")
    return first_allowed(view, tries, first_only=first_only)


def attack_refusal(view: BattleView, unit_id: BattleUnitId) -> str | None:
    """Why the unit cannot attack at all now, as the combat wizard would say it: neither its
    Action (or a held Action, in response) nor a Counter may pay for its first attack."""
    options: tuple[Choice[Use], ...] = opening(combat_context(view), unit_id)[1]
    if any(c.allowed for c in options):
        return None
    want = Use.ACTION if is_own_turn(view.state, unit_id) else Use.RESPONSE
    return next((c.problem for c in options if c.value is want), options[0].problem)


def reason(error: UserError) -> str:
    """A refusal in a tooltip: the reason and its rule."""
    if isinstance(error, RuleViolation):
        return error.reason + (f" ({error.rule})" if error.rule else "")
    return str(error)
