"""The combat wizard's domain: everything its pages choose (the draft), and what the rules make
of it, one module per concept; every public name is importable from here.

- ``draft``: the frozen :class:`AttackDraft` the pages fill (changed with
  ``dataclasses.replace``), the :class:`Fighter` s and the :class:`CombatContext` of the battle.
- ``participants``: who takes part and how the rules see each of them (:func:`strikers`,
  :func:`target_of`, :func:`weapon_of`, the hands and the way each pays, the judgements the
  organizer may override: :func:`has_mom`, :func:`attacker_outnumbered`,
  :func:`attacker_engaged`; :func:`blast_units`).
- ``choices``: the choices of an attack and why a choice is illegal (:func:`default_draft`,
  :func:`weapon_options`, :func:`kind_options`, :func:`target_options`, :func:`use_options`,
  :func:`joiner_options`, :func:`attack_problem`): the battle rules engine is asked with a trial
  event, so the wizard refuses exactly what the tracker would.
- ``ranges``: weapon Range, Height Advantage, effective Range, Out of Range penalties, Firing
  Blind, reach (:func:`range_preview`).
- ``modifiers``: every Action Roll modifier with its rule and the judgements on it
  (:func:`modifier_rows`, :func:`judgement_values`, :func:`size_options`).
- ``chances``: exact chances (a participant's Damage, a Combined Attack's
  :func:`combined_kill`, :func:`collision_chance`, :func:`needed_text`).
- ``reaction``: the target's Parry or Bail (:func:`reaction_options`, :func:`parry_preview`).
- ``resolution``: the dice replayed (:func:`resolve_action`, ``NeedDie`` for the die it needs
  next, the Over the Top Benny waiting for a decision, :func:`benny_options`;
  :func:`resolve_damage`: Damage vs Armor, Combined Attacks, Explosions, Missed Shots, Shoves,
  Grabs, KnockBack, Collisions).
- ``previews``: what the pages show before rolling (:func:`action_preview`,
  :func:`damage_preview`).
- ``events``: what Finish records (:func:`final_events`).
- ``description``: the attack in words (:func:`result_summary`, :func:`event_text`).
- ``sprint``: a Sprint (4.1) rolled under the battle's edition for the Sprint dialog
  (:func:`~brikdesk.domain.combat.sprint.resolve_sprint`, its event and words).
- ``proposal``: an attack a player sends from their phone, made into the draft the quick form
  would make of the same choices (:func:`aimed_at`, :func:`with_weapon`, :func:`with_faces`,
  :func:`attack_lines`, :func:`proposal_refusal`).
- ``prose``: the rule prose the wizard shows (:data:`READINGS`, :func:`readings_for`, the
  sentences citing rule sections).

"Wizards edit a draft and commit once" (docs/conventions.md): the wizard's pages fill one frozen
:class:`AttackDraft`; every page recomputes its preview from the draft with the pure functions here,
and nothing is written until Finish, which stores :func:`final_events` in one transaction. Back
keeps the draft as it is; Cancel throws it away. Every die, typed or virtual, is stored in the draft
as a face, so each replay is exact and every preview is a pure function of the draft.
"""

from brikdesk.domain.combat.chances import collision_chance, combined_kill, needed_text
from brikdesk.domain.combat.choices import (
    attack_problem,
    attacker_options,
    best_use,
    default_draft,
    joiner_options,
    kind_options,
    opening,
    target_options,
    use_options,
    weapon_options,
)
from brikdesk.domain.combat.description import (
    ResultSummary,
    Tone,
    Verdict,
    action_verdict,
    attack_warnings,
    damage_verdict,
    event_text,
    overruled_text,
    result_summary,
    result_verdict,
    unit_facts,
)
from brikdesk.domain.combat.draft import (
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    Fighter,
    Joiner,
    ObjectTarget,
    Reaction,
    context_from,
)
from brikdesk.domain.combat.events import final_events
from brikdesk.domain.combat.modifiers import (
    Judgements,
    ModifierRow,
    judgement_values,
    modifier_rows,
    size_options,
)
from brikdesk.domain.combat.participants import (
    Striker,
    attacker_engaged,
    attacker_outnumbered,
    blast_candidates,
    blast_section_rows,
    blast_units,
    brawl_joined,
    brawl_options,
    charging_shove,
    default_use,
    has_mom,
    passing_by_possible,
    strikers,
    target_name,
    target_of,
    weapon_of,
)
from brikdesk.domain.combat.previews import (
    ActionPreview,
    DamagePreview,
    StrikerPreview,
    TargetChance,
    action_preview,
    damage_preview,
)
from brikdesk.domain.combat.proposal import (
    AttackChoice,
    AttackLines,
    aimed_at,
    attack_lines,
    faces_used,
    of_kind,
    parse_faces,
    proposal_refusal,
    proposal_text,
    proposed_draft,
    weapon_choices,
    with_faces,
    with_weapon,
)
from brikdesk.domain.combat.prose import READINGS, readings_for
from brikdesk.domain.combat.ranges import RangePreview, range_preview
from brikdesk.domain.combat.reaction import parry_preview, reaction_options
from brikdesk.domain.combat.resolution import (
    ActionStage,
    BennyOption,
    DamageStage,
    benny_options,
    resolve_action,
    resolve_damage,
)

__all__ = [
    "AttackChoice",
    "proposal_text",
    "proposed_draft",
    "weapon_choices",
    "AttackLines",
    "aimed_at",
    "attack_lines",
    "faces_used",
    "of_kind",
    "parse_faces",
    "proposal_refusal",
    "with_faces",
    "with_weapon",
    "READINGS",
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
    "Judgements",
    "ModifierRow",
    "ObjectTarget",
    "RangePreview",
    "Reaction",
    "ResultSummary",
    "Striker",
    "StrikerPreview",
    "TargetChance",
    "Tone",
    "Verdict",
    "action_preview",
    "action_verdict",
    "attack_problem",
    "attack_warnings",
    "attacker_engaged",
    "attacker_options",
    "attacker_outnumbered",
    "benny_options",
    "best_use",
    "blast_candidates",
    "blast_section_rows",
    "blast_units",
    "charging_shove",
    "collision_chance",
    "combined_kill",
    "context_from",
    "damage_preview",
    "damage_verdict",
    "default_draft",
    "opening",
    "default_use",
    "event_text",
    "final_events",
    "has_mom",
    "joiner_options",
    "judgement_values",
    "kind_options",
    "modifier_rows",
    "needed_text",
    "overruled_text",
    "parry_preview",
    "brawl_joined",
    "brawl_options",
    "passing_by_possible",
    "range_preview",
    "reaction_options",
    "readings_for",
    "resolve_action",
    "resolve_damage",
    "result_summary",
    "result_verdict",
    "size_options",
    "strikers",
    "target_name",
    "target_of",
    "target_options",
    "unit_facts",
    "use_options",
    "weapon_of",
    "weapon_options",
]
