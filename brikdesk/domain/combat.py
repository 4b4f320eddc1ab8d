"""The combat wizard's draft: everything its five pages choose, and the previews they show.

Design convention 8: the wizard's pages fill one frozen :class:`AttackDraft`; every page
recomputes its preview from the draft with the pure functions here, and nothing is written
until Finish, which stores :func:`final_events` in one transaction. Back keeps the draft as it
is; Cancel throws it away.

The pages and their functions:

1. **Attack**: :func:`default_draft`, :func:`weapon_options`, :func:`kind_options`,
   :func:`target_options`, :func:`use_options`, :func:`joiner_options`, :func:`attack_problem`
   (illegal choices are explained, never hidden: the battle rules engine is asked with a trial
   event, so the wizard refuses exactly what the tracker would).
2. **Range**: :func:`range_preview` (weapon Range, Height Advantage, effective Range, Out of
   Range penalties, Firing Blind; reach for Close Combat).
3. **Action Roll**: :func:`action_preview` (every modifier with its rule, the judgements the
   organizer makes, the number needed on the die, exact odds), :func:`reaction_options`,
   :func:`benny_options`, and :func:`resolve_action`, which replays the dice typed so far (or
   rolled virtually and kept as faces) and says which die it needs next (``NeedDie``) or which
   Over the Top Benny waits for a decision.
4. **Damage**: :func:`damage_preview` (dice, modifiers, Deflection, Armor to beat, exact kill
   chance and distribution) and :func:`resolve_damage` (Damage vs Armor, Combined Attacks,
   Explosions, Missed Shots, Shoves, Grabs, KnockBack, Collisions).
5. **Result**: :func:`result_summary` (one paragraph in plain words, what will change, every
   step) and :func:`final_events` (the events Finish records).

Every die, typed or virtual, is stored in the draft as a face, so each replay is exact and
every preview is a pure function of the draft. Readings where the wizard had to choose are in
:data:`READINGS`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any

from brikdesk.domain.actions import (
    BARE_HANDS_PARRY,
    BailResult,
    CollisionResult,
    GrabResult,
    Incoming,
    KnockBackResult,
    ParryItem,
    ParryResult,
    ShoveResult,
    apply_bail_benny,
    apply_parry_benny,
    collide,
    grab,
    parry_use,
    roll_bail,
    roll_parry,
    shove,
)
from brikdesk.domain.attack import (
    BARE_HANDS,
    Armor,
    Attack,
    Attacker,
    AttackResult,
    AttackRoll,
    AutomaticHit,
    DamageResult,
    DamageRoll,
    ExplosionResult,
    Maneuver,
    MissedShot,
    RangeCheck,
    SizeClass,
    Target,
    Weapon,
    action_modifiers,
    apply_benny,
    apply_damage,
    automatic_hit,
    charging_weapon,
    check_range,
    damage_roll,
    explode,
    inches_text,
    missed_shot,
    resolve_missed_shot,
    roll_attack_action,
    target_size_modifiers,
    to_inches,
)
from brikdesk.domain.battle import (
    ActionSpent,
    ActionState,
    ActionUse,
    AttackResolved,
    BattleSetup,
    BattleState,
    Event,
    Participant,
    Status,
    StatusChange,
    Use,
    apply,
    attack_use,
    can_respond_now,
    outnumbered_modifier,
    why_not_respond,
)
from brikdesk.domain.catalog import Catalog, CatalogItem
from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.distributions import Dist
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.odds import BENNY_POLICY, AttackOdds, attack_odds, expr_distribution
from brikdesk.domain.rolling import BennyUse, DieRoll, NeedDie, Role, TypedDice
from brikdesk.domain.roster import UnitSpec, UnitStats
from brikdesk.errors import UserError

__all__ = [
    "READINGS", "ActionPreview", "attacker_options", "ActionStage", "AttackDraft", "AttackKind", "BennyOption",
    "Choice", "CombatContext", "DamagePreview", "DamageStage", "Fighter", "Joiner",
    "ModifierRow", "ObjectTarget", "RangePreview", "Reaction", "ResultSummary", "Striker",
    "context_from", "event_text", "parry_preview", "target_of", "weapon_of",
    "StrikerPreview", "action_preview", "attack_problem", "benny_options", "combined_kill",
    "best_use", "damage_preview", "default_draft", "final_events", "joiner_options", "kind_options",
    "needed_text", "range_preview", "reaction_options", "resolve_action", "resolve_damage",
    "result_summary", "size_options", "strikers", "target_options", "use_options",
    "weapon_options",
]

#: Readings the wizard chose where the rules leave it open: section -> text to show.
READINGS: dict[str, str] = {
    "5.1 Combined Attacks": (
        "Every participant makes its own Action Roll against the same target; the Damage of "
        "those that hit is added and compared with the Armor once. A Missed Shot is followed "
        "for the first attacker only; the organizer places the others' by hand."),
    "5.2 Parrying": (
        "The target Parries the first attacker's attack, after its Action Roll hits (a Parry "
        "of a miss is pointless); a successful Shield Parry Deflects that attacker's Damage, a "
        "successful Parry of a Grab or Shove cancels it. The Parry uses a hand and spends the "
        "target's Action if it was unspent (the tracker's reading)."),
    "4.3 Bailing": (
        "A Bail is declared before the attack is rolled: the target rolls its dive first. When "
        "the organizer judges that the dive takes it out of the attack, the attack is avoided "
        "(no Action Roll; the attacker's Action is still spent); otherwise it is rolled as "
        "usual. The Bailer ends Disrupted unless a Benny lands it on its feet."),
    "5.4 Charge": (
        "A MOM is spent on the Damage of a Charge that hits with a Charging Weapon, or on a "
        "Collision when the Charge misses and the target is in the charger's path; a MOM not "
        "spent is kept. Participants joining a Charge add their Damage but spend no MOM."),
    "3.2 Explosives": (
        "Every other unit the organizer marks as inside the blast is hit by the same Damage "
        "roll with all three sections inside it; a survivor is Knocked Back and Disrupted."),
    "5.2 Hands": (
        "A participant's Strike, Charge or Grab uses one of its Counters (one hand, or the two "
        "hands on a Two-Handed Weapon, which is one Counter); a Shove uses both hands (one with "
        "a Shield), at most the unit's Counters."),
    "Parting": (
        "A Close Combat maneuver counts toward the target's three attackers and engages the "
        "two, except where they end apart: a Shove or a Collision that Knocks the target "
        "Back, a Bail that dives out of the attack, a Charge that misses and runs on. The 1\" "
        "KnockBack of a Heavy or Two-Handed weapon leaves them engaged (Disengage by hand "
        "if the table sees it otherwise)."),
    "Dice": (
        "Every die is kept as the face it showed, typed from the physical dice or rolled by "
        "BrikDesk, in the order the rules ask for them; the wizard replays them on every "
        "change, so going Back and changing a judgement recomputes the same roll."),
}

#: Attack kinds that are Close Combat maneuvers.
_CLOSE = frozenset({"strike", "charge", "shove", "grab"})


class AttackKind(str, Enum):
    """The kind of attack chosen on page 1."""

    RANGED = "ranged"
    THROWN = "thrown"
    STRIKE = "strike"
    CHARGE = "charge"
    SHOVE = "shove"
    GRAB = "grab"

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]

    @property
    def close_combat(self) -> bool:
        return self.value in _CLOSE

    @property
    def maneuver(self) -> Maneuver:
        return _MANEUVERS[self]

    @property
    def event_name(self) -> str:
        """The ``maneuver`` word of the battle log's ``AttackResolved`` ("ranged attack")."""
        return {AttackKind.RANGED: "ranged attack",
                AttackKind.THROWN: "thrown attack"}.get(self, self.value)

    @property
    def incoming(self) -> Incoming:
        """What a Parry of this attack Parries (5.2)."""
        return _INCOMING[self]


_KIND_LABELS = {
    AttackKind.RANGED: "Ranged attack", AttackKind.THROWN: "Thrown",
    AttackKind.STRIKE: "Close Combat Strike", AttackKind.CHARGE: "Charge",
    AttackKind.SHOVE: "Shove", AttackKind.GRAB: "Grab",
}
_MANEUVERS = {
    AttackKind.RANGED: Maneuver.RANGED, AttackKind.THROWN: Maneuver.RANGED,
    AttackKind.STRIKE: Maneuver.STRIKE, AttackKind.CHARGE: Maneuver.CHARGE,
    AttackKind.SHOVE: Maneuver.SHOVE, AttackKind.GRAB: Maneuver.GRAB,
}
_INCOMING = {
    AttackKind.RANGED: Incoming.DAMAGE, AttackKind.THROWN: Incoming.DAMAGE,
    AttackKind.STRIKE: Incoming.STRIKE, AttackKind.CHARGE: Incoming.CHARGE,
    AttackKind.SHOVE: Incoming.SHOVE, AttackKind.GRAB: Incoming.GRAB,
}


class Reaction(str, Enum):
    """What the target does about the attack (page 3)."""

    NONE = "none"
    PARRY = "parry"
    BAIL = "bail"

    def __str__(self) -> str:
        return self.value


# --------------------------------------------------------------------------------------------
# Who is in the battle


@dataclass(frozen=True)
class Fighter:
    """A unit of the battle as the wizard needs it: stats and what it holds, wears, carries."""

    unit_id: int
    name: str
    player_id: int
    action_die: int = 6
    armor: str = "4"
    over_the_top: bool = True
    deflection: int = 0
    held: tuple[CatalogItem, ...] = ()
    worn: tuple[CatalogItem, ...] = ()
    carried: tuple[CatalogItem, ...] = ()
    minifig: bool = True

    @classmethod
    def from_spec(cls, unit_id: int, name: str, player_id: int, spec: UnitSpec,
                  stats: UnitStats, catalog: Catalog, *, minifig: bool = True) -> Fighter:
        def items(keys: Sequence[str | None]) -> tuple[CatalogItem, ...]:
            return tuple(it for k in keys if k is not None
                         for it in [catalog.get_item(k)] if it is not None)

        lo = spec.loadout
        return cls(unit_id, name, player_id, stats.action_die, stats.armor,
                   stats.over_the_top, stats.deflection, items(lo.hands), items(lo.worn),
                   items(lo.carried), minifig)

    @property
    def attacker(self) -> Attacker:
        return Attacker(self.name, self.action_die, self.over_the_top)

    @property
    def items(self) -> tuple[CatalogItem, ...]:
        """What it could attack or Parry with: held first, then carried."""
        return self.held + self.carried


