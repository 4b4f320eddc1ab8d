"""The combat domain's concepts as the wizard's pages use them: the judgements the organizer
may overrule, the units a blast may catch, the verdicts in a few words, and the package's
public names."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import brikdesk.domain.combat as combat
from brikdesk.domain.battle import CloseCombatAttack, Status, StatusSet
from brikdesk.domain.combat import (
    AttackDraft,
    AttackKind,
    Tone,
    Verdict,
    action_verdict,
    blast_candidates,
    judgement_values,
    resolve_action,
    resolve_damage,
    result_verdict,
    unit_facts,
)
from tests.domain.sherwood import ALAN, GUY, HOOD, TUCK, WILL, make_ctx


def test_every_public_name_of_the_package_exists():
    assert all(hasattr(combat, name) for name in combat.__all__)
    assert len(set(combat.__all__)) == len(combat.__all__)


class TestJudgements:
    def test_the_battle_state_stands_until_the_organizer_says_otherwise(self):
        """4.1 Disrupted, 5.1 Combined Attacks, 5.1 Automatic Hits: the check boxes of the
        Action Roll page show the battle's state, or the organizer's word once given."""
        ctx = make_ctx([StatusSet(GUY, Status.DISRUPTED), CloseCombatAttack(WILL, GUY)])
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        seen = judgement_values(d, ctx)
        assert (seen.disrupted, seen.engaged) == (True, True)
        overruled = judgement_values(
            replace(d, target_disrupted=False, attacker_engaged=False, outnumbered=True), ctx
        )
        assert (overruled.disrupted, overruled.engaged, overruled.outnumbered) == (
            False,
            False,
            True,
        )

    def test_a_fresh_battle_has_none_of_them(self):
        ctx = make_ctx()
        seen = judgement_values(AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY), ctx)
        assert (seen.disrupted, seen.outnumbered, seen.engaged) == (False, False, False)


class TestBlast:
    def test_the_thrower_is_never_listed_and_the_target_only_when_the_throw_missed(self):
        """3.2 Explosives, 5.3 Missed Shots (READINGS "3.2 Explosives": "the thrower is never
        listed")."""
        ctx = make_ctx()
        d = AttackDraft(TUCK, "explosive", AttackKind.THROWN, GUY, distance=Fraction(3))
        hit = {f.unit_id for f in blast_candidates(d, ctx, hit=True)}
        missed = {f.unit_id for f in blast_candidates(d, ctx, hit=False)}
        assert TUCK not in hit | missed
        assert GUY not in hit and GUY in missed
        assert missed - hit == {GUY}


class TestVerdicts:
    def test_a_miss_by_one_and_then_nothing_to_show_for_the_whole_attack(self):
        ctx = make_ctx()
        d = AttackDraft(
            HOOD, "longbow", AttackKind.RANGED, GUY, distance=Fraction(12), action_faces=(4,)
        )
        action = resolve_action(d, ctx)
        verdict = action_verdict(action)
        assert (verdict.text, verdict.tone) == ("Miss by 1", Tone.MISS)
        assert result_verdict(action, resolve_damage(d, ctx, action)).text == "Miss by 1"

    def test_nothing_is_said_while_a_die_is_missing(self):
        ctx = make_ctx()
        d = AttackDraft(HOOD, "longbow", AttackKind.RANGED, GUY, distance=Fraction(12))
        assert action_verdict(resolve_action(d, ctx)).text == ""

    def test_destroyed_ka_ping_and_a_hit_that_did_nothing(self):
        """Damage more than the Armor destroys; equal or less glances off: ka-ping! (5.1)."""
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            WILL,
            distance=Fraction(4),
            action_faces=(5,),
        )
        action = resolve_action(d, ctx)
        assert action_verdict(action) == Verdict("Hit!", Tone.HIT)
        six_then_one = resolve_damage(replace(d, damage_faces=(6, 1)), ctx, action)
        assert result_verdict(action, six_then_one) == Verdict("Destroyed!", Tone.DESTROYED)
        one = resolve_damage(replace(d, damage_faces=(1,)), ctx, action)
        assert result_verdict(action, one) == Verdict("Ka-ping!", Tone.DAMAGE)
        assert result_verdict(action, None) == Verdict("No effect", Tone.DAMAGE)


def test_a_units_facts_in_one_line():
    ctx = make_ctx([StatusSet(GUY, Status.DISRUPTED)])
    assert unit_facts(ctx, GUY).startswith("Guy of Gisbourne: Action die d6, Armor ")
    assert "Disrupted" in unit_facts(ctx, GUY)


class TestFirstTarget:
    """The wizard opens on the first enemy in Close Combat with the attacker, else the first
    enemy alive and in the battle: what :func:`target_options` allows, without its labels."""

    @staticmethod
    def _by_the_list(ctx, attacker):
        me = ctx.side(attacker)
        allowed = [
            c.value
            for c in combat.target_options(ctx, AttackDraft(attacker))
            if c.allowed and ctx.side(c.value) != me
        ]
        engaged = [t for t in allowed if t in ctx.state.unit(attacker).close_combat]
        return (engaged or allowed or [None])[0]

    def test_it_agrees_with_the_target_list(self):
        from brikdesk.domain.combat.choices import first_target

        states = [
            make_ctx(),
            make_ctx([StatusSet(GUY, Status.DEAD)]),
            make_ctx([CloseCombatAttack(WILL, ALAN)]),
            make_ctx([StatusSet(GUY, Status.DEAD), CloseCombatAttack(HOOD, ALAN)]),
        ]
        for ctx in states:
            for attacker in (HOOD, WILL, TUCK, GUY, ALAN):
                assert first_target(ctx, attacker) == self._by_the_list(ctx, attacker)

    def test_in_close_combat_the_opponent_comes_first(self):
        from brikdesk.domain.combat.choices import first_target

        ctx = make_ctx([CloseCombatAttack(WILL, ALAN)])
        assert first_target(ctx, WILL) == ALAN
        assert first_target(make_ctx(), WILL) == GUY  # out of Close Combat: the first enemy
