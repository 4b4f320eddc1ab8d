"""The choices of an attack (attacker, weapon, kind, target, how each pays, who joins) and
what the rules say about them: illegal choices are explained, never hidden; the battle rules
engine is asked with a trial event, so the wizard refuses exactly what the tracker would."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from brikdesk.domain.battle import (
    ActionState,
    AttackResolved,
    Event,
    Participant,
    Use,
    apply,
    can_respond_now,
    why_not_respond,
)
from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.combat.draft import (
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    Fighter,
    Joiner,
    ObjectTarget,
)
from brikdesk.domain.combat.participants import (
    can_use_kind,
    default_use,
    hands_used,
    participants,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError


def attacker_options(ctx: CombatContext) -> tuple[Choice[BattleUnitId], ...]:
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


def kind_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice[AttackKind], ...]:
    """Every kind of attack, each with why the chosen weapon can't make it."""
    item = ctx.item(draft.item_key)
    return tuple(Choice(k, k.label, can_use_kind(item, k)) for k in AttackKind)


def weapon_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice[str | None], ...]:
    """The attacker's held and carried items and bare hands (any catalog item when
    ``draft.improvised``), each with why it can't make the chosen kind of attack."""
    fighter = ctx.fighter(draft.attacker_id)
    seen: set[str] = set()
    out: list[Choice[str | None]] = []
    items = list(ctx.catalog.items) if draft.improvised else list(fighter.items)
    for it in items:
        if it.key in seen or it.key == "bare-hands" or it.worn:
            continue
        seen.add(it.key)
        where = "" if draft.improvised else (" (in hand)" if it in fighter.held else " (carried)")
        out.append(
            Choice(
                it.key,
                f"{it.name}{where}: {_profile(it)}" + fighter.knocked_away_note(it.key),
                can_use_kind(it, draft.kind),
            )
        )
    out.append(Choice(None, "Bare hands: Use 0, Shove or Grab", can_use_kind(None, draft.kind)))
    return tuple(out)


def _profile(it: CatalogItem) -> str:
    parts = [f"Use {it.use_text()}", it.range_text()]
    if it.damage:
        parts.append(it.damage)
    return ", ".join(parts)


def target_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice[BattleUnitId], ...]:
    """Units of the battle (enemies first), each with why it can't be attacked."""
    me = ctx.fighter(draft.attacker_id)
    my_side = ctx.side(me.unit_id)
    out: list[tuple[int, Choice[BattleUnitId]]] = []
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


def _attack_event(
    draft: AttackDraft, ctx: CombatContext, parts: Sequence[Participant]
) -> AttackResolved:
    close = draft.kind.engages and draft.target_id is not None
    return AttackResolved(
        actor=parts[0].unit,
        target=draft.target_id,
        participants=tuple(parts),
        close_combat=close,
        maneuver=draft.kind.event_name,
    )


def rules_problem(ctx: CombatContext, events: Sequence[Event]) -> str | None:
    """What the battle rules say against these events from the current state (None: legal)."""
    state = ctx.state
    try:
        for e in events:
            state = apply(ctx.setup, state, e)
    except UserError as exc:
        return str(exc)
    return None


def use_options(
    ctx: CombatContext, draft: AttackDraft, unit_id: BattleUnitId | None = None
) -> tuple[Choice[Use], ...]:
    """How a participant may pay: its Action, a held Action in response, a Counter; each with
    the rules engine's reason when it can't."""
    uid = draft.attacker_id if unit_id is None else unit_id
    labels = {
        Use.ACTION: "its Action (own turn)",
        Use.RESPONSE: "its held Action, in response",
        Use.COUNTER: "a Counter (Close Combat)",
    }
    out = []
    for use in (Use.ACTION, Use.RESPONSE, Use.COUNTER):
        hands = hands_used(
            draft,
            ctx,
            uid,
            draft.item_key
            if uid == draft.attacker_id
            else next((j.item_key for j in draft.joiners if j.unit_id == uid), None),
        )
        problem = rules_problem(ctx, [_attack_event(draft, ctx, [Participant(uid, use, hands)])])
        out.append(Choice(use, labels[use], problem))
    return tuple(out)


def attack_problem(ctx: CombatContext, draft: AttackDraft) -> str | None:
    """Why the attack as chosen on page 1 can't be made (``None``: it can)."""
    me = ctx.fighter(draft.attacker_id)
    if draft.target_id is None and draft.target_object is None:
        return "choose a target: a unit or an inanimate object"
    if draft.target_id == draft.attacker_id:
        return f"{me.name} can't attack himself"
    if draft.kind is AttackKind.COLLISION and draft.target_id is None:
        return "a Collision is with a unit in his path (5.4 Minifig Collisions)"
    problem = can_use_kind(ctx.item(draft.item_key), draft.kind)
    if problem:
        return problem
    for j in draft.joiners:
        problem = can_use_kind(ctx.item(j.item_key), draft.kind)
        if problem:
            return f"{ctx.fighter(j.unit_id).name}: {problem}"
    return rules_problem(ctx, [_attack_event(draft, ctx, participants(draft, ctx))])