@dataclass(frozen=True, eq=False)
class CombatContext:
    """The battle as the wizard opened it: rules setup and state, units, the catalog."""

    setup: BattleSetup
    state: BattleState
    catalog: Catalog
    fighters: tuple[Fighter, ...]

    @cached_property
    def by_id(self) -> dict[int, Fighter]:
        return {f.unit_id: f for f in self.fighters}

    def fighter(self, unit_id: int) -> Fighter:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise UserError(f"No unit {unit_id} in this battle.", field="unit") from None

    def side(self, unit_id: int) -> str:
        return self.setup.player(self.fighter(unit_id).player_id).side

    def item(self, key: str | None) -> CatalogItem | None:
        return None if key is None else self.catalog.get_item(key)


# --------------------------------------------------------------------------------------------
# The draft


@dataclass(frozen=True)
class ObjectTarget:
    """An inanimate target chosen on page 1: its name, Armor (a number or dice) and Size."""

    name: str = "the object"
    armor: str = "1"
    size: SizeClass = SizeClass.STUD_1X1
    size_inches: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        Armor.parse(self.armor)  # refuse Armor that is neither a number nor dice
        object.__setattr__(self, "size_inches", to_inches(self.size_inches, "Size"))
        if not self.name.strip():
            raise UserError("name the object", field="object_name")


@dataclass(frozen=True)
class Joiner:
    """Another unit joining a Combined Attack, with its own weapon (and distance, if Ranged)."""

    unit_id: int
    item_key: str | None = None
    distance: Fraction | None = None
    altitude: Fraction = Fraction(0)
    use: Use | None = None


@dataclass(frozen=True)
class AttackDraft:
    """Everything the wizard's pages choose. ``None`` in a judgement means "as the battle state
    or the target says" (a Disrupted target is Disrupted unless the organizer says otherwise).

    Faces of the dice are kept per stage: ``action_faces`` (Bail, Action Rolls, Benny dice,
    Parry) and ``damage_faces`` (Damage, Armor, Missed Shot, Collision); ``bennies`` says how
    each Over the Top Benny is spent, keyed ``"attack:<unit id>"``, ``"parry"`` or ``"bail"``.
    """

    attacker_id: int
    item_key: str | None = None
    kind: AttackKind = AttackKind.STRIKE
    target_id: int | None = None
    target_object: ObjectTarget | None = None
    use: Use | None = None
    joiners: tuple[Joiner, ...] = ()
    improvised: bool = False
    # page 2
    distance: Fraction | None = None
    altitude: Fraction = Fraction(0)
    in_reach: bool = True
    firing_blind: bool = False
    has_mom: bool | None = None
    both_hands: bool = True
    from_above: bool = False
    # page 3
    size: SizeClass | None = None
    sections_visible: int = 3
    visible_size: Fraction | None = None
    target_disrupted: bool | None = None
    outnumbered: bool | None = None
    attacker_engaged: bool | None = None
    reaction: Reaction = Reaction.NONE
    parry_item: str | None = None
    bail_clears: bool = True
    action_faces: tuple[int, ...] = ()
    bennies: tuple[tuple[str, BennyUse], ...] = ()
    embellishment: str = ""
    # page 4
    spend_mom: bool = True
    blast_ids: tuple[int, ...] = ()
    missed_strikes: int | None = None
    missed_distance: Fraction | None = None
    collide: bool = True
    obstacle: Fraction | None = None
    damage_faces: tuple[int, ...] = ()

    def but(self, **changes: Any) -> AttackDraft:
        """A copy with ``changes`` (``dataclasses.replace``)."""
        return replace(self, **changes)

    def benny(self, key: str) -> BennyUse | None:
        for k, v in self.bennies:
            if k == key:
                return v
        return None

    def with_benny(self, key: str, use: BennyUse) -> AttackDraft:
        others = tuple((k, v) for k, v in self.bennies if k != key)
        return replace(self, bennies=others + ((key, use),))

    @property
    def target_is_object(self) -> bool:
        return self.target_id is None


# --------------------------------------------------------------------------------------------
# Page 1: choices and what the rules say about them


@dataclass(frozen=True)
class Choice:
    """One entry of a selector: its value, label, and why it can't be chosen (``None``: it can)."""

    value: Any
    label: str
    problem: str | None = None

    @property
    def allowed(self) -> bool:
        return self.problem is None


def _can_use_kind(item: CatalogItem | None, kind: AttackKind) -> str | None:
    """Why ``item`` can't make an attack of ``kind`` (``None``: it can)."""
    name = item.name if item is not None else "Bare hands"
    if kind in (AttackKind.SHOVE, AttackKind.GRAB):
        if item is not None and item.hands == 0 and item.worn:
            return f"{name} is worn, not held"
        return None
    if item is None or item.key == "bare-hands":
        return ("Bare Hands do no Damage: Shove or Grab with them (rules facts §3)"
                if kind in (AttackKind.STRIKE, AttackKind.CHARGE) else
                "Bare Hands can't shoot or throw")
    if kind is AttackKind.RANGED:
        return None if item.range_inches is not None else f"{name} has no Range"
    if kind is AttackKind.THROWN:
        if item.as_object:
            return f"pick the object thrown instead of the {name} row"
        if item.thrown_range_dice and item.thrown_range is None:
            return (f"this edition rolls how far a {name} is thrown "
                    f"({item.thrown_range_dice}\"): use a house rule with a Range")
        if item.thrown_range is not None:
            return None
        if item.range_inches is not None:
            return f"{name} is a Ranged weapon: shoot it"
        if item.two_handed:
            return f"a {name} is Two-Handed and can't be thrown"
        if not item.deals_damage:
            return f"a {name} does no Damage when thrown"
        return None  # a Thrown Object: 3" with its Close Combat Use and Damage
    # Strike or Charge
    if not item.close_combat:
        return f"{name} is not a Close Combat weapon"
    if not item.deals_damage:
        return f"{name} does no Damage: Parry or Shove with it"
    return None


def attacker_options(ctx: CombatContext) -> tuple[Choice, ...]:
    """Every unit as a possible attacker, with why it can't attack now (Disrupted, dead, its
    Action spent with no response or Counter left)."""
    state = ctx.state
    out = []
    for f in ctx.fighters:
        u = state.unit(f.unit_id)
        own = u.player_id == state.active
        counter = bool(u.close_combat) and u.counters_left > 0
        problem = None
        if u.dead:
            problem = f"{f.name} is dead"
        elif u.out:
            problem = f"{f.name} is out of the battle"
        elif u.disrupted:
            problem = f"{f.name} is Disrupted and can't act until its next turn (4.1)"
        elif own and u.action is not ActionState.READY and not counter:
            problem = f"{f.name} has already spent its Action this turn (4.2)"
        elif not own and not can_respond_now(state, f.unit_id) and not counter:
            problem = (why_not_respond(state, f.unit_id) or "it can't respond now").rstrip(".")
        player = ctx.setup.player(f.player_id).name
        out.append(Choice(f.unit_id, f"{f.name} ({player})", problem))
    return tuple(out)


def kind_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice, ...]:
    """Every kind of attack, each with why the chosen weapon can't make it."""
    item = ctx.item(draft.item_key)
    return tuple(Choice(k, k.label, _can_use_kind(item, k)) for k in AttackKind)


def weapon_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice, ...]:
    """The attacker's held and carried items and bare hands (any catalog item when
    ``draft.improvised``), each with why it can't make the chosen kind of attack."""
    fighter = ctx.fighter(draft.attacker_id)
    seen: set[str] = set()
    out: list[Choice] = []
    items = list(ctx.catalog.items) if draft.improvised else list(fighter.items)
    for it in items:
        if it.key in seen or it.key == "bare-hands" or it.worn:
            continue
        seen.add(it.key)
        where = "" if draft.improvised else (" (in hand)" if it in fighter.held else " (carried)")
        out.append(Choice(it.key, f"{it.name}{where}: {_profile(it)}",
                          _can_use_kind(it, draft.kind)))
    out.append(Choice(None, "Bare hands: Use 0, Shove or Grab", _can_use_kind(None, draft.kind)))
    return tuple(out)


def _profile(it: CatalogItem) -> str:
    parts = [f"Use {it.use_text()}", it.range_text()]
    if it.damage:
        parts.append(it.damage)
    return ", ".join(parts)


def target_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice, ...]:
    """Units of the battle (enemies first), each with why it can't be attacked."""
    me = ctx.fighter(draft.attacker_id)
    my_side = ctx.side(me.unit_id)
    out: list[tuple[int, Choice]] = []
    for f in ctx.fighters:
        if f.unit_id == me.unit_id:
            continue
        u = ctx.state.unit(f.unit_id)
        player = ctx.setup.player(f.player_id).name
        problem = None
        if u.dead:
            problem = f"{f.name} is already dead"
        elif u.out:
            problem = f"{f.name} is out of the battle"
        statuses = ", ".join(s.label for s in u.statuses)
        label = f"{f.name} ({player})" + (f": {statuses}" if statuses else "")
        order = 0 if ctx.side(f.unit_id) != my_side else 1
        out.append((order + (2 if problem else 0), Choice(f.unit_id, label, problem)))
    out.sort(key=lambda pair: pair[0])
    return tuple(c for _o, c in out)


def _attack_event(draft: AttackDraft, ctx: CombatContext, participants: Sequence[Participant]
                  ) -> AttackResolved:
    close = draft.kind.close_combat and draft.target_id is not None
    return AttackResolved(actor=participants[0].unit, target=draft.target_id,
                          participants=tuple(participants), close_combat=close,
                          maneuver=draft.kind.event_name)


def _trial(ctx: CombatContext, events: Sequence[Event]) -> str | None:
    """What the battle rules say against these events from the current state (None: legal)."""
    state = ctx.state
    try:
        for e in events:
            state = apply(ctx.setup, state, e)
    except UserError as exc:
        return str(exc)
    return None


def _default_use(ctx: CombatContext, unit_id: int) -> Use:
    return attack_use(ctx.state, unit_id)


def _hands(draft: AttackDraft, ctx: CombatContext, unit_id: int, item_key: str | None) -> int:
    """Counters (hands) a participant uses (5.2; READINGS "5.2 Hands"): a Strike, Charge or
    Grab 1 (a Two-Handed Weapon is one Counter); a Shove 2, or 1 with a Shield, and never more
    than the unit's Counters (a pike held in both hands is one)."""
    item = ctx.item(item_key)
    if draft.kind is AttackKind.SHOVE:
        if item is not None and item.shield:
            return 1
        return max(1, min(2, ctx.setup.unit(unit_id).counters))
    return 1


def _participants(draft: AttackDraft, ctx: CombatContext) -> tuple[Participant, ...]:
    first = Participant(draft.attacker_id, draft.use or _default_use(ctx, draft.attacker_id),
                        _hands(draft, ctx, draft.attacker_id, draft.item_key))
    rest = tuple(Participant(j.unit_id, j.use or _default_use(ctx, j.unit_id),
                             _hands(draft, ctx, j.unit_id, j.item_key)) for j in draft.joiners)
    return (first,) + rest


