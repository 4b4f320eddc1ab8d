"""An attack a player proposes from their phone: their choices (the attacker, its weapon, the
target, the range) and the dice they rolled, made into the ``AttackDraft`` the quick attack
form would make of the same keys, so that the odds, the judgements and the result the phone
shows are the quick form's, and the organizer's app records exactly that draft.

The quick form's steps, as functions of the draft: ``with_weapon`` (Alt+W: the weapon and the
first kind of attack it allows), ``aimed_at`` (a target chosen: the last target's judgements
dropped, the payment that suits this one), ``with_faces`` (each die typed goes to the stage
that waits for it: the Action Roll's, then the Damage's). ``attack_lines`` says the odds as the
quick form's odds line does. Nothing here decides whether the player may send it: the battle
rules do (``proposal_refusal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from brikdesk.domain.battle import Event
from brikdesk.domain.combat.choices import (
    best_use,
    default_draft,
    kind_options,
    rules_problem,
    target_options,
    weapon_options,
)
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext, Reaction
from brikdesk.domain.combat.participants import target_name
from brikdesk.domain.combat.previews import action_preview
from brikdesk.domain.combat.resolution import resolve_action, resolve_damage
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.odds import percent
from brikdesk.errors import UserError

#: The most dice a proposal may carry (an attack with a Benny and a Parry needs a handful).
MAX_FACES = 12


def aimed_at(draft: AttackDraft, ctx: CombatContext, target: BattleUnitId) -> AttackDraft:
    """The attack at ``target``, its judgements of the last target dropped: the target's own
    Size, a reaction and a blast start afresh; it pays the way that suits this target."""
    d = replace(draft, target_id=target, target_object=None, use=None)
    return replace(
        d,
        size=None,
        sections_visible=3,
        visible_size=None,
        target_disrupted=None,
        reaction=Reaction.NONE,
        blast_ids=(),
        use=best_use(ctx, d),
    )


def of_kind(draft: AttackDraft, ctx: CombatContext, kind: AttackKind) -> AttackDraft:
    """The attack as a ``kind`` (a Strike, a Grab...), when its weapon allows it."""
    allowed = [c.value for c in kind_options(ctx, draft) if c.allowed]
    return replace(draft, kind=kind, reaction=Reaction.NONE) if kind in allowed else draft


def weapon_choices(
    ctx: CombatContext, draft: AttackDraft
) -> list[tuple[str | None, str, str | None]]:
    """The attacker's weapons as a player may pick them: (key, label, why not), each judged
    as the kind of attack it would make (``with_weapon``), not only the draft's kind."""
    out = []
    for c in weapon_options(ctx, draft):
        if c.value == draft.item_key:
            out.append((c.value, c.label, c.problem))
            continue
        tried = with_weapon(draft, ctx, c.value)
        judged = next(x for x in weapon_options(ctx, tried) if x.value == c.value)
        out.append((c.value, c.label, judged.problem))
    return out


def with_weapon(draft: AttackDraft, ctx: CombatContext, item_key: str | None) -> AttackDraft:
    """The attack with ``item_key`` (``None``: bare hands), as the first kind of attack the
    weapon allows, the draft's own kind first; its dice start again."""
    d = replace(draft, item_key=item_key)
    allowed = [c.value for c in kind_options(ctx, d) if c.allowed]
    kind = next((k for k in (d.kind, *AttackKind) if k in allowed), None)
    if kind is not None and kind is not d.kind:
        d = replace(d, kind=kind, reaction=Reaction.NONE)
    return replace(d, action_faces=(), damage_faces=(), bennies=())


def with_faces(draft: AttackDraft, ctx: CombatContext, faces: Sequence[int]) -> AttackDraft:
    """The draft with ``faces`` typed one by one, each to the stage waiting for a die (the
    Action Roll's until it is complete, then the Damage's). Faces beyond what the attack
    needs, or past a Benny to decide, are left out (``faces_used`` says how many went in)."""
    d = replace(draft, action_faces=(), damage_faces=())
    for face in faces[:MAX_FACES]:
        action = resolve_action(d, ctx)
        if action.pending is not None:
            break
        if action.need is not None:
            d = replace(d, action_faces=(*d.action_faces, face))
        elif resolve_damage(d, ctx, action).need is not None:
            d = replace(d, damage_faces=(*d.damage_faces, face))
        else:
            break
    return d