def joiner_options(ctx: CombatContext, draft: AttackDraft) -> tuple[Choice[BattleUnitId], ...]:
    """The attacker's side's units that could join a Combined Attack, each with the rules
    engine's reason when it can't (Disrupted, Action spent, a fourth Close Combat attacker on
    one minifig...)."""
    out: list[Choice[BattleUnitId]] = []
    if draft.kind is AttackKind.COLLISION:
        return ()  # one charger's MOM; others Collide on their own
    side = ctx.side(draft.attacker_id)
    bodily = draft.kind in (AttackKind.SHOVE, AttackKind.GRAB)
    for f in ctx.fighters:
        if f.unit_id in (draft.attacker_id, draft.target_id) or ctx.side(f.unit_id) != side:
            continue
        item_key = _default_item(f, draft.kind)
        if item_key is None and not bodily:
            problem: str | None = f"{f.name} has nothing to make a {draft.kind.label} with"
        else:
            trial = replace(
                draft,
                joiners=tuple(j for j in draft.joiners if j.unit_id != f.unit_id)
                + (Joiner(f.unit_id, item_key),),
            )
            problem = rules_problem(ctx, [_attack_event(trial, ctx, participants(trial, ctx))])
        out.append(Choice(f.unit_id, f"{f.name} ({ctx.setup.player(f.player_id).name})", problem))
    return tuple(out)


def _default_item(f: Fighter, kind: AttackKind) -> str | None:
    """The first damaging item the unit can make this kind of attack with (``None``: bare
    hands, or nothing)."""
    for it in f.items:
        if can_use_kind(it, kind) is None and it.deals_damage:
            return it.key
    return None


def first_target(ctx: CombatContext, attacker_id: BattleUnitId) -> BattleUnitId | None:
    """The enemy the wizard suggests first: the first one in Close Combat with the attacker,
    else the first enemy alive and in the battle (in muster order), else ``None``. The same
    units :func:`target_options` allows, found without building every unit's label (the battle
    panel asks this for its key legend on every action)."""
    unit = ctx.state.unit(attacker_id)
    my_side = ctx.side(attacker_id)
    friends = {p.player_id for p in ctx.setup.players if p.side == my_side}
    first: BattleUnitId | None = None
    for f in ctx.fighters:
        if f.player_id in friends or f.unit_id == attacker_id:
            continue
        u = ctx.state.unit(f.unit_id)
        if u.dead or u.out:
            continue
        if f.unit_id in unit.close_combat or not unit.close_combat:
            return f.unit_id
        if first is None:
            first = f.unit_id
    return first


def default_draft(ctx: CombatContext, attacker_id: BattleUnitId) -> AttackDraft:
    """The draft the wizard opens with: the attacker's first damaging weapon (a Ranged one as a
    Ranged attack, a Close Combat one as a Strike, an Explosive thrown), bare hands Shoving if
    it has none, the first enemy in Close Combat with it or else the first enemy alive."""
    return opening(ctx, attacker_id)[0]


def opening(
    ctx: CombatContext, attacker_id: BattleUnitId
) -> tuple[AttackDraft, tuple[Choice[Use], ...]]:
    """The draft the wizard opens with (:func:`default_draft`) and how its attacker may pay
    for it (:func:`use_options`, which does not depend on the payment chosen), asked of the
    rules once for both."""
    me = ctx.fighter(attacker_id)
    item_key, kind = None, AttackKind.SHOVE
    for it in me.held + me.carried:
        if not it.deals_damage:
            continue
        for k in (AttackKind.RANGED, AttackKind.STRIKE, AttackKind.THROWN):
            if can_use_kind(it, k) is None:
                item_key, kind = it.key, k
                break
        if item_key is not None:
            break
    unit = ctx.state.unit(attacker_id)
    target = first_target(ctx, attacker_id)
    if unit.close_combat and kind in (AttackKind.RANGED, AttackKind.THROWN):
        # 5.3: no Ranged attacks from Close Combat; strike with a Close Combat weapon instead.
        for it in me.items:
            if can_use_kind(it, AttackKind.STRIKE) is None:
                item_key, kind = it.key, AttackKind.STRIKE
                break
    draft = AttackDraft(
        attacker_id, item_key, kind, target, None if target is not None else ObjectTarget()
    )
    options = use_options(ctx, draft)
    return replace(draft, use=_best_of(ctx, draft, options)), options


def best_use(ctx: CombatContext, draft: AttackDraft) -> Use | None:
    """How the attacker pays by default: ``None`` (its Action, or its held Action in
    response) when the rules allow it, else a Counter if one is allowed (a fighter in Close
    Combat whose Action is spent)."""
    return _best_of(ctx, draft, use_options(ctx, draft))


def _best_of(
    ctx: CombatContext, draft: AttackDraft, choices: tuple[Choice[Use], ...]
) -> Use | None:
    options = {c.value: c for c in choices}
    default = default_use(ctx, draft.attacker_id)
    if options[default].allowed or not options[Use.COUNTER].allowed:
        return None
    return Use.COUNTER