def use_options(ctx: CombatContext, draft: AttackDraft, unit_id: int | None = None
                ) -> tuple[Choice, ...]:
    """How a participant may pay: its Action, a held Action in response, a Counter; each with
    the rules engine's reason when it can't."""
    uid = draft.attacker_id if unit_id is None else unit_id
    labels = {Use.ACTION: "its Action (own turn)", Use.RESPONSE: "its held Action, in response",
              Use.COUNTER: "a Counter (Close Combat)"}
    out = []
    for use in (Use.ACTION, Use.RESPONSE, Use.COUNTER):
        hands = _hands(draft, ctx, uid, draft.item_key if uid == draft.attacker_id else
                       next((j.item_key for j in draft.joiners if j.unit_id == uid), None))
        problem = _trial(ctx, [_attack_event(draft, ctx, [Participant(uid, use, hands)])])
        out.append(Choice(use, labels[use], problem))
    return tuple(out)


def attack_problem(ctx: CombatContext, draft: AttackDraft) -> str | None:
    """Why the attack as chosen on page 1 can't be made (``None``: it can)."""
    me = ctx.fighter(draft.attacker_id)
    if draft.target_id is None and draft.target_object is None:
        return "choose a target: a unit or an inanimate object"
    if draft.target_id == draft.attacker_id:
        return f"{me.name} can't attack himself"
    problem = _can_use_kind(ctx.item(draft.item_key), draft.kind)
    if problem:
        return problem
    for j in draft.joiners:
        problem = _can_use_kind(ctx.item(j.item_key), draft.kind)
        if problem:
            return f"{ctx.fighter(j.unit_id).name}: {problem}"
    return _trial(ctx, [_attack_event(draft, ctx, _participants(draft, ctx))])


def joiner_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice, ...]:
    """The attacker's side's units that could join a Combined Attack, each with the rules
    engine's reason when it can't (Disrupted, Action spent, a fourth Close Combat attacker on
    one minifig...)."""
    out = []
    side = ctx.side(draft.attacker_id)
    bodily = draft.kind in (AttackKind.SHOVE, AttackKind.GRAB)
    for f in ctx.fighters:
        if f.unit_id in (draft.attacker_id, draft.target_id) or ctx.side(f.unit_id) != side:
            continue
        item_key = _default_item(f, draft.kind)
        if item_key is None and not bodily:
            problem: str | None = f"{f.name} has nothing to make a {draft.kind.label} with"
        else:
            trial = draft.but(joiners=tuple(j for j in draft.joiners if j.unit_id != f.unit_id)
                              + (Joiner(f.unit_id, item_key),))
            problem = _trial(ctx, [_attack_event(trial, ctx, _participants(trial, ctx))])
        out.append(Choice(f.unit_id, f"{f.name} ({ctx.setup.player(f.player_id).name})",
                          problem))
    return tuple(out)


def _default_item(f: Fighter, kind: AttackKind) -> str | None:
    """The first damaging item the unit can make this kind of attack with (``None``: bare
    hands, or nothing)."""
    for it in f.items:
        if _can_use_kind(it, kind) is None and it.deals_damage:
            return it.key
    return None


def default_draft(ctx: CombatContext, attacker_id: int) -> AttackDraft:
    """The draft the wizard opens with: the attacker's first damaging weapon (a Ranged one as a
    Ranged attack, a Close Combat one as a Strike, an Explosive thrown), bare hands Shoving if
    it has none, the first enemy in Close Combat with it or else the first enemy alive."""
    me = ctx.fighter(attacker_id)
    item_key, kind = None, AttackKind.SHOVE
    for it in me.held + me.carried:
        if not it.deals_damage:
            continue
        for k in (AttackKind.RANGED, AttackKind.STRIKE, AttackKind.THROWN):
            if _can_use_kind(it, k) is None:
                item_key, kind = it.key, k
                break
        if item_key is not None:
            break
    unit = ctx.state.unit(attacker_id)
    target = None
    candidates = [c for c in target_options(ctx, AttackDraft(attacker_id)) if c.allowed
                  and ctx.side(c.value) != ctx.side(attacker_id)]
    for c in candidates:
        if c.value in unit.close_combat:
            target = c.value
            break
    if target is None and candidates:
        target = candidates[0].value
    if unit.close_combat and kind in (AttackKind.RANGED, AttackKind.THROWN):
        # 5.3: no Ranged attacks from Close Combat; strike with a Close Combat weapon instead.
        for it in me.items:
            if _can_use_kind(it, AttackKind.STRIKE) is None:
                item_key, kind = it.key, AttackKind.STRIKE
                break
    draft = AttackDraft(attacker_id, item_key, kind, target,
                        None if target is not None else ObjectTarget())
    return draft.but(use=best_use(ctx, draft))


def best_use(ctx: CombatContext, draft: AttackDraft) -> Use | None:
    """How the attacker pays by default: ``None`` (its Action, or its held Action in
    response) when the rules allow it, else a Counter if one is allowed (a fighter in Close
    Combat whose Action is spent)."""
    options = {c.value: c for c in use_options(ctx, draft)}
    default = _default_use(ctx, draft.attacker_id)
    if options[default].allowed or not options[Use.COUNTER].allowed:
        return None
    return Use.COUNTER


# --------------------------------------------------------------------------------------------
# Building the domain's Attack for each participant


@dataclass(frozen=True)
class Striker:
    """One participant as the rules resolve it: who, with which weapon, how it pays."""

    fighter: Fighter
    item: CatalogItem | None
    attack: Attack
    use: Use
    hands: int

    @property
    def key(self) -> str:
        return f"attack:{self.fighter.unit_id}"


def target_of(draft: AttackDraft, ctx: CombatContext, *, unit_id: int | None = None,
              sections: int | None = None) -> Target:
    """The domain ``Target`` of the attack (or of another unit, for a blast or Missed Shot)."""
    uid = draft.target_id if unit_id is None else unit_id
    main = unit_id is None
    if uid is None:
        obj = draft.target_object or ObjectTarget()
        size = draft.size or obj.size
        visible = draft.visible_size if draft.visible_size is not None else obj.size_inches
        if size is SizeClass.MINIFIG:
            size = SizeClass.BRICK_2X4
        return Target(obj.name, Armor.parse(obj.armor), size, 3, visible, inanimate=True)
    f = ctx.fighter(uid)
    u = ctx.state.unit(uid)
    size = (draft.size or SizeClass.MINIFIG) if main else SizeClass.MINIFIG
    n = (draft.sections_visible if main else 3) if sections is None else sections
    visible = (draft.visible_size or Fraction(0)) if main else Fraction(0)
    disrupted = (u.disrupted if draft.target_disrupted is None else draft.target_disrupted) \
        if main else u.disrupted
    return Target(f.name, Armor.parse(f.armor), size, n, visible, inanimate=False,
                  disrupted=disrupted, deflection=f.deflection)


def weapon_of(item: CatalogItem | None, kind: AttackKind) -> Weapon:
    if kind in (AttackKind.SHOVE, AttackKind.GRAB) or item is None:
        return BARE_HANDS
    return Weapon.from_item(item, thrown=kind is AttackKind.THROWN)


def _has_mom(draft: AttackDraft, ctx: CombatContext) -> bool:
    return ctx.state.unit(draft.attacker_id).mom if draft.has_mom is None else draft.has_mom


def _outnumbered(draft: AttackDraft, ctx: CombatContext, unit_id: int) -> bool:
    if unit_id == draft.attacker_id and draft.outnumbered is not None:
        return draft.outnumbered
    return outnumbered_modifier(ctx.state, unit_id) is not None


def _engaged(draft: AttackDraft, ctx: CombatContext) -> bool:
    if draft.attacker_engaged is not None:
        return draft.attacker_engaged
    return bool(ctx.state.unit(draft.attacker_id).close_combat)


def strikers(draft: AttackDraft, ctx: CombatContext) -> tuple[Striker, ...]:
    """Every participant's ``Attack``; raises ``UserError`` (with ``field``) for what is missing
    (a distance not measured yet, a weapon that can't make this attack)."""
    problem = _can_use_kind(ctx.item(draft.item_key), draft.kind)
    if problem:
        raise UserError(problem, field="weapon")
    target = target_of(draft, ctx)
    parts = _participants(draft, ctx)
    out = []
    grabbed = _in_grab(ctx, draft.attacker_id) or (
        draft.target_id is not None and _in_grab(ctx, draft.target_id))
    for i, p in enumerate(parts):
        f = ctx.fighter(p.unit)
        if i == 0:
            item_key, distance, altitude = draft.item_key, draft.distance, draft.altitude
        else:
            j = draft.joiners[i - 1]
            item_key, distance, altitude = j.item_key, j.distance, j.altitude
        item = ctx.item(item_key)
        problem = _can_use_kind(item, draft.kind)
        if problem:
            raise UserError(f"{f.name}: {problem}", field="weapon")
        ranged = not draft.kind.close_combat
        if ranged and distance is None:
            raise UserError(f"measure the distance from {f.name}'s weapon to {target.name} "
                            "(5.1 Checking Range)", field="distance")
        attack = Attack(
            f.attacker, weapon_of(item, draft.kind), target, draft.kind.maneuver,
            distance=distance if ranged else None,
            in_reach=None if ranged else draft.in_reach,
            altitude=altitude if ranged else Fraction(0),
            firing_blind=draft.firing_blind and ranged and i == 0,
            outnumbered=(not ranged) and _outnumbered(draft, ctx, p.unit),
            attacker_engaged=_engaged(draft, ctx) if i == 0 else bool(
                ctx.state.unit(p.unit).close_combat),
            grab_involved=grabbed or _in_grab(ctx, p.unit),
            has_mom=_has_mom(draft, ctx) if i == 0 else False,
            both_hands=draft.both_hands, from_above=draft.from_above)
        out.append(Striker(f, item, attack, p.use, p.hands))
    return tuple(out)


def _in_grab(ctx: CombatContext, unit_id: int) -> bool:
    u = ctx.state.unit(unit_id)
    return bool(u.grabbing or u.grabbed_by)


# --------------------------------------------------------------------------------------------
# Page 2: Range


@dataclass(frozen=True)
class RangePreview:
    """What the Range page shows for the first attacker (and one line per joiner)."""

    close_combat: bool
    weapon: str
    weapon_range: int | None
    height: Modifier | None
    effective_range: int | None
    inches_out: int
    penalties: tuple[Modifier, ...]
    notes: tuple[str, ...]
    text: str
    joiners: tuple[tuple[str, str], ...] = ()
    error: str | None = None
    firing_blind: Modifier | None = None