def faces_used(draft: AttackDraft) -> int:
    return len(draft.action_faces) + len(draft.damage_faces)


def parse_faces(text: str) -> tuple[int, ...]:
    """``"5 4"`` (or ``"5,4"``) as faces; ``UserError`` at the field for anything else."""
    words = text.replace(",", " ").split()
    if len(words) > MAX_FACES:
        raise UserError(f"At most {MAX_FACES} dice.", field="dice")
    faces = []
    for w in words:
        if not w.isdigit() or not 1 <= int(w) <= 100:
            raise UserError(f"{w!r} is not the face of a die.", field="dice")
        faces.append(int(w))
    return tuple(faces)


@dataclass(frozen=True)
class AttackLines:
    """What the quick form shows of an attack before its dice: the odds line and the
    modifiers (each with its value, what it modifies, why and its rule)."""

    odds: str
    modifiers: tuple[str, ...]


def attack_lines(draft: AttackDraft, ctx: CombatContext) -> AttackLines:
    """The quick form's odds line: ``Needs 4+ on d6 · hit 50.0% · destroy 25.0%``."""
    preview = action_preview(draft, ctx)
    first = preview.first
    rows = tuple(r.modifier.describe() for r in (first.rows if first else ()) if r.modifier.value)
    if first is not None and first.odds is not None:
        needs = "no roll" if first.needed is None else f"{first.needed}+"
        odds = (
            f"Needs {needs} on d{first.action_die} · hit {percent(first.odds.hit)}"
            f" · destroy {percent(preview.kill)}"
        )
    else:
        odds = preview.error or (first.needed_text if first is not None else "")
    return AttackLines(odds, rows)


def proposal_refusal(ctx: CombatContext, events: Sequence[Event]) -> str | None:
    """Why the battle rules refuse ``events`` from the battle as it stands (``None``: they
    allow them): not the attacker's turn and no legal response, its Action spent..."""
    return rules_problem(ctx, events)


@dataclass(frozen=True)
class AttackChoice:
    """What a player chose on their phone: ``item_key`` ``None`` is bare hands; ``target_id``
    ``None`` the quick form's first target; ``faces`` the dice they rolled, in order."""

    attacker_id: BattleUnitId
    item_key: str | None
    target_id: BattleUnitId | None
    distance: Fraction | None
    faces: tuple[int, ...]


def proposed_draft(ctx: CombatContext, choice: AttackChoice) -> AttackDraft:
    """The draft the quick form makes of ``choice``: opened on the attacker, Alt+W to the
    weapon, the target typed, the range, then the dice. ``UserError`` (at its field) for a
    weapon or a target the rules do not offer."""
    d = default_draft(ctx, choice.attacker_id)
    if choice.item_key != d.item_key:
        if choice.item_key not in {c.value for c in weapon_options(ctx, d)}:
            raise UserError("Not that weapon: it does not carry that.", field="weapon")
        d = with_weapon(d, ctx, choice.item_key)
        weapon = next(c for c in weapon_options(ctx, d) if c.value == choice.item_key)
        if not weapon.allowed:
            raise UserError(f"Not that weapon: {weapon.problem}.", field="weapon")
    if choice.target_id is not None and choice.target_id != d.target_id:
        targets = {c.value: c for c in target_options(ctx, d)}
        target = targets.get(choice.target_id)
        if target is None or not target.allowed:
            why = target.problem if target is not None else "no such unit in this battle"
            raise UserError(f"Not that target: {why}.", field="target")
        d = aimed_at(d, ctx, choice.target_id)
    if not d.kind.close_combat:
        d = replace(d, distance=choice.distance)
    return with_faces(d, ctx, choice.faces)


def proposal_text(player: str, draft: AttackDraft, ctx: CombatContext) -> str:
    """``Anna: Archer 1 shoots at Grunt 1 (Bow), dice 5 4``: a proposal in the battle panel."""
    me = ctx.fighter(draft.attacker_id)
    item = ctx.item(draft.item_key)
    faces = " ".join(str(f) for f in (*draft.action_faces, *draft.damage_faces))
    return (
        f"{player}: {me.name} {draft.kind.verb} {target_name(draft, ctx)}"
        f" ({item.name if item is not None else 'bare hands'})"
        + (f", dice {faces}" if faces else "")
    )
