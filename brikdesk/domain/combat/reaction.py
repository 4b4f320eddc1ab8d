"""The target's reaction: Parry (with what, its Use and modifiers) or Bail."""

from __future__ import annotations

from fractions import Fraction

from brikdesk.domain.actions import BARE_HANDS_PARRY, Incoming, ParryItem, parry_use
from brikdesk.domain.battle import ActionSpent, ActionUse, outnumbered_modifier
from brikdesk.domain.combat import prose
from brikdesk.domain.combat.chances import needed_text
from brikdesk.domain.combat.choices import rules_problem
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, Choice, CombatContext, Reaction
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.odds import attack_odds
from brikdesk.errors import UserError


def made_two_handed(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether a Parry of this attack gets +1 (5.2): a Strike or Charge made with a
    Two-Handed Weapon, or a Shove made by a minifig holding one (the Shove itself is made with
    the hands, so the weapon is the item chosen on page 1, not the Shove's bare-hands
    profile)."""
    item = ctx.item(draft.item_key)
    return bool(
        item is not None
        and item.two_handed
        and draft.kind in (AttackKind.STRIKE, AttackKind.CHARGE, AttackKind.SHOVE)
    )


def parry_item_of(ctx: CombatContext, key: str | None) -> ParryItem:
    item = ctx.item(key)
    if item is None or item.key == "bare-hands":
        return BARE_HANDS_PARRY
    return ParryItem.from_item(item)


def reaction_event(
    draft: AttackDraft, ctx: CombatContext, how: ActionUse, over_the_top: bool = False
) -> ActionSpent:
    assert draft.target_id is not None
    own = ctx.state.unit(draft.target_id).player_id == ctx.state.active
    return ActionSpent(
        actor=draft.target_id,
        how=how,
        as_response=not own,
        target=draft.attacker_id,
        over_the_top=over_the_top,
    )


def reaction_options(
    draft: AttackDraft, ctx: CombatContext
) -> tuple[Choice[tuple[Reaction, str | None]], ...]:
    """What the target may do: nothing, Parry with each item it holds (or bare hands), or
    Bail; each with why the rules forbid it. Values: ``(Reaction, item key or None)``."""
    out: list[Choice[tuple[Reaction, str | None]]] = [Choice((Reaction.NONE, None), "no reaction")]
    if draft.target_id is None:
        why = "an inanimate object doesn't react"
        out.append(Choice((Reaction.PARRY, None), "Parry", why))
        out.append(Choice((Reaction.BAIL, None), "Bail", why))
        return tuple(out)
    t = ctx.fighter(draft.target_id)
    incoming = draft.kind.incoming
    rule_parry = rules_problem(ctx, [reaction_event(draft, ctx, ActionUse.PARRY)])
    two_handed = made_two_handed(draft, ctx)
    candidates: list[str | None] = [it.key for it in t.held if it.hands > 0]
    candidates.append(None)
    for key in dict.fromkeys(candidates):
        p = parry_item_of(ctx, key)
        use, _why = (None, "") if p.use is None and not p.bare_hands else parry_use(p)
        label = (
            f"Parry with {p.name} (Use {use}"
            + (", +1 against a Two-Handed Weapon" if two_handed else "")
            + ")"
        )
        label += t.knocked_away_note(key)
        problem = rule_parry
        if problem is None and draft.kind is AttackKind.COLLISION:
            problem = "a Collision can't be Parried, only dodged by Bailing (5.4)"
        if problem is None and incoming.is_damage and not p.shield:
            what = "a Charge" if incoming is Incoming.CHARGE else "a Strike or other Damage"
            problem = f"only a Shield can Parry {what} (5.2)"
        if problem is None and p.use is None and not p.bare_hands:
            problem = f"{p.name} has no Use to Parry with"
        if (
            problem is None
            and draft.kind is AttackKind.CHARGE
            and incoming.is_damage
            and not p.shield
        ):
            problem = "a Charge can only be Parried with a Shield (5.4)"
        out.append(Choice((Reaction.PARRY, key), label, problem))
    bail_problem = rules_problem(ctx, [reaction_event(draft, ctx, ActionUse.BAIL)])
    out.append(
        Choice((Reaction.BAIL, None), prose.bail_label(ctx.rules, t.action_die), bail_problem)
    )
    return tuple(out)


def parry_preview(draft: AttackDraft, ctx: CombatContext) -> tuple[str, Fraction | None]:
    """The Parry roll in words and its chance of success (Benny per BENNY_POLICY)."""
    if draft.reaction is not Reaction.PARRY or draft.target_id is None:
        return "", None
    t = ctx.fighter(draft.target_id)
    item = parry_item_of(ctx, draft.parry_item)
    try:
        use, why = parry_use(item)
    except UserError as exc:
        return str(exc), None
    mods = _parry_mods(draft, ctx)
    total = sum(m.value for m in mods)
    odds = attack_odds(
        t.action_die, use, "0", 0, action_mod=total, can_go_over_the_top=t.over_the_top
    )
    need, need_words = needed_text(t.action_die, use, total, None)
    text = (
        f"{t.name} Parries with {item.name}: {why}"
        + "".join(f"; {m.describe()}" for m in mods)
        + f"; needs {need_words}"
    )
    return text, odds.hit


def _parry_mods(draft: AttackDraft, ctx: CombatContext) -> tuple[Modifier, ...]:
    assert draft.target_id is not None
    mods = []
    incoming = draft.kind.incoming
    if made_two_handed(draft, ctx):
        mods.append(
            Modifier(
                1, Stat.ACTION, f"Parrying {incoming} made with a Two-Handed Weapon", "5.2 Parrying"
            )
        )
    if draft.kind.close_combat and outnumbered_modifier(ctx.state, draft.target_id):
        mods.append(
            Modifier(-1, Stat.ACTION, "outnumbered in Close Combat", "5.1 Combined Attacks")
        )
    return tuple(mods)