def range_preview(draft: AttackDraft, ctx: CombatContext) -> RangePreview:
    """Weapon Range, Height Advantage, effective Range and Out of Range penalties (5.1); reach
    for Close Combat. A missing distance is an ``error`` the page shows, not an exception."""
    item = ctx.item(draft.item_key)
    try:
        weapon = weapon_of(item, draft.kind)
    except UserError as exc:
        return RangePreview(False, "?", None, None, None, 0, (), (), "", error=str(exc))
    blind = (Modifier(-5, Stat.ACTION, "Firing Blind at a target known within 1\"",
                      "5.1 Firing Blind") if draft.firing_blind else None)
    if draft.kind.close_combat:
        rc = check_range(weapon, in_reach=draft.in_reach)
        notes: tuple[str, ...] = ()
        if draft.kind is AttackKind.CHARGE:
            ok, why = charging_weapon(weapon, both_hands=draft.both_hands,
                                      from_above=draft.from_above)
            mom = _has_mom(draft, ctx)
            notes = (f"{weapon.name}: {why}",
                     ("MOM: a hit may spend it for one more Action die of Damage; a miss "
                      "keeps it for a Collision (5.4)" if ok else
                      "MOM: a miss keeps it for a Collision (5.4)") if mom else
                     "No MOM: a Charge needs a run of 4\" or more straight at the target "
                     "(5.4 Momentum)")
        return RangePreview(True, weapon.name, None, None, None, 0, (), notes, rc.describe(),
                            error=None if draft.in_reach else rc.describe())
    joiners = []
    for j in draft.joiners:
        f = ctx.fighter(j.unit_id)
        try:
            w = weapon_of(ctx.item(j.item_key), draft.kind)
            if j.distance is None:
                raise UserError("measure its distance")
            jrc = check_range(w, distance=j.distance, altitude=j.altitude)
            joiners.append((f.name, f"{w.name}: {jrc.describe()}"))
        except UserError as exc:
            joiners.append((f.name, str(exc)))
    if draft.distance is None:
        return RangePreview(False, weapon.name, weapon.range_inches, None, None, 0, (), (),
                            f"{weapon.name}: Range {weapon.range_text}", tuple(joiners),
                            "measure the distance to the target (inches; halves allowed)",
                            blind)
    try:
        rc: RangeCheck = check_range(weapon, distance=draft.distance, altitude=draft.altitude)
    except UserError as exc:
        return RangePreview(False, weapon.name, weapon.range_inches, None, None, 0, (), (), "",
                            tuple(joiners), str(exc), blind)
    height = next((m for m in rc.range_modifiers if m.rule == "5.1 Height Advantage"), None)
    return RangePreview(False, weapon.name, rc.base_range, height, rc.effective_range,
                        rc.inches_out, rc.penalties, rc.notes, rc.describe(), tuple(joiners),
                        None, blind)


# --------------------------------------------------------------------------------------------
# Page 3: the Action Roll


@dataclass(frozen=True)
class ModifierRow:
    """A line of the modifier list: the modifier (value 0 when a judgement gives none) and,
    for a judgement the organizer makes, its key (``size``, ``disrupted``, ``outnumbered``,
    ``engaged``)."""

    modifier: Modifier
    judgement: str | None = None


@dataclass(frozen=True)
class StrikerPreview:
    name: str
    weapon: str
    action_die: int
    use: int | None
    rows: tuple[ModifierRow, ...]
    action_mod: int
    damage_mod: int
    automatic: AutomaticHit | None
    needed: int | None
    needed_text: str
    odds: AttackOdds | None
    damage: DiceExpr | None
    deflection: int


@dataclass(frozen=True)
class ActionPreview:
    strikers: tuple[StrikerPreview, ...]
    kill: Fraction | None
    benny_policy: str = BENNY_POLICY
    error: str | None = None
    missed_radius_text: str = ""

    @property
    def first(self) -> StrikerPreview | None:
        return self.strikers[0] if self.strikers else None


def size_options(target: Target) -> tuple[Choice, ...]:
    """The target size and visibility choices (5.1) with their modifiers."""
    out = []
    if not target.inanimate:
        out.append(Choice((SizeClass.MINIFIG, 3), "all 3 sections seen (0)"))
        out.append(Choice((SizeClass.MINIFIG, 2), "2 of 3 sections (-1)"))
        out.append(Choice((SizeClass.MINIFIG, 1), "1 section seen (-2)"))
    out.append(Choice((SizeClass.LARGE, 3), "large: +1 per 2\" seen"))
    out.append(Choice((SizeClass.BRICK_2X4, 3), "2x4 brick size (0)"))
    out.append(Choice((SizeClass.BRICK_2X2, 3), "2x2 brick size (-1)"))
    out.append(Choice((SizeClass.STUD_1X1, 3), "1x1 stud or item (-2)"))
    return tuple(out)


def needed_text(action_die: int, use: int | None, action_mod: int,
                automatic: AutomaticHit | None) -> tuple[int | None, str]:
    """The natural face needed on the Action die, in words: ``(6, "6 or more on the d10")``."""
    if automatic is not None:
        return None, "no roll: " + automatic.describe()
    if use is None:
        return None, "no roll: a trivial Action (Use -)"
    need = use - action_mod
    die = f"d{action_die}"
    if need <= 2:
        return 2, f"2 or more on the {die}: only a natural 1 fails"
    if need > action_die:
        if action_die == 4:
            return need, f"{need}: only the d4's bonus dice on a 4 can reach it"
        return need, (f"{need}: more than a {die} shows; only an Over the Top Benny can "
                      "make it")
    return need, f"{need} or more on the {die}"


def _rows(draft: AttackDraft, attack: Attack, rc: RangeCheck, first: bool
          ) -> tuple[ModifierRow, ...]:
    mods = action_modifiers(attack, rc)
    rows: list[ModifierRow] = []
    size_mods = target_size_modifiers(attack.target)
    if size_mods:
        rows.extend(ModifierRow(m, "size" if first else None) for m in size_mods)
    else:
        t = attack.target
        what = ("minifig, all 3 sections visible" if t.is_minifig else f"target {t.size}")
        rule = "5.1 Minifig Visibility" if t.is_minifig else "5.1 Target Size"
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, what, rule), "size" if first else None))
    used = set(size_mods)
    for m in mods:
        if m in used:
            continue
        key = None
        if m.rule == "4.1 Disrupted":
            key = "disrupted"
        elif m.reason == "outnumbered in Close Combat":
            key = "outnumbered"
        rows.append(ModifierRow(m, key if first else None))
    if first and not attack.target.inanimate:
        if attack.ranged and not attack.target.disrupted:
            rows.append(ModifierRow(Modifier(0, Stat.ACTION, f"{attack.target.name} is not "
                                             "Disrupted", "4.1 Disrupted"), "disrupted"))
        if not attack.ranged and not attack.target.disrupted:
            rows.append(ModifierRow(Modifier(0, Stat.ACTION, f"{attack.target.name} is not "
                                             "Disrupted (Disrupted: an Automatic Hit)",
                                             "4.1 Disrupted"), "disrupted"))
    if first and not attack.ranged and not attack.outnumbered:
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, "not outnumbered in Close Combat",
                                         "5.1 Combined Attacks"), "outnumbered"))
    if first and not attack.ranged and attack.target.inanimate:
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, "someone else is attacking the "
                                         "attacker" if attack.attacker_engaged else
                                         "nobody else is attacking the attacker",
                                         "5.1 Automatic Hits"), "engaged"))
    return tuple(rows)


def _damage_expr(s: Striker, benny_die: bool = False, mom: bool = False) -> DiceExpr:
    """The Damage dice of a participant: its weapon's, plus a Benny's die and the MOM's die."""
    a = s.attack
    expr = a.weapon.damage
    die = a.attacker.action_die
    if expr.uses_action_die:
        expr = expr.resolve(die)
    if benny_die:
        expr = expr.plus_dice(1, expr.largest_die() or 6)
    if mom:
        expr = expr.plus_dice(1, die)
    return expr.resolve(None) if expr.terms else expr


def _damage_mod(s: Striker, rc: RangeCheck) -> int:
    a = s.attack
    mods = [m for m in rc.penalties if m.applies_to is Stat.DAMAGE]
    if a.weapon.explosive:
        mods.extend(target_size_modifiers(a.target, Stat.DAMAGE))
    return sum(m.value for m in mods)


def _mom_spendable(s: Striker) -> tuple[bool, str]:
    a = s.attack
    if a.maneuver is not Maneuver.CHARGE:
        return False, "not a Charge"
    if not a.has_mom:
        return False, f"{a.attacker.name} has no MOM: it takes 4\" in a straight line (5.4)"
    return charging_weapon(a.weapon, both_hands=a.both_hands, from_above=a.from_above)


def _odds(s: Striker, rc: RangeCheck, auto: AutomaticHit | None, spend_mom: bool
          ) -> AttackOdds | None:
    a = s.attack
    if a.maneuver in (Maneuver.GRAB, Maneuver.SHOVE):
        return None
    mods = action_modifiers(a, rc)
    mom = spend_mom and _mom_spendable(s)[0]
    expr = _damage_expr(s, mom=mom)
    return attack_odds(a.attacker.action_die, a.weapon.use, expr, str(a.target.armor),
                       action_mod=sum(m.value for m in mods if m.applies_to is Stat.ACTION),
                       damage_mod=_damage_mod(s, rc), deflection=a.target.deflection,
                       automatic_hit=auto is not None,
                       can_go_over_the_top=a.attacker.over_the_top)


