"""The Sherwood battle of the combat tests, in the domain alone: Thieven Hood's Merry Men
(player 1) against the Sheriff's men of Nottingham (player 2), each unit with its id, name,
player, type and hands, on the 2020 catalog with a longbow added."""

from __future__ import annotations

from dataclasses import replace

from brikdesk.domain.battle import BattleSetup, PlayerSetup, UnitSetup, apply, initial_state
from brikdesk.domain.catalog import Catalog, load_default_catalog
from brikdesk.domain.combat import AttackDraft, CombatContext, context_from, result_summary
from brikdesk.domain.roster import Loadout, UnitSpec, effective_stats
from brikdesk.domain.rulesets import RULES_2020, RuleSet

HOOD, JOHN, TUCK, WILL, GUY, SHERIFF, ALAN, BERT, MUCH = range(1, 10)

UNITS = {
    HOOD: ("Thieven Hood", 1, "hero", ("longbow",)),
    JOHN: ("Little John", 1, "minifig", ("two-handed-weapon",)),
    TUCK: ("Friar Tuck", 1, "minifig", ("explosive", "hand-weapon")),
    WILL: ("Will Scarlet", 1, "minifig", ("hand-weapon", None)),
    GUY: ("Guy of Gisbourne", 2, "minifig", ("hand-weapon", "shield")),
    SHERIFF: ("The Sheriff", 2, "hero", ("heavy-weapon",)),
    ALAN: ("Guard Alan", 2, "minifig", ("short-ranged-weapon",)),
    BERT: ("Guard Bert", 2, "minifig", ("hand-weapon", "shield")),
    MUCH: ("Much", 1, "minifig", ("hand-weapon", "shield")),
}


def _catalog() -> Catalog:
    cat = load_default_catalog("2020")
    bow = replace(cat.item("long-ranged-weapon"), key="longbow", name="longbow")
    return Catalog(cat.edition, cat.version, cat.unit_types, cat.items + (bow,))


CATALOG = _catalog()


def unit_rows(worn: dict[int, tuple[str, ...]] | None = None) -> list[tuple]:
    units = []
    for uid, (name, player, type_key, hands) in UNITS.items():
        spec = UnitSpec(name, type_key, Loadout(hands, (worn or {}).get(uid, ())))
        units.append((uid, name, player, spec, effective_stats(spec, CATALOG), True))
    return units


def make_ctx(
    events=(), *, worn: dict[int, tuple[str, ...]] | None = None, rules: RuleSet = RULES_2020
) -> CombatContext:
    """The battle as the tracker sets it up (Counters from the loadout), after ``events``;
    ``worn`` puts armour on some units; ``rules`` is the campaign's edition."""
    units = unit_rows(worn)
    setup = BattleSetup(
        (PlayerSetup(1, "Merry Men"), PlayerSetup(2, "Nottingham")),
        tuple(
            UnitSetup(uid, p, name, counters=stats.counters)
            for uid, name, p, _spec, stats, _m in units
        ),
        rules=rules,
    )
    state = initial_state(setup)
    for e in events:
        state = apply(setup, state, e)
    return context_from(setup, state, CATALOG, units)


def record(ctx: CombatContext, draft: AttackDraft):
    """The result and the state after the events Finish would record (they must be legal)."""
    summary = result_summary(draft, ctx)
    assert summary.problem is None, summary.problem
    state = ctx.state
    for e in summary.events:
        state = apply(ctx.setup, state, e)
    return summary, state
