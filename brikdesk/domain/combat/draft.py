"""The draft the wizard's pages fill: who is in the battle (fighters, the context) and the
attack chosen (a frozen ``AttackDraft``, changed with ``dataclasses.replace``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Generic, TypeVar

from brikdesk.domain.actions import Incoming
from brikdesk.domain.attack import Armor, Attacker, Maneuver, SizeClass, to_inches
from brikdesk.domain.battle import BattleSetup, BattleState, Use
from brikdesk.domain.catalog import Catalog, CatalogItem
from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.rolling import BennyUse
from brikdesk.domain.roster import UnitSpec, UnitStats
from brikdesk.domain.rulesets import RuleSet
from brikdesk.errors import UserError

T = TypeVar("T", covariant=True)  # a Choice only hands its value out

#: Attack kinds that are Close Combat maneuvers.
_CLOSE = frozenset({"strike", "charge", "shove", "grab", "collision"})


class AttackKind(str, Enum):
    """The kind of attack chosen on page 1."""

    RANGED = "ranged"
    THROWN = "thrown"
    STRIKE = "strike"
    CHARGE = "charge"
    SHOVE = "shove"
    GRAB = "grab"
    COLLISION = "collision"

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]

    @property
    def verb(self) -> str:
        """``"shoots at"``: what the attacker does to the target, in a sentence."""
        return _KIND_VERBS[self]

    @property
    def close_combat(self) -> bool:
        return self.value in _CLOSE

    @property
    def engages(self) -> bool:
        """Whether the attack counts as a Close Combat attack in the battle log (a Collision
        is part of movement, 5.4: it locks the two in only when resisted)."""
        return self.close_combat and self is not AttackKind.COLLISION

    @property
    def maneuver(self) -> Maneuver:
        return _MANEUVERS[self]

    @property
    def event_name(self) -> str:
        """The ``maneuver`` word of the battle log's ``AttackResolved`` ("ranged attack")."""
        return {AttackKind.RANGED: "ranged attack", AttackKind.THROWN: "thrown attack"}.get(
            self, self.value
        )

    @property
    def incoming(self) -> Incoming:
        """What a Parry of this attack Parries (5.2)."""
        return _INCOMING[self]