def action_preview(draft: AttackDraft, ctx: CombatContext) -> ActionPreview:
    """Every participant's modifiers (with the judgements), the number needed and the exact
    odds; the chance the attack destroys the target (Combined Damage included)."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionPreview((), None, error=str(exc))
    previews = []
    contributions = []
    for i, s in enumerate(ss):
        a = s.attack
        rc = check_range(a.weapon, distance=a.distance, in_reach=a.in_reach,
                         altitude=a.altitude)
        auto = automatic_hit(a) if rc.can_attack else None
        rows = _rows(draft, a, rc, i == 0)
        action_mod = sum(r.modifier.value for r in rows if r.modifier.applies_to is Stat.ACTION)
        need, text = needed_text(a.attacker.action_die, a.weapon.use, action_mod, auto)
        try:
            odds = _odds(s, rc, auto, draft.spend_mom) if rc.can_attack else None
        except UserError as exc:
            return ActionPreview(tuple(previews), None, error=str(exc))
        if not rc.can_attack:
            text = rc.describe()
        dmg = None if odds is None else _damage_expr(
            s, mom=draft.spend_mom and _mom_spendable(s)[0])
        previews.append(StrikerPreview(a.attacker.name, a.weapon.name, a.attacker.action_die,
                                       a.weapon.use, rows, action_mod, _damage_mod(s, rc),
                                       auto, need, text, odds, dmg, a.target.deflection))
        if odds is not None:
            contributions.append((s, odds, rc))
    kill = _kill_with_reaction(draft, ctx, contributions) if contributions else None
    radius = ""
    if ss and not draft.kind.close_combat:
        radius = "a miss by N lands within N\" of the target (5.3 Missed Shots)"
    return ActionPreview(tuple(previews), kill, missed_radius_text=radius)


def _kill_with_reaction(draft: AttackDraft, ctx: CombatContext,
                        contributions: Sequence[tuple[Striker, AttackOdds, RangeCheck]]
                        ) -> Fraction:
    """The chance to destroy, with the target's declared reaction: a Shield Parry that
    succeeds Deflects the first attacker's Damage (one more level); a Bail that takes the
    target out of the attack avoids it unless its die shows a natural 1 (4.3)."""
    armor = target_of(draft, ctx).armor
    kill = combined_kill(contributions, armor, spend_mom=draft.spend_mom)
    if draft.target_id is None:
        return kill
    target = ctx.fighter(draft.target_id)
    if draft.reaction is Reaction.BAIL and draft.bail_clears:
        return kill * Fraction(1, target.action_die)
    if draft.reaction is Reaction.PARRY and draft.kind.incoming.is_damage:
        _text, parried = parry_preview(draft, ctx)
        if parried:
            first = contributions[0]
            deflected = combined_kill([(first[0], first[1], first[2], 1), *contributions[1:]],
                                      armor, spend_mom=draft.spend_mom)
            return (1 - parried) * kill + parried * deflected
    return kill


def _mix(parts: Sequence[tuple[Fraction, Dist]]) -> Dist:
    """The mixture of distributions: ``p`` of each (the ``p`` sum to 1)."""
    parts = [(p, d) for p, d in parts if p]
    lo = min(d.lo for _p, d in parts)
    hi = max(d.hi for _p, d in parts)
    denom = math.lcm(*(p.denominator * d.denom for p, d in parts))
    weights = [0] * (hi - lo + 1)
    for p, d in parts:
        scale = p.numerator * (denom // (p.denominator * d.denom))
        off = d.lo - lo
        for i, w in enumerate(d.weights):
            if w:
                weights[off + i] += w * scale
    return Dist(lo, tuple(weights), denom)


_ZERO = Dist(0, (1,), 1)


def _p_beats(total: Dist, armor: Armor) -> Fraction:
    """P(Damage > Armor), Armor a number or dice rolled independently."""
    if armor.dice is None:
        assert armor.fixed is not None
        return total.at_least(armor.fixed + 1)
    arm = expr_distribution(armor.dice)
    num = 0
    for i, w in enumerate(arm.weights):
        if w:
            p = total.at_least(arm.lo + i + 1)
            num += w * p.numerator * (arm.denom * total.denom // (arm.denom * p.denominator)) \
                if p else 0
    return Fraction(num, arm.denom * total.denom)


def _on_hit(s: Striker, rc: RangeCheck, *, benny_die: bool, mom: bool,
            deflection: int) -> Dist:
    """The Damage distribution of one participant's hit (floored at 0)."""
    a = s.attack
    odds = attack_odds(a.attacker.action_die, None, _damage_expr(s, benny_die, mom),
                       str(a.target.armor), damage_mod=_damage_mod(s, rc),
                       deflection=deflection, automatic_hit=True)
    return odds.damage_dist


def combined_kill(contributions: Sequence[tuple[Any, ...]], armor: Armor, *,
                  spend_mom: bool = True) -> Fraction:
    """P(the added Damage of every participant that hits beats the Armor once) (5.1 Combined
    Attacks). ``contributions`` are ``(striker, its AttackOdds, its RangeCheck)``, with an
    optional fourth item: extra levels of Deflection on its Damage (a Shield Parry). Each
    participant hits or not independently, with its Benny spent as ``BENNY_POLICY`` says; with
    one participant and no extra Deflection this is exactly ``AttackOdds.kill``."""
    total = _ZERO
    for s, odds, rc, *more in contributions:
        extra = more[0] if more else 0
        mom = spend_mom and _mom_spendable(s)[0]
        defl = s.attack.target.deflection + extra
        plain = odds.hit - odds.benny_damage
        on_hit = odds.damage_dist if not extra else _on_hit(s, rc, benny_die=False, mom=mom,
                                                            deflection=defl)
        parts: list[tuple[Fraction, Dist]] = [(1 - odds.hit, _ZERO), (plain, on_hit)]
        if odds.benny_damage:
            parts.append((odds.benny_damage,
                          _on_hit(s, rc, benny_die=True, mom=mom, deflection=defl)))
        total = total.plus(_mix(parts))
    return _p_beats(total, armor)


# --------------------------------------------------------------------------------------------
# The target's reaction


def _parry_item(ctx: CombatContext, key: str | None) -> ParryItem:
    item = ctx.item(key)
    if item is None or item.key == "bare-hands":
        return BARE_HANDS_PARRY
    return ParryItem.from_item(item)


def _reaction_event(draft: AttackDraft, ctx: CombatContext, how: ActionUse,
                    over_the_top: bool = False) -> ActionSpent:
    assert draft.target_id is not None
    own = ctx.state.unit(draft.target_id).player_id == ctx.state.active
    return ActionSpent(actor=draft.target_id, how=how, as_response=not own,
                       target=draft.attacker_id, over_the_top=over_the_top)


def reaction_options(draft: AttackDraft, ctx: CombatContext) -> tuple[Choice, ...]:
    """What the target may do: nothing, Parry with each item it holds (or bare hands), or
    Bail; each with why the rules forbid it. Values: ``(Reaction, item key or None)``."""
    out = [Choice((Reaction.NONE, None), "no reaction")]
    if draft.target_id is None:
        why = "an inanimate object doesn't react"
        out.append(Choice((Reaction.PARRY, None), "Parry", why))
        out.append(Choice((Reaction.BAIL, None), "Bail", why))
        return tuple(out)
    t = ctx.fighter(draft.target_id)
    incoming = draft.kind.incoming
    rule_parry = _trial(ctx, [_reaction_event(draft, ctx, ActionUse.PARRY)])
    weapon = None
    try:
        weapon = weapon_of(ctx.item(draft.item_key), draft.kind)
    except UserError:
        pass
    two_handed = bool(weapon and weapon.two_handed) and incoming in (
        Incoming.STRIKE, Incoming.CHARGE, Incoming.SHOVE)
    candidates: list[str | None] = [it.key for it in t.held if it.hands > 0]
    candidates.append(None)
    for key in dict.fromkeys(candidates):
        p = _parry_item(ctx, key)
        use, _why = (None, "") if p.use is None and not p.bare_hands else parry_use(p)
        label = f"Parry with {p.name} (Use {use}" + (", +1 against a Two-Handed Weapon"
                                                    if two_handed else "") + ")"
        problem = rule_parry
        if problem is None and incoming.is_damage and not p.shield:
            what = "a Charge" if incoming is Incoming.CHARGE else "a Strike or other Damage"
            problem = f"only a Shield can Parry {what} (5.2)"
        if problem is None and p.use is None and not p.bare_hands:
            problem = f"{p.name} has no Use to Parry with"
        if problem is None and draft.kind is AttackKind.CHARGE and incoming.is_damage and \
                not p.shield:
            problem = "a Charge can only be Parried with a Shield (5.4)"
        out.append(Choice((Reaction.PARRY, key), label, problem))
    bail_problem = _trial(ctx, [_reaction_event(draft, ctx, ActionUse.BAIL)])
    out.append(Choice((Reaction.BAIL, None),
                      f"Bail: dive 1d{t.action_die}\" (bonus dice), then Disrupted",
                      bail_problem))
    return tuple(out)


def parry_preview(draft: AttackDraft, ctx: CombatContext) -> tuple[str, Fraction | None]:
    """The Parry roll in words and its chance of success (Benny per BENNY_POLICY)."""
    if draft.reaction is not Reaction.PARRY or draft.target_id is None:
        return "", None
    t = ctx.fighter(draft.target_id)
    item = _parry_item(ctx, draft.parry_item)
    try:
        use, why = parry_use(item)
    except UserError as exc:
        return str(exc), None
    mods = _parry_mods(draft, ctx)
    total = sum(m.value for m in mods)
    odds = attack_odds(t.action_die, use, "0", 0, action_mod=total,
                       can_go_over_the_top=t.over_the_top)
    need, need_words = needed_text(t.action_die, use, total, None)
    text = f"{t.name} Parries with {item.name}: {why}" + "".join(
        f"; {m.describe()}" for m in mods) + f"; needs {need_words}"
    return text, odds.hit


def _parry_mods(draft: AttackDraft, ctx: CombatContext) -> tuple[Modifier, ...]:
    assert draft.target_id is not None
    mods = []
    weapon = weapon_of(ctx.item(draft.item_key), draft.kind)
    incoming = draft.kind.incoming
    if weapon.two_handed and incoming in (Incoming.STRIKE, Incoming.CHARGE, Incoming.SHOVE):
        mods.append(Modifier(1, Stat.ACTION, f"Parrying {incoming} made with a Two-Handed "
                             "Weapon", "5.2 Parrying"))
    if draft.kind.close_combat and outnumbered_modifier(ctx.state, draft.target_id):
        mods.append(Modifier(-1, Stat.ACTION, "outnumbered in Close Combat",
                             "5.1 Combined Attacks"))
    return tuple(mods)


@dataclass(frozen=True)
class BennyOption:
    use: BennyUse
    label: str
    problem: str | None = None
    key: str = ""  # the keyboard letter that picks it


def benny_options(draft: AttackDraft, ctx: CombatContext, key: str,
                  stage: ActionStage | None = None) -> tuple[BennyOption, ...]:
    """How the Over the Top Benny of ``key`` may be spent (rules facts §1), each with why not,
    and the keyboard letter that picks it. The first allowed one is the BENNY_POLICY default."""
    if key == "bail":
        return (BennyOption(BennyUse.EMBELLISH, "land on his feet: not Disrupted", key="L"),
                BennyOption(BennyUse.STAT, "+1d6 inches of dive", key="I"),
                BennyOption(BennyUse.NONE, "not spent", key="N"))
    if key == "parry":
        damage = draft.kind.incoming.is_damage
        return (BennyOption(BennyUse.ACTION, "+1d6 to the Parry roll", key="A"),
                BennyOption(BennyUse.EMBELLISH, "one more level of Deflection" if damage else
                            "an embellishment the players agree on", key="E"),
                BennyOption(BennyUse.NONE, "not spent", key="N"))
    ranged = not draft.kind.close_combat
    has_damage = True
    try:
        s = next(s for s in strikers(draft, ctx) if s.key == key)
        has_damage = bool(s.attack.weapon.damage.terms)
    except (UserError, StopIteration):
        pass
    opts = [
        BennyOption(BennyUse.ACTION, "+1d6 to the Action Roll", key="A"),
        BennyOption(BennyUse.DAMAGE, "one more Damage die", None if has_damage else
                    "this attack has no Damage dice", key="D"),
        BennyOption(BennyUse.STAT, "+1d6 inches of Range", None if ranged else
                    "Close Combat has no Range to add to (4.2)", key="R"),
        BennyOption(BennyUse.EMBELLISH, "an embellishment the players agree on", key="E"),
        BennyOption(BennyUse.NONE, "not spent", key="N"),
    ]
    # BENNY_POLICY: Damage when the roll already hits, else +1d6 Action.
    if stage is not None:
        roll = next((r for r, s in zip(stage.rolls, stage.strikers, strict=False)
                     if s.key == key), None)
        if roll is not None and roll.hit and has_damage:
            opts.insert(0, opts.pop(1))
    return tuple(opts)


