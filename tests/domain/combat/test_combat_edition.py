"""The combat wizard's domain plays the battle's edition (``BattleSetup.rules``): the Bail's
dice, Over the Top only where the edition has it, and the odds that follow."""

from __future__ import annotations

from fractions import Fraction

from brikdesk.domain.combat import (
    AttackDraft,
    AttackKind,
    Reaction,
    action_preview,
    reaction_options,
    resolve_action,
    resolve_damage,
)
from brikdesk.domain.combat.prose import bail_note
from brikdesk.domain.rulesets import RULES_2005, RULES_2010, RULES_2020
from tests.domain.sherwood import ALAN, BERT, GUY, HOOD, SHERIFF, TUCK, WILL, make_ctx


def _bail(ctx, faces=()):
    d = AttackDraft(
        WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF, reaction=Reaction.BAIL, action_faces=faces
    )
    return resolve_action(d, ctx)


class TestBail:
    def test_a_2005_hero_bails_on_1d6_with_bonus_dice(self):
        """2005 4.3: "A Bailing unit can dive to any spot within 1d6\" of its current
        position" -- the Sheriff, a Hero with a d10, rolls a d6; its 6 earns a bonus d6."""
        ctx = make_ctx(rules=RULES_2005)
        stage = _bail(ctx)
        assert stage.need is not None and stage.need.sides == 6
        stage = _bail(ctx, (6, 3))
        assert stage.bail is not None and stage.bail.bail_inches == 9
        assert stage.pending is None  # no Benny to decide: 2005 has no Over the Top

    def test_a_2020_hero_bails_on_his_action_die_and_can_go_over_the_top(self):
        """2020 4.3: "dive to any spot within an Action Roll's worth of inches"; a natural 6+
        goes Over the Top (a Benny to decide), no bonus d6."""
        ctx = make_ctx(rules=RULES_2020)
        assert _bail(ctx).need.sides == 10
        stage = _bail(ctx, (6,))
        assert stage.pending == "bail"

    def test_the_reaction_list_and_the_note_say_the_editions_dice(self):
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF)
        labels_2005 = [c.label for c in reaction_options(d, make_ctx(rules=RULES_2005))]
        labels_2020 = [c.label for c in reaction_options(d, make_ctx(rules=RULES_2020))]
        assert 'Bail: dive 1d6", then Disrupted' in labels_2005
        assert 'Bail: dive 1d10", then Disrupted' in labels_2020
        assert '1d6" (BrikWars 2005: 1d6 for every unit' in bail_note("The Sheriff", 10, RULES_2005)
        assert "Over the Top" not in bail_note("The Sheriff", 10, RULES_2005)
        assert "unless he goes Overskill" in bail_note("The Sheriff", 10, RULES_2010)

    def test_the_chance_a_bail_saves_him_uses_the_editions_die(self):
        """A Bail out of the attack fails only on a natural 1: 1/6 in 2005 (1d6), 1/10 for a
        2020 Hero (his d10)."""
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF)
        bail = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF, reaction=Reaction.BAIL)
        for rules, die in ((RULES_2005, 6), (RULES_2020, 10)):
            ctx = make_ctx(rules=rules)
            plain = action_preview(d, ctx).kill
            assert action_preview(bail, ctx).kill == plain * Fraction(1, die)


class TestOverTheTop:
    def test_a_2005_hero_never_goes_over_the_top(self):
        """4.2 (2020): "Any time a minifig rolls a 6 or higher on his Action Die, he goes Over
        the Top"; 2005's chapter 4 has no such rule, so Hood's natural 8 earns no Benny and
        the odds show no chance of it."""
        shot = AttackDraft(
            HOOD, "longbow", AttackKind.RANGED, GUY, distance=Fraction(6), action_faces=(8,)
        )
        old, new = make_ctx(rules=RULES_2005), make_ctx(rules=RULES_2020)
        assert resolve_action(shot, new).pending == f"attack:{HOOD}"
        stage = resolve_action(shot, old)
        assert stage.pending is None and stage.first is not None
        assert not stage.first.over_the_top and stage.first.hit
        odds_old = action_preview(shot, old).first.odds
        odds_new = action_preview(shot, new).first.odds
        assert odds_old.over_the_top == 0
        assert odds_new.over_the_top == Fraction(1, 2)  # 6-10 on a d10

    def test_2010_overskill_is_over_the_top(self):
        """2010 4.2 calls it Overskill; a natural 6+ still earns the Benny."""
        shot = AttackDraft(
            HOOD, "longbow", AttackKind.RANGED, GUY, distance=Fraction(6), action_faces=(8,)
        )
        assert resolve_action(shot, make_ctx(rules=RULES_2010)).pending == f"attack:{HOOD}"


class TestBlastFromTheDetonationPoint:
    def test_each_target_takes_its_own_sections_not_the_action_rolls(self):
        """5.1: "Only the sections of the target within the area of effect are considered."
        Guy was seen with 1 section by the thrower (-2 to hit), yet the grenade lands at his
        feet: all 3 inside, no Damage penalty; Alan's pants only (-2); Bert untouched (0)."""
        d = AttackDraft(
            TUCK,
            "explosive",
            AttackKind.THROWN,
            GUY,
            distance=Fraction(3),
            sections_visible=1,
            blast_ids=(ALAN, BERT),
            action_faces=(5,),
            blast_sections=((ALAN, 1), (BERT, 0)),
            damage_faces=(7,),
        )
        ctx = make_ctx()
        action = resolve_action(d, ctx)
        assert action.hit
        damage = resolve_damage(d, ctx, action)
        assert damage.blast_hit_ids == (GUY, ALAN)
        totals = {h.damage.target.name: h.damage.total for h in damage.explosion.hits}
        assert totals == {"Guy of Gisbourne": 7, "Guard Alan": 5}


class TestWhoActsFirst:
    def _shot(self, **kw):
        return AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(5),
            who_first=True,
            **kw,
        )

    def test_2020_the_higher_action_roll_goes_first_when_not_simultaneous(self):
        """2020 4.3: "both Actions occur simultaneously if possible, and with the higher Action
        Roll going first otherwise." Hood 3, Alan 5: Alan first; then Alan's attack die."""
        ctx = make_ctx()
        stage = resolve_action(self._shot(first_simultaneous=False, action_faces=(3, 5)), ctx)
        res = stage.first_to_act
        assert res is not None and res.winner is not None and res.winner.name == "Guard Alan"
        assert stage.need is not None and "Guard Alan's Short-Ranged Weapon" in stage.need.why
        simultaneous = resolve_action(self._shot(), ctx).first_to_act
        assert simultaneous is not None and simultaneous.first.value == "simultaneous"

    def test_2005_a_response_to_movement_is_fast_enough(self):
        """2005 4.3: "If a unit is taking an Action in Response to enemy Movement ... his
        Response is automatically fast enough"."""
        stage = resolve_action(self._shot(first_to_movement=True), make_ctx(rules=RULES_2005))
        res = stage.first_to_act
        assert res is not None and res.winner is not None and res.winner.name == "Guard Alan"
        assert stage.need is not None and stage.need.index == 0  # no contest dice

    def test_the_event_goes_first_in_the_battle_log(self):
        from brikdesk.domain.combat import result_summary

        d = self._shot(first_inch_away=True, action_faces=(4,), damage_faces=(2,))
        summary = result_summary(d, make_ctx())
        assert [e.kind for e in summary.events] == ["first_to_act", "attack_resolved"]
        assert summary.events[0].actor == ALAN and summary.events[0].target == HOOD