_KIND_LABELS = {
    AttackKind.RANGED: "Ranged attack",
    AttackKind.THROWN: "Thrown",
    AttackKind.STRIKE: "Close Combat Strike",
    AttackKind.CHARGE: "Charge",
    AttackKind.SHOVE: "Shove",
    AttackKind.GRAB: "Grab",
    AttackKind.COLLISION: "Collision (a MOM, no Action)",
}
_KIND_VERBS = {
    AttackKind.RANGED: "shoots at",
    AttackKind.THROWN: "throws at",
    AttackKind.STRIKE: "strikes",
    AttackKind.CHARGE: "Charges",
    AttackKind.SHOVE: "Shoves",
    AttackKind.GRAB: "Grabs",
    AttackKind.COLLISION: "Collides with",
}
_MANEUVERS = {
    AttackKind.RANGED: Maneuver.RANGED,
    AttackKind.THROWN: Maneuver.RANGED,
    AttackKind.STRIKE: Maneuver.STRIKE,
    AttackKind.CHARGE: Maneuver.CHARGE,
    AttackKind.SHOVE: Maneuver.SHOVE,
    AttackKind.GRAB: Maneuver.GRAB,
    AttackKind.COLLISION: Maneuver.SHOVE,  # no Action Roll; see resolution's collision_hit
}
_INCOMING = {
    AttackKind.RANGED: Incoming.DAMAGE,
    AttackKind.THROWN: Incoming.DAMAGE,
    AttackKind.STRIKE: Incoming.STRIKE,
    AttackKind.CHARGE: Incoming.CHARGE,
    AttackKind.SHOVE: Incoming.SHOVE,
    AttackKind.GRAB: Incoming.GRAB,
    AttackKind.COLLISION: Incoming.SHOVE,
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

    unit_id: BattleUnitId
    name: str
    player_id: PlayerId
    action_die: int = 6
    armor: str = "4"
    over_the_top: bool = True
    deflection: int = 0
    held: tuple[CatalogItem, ...] = ()
    worn: tuple[CatalogItem, ...] = ()
    carried: tuple[CatalogItem, ...] = ()
    minifig: bool = True
    #: Items a failed Parry knocked out of its hands earlier in this battle: (key, round).
    knocked_away: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_spec(
        cls,
        unit_id: BattleUnitId,
        name: str,
        player_id: PlayerId,
        spec: UnitSpec,
        stats: UnitStats,
        catalog: Catalog,
        *,
        minifig: bool = True,
        over_the_top: bool = True,
        knocked_away: tuple[tuple[str, int], ...] = (),
    ) -> Fighter:
        """The fighter of a tracked unit; ``over_the_top`` False where its edition has no
        going Over the Top (its stats say whether the unit itself may)."""

        def items(keys: Sequence[str | None]) -> tuple[CatalogItem, ...]:
            return tuple(
                it for k in keys if k is not None for it in [catalog.get_item(k)] if it is not None
            )

        lo = spec.loadout
        return cls(
            unit_id,
            name,
            player_id,
            stats.action_die,
            stats.armor,
            stats.over_the_top and over_the_top,
            stats.deflection,
            items(lo.hands),
            items(lo.worn),
            items(lo.carried),
            minifig,
            knocked_away,
        )

    @property
    def attacker(self) -> Attacker:
        return Attacker(self.name, self.action_die, self.over_the_top)

    @property
    def items(self) -> tuple[CatalogItem, ...]:
        """What it could attack or Parry with: held first, then carried."""
        return self.held + self.carried

    def knocked_away_note(self, key: str | None) -> str:
        """``" — knocked away in round 2: only if picked up since"`` for an item a critical
        failure on a Parry knocked out of its hands (5.2), else ``""``."""
        rounds = [r for k, r in self.knocked_away if k == key]
        if key is None or not rounds:
            return ""
        return f" — knocked away in round {rounds[-1]}: only if picked up since"


@dataclass(frozen=True, eq=False)
class CombatContext:
    """The battle as the wizard opened it: rules setup and state, units, the catalog."""

    setup: BattleSetup
    state: BattleState
    catalog: Catalog
    fighters: tuple[Fighter, ...]

    @cached_property
    def by_id(self) -> dict[BattleUnitId, Fighter]:
        return {f.unit_id: f for f in self.fighters}

    @property
    def rules(self) -> RuleSet:
        """The battle's edition (the campaign's): the rules the wizard plays."""
        return self.setup.rules

    def fighter(self, unit_id: BattleUnitId) -> Fighter:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise UserError(f"No unit {unit_id} in this battle.", field="unit") from None

    def side(self, unit_id: BattleUnitId) -> str:
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

    unit_id: BattleUnitId
    item_key: str | None = None
    distance: Fraction | None = None
    altitude: Fraction = Fraction(0)
    use: Use | None = None


@dataclass(frozen=True)
class AttackDraft:
    """Everything the wizard's pages choose. ``None`` in a judgement means "as the battle state
    or the target says" (a Disrupted target is Disrupted unless the organizer says otherwise).

    Faces of the dice are kept per stage: ``action_faces`` (Who Acts First, Bail, Action
    Rolls, Benny dice, Parry) and ``damage_faces`` (Damage, Armor, Missed Shot, Collision); ``bennies`` says how
    each Over the Top Benny is spent, keyed ``"attack:<unit id>"``, ``"parry"`` or ``"bail"``.
    """

    attacker_id: BattleUnitId
    item_key: str | None = None
    kind: AttackKind = AttackKind.STRIKE
    target_id: BattleUnitId | None = None
    target_object: ObjectTarget | None = None
    use: Use | None = None
    joiners: tuple[Joiner, ...] = ()
    improvised: bool = False
    #: A response Strike on a minifig moving past (4.1): he may ignore it unless he Parries.
    passing_by: bool = False
    #: The fight joins the brawl of this unit (5.2, reading brawl); ``None``: its own fight.
    brawl: BattleUnitId | None = None
    #: Who Acts First (4.3): the attack is a response colliding with the target's own Action;
    #: the facts the edition needs (2005: a response to Movement, the Use of what the target
    #: attempts; 2010/2020: an inch or more from acting; whether both can happen at once).
    who_first: bool = False
    first_to_movement: bool = False
    first_target_use: int | None = None
    first_inch_away: bool = False
    first_simultaneous: bool = True
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
    record_knocked_away: bool = True  # a critical failure on a Parry: note the item's loss
    # page 5
    #: The rule warnings (``str(RuleWarning)``) the organizer overruled: recorded anyway.
    overruled: tuple[str, ...] = ()
    # page 4
    spend_mom: bool = True
    blast_ids: tuple[BattleUnitId, ...] = ()
    #: Per unit in the blast: its sections inside the radius and visible from the point of
    #: detonation (5.1), when the organizer said; 3 otherwise, 0 leaves it out.
    blast_sections: tuple[tuple[BattleUnitId, int], ...] = ()
    missed_strikes: BattleUnitId | None = None
    missed_distance: Fraction | None = None
    collide: bool = True
    obstacle: Fraction | None = None
    damage_faces: tuple[int, ...] = ()

    def benny(self, key: str) -> BennyUse | None:
        for k, v in self.bennies:
            if k == key:
                return v
        return None

    def with_benny(self, key: str, use: BennyUse) -> AttackDraft:
        others = tuple((k, v) for k, v in self.bennies if k != key)
        return replace(self, bennies=others + ((key, use),))

    def sections_in_blast(self, unit_id: BattleUnitId | None) -> int:
        """A unit's sections inside the blast and visible from the detonation point (5.1):
        what the organizer set, else all three."""
        return dict(self.blast_sections).get(unit_id, 3) if unit_id is not None else 3

    def with_sections_in_blast(self, unit_id: BattleUnitId, sections: int) -> AttackDraft:
        others = tuple((u, n) for u, n in self.blast_sections if u != unit_id)
        return replace(self, blast_sections=others + ((unit_id, sections),))


# --------------------------------------------------------------------------------------------
# A choice of a selector


@dataclass(frozen=True)
class Choice(Generic[T]):
    """One entry of a selector: its value, label, and why it can't be chosen (``None``: it can)."""

    value: T
    label: str
    problem: str | None = None

    @property
    def allowed(self) -> bool:
        return self.problem is None


def knocked_away_items(events: Iterable[object]) -> dict[BattleUnitId, tuple[tuple[str, int], ...]]:
    """Items knocked out of a unit's hands by a failed Parry (5.2), as the combat wizard
    recorded them in the battle log: unit id -> ((item key, round), ...)."""
    out: dict[BattleUnitId, list[tuple[str, int]]] = {}
    for e in events:
        details = getattr(e, "details", None)
        if not isinstance(details, dict):
            continue
        knocked = details.get("outcome", {}).get("knocked_away")
        if isinstance(knocked, dict) and isinstance(knocked.get("unit"), int):
            out.setdefault(BattleUnitId(knocked["unit"]), []).append(
                (str(knocked.get("item", "")), int(knocked.get("round", 0)))
            )
    return {uid: tuple(v) for uid, v in out.items()}


def context_from(
    setup: BattleSetup,
    state: BattleState,
    catalog: Catalog,
    units: Sequence[tuple[BattleUnitId, str, PlayerId, UnitSpec, UnitStats, bool]],
    events: Iterable[object] = (),
) -> CombatContext:
    """A context from the tracker's units: ``(unit id, name, player id, spec, stats, minifig)``,
    and the battle's standing ``events`` (for items knocked away earlier).

    4.2: a unit goes Over the Top only where the battle's edition has it
    (``RuleSet.has_over_the_top``): 2005's chapter 4 has no Benny, so no 2005 unit can go
    Over the Top, a Hero neither; every roll, odds and attack call then follows its Fighter.
    """
    knocked = knocked_away_items(events)
    edition_ott = setup.rules.has_over_the_top
    fighters = tuple(
        Fighter.from_spec(
            uid,
            name,
            pid,
            spec,
            stats,
            catalog,
            minifig=mini,
            over_the_top=edition_ott,
            knocked_away=knocked.get(uid, ()),
        )
        for uid, name, pid, spec, stats, mini in units
    )
    return CombatContext(setup, state, catalog, fighters)