# --------------------------------------------------------------------------------------------
# Replaying the dice


class _Stop(Exception):
    """A decision is needed before the dice can go on."""


def _role_of(why: str) -> Role:
    head = why.split(" ", 1)[0]
    return {"bonus": Role.BONUS, "Benny": Role.BENNY, "MOM": Role.MOM,
            "POP": Role.POP}.get(head, Role.NATURAL)


class _Recorder:
    """Typed dice that keep every die asked for, with its role, in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.typed = TypedDice(faces)
        self.rolled: list[DieRoll] = []

    def roll(self, sides: int, why: str = "") -> int:
        face = self.typed.roll(sides, why)
        self.rolled.append(DieRoll(sides, face, _role_of(why), why))
        return face


@dataclass(frozen=True)
class ActionStage:
    """The Action step as far as the dice typed so far go.

    ``need`` is the die wanted next; ``pending`` the key of a Benny waiting for a decision;
    ``complete`` when neither. ``rolls`` holds each participant's ``AttackRoll`` (fewer when
    stopped early; none when a Bail took the target out of the attack).
    """

    strikers: tuple[Striker, ...]
    rolls: tuple[AttackRoll, ...]
    parry: ParryResult | None
    bail: BailResult | None
    avoided: str | None
    dice: tuple[DieRoll, ...]
    need: NeedDie | None = None
    pending: str | None = None
    error: str | None = None
    extra_faces: int = 0

    @property
    def complete(self) -> bool:
        return (self.need is None and self.pending is None and self.error is None
                and not self.extra_faces)

    @property
    def first(self) -> AttackRoll | None:
        return self.rolls[0] if self.rolls else None

    @property
    def hit(self) -> bool:
        """Whether any participant hit (and the attack was not avoided)."""
        return self.avoided is None and any(r.hit for r in self.rolls)

    @property
    def cancelled(self) -> bool:
        return self.avoided is not None

    def messages(self) -> tuple[str, ...]:
        """What happened so far in plain words, one line per step."""
        out = []
        if self.bail is not None:
            out.append(self.bail.describe())
        if self.avoided:
            out.append(self.avoided)
        for r in self.rolls:
            out.append(r.describe())
        if self.parry is not None:
            out.append(self.parry.describe())
        for r in self.rolls:
            if r.roll is not None and r.roll.rolled and not r.hit and r.attack.ranged:
                out.append(f"Missed Shot: lands within {inches_text(r.missed_by)} of "
                           f"{r.attack.target.name} (5.3)")
        return tuple(out)


def resolve_action(draft: AttackDraft, ctx: CombatContext) -> ActionStage:
    """Replay the Action step with ``draft.action_faces``: Bail first if declared, every
    participant's Automatic Hit or Action Roll (with its Benny, once decided), then the Parry
    if the first attack hit. Stops at the first die it needs or Benny it must ask about."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionStage((), (), None, None, None, (), error=str(exc))
    src = _Recorder(draft.action_faces)
    rolls: list[AttackRoll] = []
    parry = bail = None
    avoided = None
    need = None
    pending = None
    error = None
    try:
        if draft.reaction is Reaction.BAIL and draft.target_id is not None:
            who = ctx.fighter(draft.target_id).attacker
            bail = roll_bail(who, src, half_speed=ctx.state.unit(
                draft.target_id).moves_at_half_speed)
            if bail.over_the_top:
                choice = draft.benny("bail")
                if choice is None:
                    pending = "bail"
                    raise _Stop
                bail = apply_bail_benny(bail, choice, src)
            if draft.bail_clears and not bail.critical_failure:
                avoided = (f"{who.name} dives out of the attack: dodged by Bailing "
                           "(the attacker's Action is still spent)")
        if avoided is None:
            for s in ss:
                r = roll_attack_action(s.attack, src)
                if r.over_the_top:
                    choice = draft.benny(s.key)
                    if choice is None:
                        rolls.append(r)
                        pending = s.key
                        raise _Stop
                    r = apply_benny(r, choice, src, draft.embellishment or
                                    "an embellishment the players agree on")
                rolls.append(r)
            if draft.reaction is Reaction.PARRY and rolls and rolls[0].hit \
                    and draft.target_id is not None:
                parrier = ctx.fighter(draft.target_id).attacker
                first = rolls[0]
                attacker_roll = (first.roll.total if first.roll is not None
                                 and first.roll.rolled else None)
                parry = roll_parry(parrier, _parry_item(ctx, draft.parry_item),
                                   draft.kind.incoming, src,
                                   two_handed_weapon=first.attack.weapon.two_handed,
                                   attacker_roll=attacker_roll, attacker=first.attack.attacker,
                                   outnumbered=_parry_outnumbered(draft, ctx))
                if parry.over_the_top:
                    choice = draft.benny("parry")
                    if choice is None:
                        pending = "parry"
                        raise _Stop
                    parry = apply_parry_benny(parry, choice, src, draft.embellishment or
                                              "an embellishment the players agree on")
                if parry.cancelled:
                    avoided = f"{parrier.name} Parries the {draft.kind.label}: cancelled"
    except NeedDie as exc:
        need = exc
    except _Stop:
        pass
    except UserError as exc:
        error = str(exc)
    extra = 0
    if need is None and pending is None and error is None:
        extra = len(draft.action_faces) - src.typed.used
    return ActionStage(ss, tuple(rolls), parry, bail, avoided, tuple(src.rolled), need,
                       pending, error, extra)


def _parry_outnumbered(draft: AttackDraft, ctx: CombatContext) -> bool:
    return (draft.kind.close_combat and draft.target_id is not None
            and outnumbered_modifier(ctx.state, draft.target_id) is not None)


# --------------------------------------------------------------------------------------------
# Page 4: Damage


@dataclass(frozen=True)
class DamageStage:
    """The Damage step as far as the dice typed so far go (``need``: the die wanted next)."""

    damage: DamageResult | None = None
    explosion: ExplosionResult | None = None
    missed: MissedShot | None = None
    missed_damage: DamageResult | None = None
    missed_unit: int | None = None
    collision: CollisionResult | None = None
    shove: ShoveResult | None = None
    grab: GrabResult | None = None
    knockback: KnockBackResult | None = None
    weapon_knockback: int = 0
    mom_spent: bool = False
    dice: tuple[DieRoll, ...] = ()
    need: NeedDie | None = None
    error: str | None = None
    extra_faces: int = 0
    blast_units: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return self.need is None and self.error is None and not self.extra_faces

    @property
    def rolls_dice(self) -> bool:
        return bool(self.dice) or self.need is not None


@dataclass(frozen=True)
class DamagePreview:
    """What the Damage page shows before (and while) rolling."""

    lines: tuple[str, ...]
    armor_text: str
    kill: Fraction | None
    distribution: tuple[tuple[int, float, float], ...]  # (Damage, chance, chance it destroys)
    armor_line: int | None
    blast: bool = False
    missed: MissedShot | None = None
    collision_possible: bool = False
    shove: bool = False
    mom_text: str = ""
    nothing: str = ""


def _deflections_for(i: int, action: ActionStage) -> tuple[str, ...]:
    if i == 0 and action.parry is not None:
        return action.parry.deflections
    return ()


def damage_preview(draft: AttackDraft, ctx: CombatContext, action: ActionStage
                   ) -> DamagePreview:
    """The Damage dice of the participants that hit, their modifiers and Deflection, the Armor
    to beat, the exact chance to destroy and the Damage distribution (given the Action step)."""
    target = target_of(draft, ctx)
    armor_text = (f"Damage must be more than {target.armor} to destroy {target.name}"
                  if not target.armor.rolled else
                  f"Armor {target.armor}, rolled each time it takes Damage (at least "
                  f"{target.armor.minimum()}), after the Damage")
    if not action.complete:
        return DamagePreview((), armor_text, None, (), None, nothing="finish the Action Roll")
    first = action.first
    if action.avoided:
        return DamagePreview((), armor_text, None, (), None, nothing=action.avoided)
    if draft.kind is AttackKind.SHOVE:
        return DamagePreview(("a Shove does no Damage: 2\" of KnockBack directly away and "
                              "Disrupted (5.2); an obstacle in the way turns the inches it "
                              "prevents into Smash damage",), armor_text, None, (), None,
                             shove=True)
    if draft.kind is AttackKind.GRAB:
        return DamagePreview(("a Grab does no Damage: both are held in the Grab (5.2)",),
                             armor_text, None, (), None)
    lines: list[str] = []
    parts: list[Dist] = []
    missed = None
    collision = False
    mom_text = ""
    if first is not None and not first.hit and first.attack.ranged and first.roll is not None:
        missed = missed_shot(first)
    if first is not None and not first.hit and draft.kind is AttackKind.CHARGE:
        collision = first.attack.has_mom
    explosive = bool(action.strikers) and action.strikers[0].attack.weapon.explosive
    for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
        if not r.hit:
            continue
        rc = r.range
        mom = False
        if i == 0 and draft.kind is AttackKind.CHARGE:
            ok, why = _mom_spendable(s)
            mom = ok and draft.spend_mom
            mom_text = (f"MOM: {why}; spending it adds 1d{s.fighter.action_die} Damage (5.4)"
                        if ok else f"MOM: {why}")
        defl = _deflections_for(i, action)
        levels = s.attack.target.deflection + len(defl)
        benny = r.benny is BennyUse.DAMAGE
        expr = _damage_expr(s, benny, mom)
        after = expr.deflected(levels) if levels else expr
        mod = _damage_mod(s, rc)
        weapon = s.attack.weapon.damage
        words = f"{r.attack.label}: Damage {weapon}"
        if str(weapon) != str(expr):
            words += f" = {expr}"
        extras = []
        if benny:
            extras.append("one more die for the Benny")
        if mom:
            extras.append("the MOM's extra Action die")
        if extras:
            words += " (with " + " and ".join(extras) + ")"
        if levels:
            words += (f"; after Deflection {after}" if after.terms else
                      "; Deflection leaves no dice" + (f", only {after.flat:+d}"
                                                        if after.flat else ""))
        if mod:
            words += f"; {mod:+d} Damage"
        lines.append(words)
        for m in rc.penalties:
            if m.applies_to is Stat.DAMAGE:
                lines.append("  " + m.describe())
        if s.attack.weapon.explosive:
            lines.extend("  " + m.describe() for m in
                         target_size_modifiers(s.attack.target, Stat.DAMAGE))
            lines.append(f"  Explosive: every target within "
                         f"{inches_text(s.attack.weapon.explosive_radius)} of the blast (3.2)")
        if s.attack.target.deflection:
            lines.append(f"  Deflection: {s.attack.target.name}'s worn armour, one die of each "
                         "kind (3.3)")
        for d in defl:
            lines.append(f"  Deflection: {d}, one die of each kind")
        parts.append(_on_hit(s, rc, benny_die=benny, mom=mom, deflection=levels))
    if len(parts) > 1:
        lines.append(f"Combined Attack: the {len(parts)} Damage totals are added and compared "
                     "with the Armor once (5.1)")
    if not parts:
        if collision:
            nothing = (f"the Charge missed: no Damage. {first.attack.attacker.name} keeps his "
                       "MOM and Collides with the target if it is directly in his path, "
                       "else runs on to the limit of his Move (5.4)")
        elif missed is not None:
            nothing = "the shot missed: no Damage to the target"
        else:
            nothing = "the attack missed: no Damage"
        return DamagePreview(tuple(lines), armor_text, None, (), None, missed=missed,
                             collision_possible=collision, nothing=nothing,
                             blast=explosive and missed is not None)
    total = parts[0]
    for p in parts[1:]:
        total = total.plus(p)
    kill = _p_beats(total, target.armor)
    return DamagePreview(tuple(lines), armor_text, kill, _shown_totals(total, target.armor),
                         target.armor.fixed if not target.armor.rolled else None,
                         blast=explosive, mom_text=mom_text)


