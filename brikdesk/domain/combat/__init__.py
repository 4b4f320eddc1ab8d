"""The combat wizard's draft: everything its five pages choose, and the previews they show.

One module per page (``attack_page`` ... ``result_page``), with the draft itself in ``draft``,
the participants in ``striker``, the exact chances in ``chances``, the target's reaction in
``reaction`` and the dice replay of the Action step in ``replay``; every public name is
importable from here.

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

from brikdesk.domain.combat.action_page import (
    ActionPreview,
    BennyOption,
    ModifierRow,
    StrikerPreview,
    action_preview,
    benny_options,
    size_options,
)
from brikdesk.domain.combat.attack_page import (
    attack_problem,
    attacker_options,
    best_use,
    default_draft,
    joiner_options,
    kind_options,
    target_options,
    use_options,
    weapon_options,
)
from brikdesk.domain.combat.chances import combined_kill, needed_text
from brikdesk.domain.combat.damage_page import (
    DamagePreview,
    DamageStage,
    damage_preview,
    resolve_damage,
)
from brikdesk.domain.combat.draft import (
    READINGS,
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    Fighter,
    Joiner,
    ObjectTarget,
    Reaction,
    context_from,
    readings_for,
)
from brikdesk.domain.combat.range_page import RangePreview, range_preview
from brikdesk.domain.combat.reaction import parry_preview, reaction_options
from brikdesk.domain.combat.replay import ActionStage, resolve_action
from brikdesk.domain.combat.result_page import (
    ResultSummary,
    event_text,
    final_events,
    result_summary,
)
from brikdesk.domain.combat.striker import Striker, strikers, target_of, weapon_of

__all__ = [
    "ActionPreview",
    "ActionStage",
    "AttackDraft",
    "AttackKind",
    "BennyOption",
    "Choice",
    "CombatContext",
    "DamagePreview",
    "DamageStage",
    "Fighter",
    "Joiner",
    "ModifierRow",
    "ObjectTarget",
    "READINGS",
    "RangePreview",
    "Reaction",
    "ResultSummary",
    "Striker",
    "StrikerPreview",
    "action_preview",
    "attack_problem",
    "attacker_options",
    "benny_options",
    "best_use",
    "combined_kill",
    "context_from",
    "readings_for",
    "damage_preview",
    "default_draft",
    "event_text",
    "final_events",
    "joiner_options",
    "kind_options",
    "needed_text",
    "parry_preview",
    "range_preview",
    "reaction_options",
    "resolve_action",
    "resolve_damage",
    "result_summary",
    "size_options",
    "strikers",
    "target_of",
    "target_options",
    "use_options",
    "weapon_of",
    "weapon_options",
]
