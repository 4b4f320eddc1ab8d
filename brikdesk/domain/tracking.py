"""Readings the battle tracker applies, and the stats it falls back on.

The tracker (``brikdesk.services.tracker``) stores and replays a battle's log; the choices it
makes where the rules or the campaign's data leave a gap are rules decisions and live here,
listed in Help > Rules reference (:data:`READINGS`):

- a mustered unit whose unit type left the campaign's catalog is tracked with the Minifig's
  stats (2.1 Minifigs: Skill d6, Move 5", Armor 4; two hands, so two Counters, 5.2);
- the three-attacker limit of 5.1 Combined Attacks applies to units with hands;
- Undo takes back one recorded action as a whole.
"""

from __future__ import annotations

from dataclasses import replace

from brikdesk.domain.catalog import Catalog, CatalogError
from brikdesk.domain.roster import UnitSpec, UnitStats, effective_stats

__all__ = ["MINIFIG_FALLBACK_STATS", "READINGS", "fallback_stats", "unknown_type_note"]

READINGS: dict[str, str] = {
    "minifig": (
        "5.1 Combined Attacks: the three-attacker limit is for minifigs. BrikDesk "
        "treats every unit type with hands (Minifig, Hero, Heavy...) as a minifig and "
        "types without hands (a Horse, a vehicle) as larger units with no hard limit."
    ),
    "unknown_type": (
        "A mustered unit whose unit type is no longer in the campaign's catalog "
        "is tracked with the Minifig's stats until the type is back."
    ),
    "undo_groups": (
        "Undo takes back one action as the panel recorded it: an attack that "
        "kills its target and spends an Action is undone in one step."
    ),
}

#: 2.1 Minifigs (the unit table): Skill d6, Move 5", Armor 4; two hands, so two Counters (5.2).
#: Used when the campaign's catalog has no Minifig either.
MINIFIG_FALLBACK_STATS = UnitStats(
    action_die=6,
    move=5,
    armor="4",
    armor_dice=4,
    half_speed=False,
    deflection=0,
    cant_swim=False,
    counters=2,
    over_the_top=True,
)


def unknown_type_note(unit_type: str) -> str:
    """What a unit of an unknown type says about its stats (``READINGS["unknown_type"]``)."""
    return f"unknown unit type '{unit_type}': Minifig stats used"


def fallback_stats(spec: UnitSpec, catalog: Catalog) -> tuple[UnitStats, str]:
    """The stats of a unit whose type the catalog lacks (``READINGS["unknown_type"]``): its
    loadout on the catalog's Minifig, else :data:`MINIFIG_FALLBACK_STATS`; with the note
    that says so (also added to the stats' ``reasons``)."""
    note = unknown_type_note(spec.unit_type)
    try:
        stats = effective_stats(replace(spec, unit_type="minifig"), catalog)
    except CatalogError:
        stats = MINIFIG_FALLBACK_STATS
    return replace(stats, reasons=stats.reasons + (note,)), note