def _shown_totals(total: Dist, armor: Armor, keep: float = 0.999
                  ) -> tuple[tuple[int, float, float], ...]:
    """``(Damage, its chance, the chance that Damage destroys)`` for the chart: every total
    up to where ``keep`` of the chance is shown (and at least one beyond the least Armor)."""
    arm = None if armor.dice is None else expr_distribution(armor.dice)
    out = []
    seen = 0.0
    for t, p in total.float_items():
        if arm is None:
            assert armor.fixed is not None
            beats = 1.0 if t > armor.fixed else 0.0
        else:
            beats = float(1 - arm.at_least(t))
        out.append((t, p, beats))
        seen += p
        if seen >= keep and t > armor.minimum():
            break
    return tuple(out)


def resolve_damage(draft: AttackDraft, ctx: CombatContext, action: ActionStage) -> DamageStage:
    """Replay the Damage step with ``draft.damage_faces``: the Damage of every participant that
    hit against the Armor once (a Hero's Armor rolled after), an Explosion over every target in
    the blast, a Missed Shot where it lands, a Shove or Grab, a Collision for a Charge that
    missed. Stops at the first die it needs."""
    if not action.complete:
        return DamageStage(error="finish the Action Roll first")
    src = _Recorder(draft.damage_faces)
    out: dict[str, Any] = {}
    need = error = None
    target = target_of(draft, ctx)
    first = action.first
    try:
        if action.avoided:
            pass
        elif draft.kind is AttackKind.SHOVE and first is not None:
            res = shove(first.attack.attacker.name, target.name, parry=action.parry,
                        blocked_after=draft.obstacle)
            out["shove"] = res
            if res.knockback is not None:
                out["knockback"] = res.knockback
                smash = res.knockback.smash_damage(first.attack.attacker.name)
                if smash is not None:
                    out["damage"] = apply_damage(smash, target, src)
        elif draft.kind is AttackKind.GRAB and first is not None:
            out["grab"] = grab(first.attack.attacker.name, target.name, parry=action.parry)
        else:
            _resolve_hits(draft, ctx, action, target, src, out)
    except NeedDie as exc:
        need = exc
    except UserError as exc:
        error = str(exc)
    extra = 0
    if need is None and error is None:
        extra = len(draft.damage_faces) - src.typed.used
    return DamageStage(dice=tuple(src.rolled), need=need, error=error, extra_faces=extra, **out)


def _resolve_hits(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
                  target: Target, src: _Recorder, out: dict[str, Any]) -> None:
    first = action.first
    assert first is not None
    explosive = action.strikers[0].attack.weapon.explosive
    if explosive and (first.hit or first.attack.ranged):
        blast_units = tuple(u for u in draft.blast_ids if u not in (draft.target_id,
                                                                    draft.attacker_id))
        targets = [target] if first.hit else []
        targets += [target_of(draft, ctx, unit_id=u, sections=3) for u in blast_units]
        if targets:
            defl = {target.name: action.parry.deflections} if action.parry else None
            out["explosion"] = explode(first, targets, src, deflections=defl)
            out["blast_units"] = blast_units
        if not first.hit:
            out["missed"] = missed_shot(first)
        return
    parts: list[DamageRoll] = []
    for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
        if not r.hit or not (s.attack.weapon.damage.terms or s.attack.weapon.damage.flat):
            continue
        mom = i == 0 and draft.kind is AttackKind.CHARGE and draft.spend_mom \
            and _mom_spendable(s)[0]
        if mom:
            out["mom_spent"] = True
        parts.append(damage_roll(r, src, deflections=_deflections_for(i, action),
                                 spend_mom=mom))
    if parts:
        damage = apply_damage(parts, target, src)
        out["damage"] = damage
        out["weapon_knockback"] = AttackResult(first, damage).knockback if first.hit else 0
    if not first.hit and first.attack.ranged and first.roll is not None:
        out["missed"] = missed_shot(first)
        if draft.missed_strikes is not None:
            struck = target_of(draft, ctx, unit_id=draft.missed_strikes, sections=3)
            distance = draft.missed_distance if draft.missed_distance is not None else (
                first.attack.distance)
            out["missed_damage"] = resolve_missed_shot(first, struck, distance, src)
            out["missed_unit"] = draft.missed_strikes
    if not first.hit and draft.kind is AttackKind.CHARGE and first.attack.has_mom \
            and draft.collide:
        col = collide(first.attack.attacker.name, target.name, src,
                      blocked_after=draft.obstacle)
        out["collision"] = col
        out["mom_spent"] = True
        if col.knockback is not None:
            out["knockback"] = col.knockback
            smash = col.knockback.smash_damage(first.attack.attacker.name)
            if smash is not None:
                out["damage"] = apply_damage(smash, target, src)


# --------------------------------------------------------------------------------------------
# Page 5: the result and the events


@dataclass(frozen=True)
class ResultSummary:
    """The Result page: one paragraph in plain words, what will change, every step."""

    paragraph: str
    changes: tuple[str, ...]
    details: tuple[str, ...]
    events: tuple[Event, ...]
    problem: str | None = None


def _killed(draft: AttackDraft, action: ActionStage, damage: DamageStage) -> tuple[int, ...]:
    out: list[int] = []
    if draft.target_id is not None and damage.damage is not None and damage.damage.destroyed:
        out.append(draft.target_id)
    if damage.explosion is not None:
        ids = ([draft.target_id] if action.first is not None and action.first.hit else [])
        ids += list(damage.blast_units)
        for uid, hit in zip(ids, damage.explosion.hits, strict=False):
            if uid is not None and hit.damage.destroyed:
                out.append(uid)
    if damage.missed_damage is not None and damage.missed_damage.destroyed \
            and damage.missed_unit is not None:
        out.append(damage.missed_unit)
    return tuple(dict.fromkeys(out))


def _effects(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
             damage: DamageStage, killed: Sequence[int]) -> tuple[StatusChange, ...]:
    out: list[StatusChange] = []
    tid = draft.target_id
    if tid is not None and tid not in killed:
        if damage.shove is not None and damage.knockback is not None:
            out.append(StatusChange(tid, Status.DISRUPTED))
        if damage.collision is not None:
            if damage.collision.resisted:
                out.append(StatusChange(draft.attacker_id, Status.IN_CLOSE_COMBAT,
                                        with_ids=(tid,)))
            else:
                out.append(StatusChange(tid, Status.DISRUPTED))
        if damage.grab is not None and damage.grab.held:
            out.append(StatusChange(draft.attacker_id, Status.GRABBING, with_ids=(tid,)))
        if draft.kind.close_combat and _parted(draft, action, damage):
            for p in _participants(draft, ctx):
                out.append(StatusChange(p.unit, Status.IN_CLOSE_COMBAT, on=False,
                                        with_ids=(tid,)))
    if damage.explosion is not None:
        ids = ([tid] if action.first is not None and action.first.hit else [])
        ids += list(damage.blast_units)
        for uid, hit in zip(ids, damage.explosion.hits, strict=False):
            if uid is not None and uid not in killed and hit.disrupted:
                out.append(StatusChange(uid, Status.DISRUPTED))
    if draft.kind is AttackKind.CHARGE:
        had = ctx.state.unit(draft.attacker_id).mom
        if damage.mom_spent and had:
            out.append(StatusChange(draft.attacker_id, Status.MOM, on=False))
        elif not damage.mom_spent and not had and _has_mom(draft, ctx):
            out.append(StatusChange(draft.attacker_id, Status.MOM))
    return tuple(out)


def _parted(draft: AttackDraft, action: ActionStage, damage: DamageStage) -> bool:
    """Whether a Close Combat maneuver leaves attacker and target apart (READINGS "Parting"):
    the target dived away, was Shoved or Collided away, or the Charge missed and ran on."""
    if action.bail is not None and action.avoided:
        return True
    if damage.shove is not None and damage.knockback is not None and damage.knockback.flown:
        return True
    if draft.kind is AttackKind.CHARGE and action.avoided is None and not action.hit:
        return not (damage.collision is not None and damage.collision.resisted)
    return False


def _target_name(draft: AttackDraft, ctx: CombatContext) -> str:
    if draft.target_id is not None:
        return ctx.fighter(draft.target_id).name
    return (draft.target_object or ObjectTarget()).name


