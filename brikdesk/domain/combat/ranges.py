"""Page 2, Range: weapon Range, Height Advantage, effective Range, Out of Range penalties,
Firing Blind; reach for Close Combat."""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.attack import charging_weapon, check_range
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext
from brikdesk.domain.combat.participants import has_mom, weapon_of
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.errors import UserError


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
    #: Each joiner whose range can't be worked out (no distance yet, a weapon that can't make
    #: this attack), by unit: the page says it at that joiner's distance field.
    joiner_problems: tuple[tuple[BattleUnitId, str], ...] = ()


def range_preview(draft: AttackDraft, ctx: CombatContext) -> RangePreview:
    """Weapon Range, Height Advantage, effective Range and Out of Range penalties (5.1); reach
    for Close Combat. A missing distance is an ``error`` the page shows, not an exception."""
    item = ctx.item(draft.item_key)
    try:
        weapon = weapon_of(item, draft.kind)
    except UserError as exc:
        return RangePreview(False, "?", None, None, None, 0, (), (), "", error=str(exc))
    blind = (
        Modifier(-5, Stat.ACTION, 'Firing Blind at a target known within 1"', "5.1 Firing Blind")
        if draft.firing_blind
        else None
    )
    if draft.kind.close_combat:
        reach = check_range(weapon, in_reach=draft.in_reach)
        notes: tuple[str, ...] = ()
        if draft.kind is AttackKind.CHARGE:
            ok, why = charging_weapon(
                weapon, both_hands=draft.both_hands, from_above=draft.from_above
            )
            mom = has_mom(draft, ctx)
            notes = (
                f"{weapon.name}: {why}",
                (
                    "MOM: a hit may spend it for one more Action die of Damage; a miss "
                    "keeps it for a Collision (5.4)"
                    if ok
                    else "MOM: a miss keeps it for a Collision (5.4)"
                )
                if mom
                else 'No MOM: a Charge needs a run of 4" or more straight at the target '
                "(5.4 Momentum)",
            )
        return RangePreview(
            True,
            weapon.name,
            None,
            None,
            None,
            0,
            (),
            notes,
            reach.describe(),
            error=None if draft.in_reach else reach.describe(),
        )
    joiners = []
    problems: list[tuple[BattleUnitId, str]] = []
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
            problems.append((j.unit_id, str(exc)))
    if draft.distance is None:
        return RangePreview(
            False,
            weapon.name,
            weapon.range_inches,
            None,
            None,
            0,
            (),
            (),
            f"{weapon.name}: Range {weapon.range_text}",
            tuple(joiners),
            "measure the distance to the target (inches; halves allowed)",
            blind,
        )
    try:
        rc = check_range(weapon, distance=draft.distance, altitude=draft.altitude)
    except UserError as exc:
        return RangePreview(
            False,
            weapon.name,
            weapon.range_inches,
            None,
            None,
            0,
            (),
            (),
            "",
            tuple(joiners),
            str(exc),
            blind,
        )
    height = next((m for m in rc.range_modifiers if m.rule == "5.1 Height Advantage"), None)
    return RangePreview(
        False,
        weapon.name,
        rc.base_range,
        height,
        rc.effective_range,
        rc.inches_out,
        rc.penalties,
        rc.notes,
        rc.describe(),
        tuple(joiners),
        # 5.1 Combined Attacks: every attacker makes its own attack, each with its own range;
        # the attack can't go on until each one's is known.
        f"{ctx.fighter(problems[0][0]).name}: {problems[0][1]}" if problems else None,
        blind,
        tuple(problems),
    )
