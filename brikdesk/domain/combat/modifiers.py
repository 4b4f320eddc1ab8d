"""The modifiers of the Action Roll: every modifier with its rule, the judgements the
organizer makes on them (size and visibility, Disrupted, outnumbered, engaged) and the choices
of the target's size."""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.attack import (
    Attack,
    RangeCheck,
    SizeClass,
    Target,
    action_modifiers,
    target_size_modifiers,
)
from brikdesk.domain.combat.draft import AttackDraft, Choice, CombatContext
from brikdesk.domain.combat.participants import (
    attacker_engaged,
    attacker_outnumbered,
    target_of,
)
from brikdesk.domain.modifiers import Modifier, Stat


@dataclass(frozen=True)
class ModifierRow:
    """A line of the modifier list: the modifier (value 0 when a judgement gives none) and,
    for a judgement the organizer makes, its key (``size``, ``disrupted``, ``outnumbered``,
    ``engaged``)."""

    modifier: Modifier
    judgement: str | None = None


def size_options(target: Target) -> tuple[Choice[tuple[SizeClass, int]], ...]:
    """The target size and visibility choices (5.1) with their modifiers."""
    out = []
    if not target.inanimate:
        out.append(Choice((SizeClass.MINIFIG, 3), "3 of 3 sections (0)"))
        out.append(Choice((SizeClass.MINIFIG, 2), "2 of 3 sections (-1)"))
        out.append(Choice((SizeClass.MINIFIG, 1), "1 of 3 sections (-2)"))
    out.append(Choice((SizeClass.LARGE, 3), 'large: +1 per 2"'))
    out.append(Choice((SizeClass.BRICK_2X4, 3), "2x4 brick (0)"))
    out.append(Choice((SizeClass.BRICK_2X2, 3), "2x2 brick (-1)"))
    out.append(Choice((SizeClass.STUD_1X1, 3), "1x1 stud, item (-2)"))
    return tuple(out)


def modifier_rows(
    draft: AttackDraft, attack: Attack, rc: RangeCheck, first: bool
) -> tuple[ModifierRow, ...]:
    """Every Action Roll modifier of a participant with its rule: the target's size first,
    then the rest; for the first attacker, the judgements that give no modifier now are listed
    too (value 0), so the organizer can tick them."""
    rows = list(_size_rows(attack, first))
    used = set(target_size_modifiers(attack.target))
    for m in action_modifiers(attack, rc):
        if m not in used:
            rows.append(ModifierRow(m, _judgement_of(m) if first else None))
    if first:
        rows.extend(_unticked_judgements(attack))
    return tuple(rows)


def _size_rows(attack: Attack, first: bool) -> tuple[ModifierRow, ...]:
    """The target's size and visibility modifiers (5.1), or a 0 row saying it gives none."""
    key = "size" if first else None
    size_mods = target_size_modifiers(attack.target)
    if size_mods:
        return tuple(ModifierRow(m, key) for m in size_mods)
    t = attack.target
    what = "minifig, all 3 sections visible" if t.is_minifig else f"target {t.size}"
    rule = "5.1 Minifig Visibility" if t.is_minifig else "5.1 Target Size"
    return (ModifierRow(Modifier(0, Stat.ACTION, what, rule), key),)


def _judgement_of(m: Modifier) -> str | None:
    """The judgement key of a modifier the organizer may overrule (``None``: none)."""
    if m.rule == "4.1 Disrupted":
        return "disrupted"
    if m.reason == "outnumbered in Close Combat":
        return "outnumbered"
    return None


def _unticked_judgements(attack: Attack) -> list[ModifierRow]:
    """The judgements that give no modifier now, as 0 rows the organizer can tick."""
    rows = []
    target = attack.target
    if not target.inanimate and not target.disrupted:
        what = (
            f"{target.name} is not Disrupted"
            if attack.ranged
            else f"{target.name} is not Disrupted (Disrupted: an Automatic Hit)"
        )
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, what, "4.1 Disrupted"), "disrupted"))
    if not attack.ranged and not attack.outnumbered:
        rows.append(
            ModifierRow(
                Modifier(0, Stat.ACTION, "not outnumbered in Close Combat", "5.1 Combined Attacks"),
                "outnumbered",
            )
        )
    if not attack.ranged and target.inanimate:
        rows.append(
            ModifierRow(
                Modifier(
                    0,
                    Stat.ACTION,
                    "someone else is attacking the attacker"
                    if attack.attacker_engaged
                    else "nobody else is attacking the attacker",
                    "5.1 Automatic Hits",
                ),
                "engaged",
            )
        )
    return rows


@dataclass(frozen=True)
class Judgements:
    """What the organizer's judgements stand at now (his word, else the battle's): the
    values the Action Roll page's check boxes show."""

    disrupted: bool
    outnumbered: bool
    engaged: bool


def judgement_values(draft: AttackDraft, ctx: CombatContext) -> Judgements:
    """The judgements as the rules apply them to this draft (4.1 Disrupted, 5.1 Combined
    Attacks, 5.1 Automatic Hits)."""
    target = target_of(draft, ctx)
    return Judgements(
        disrupted=target.disrupted,
        outnumbered=attacker_outnumbered(draft, ctx),
        engaged=attacker_engaged(draft, ctx),
    )