def _paragraph(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
               damage: DamageStage) -> str:
    sentences: list[str] = []
    if action.bail is not None:
        sentences.append(action.bail.describe())
    if action.avoided and action.bail is not None:
        sentences.append(action.avoided)
    single = len(action.rolls) == 1
    first = action.first
    if first is not None:
        if damage.explosion is not None:
            sentences.append(first.describe() if not first.hit else
                             f"{first.attack.label} hits {first.attack.target.name}")
        elif single and damage.shove is None and damage.grab is None and (
                damage.damage is None or damage.collision is None):
            sentences.append(AttackResult(first, damage.damage if first.hit else None)
                             .describe())
        else:
            sentences.extend(r.describe() for r in action.rolls)
    if action.parry is not None:
        sentences.append(action.parry.describe())
    if damage.explosion is not None:
        sentences.append(damage.explosion.describe())
    if damage.shove is not None:
        sentences.append(damage.shove.describe())
    if damage.grab is not None:
        sentences.append(damage.grab.describe())
    if damage.collision is not None:
        sentences.append(damage.collision.describe())
    if damage.damage is not None and (not single or damage.collision is not None
                                      or damage.shove is not None):
        sentences.append(damage.damage.describe())
    if damage.missed_damage is not None and damage.missed_unit is not None:
        sentences.append(f"The Missed Shot strikes {ctx.fighter(damage.missed_unit).name}: "
                         f"{damage.missed_damage.describe()}")
    elif damage.missed is not None and damage.explosion is None:
        sentences.append(f"The Missed Shot lands within {inches_text(damage.missed.radius)} "
                         f"of {damage.missed.state.attack.target.name} and hits nothing that "
                         "matters")
    if first is not None and first.critical_failure:
        sentences.append("A critical failure: the players may narrate something worse")
    text = ". ".join(s[0].upper() + s[1:] if s else s for s in sentences)
    return text + ("." if text and not text.endswith(".") else "")


def _payload(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
             damage: DamageStage, paragraph: str, details: Sequence[str]) -> dict[str, Any]:
    first = action.first
    mods: list[Modifier] = []
    for r in action.rolls:
        mods.extend(r.modifiers)
    if action.parry is not None:
        mods.extend(action.parry.roll.modifiers)
    for res in (damage.damage, damage.missed_damage):
        if res is not None:
            for p in res.parts:
                mods.extend(p.modifiers)
    if damage.explosion is not None:
        for h in damage.explosion.hits:
            for p in h.damage.parts:
                mods.extend(p.modifiers)
    seen: list[Modifier] = []
    for m in mods:
        if m not in seen:
            seen.append(m)
    item = ctx.item(draft.item_key)
    outcome: dict[str, Any] = {
        "hit": action.hit,
        "killed": bool(draft.target_id is not None and draft.target_id in
                       _killed(draft, action, damage)),
        "critical_failure": bool(first is not None and first.critical_failure),
        "over_the_top": bool(first is not None and first.over_the_top),
    }
    if first is not None and first.roll is not None and first.roll.rolled:
        outcome.update(action_total=first.roll.total, use=first.roll.use)
        if not first.hit:
            outcome["missed_by"] = first.missed_by
    if first is not None and first.automatic is not None:
        outcome["automatic_hit"] = first.automatic.describe()
    if damage.damage is not None:
        outcome["damage"] = damage.damage.total
        if damage.damage.armor_value is not None:
            outcome["armor"] = damage.damage.armor_value
    if action.avoided:
        outcome["avoided"] = action.avoided
    payload: dict[str, Any] = {
        "text": paragraph,
        "weapon": item.name if item is not None else "bare hands",
        "kind": draft.kind.label,
        "target_name": _target_name(draft, ctx),
        "dice": [{"sides": d.sides, "face": d.face, "role": d.role.value, "why": d.why}
                 for d in (*action.dice, *damage.dice)],
        "modifiers": [{"value": m.value, "applies_to": m.applies_to.value,
                       "reason": m.reason, "rule": m.rule} for m in seen],
        "outcome": outcome,
        "lines": list(details),
    }
    if draft.target_object is not None and draft.target_id is None:
        payload["object"] = {"name": draft.target_object.name,
                             "armor": draft.target_object.armor,
                             "size": draft.target_object.size.value}
    return payload


def _details(action: ActionStage, damage: DamageStage) -> tuple[str, ...]:
    lines: list[str] = []
    if action.bail is not None:
        lines.append(action.bail.describe())
    for r in action.rolls:
        if not r.range.close_combat:
            lines.append(f"Range: {r.range.describe()}")
        lines.append(r.describe())
        lines.extend("  " + m.describe() for m in r.modifiers)
    if action.parry is not None:
        lines.append(action.parry.describe())
        lines.extend("  " + m.describe() for m in action.parry.roll.modifiers)
    for res in (damage.damage, damage.missed_damage):
        if res is not None:
            for p in res.parts:
                lines.extend("  " + x for x in p.breakdown())
            lines.append(res.describe())
    if damage.explosion is not None:
        lines.append(damage.explosion.describe())
    if damage.knockback is not None:
        lines.append(damage.knockback.describe())
    dice = (*action.dice, *damage.dice)
    if dice:
        lines.append("Dice: " + ", ".join(f"d{d.sides}={d.face}"
                                          + ("" if d.role is Role.NATURAL else f" ({d.role})")
                                          for d in dice))
    return tuple(lines)


def final_events(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
                 damage: DamageStage, paragraph: str = "",
                 details: Sequence[str] = ()) -> tuple[Event, ...]:
    """What Finish records: the target's reaction (its Parry or Bail spends its Action or a
    hand) and one ``AttackResolved`` holding every participant, status change, kill, die and
    modifier."""
    events: list[Event] = []
    if action.bail is not None:
        events.append(_reaction_event(draft, ctx, ActionUse.BAIL,
                                      over_the_top=action.bail.landed_on_feet))
    if action.parry is not None:
        events.append(_reaction_event(draft, ctx, ActionUse.PARRY))
    killed = _killed(draft, action, damage)
    effects = _effects(draft, ctx, action, damage, killed)
    participants = _participants(draft, ctx)
    close = draft.kind.close_combat and draft.target_id is not None
    payload = _payload(draft, ctx, action, damage, paragraph, details)
    events.append(AttackResolved(actor=participants[0].unit, target=draft.target_id,
                                 participants=participants, close_combat=close,
                                 maneuver=draft.kind.event_name, effects=effects, killed=killed,
                                 details=payload))
    return tuple(events)


def _changes(ctx: CombatContext, events: Sequence[Event], damage: DamageStage,
             draft: AttackDraft) -> tuple[str, ...]:
    """What the events change, read by comparing the state before and after."""
    before = ctx.state
    after = before
    for e in events:
        after = apply(ctx.setup, after, e)
    out: list[str] = []
    for f in ctx.fighters:
        a, b = before.unit(f.unit_id), after.unit(f.unit_id)
        if a == b:
            continue
        bits = []
        if a.action != b.action:
            bits.append(f"Action {a.action.label} → {b.action.label}")
        if a.counters_used != b.counters_used:
            bits.append(f"Counters used {a.counters_used} → {b.counters_used} of "
                        f"{b.counters}")
        gained = [s for s in b.statuses if s not in a.statuses]
        lost = [s for s in a.statuses if s not in b.statuses and not b.dead]
        if b.dead and not a.dead:
            bits.append("Dead")
        shown_apart = (Status.DEAD, Status.IN_CLOSE_COMBAT)  # said below, with whom
        bits += [s.label for s in gained if s not in shown_apart]
        bits += [f"no longer {s.label}" for s in lost if s is not Status.IN_CLOSE_COMBAT]
        if a.close_combat != b.close_combat and not b.dead:
            new = sorted(b.close_combat - a.close_combat)
            gone = sorted(a.close_combat - b.close_combat)
            if new:
                bits.append("in Close Combat with " + ", ".join(
                    ctx.setup.unit(u).name for u in new))
            if gone:
                bits.append("no longer in Close Combat with " + ", ".join(
                    ctx.setup.unit(u).name for u in gone))
        if a.attackers != b.attackers and len(b.attackers) > len(a.attackers):
            bits.append(f"Close Combat attackers this turn: {len(b.attackers)} of 3")
        if bits:
            out.append(f"{f.name}: " + "; ".join(bits))
    for e in events:
        if isinstance(e, AttackResolved):
            if e.killed:
                n = len(e.killed)
                out.append(f"{n} kill{'s' if n > 1 else ''} for {ctx.fighter(e.actor).name}")
    if damage.knockback is not None and damage.knockback.inches:
        out.append(f"move {damage.knockback.target} {inches_text(damage.knockback.inches)} "
                   "directly away (KnockBack)")
    if damage.weapon_knockback:
        out.append(f"move {_target_name(draft, ctx)} "
                   f"{inches_text(damage.weapon_knockback)} directly away (KnockBack, "
                   "not Disrupted)")
    if damage.explosion is not None:
        for h in damage.explosion.hits:
            if h.disrupted:
                out.append(f"move {h.target.name} {inches_text(h.knockback)} away from the "
                           "blast")
    if draft.target_id is None:
        verdict = ("destroyed" if damage.damage is not None and damage.damage.destroyed
                   else "no effect")
        out.append(f"{_target_name(draft, ctx)}: {verdict}")
    out.append("the battle log: one entry with every die and modifier")
    return tuple(out)


def result_summary(draft: AttackDraft, ctx: CombatContext, action: ActionStage | None = None,
                   damage: DamageStage | None = None) -> ResultSummary:
    """The Result page: the paragraph, what will change, every step, and the events to record
    (``problem`` says why Finish can't record them yet)."""
    action = action or resolve_action(draft, ctx)
    if not action.complete:
        why = action.error or ("type the dice of the Action Roll" if action.need else
                               "decide how the Benny is spent")
        return ResultSummary("", (), (), (), why)
    damage = damage or resolve_damage(draft, ctx, action)
    if not damage.complete:
        why = damage.error or ("type the Damage dice" if damage.need else
                               f"{damage.extra_faces} faces typed beyond the dice needed")
        return ResultSummary("", (), (), (), why)
    paragraph = _paragraph(draft, ctx, action, damage)
    details = _details(action, damage)
    events = final_events(draft, ctx, action, damage, paragraph, details)
    try:
        changes = _changes(ctx, events, damage, draft)
    except UserError as exc:
        return ResultSummary(paragraph, (), details, events, str(exc))
    return ResultSummary(paragraph, changes, details, events)


def event_text(draft: AttackDraft, ctx: CombatContext) -> str:
    """The undo stack's name for the whole attack."""
    me = ctx.fighter(draft.attacker_id)
    item = ctx.item(draft.item_key)
    what = item.name if item is not None else "bare hands"
    return f"{draft.kind.label}: {me.name} ({what}) at {_target_name(draft, ctx)}"


def context_from(setup: BattleSetup, state: BattleState, catalog: Catalog,
                 units: Sequence[tuple[int, str, int, UnitSpec, UnitStats, bool]]
                 ) -> CombatContext:
    """A context from the tracker's units: ``(unit id, name, player id, spec, stats, minifig)``."""
    fighters = tuple(Fighter.from_spec(uid, name, pid, spec, stats, catalog, minifig=mini)
                     for uid, name, pid, spec, stats, mini in units)
    return CombatContext(setup, state, catalog, fighters)

