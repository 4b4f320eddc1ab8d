"""The combat wizard's draft model: previews, the dice replay, and the events Finish records."""

from dataclasses import replace
from fractions import Fraction

import pytest

from brikdesk.domain.attack import Armor, SizeClass
from brikdesk.domain.battle import (
    ActionSpent,
    ActionState,
    ActionUse,
    AttackResolved,
    CloseCombatAttack,
    Status,
    StatusSet,
    Use,
)
from brikdesk.domain.combat import (
    AttackDraft,
    AttackKind,
    ObjectTarget,
    Reaction,
    action_preview,
    attack_problem,
    attacker_options,
    benny_options,
    combined_kill,
    context_from,
    damage_preview,
    default_draft,
    joiner_options,
    kind_options,
    needed_text,
    parry_preview,
    range_preview,
    reaction_options,
    resolve_action,
    resolve_damage,
    result_summary,
    strikers,
    use_options,
    weapon_options,
)
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.odds import attack_odds
from brikdesk.domain.rolling import BennyUse, Role
from tests.domain.sherwood import (
    ALAN,
    BERT,
    CATALOG,
    GUY,
    HOOD,
    JOHN,
    MUCH,
    SHERIFF,
    TUCK,
    WILL,
    make_ctx,
    record,
    unit_rows,
)

ROPE = ObjectTarget("the rope", "1", SizeClass.STUD_1X1)


class TestThievenHoodRope:
    """2010 chapter 4 (4.2 Overskill example): d10 shows 8, the Benny buys +1d6 Range showing 2, Damage 2 against the rope."""

    def draft(self, **changes) -> AttackDraft:
        base = AttackDraft(HOOD, "longbow", AttackKind.RANGED, None, ROPE, distance=Fraction(15))
        return replace(base, **changes)  # a test helper: the keywords are the fields

    def test_the_dice_are_asked_for_one_by_one(self):
        ctx = make_ctx()
        stage = resolve_action(self.draft(), ctx)
        assert (stage.need.sides, stage.need.index) == (10, 0)
        assert "Action die" in stage.need.why
        stage = resolve_action(self.draft(action_faces=(8,)), ctx)
        assert stage.need is None and stage.pending == "attack:1"
        assert stage.rolls[0].roll.total == 1  # 8 - 2 (rope) - 5 (five inches out): a miss
        stage = resolve_action(
            self.draft(action_faces=(8,), bennies=(("attack:1", BennyUse.STAT),)), ctx
        )
        assert stage.need.sides == 6 and "Range" in stage.need.why
        assert not stage.complete

    def test_no_effect_and_one_event(self):
        ctx = make_ctx()
        draft = self.draft(action_faces=(8, 2), damage_faces=(2,)).with_benny(
            "attack:1", BennyUse.STAT
        )
        summary, state = record(ctx, draft)
        assert summary.paragraph == (
            "Thieven Hood's longbow hits the rope; 2+1-3 = 0 Damage does not beat Armor 1: ka-ping."
        )
        assert len(summary.events) == 1
        event = summary.events[0]
        assert isinstance(event, AttackResolved)
        assert event.target is None and event.killed == () and event.effects == ()
        assert event.participants[0].use is Use.ACTION
        dice = event.details["dice"]
        assert [(d["sides"], d["face"], d["role"]) for d in dice] == [
            (10, 8, "natural"),
            (6, 2, "Benny"),
            (6, 2, "natural"),
        ]
        rules = [m["rule"] for m in event.details["modifiers"]]
        assert rules == [
            "4.2 Over the Top",
            "5.1 Target Size",
            "5.1 Out of Range",
            "5.1 Out of Range",
        ]
        assert event.details["object"]["name"] == "the rope"
        assert state.unit(HOOD).action is ActionState.SPENT_OWN_TURN
        assert "the rope: no effect" in summary.changes

    def test_extra_faces_are_refused(self):
        ctx = make_ctx()
        draft = self.draft(action_faces=(8, 2, 5)).with_benny("attack:1", BennyUse.STAT)
        stage = resolve_action(draft, ctx)
        assert stage.extra_faces == 1 and not stage.complete
        assert result_summary(draft, ctx).problem is not None

    def test_a_face_the_die_cannot_show(self):
        stage = resolve_action(self.draft(action_faces=(11,)), make_ctx())
        assert "cannot show 11" in stage.error


class TestRangePage:
    def test_height_advantage_and_out_of_range(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(19, 2),
            altitude=Fraction(5, 2),
        )
        p = range_preview(d, ctx)
        assert (p.weapon_range, p.height.value, p.effective_range, p.inches_out) == (6, 2, 8, 2)
        assert [(m.value, m.applies_to) for m in p.penalties] == [
            (-2, Stat.ACTION),
            (-2, Stat.DAMAGE),
        ]
        assert p.height.rule == "5.1 Height Advantage"

    def test_a_distance_is_asked_for(self):
        p = range_preview(
            AttackDraft(ALAN, "short-ranged-weapon", AttackKind.RANGED, HOOD), make_ctx()
        )
        assert "distance" in p.error

    def test_close_combat_needs_reach(self):
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY, in_reach=False)
        assert "must touch" in range_preview(d, make_ctx()).error

    def test_a_charge_says_what_its_mom_will_do(self):
        ctx = make_ctx()
        d = AttackDraft(JOHN, "two-handed-weapon", AttackKind.CHARGE, ALAN, has_mom=True)
        notes = range_preview(d, ctx).notes
        assert "built for Charging" in notes[0] and "one more Action die" in notes[1]
        d2 = AttackDraft(WILL, "hand-weapon", AttackKind.CHARGE, ALAN)
        notes = range_preview(d2, ctx).notes
        assert "not a Two-Handed or Heavy Weapon" in notes[0] and "No MOM" in notes[1]

    def test_firing_blind(self):
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(3),
            firing_blind=True,
        )
        ctx = make_ctx()
        assert range_preview(d, ctx).firing_blind.value == -5
        rows = action_preview(d, ctx).first.rows
        assert any(r.modifier.rule == "5.1 Firing Blind" and r.modifier.value == -5 for r in rows)


class TestActionPreview:
    def test_judgements_and_the_number_needed(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(4),
            sections_visible=2,
        )
        p = action_preview(d, ctx).first
        judged = {r.judgement: r.modifier.value for r in p.rows if r.judgement}
        assert judged == {"size": -1, "disrupted": 0}
        assert (p.action_mod, p.needed) == (-1, 4)
        assert p.needed_text == "4 or more on the d6"
        d2 = replace(d, target_disrupted=True)
        p2 = action_preview(d2, ctx).first
        assert {r.judgement: r.modifier.value for r in p2.rows if r.judgement} == {
            "size": -1,
            "disrupted": 1,
        }
        assert p2.needed == 3

    def test_odds_are_exact_and_single_kill_matches_the_odds_engine(self):
        ctx = make_ctx()
        d = AttackDraft(ALAN, "short-ranged-weapon", AttackKind.RANGED, GUY, distance=Fraction(4))
        p = action_preview(d, ctx)
        expected = attack_odds(6, 3, "1d6", 4)
        assert p.first.odds == expected
        assert p.kill == expected.kill
        assert (p.first.odds.critical_failure, p.first.odds.over_the_top) == (
            Fraction(1, 6),
            Fraction(1, 6),
        )

    def test_combined_kill_against_brute_force(self):
        """Will Scarlet and Much (hand weapons, Use 2, 1dA on a d6) strike Guy (Armor 4)
        together. Each: a natural 1 misses; 2-5 hit for 1d6; a natural 6 hits and (the
        odds' Benny policy) adds one more d6. A d6 showing 6 is at least 7 with its bonus
        dice, which beats Armor 4 alone, so faces are enough for an exact count."""
        ctx = make_ctx()
        d = AttackDraft(
            WILL,
            "hand-weapon",
            AttackKind.STRIKE,
            GUY,
            joiners=(
                __import__("brikdesk.domain.combat", fromlist=["Joiner"]).Joiner(
                    MUCH, "hand-weapon"
                ),
            ),
        )
        p = action_preview(d, ctx)
        d6 = {k: Fraction(1, 6) for k in (1, 2, 3, 4, 5, 7)}  # 7: "6 and its bonus dice"

        def plus(a, b):
            out = {}
            for x, p1 in a.items():
                for y, p2 in b.items():
                    out[min(x + y, 7)] = out.get(min(x + y, 7), 0) + p1 * p2
            return out

        one = {0: Fraction(1, 6)}
        for k, v in d6.items():
            one[k] = one.get(k, 0) + Fraction(4, 6) * v
        for k, v in plus(d6, d6).items():
            one[k] = one.get(k, 0) + Fraction(1, 6) * v
        both = plus(one, one)
        expected = sum(v for k, v in both.items() if k > 4)
        assert p.kill == expected
        assert len(p.strikers) == 2

    def test_automatic_hit_needs_no_roll(self):
        ctx = make_ctx([StatusSet(GUY, Status.DISRUPTED)])
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        p = action_preview(d, ctx).first
        assert p.automatic is not None and p.automatic.rule == "4.1 Disrupted"
        assert p.needed is None and p.needed_text.startswith("no roll")
        stage = resolve_action(d, ctx)
        assert stage.complete and stage.rolls[0].hit and stage.dice == ()

    def test_needed_text_for_impossible_rolls(self):
        assert needed_text(6, 3, -5, None) == (
            8,
            "8: more than a d6 shows; only an Over the Top Benny can make it",
        )
        assert needed_text(6, 2, 3, None)[0] == 2


class TestIllegalChoicesAreExplained:
    def test_disrupted_attacker(self):
        ctx = make_ctx([StatusSet(WILL, Status.DISRUPTED)])
        why = {c.value: c.problem for c in attacker_options(ctx)}
        assert "Disrupted" in why[WILL] and why[HOOD] is None
        d = default_draft(ctx, WILL)
        assert "Disrupted" in attack_problem(ctx, d)

    def test_spent_action_without_a_response(self):
        ctx = make_ctx([ActionSpent(WILL, ActionUse.OTHER)])
        why = {c.value: c.problem for c in attacker_options(ctx)}
        assert "already spent its Action" in why[WILL]
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        options = {c.value: c for c in use_options(ctx, d)}
        assert not options[Use.ACTION].allowed and "already spent" in options[Use.ACTION].problem
        assert "not in response" in options[Use.RESPONSE].problem
        assert "Counterstrike only" in options[Use.COUNTER].problem

    def test_a_counter_is_offered_in_close_combat(self):
        ctx = make_ctx([CloseCombatAttack(WILL, GUY)])
        why = {c.value: c.problem for c in attacker_options(ctx)}
        assert why[WILL] is None  # Action spent, but a Counter is left
        opened = default_draft(ctx, WILL)
        assert opened.target_id == GUY and opened.use is Use.COUNTER
        assert attack_problem(ctx, opened) is None
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY, use=Use.COUNTER)
        assert attack_problem(ctx, d) is None

    def test_fourth_close_combat_attacker(self):
        ctx = make_ctx(
            [
                CloseCombatAttack(JOHN, GUY),
                CloseCombatAttack(TUCK, GUY),
                CloseCombatAttack(MUCH, GUY),
            ]
        )
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        assert "three Close Combat attackers" in attack_problem(ctx, d)

    def test_joiners_are_allies_and_the_limit_is_explained(self):
        ctx = make_ctx([CloseCombatAttack(JOHN, GUY), CloseCombatAttack(TUCK, GUY)])
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        options = {c.value: c for c in joiner_options(ctx, d)}
        assert set(options) == {HOOD, MUCH, TUCK, JOHN}  # the Merry Men but Will
        assert "three Close Combat attackers" in options[MUCH].problem
        assert "nothing to make a Close Combat Strike with" in options[HOOD].problem

    def test_weapons_explain_the_kinds_they_cannot_make(self):
        ctx = make_ctx()
        d = AttackDraft(HOOD, "longbow", AttackKind.RANGED, GUY)
        why = {c.value: c.problem for c in kind_options(ctx, d)}
        assert why[AttackKind.RANGED] is None
        assert "not a Close Combat weapon" in why[AttackKind.STRIKE]
        assert why[AttackKind.SHOVE] is None

    def test_ranged_attack_from_close_combat(self):
        ctx = make_ctx([CloseCombatAttack(JOHN, ALAN)])
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            JOHN,
            use=Use.RESPONSE,
            distance=Fraction(2),
        )
        assert "Close Combat" in attack_problem(ctx, d)


class TestReactions:
    def test_only_a_shield_parries_a_strike(self):
        ctx = make_ctx()
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        options = {c.value: c for c in reaction_options(d, ctx)}
        assert options[(Reaction.PARRY, "shield")].allowed
        assert "only a Shield" in options[(Reaction.PARRY, "hand-weapon")].problem
        assert options[(Reaction.BAIL, None)].allowed

    def test_kill_chance_with_a_shield_parry(self):
        """The Sheriff (d10, greatsword 1dA+2) strikes Much, who Parries with his Shield:
        a Parry that succeeds (5/6 on a d6 against Use 2) takes one die of each kind."""
        ctx = make_ctx()
        d = AttackDraft(SHERIFF, "heavy-weapon", AttackKind.STRIKE, MUCH, use=Use.RESPONSE)
        plain = action_preview(d, ctx).kill
        assert plain == attack_odds(10, 3, "1dA+2", 4).kill
        parried = attack_odds(6, 2, "0", 0).hit
        assert parried == Fraction(5, 6)
        deflected = attack_odds(10, 3, "1dA+2", 4, deflection=1).kill
        assert 0 < deflected < plain
        p = action_preview(replace(d, reaction=Reaction.PARRY, parry_item="shield"), ctx)
        assert p.kill == (1 - parried) * plain + parried * deflected

    def test_kill_chance_with_a_bail(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            use=Use.RESPONSE,
            distance=Fraction(4),
        )
        plain = action_preview(d, ctx).kill
        assert action_preview(replace(d, reaction=Reaction.BAIL), ctx).kill == plain / 10
        assert (
            action_preview(replace(d, reaction=Reaction.BAIL, bail_clears=False), ctx).kill == plain
        )

    def test_a_bail_that_slips_does_not_avoid_the_attack(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            use=Use.RESPONSE,
            distance=Fraction(4),
            reaction=Reaction.BAIL,
            action_faces=(1,),
        )
        stage = resolve_action(d, ctx)
        assert stage.bail.critical_failure and stage.avoided is None
        assert stage.need.sides == 6 and "Action die" in stage.need.why

    def test_an_object_does_not_react(self):
        d = AttackDraft(HOOD, "longbow", AttackKind.RANGED, None, ROPE, distance=Fraction(5))
        options = reaction_options(d, make_ctx())
        assert all("inanimate" in c.problem for c in options[1:])

    def test_shield_parry_deflects(self):
        ctx = make_ctx()
        d = AttackDraft(
            WILL,
            "hand-weapon",
            AttackKind.STRIKE,
            GUY,
            reaction=Reaction.PARRY,
            parry_item="shield",
            action_faces=(4, 3),
        )
        stage = resolve_action(d, ctx)
        assert stage.complete and stage.parry.success
        assert stage.parry.deflections == ("Guy of Gisbourne's Shield Parry (5.2)",)
        preview = damage_preview(d, ctx, stage)
        assert any("Deflection" in line for line in preview.lines)
        damage = resolve_damage(d, ctx, stage)
        assert damage.complete and damage.dice == ()  # 1dA less one d6: nothing to roll
        summary, state = record(ctx, d)
        # In the order it happened, and a Damage roll with no dice left in plain words.
        assert summary.paragraph == (
            "Will Scarlet's Hand Weapon at Guy of Gisbourne: 4 = 4 vs Use 2: hit. "
            "Guy of Gisbourne Parries a Strike with Shield: 3 = 3 vs Use 2: Parried, 1 level "
            "of Deflection. Deflection removed every die: 0 Damage does not beat Armor 4: "
            "ka-ping."
        )
        assert "Damage 1d6, after Deflection no dice" in "\n".join(summary.details)
        parry, attack = summary.events
        assert isinstance(parry, ActionSpent) and parry.how is ActionUse.PARRY
        assert parry.as_response and parry.actor == GUY
        assert state.unit(GUY).counters_used == 1
        assert [d["role"] for d in attack.details["dice"]] == ["natural", "natural"]

    def test_a_fumbled_parry_knocks_the_shield_away_by_the_attackers_roll(self):
        """5.2: a critical failure on the Parry knocks the item directly away from the
        attacker, as many inches as the attacker's Action Roll; Finish notes it in the log."""
        ctx = make_ctx()
        d = AttackDraft(
            WILL,
            "hand-weapon",
            AttackKind.STRIKE,
            GUY,
            reaction=Reaction.PARRY,
            parry_item="shield",
            action_faces=(5, 1),
            damage_faces=(2,),
        )
        summary, state = record(ctx, d)
        assert (
            "the Shield is knocked out of Guy of Gisbourne's hands, 5\" directly away from "
            "Will Scarlet (Will Scarlet's Action Roll, 5.2)"
        ) in summary.paragraph
        assert summary.paragraph.index("Parries") < summary.paragraph.index("Damage does not")
        attack = summary.events[-1]
        assert attack.details["outcome"]["knocked_away"] == {
            "unit": GUY,
            "item": "shield",
            "name": "Shield",
            "inches": 5,
            "round": 1,
        }
        assert (
            "Guy of Gisbourne's Shield lies 5\" directly away from Will Scarlet: out of his "
            "hands until he picks it up (noted in the battle log)"
        ) in summary.changes
        # Not noted: the log and the changes say nothing more.
        quiet = result_summary(replace(d, record_knocked_away=False), ctx)
        assert "knocked_away" not in quiet.events[-1].details["outcome"]
        assert not any("picks it up" in c for c in quiet.changes)
        # The next attack's wizard reminds the table that the Shield may be on the ground.
        later = context_from(ctx.setup, state, CATALOG, unit_rows(), events=summary.events)
        d2 = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY)
        labels = {c.value: c.label for c in reaction_options(d2, later)}
        assert labels[(Reaction.PARRY, "shield")].endswith(
            " — knocked away in round 1: only if picked up since"
        )
        mine = {c.value: c.label for c in weapon_options(later, AttackDraft(GUY))}
        assert mine["shield"].endswith("only if picked up since")
        assert "knocked away" not in mine["hand-weapon"]

    def test_parrying_a_shove_made_with_a_pike_gets_plus_one(self):
        """5.2: +1 to Parry an Attack or Shove made with a Two-Handed Weapon: the Shove is made
        with the hands, but the pike in them is what the rule looks at."""
        ctx = make_ctx()
        d = AttackDraft(
            JOHN,
            "two-handed-weapon",
            AttackKind.SHOVE,
            GUY,
            reaction=Reaction.PARRY,
            parry_item="hand-weapon",
        )
        labels = {c.value: c.label for c in reaction_options(d, ctx)}
        assert labels[(Reaction.PARRY, "hand-weapon")] == (
            "Parry with Hand Weapon (Use 2, +1 against a Two-Handed Weapon)"
        )
        _text, chance = parry_preview(d, ctx)
        assert chance == Fraction(5, 6)  # needs 1+ with the +1: only a natural 1 fails
        stage = resolve_action(replace(d, action_faces=(1,)), ctx)  # Guy rolls a 1 (no Action Roll)
        assert stage.need is not None and "knocked away" in stage.need.why
        stage = resolve_action(replace(d, action_faces=(2,)), ctx)
        assert stage.parry.roll.total == 3 and stage.parry.cancelled
        bare = replace(d, item_key=None)
        assert (
            "+1"
            not in {c.value: c.label for c in reaction_options(bare, ctx)}[
                (Reaction.PARRY, "hand-weapon")
            ]
        )

    def test_bail_out_of_the_attack(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(4),
            reaction=Reaction.BAIL,
            use=Use.RESPONSE,
        )
        stage = resolve_action(d, ctx)
        assert stage.need.sides == 10 and "Bail" in stage.need.why
        summary, state = record(ctx, replace(d, action_faces=(4,)))
        assert "dodged by Bailing" in summary.paragraph
        bail, attack = summary.events
        assert bail.how is ActionUse.BAIL and not bail.over_the_top
        assert state.unit(HOOD).disrupted and attack.killed == ()

    def test_a_bail_out_of_a_strike_parts_them_and_is_no_disengage(self):
        """5.2 Disengaging is an Action the unit takes; Guard Bert diving out of Will
        Scarlet's Strike parts them, and the log says so without a "Disengages"."""
        from brikdesk.domain.battle import describe

        ctx = make_ctx()
        d = AttackDraft(
            WILL, "hand-weapon", AttackKind.STRIKE, BERT, reaction=Reaction.BAIL, action_faces=(4,)
        )
        summary, state = record(ctx, d)
        words = [describe(ctx.setup, e) for e in summary.events]
        assert not any("Disengage" in w for w in words), words
        assert words[1].endswith(
            "Will Scarlet (Merry Men) is out of Close Combat with Guard Bert (Nottingham)"
        )
        assert not state.unit(WILL).close_combat

    def test_bail_benny_lands_on_his_feet(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            HOOD,
            distance=Fraction(4),
            reaction=Reaction.BAIL,
            use=Use.RESPONSE,
            action_faces=(7,),
        )
        assert resolve_action(d, ctx).pending == "bail"
        summary, state = record(ctx, d.with_benny("bail", BennyUse.EMBELLISH))
        assert summary.events[0].over_the_top and not state.unit(HOOD).disrupted


class TestDamage:
    def test_hero_armor_is_rolled(self):
        ctx = make_ctx()
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF, action_faces=(5,))
        stage = resolve_action(d, ctx)
        preview = damage_preview(d, ctx, stage)
        assert "rolled each time" in preview.armor_text
        needs = []
        faces: tuple[int, ...] = ()
        for face in (6, 3, 4, 2):
            damage = resolve_damage(replace(d, damage_faces=faces), ctx, stage)
            needs.append((damage.need.sides, damage.need.why))
            faces += (face,)
        assert [s for s, _w in needs] == [6, 6, 6, 6]
        assert "bonus" in needs[1][1] and "Armor of The Sheriff" in needs[2][1]
        summary, state = record(ctx, replace(d, damage_faces=faces))
        assert "9 Damage beats Armor 2d6 (rolled 4+2 = 6)" in summary.paragraph
        assert summary.events[0].killed == (SHERIFF,)
        assert state.unit(SHERIFF).dead

    def test_heavy_armor_deflects_a_die_of_each_kind(self):
        """3.3: Heavy Armor is worn Deflection: the Sheriff's greatsword (1dA+2 on his d10)
        loses its d10 against Guy in Heavy Armor, leaving +2, never more than his Armor 4;
        only a Benny's extra d10 (on a natural 6 to 10, half the time) gets through, and then
        beats Armor 4 on a 3 or more."""
        ctx = make_ctx(worn={GUY: ("heavy-armor",)})
        d = AttackDraft(
            SHERIFF, "heavy-weapon", AttackKind.STRIKE, GUY, use=Use.RESPONSE, action_faces=(5,)
        )
        assert action_preview(d, ctx).first.deflection == 1
        assert action_preview(d, ctx).kill == Fraction(1, 2) * Fraction(8, 10)
        preview = damage_preview(d, ctx, resolve_action(d, ctx))
        assert (
            "The Sheriff's Heavy Weapon: Damage 1dA+2 = 1d10+2; Deflection removes every "
            "die, leaving +2" in preview.lines
        )
        assert (
            "  Deflection: Guy of Gisbourne's worn armour, one die of each kind (3.3)"
            in preview.lines
        )
        assert preview.kill == 0
        summary, _state = record(ctx, d)
        assert (
            "Deflection removed every die: 2 Damage does not beat Armor 4: ka-ping"
            in summary.paragraph
        )
        pike = AttackDraft(
            JOHN, "two-handed-weapon", AttackKind.STRIKE, GUY, action_faces=(5,)
        )  # 2dA: one d6 is left
        assert (
            "after Deflection 1d6" in damage_preview(pike, ctx, resolve_action(pike, ctx)).lines[0]
        )

    def test_hero_armor_not_rolled_when_it_cannot_be_beaten(self):
        ctx = make_ctx()
        d = AttackDraft(
            WILL, "hand-weapon", AttackKind.STRIKE, SHERIFF, action_faces=(5,), damage_faces=(2,)
        )
        summary, _state = record(ctx, d)
        assert "no roll needed" in summary.paragraph

    def test_critical_failure(self):
        ctx = make_ctx()
        d = AttackDraft(
            ALAN,
            "short-ranged-weapon",
            AttackKind.RANGED,
            WILL,
            distance=Fraction(4),
            action_faces=(1,),
            use=Use.RESPONSE,
        )
        stage = resolve_action(d, ctx)
        assert stage.complete and stage.rolls[0].critical_failure
        preview = damage_preview(d, ctx, stage)
        assert preview.missed.radius == 2  # 1 against Use 3 missed by 2
        summary, state = record(ctx, d)
        assert "critical failure" in summary.paragraph
        assert summary.events[0].details["outcome"]["critical_failure"] is True
        assert state.unit(ALAN).action is ActionState.SPENT_RESPONSE

    def test_missed_shot_strikes_another(self):
        ctx = make_ctx()
        d = AttackDraft(
            HOOD,
            "longbow",
            AttackKind.RANGED,
            GUY,
            distance=Fraction(8),
            action_faces=(2,),
            missed_strikes=BERT,
            missed_distance=Fraction(9),
        )
        stage = resolve_action(d, ctx)
        assert not stage.hit and stage.rolls[0].missed_by == 1
        damage = resolve_damage(d, ctx, stage)
        assert damage.need.sides == 6
        summary, state = record(ctx, replace(d, damage_faces=(5,)))
        assert (
            "The Missed Shot strikes Guard Bert: 5+1 = 6 Damage beats Armor 4" in summary.paragraph
        )
        assert summary.events[0].killed == (BERT,) and state.unit(BERT).dead
        assert "1 kill for Thieven Hood" in summary.changes

    def test_charge_collision_knocks_back(self):
        ctx = make_ctx()
        d = AttackDraft(
            JOHN, "two-handed-weapon", AttackKind.CHARGE, ALAN, has_mom=True, action_faces=(2,)
        )
        stage = resolve_action(d, ctx)
        assert not stage.hit
        preview = damage_preview(d, ctx, stage)
        assert preview.collision_possible
        damage = resolve_damage(d, ctx, stage)
        assert damage.need.sides == 6 and "MOM" in damage.need.why
        summary, state = record(ctx, replace(d, damage_faces=(5, 2)))
        assert 'Guard Alan is Knocked Back 3"' in summary.paragraph
        assert state.unit(ALAN).disrupted
        assert not state.unit(JOHN).close_combat and state.unit(ALAN).attackers == (JOHN,)
        summary, state = record(ctx, replace(d, damage_faces=(2, 5)))  # POP resists the MOM
        assert state.unit(JOHN).close_combat == {ALAN} and not state.unit(ALAN).disrupted
        assert [d["role"] for d in summary.events[0].details["dice"]] == ["natural", "MOM", "POP"]

    def test_charge_hit_with_mom_and_weapon_knockback(self):
        ctx = make_ctx()
        d = AttackDraft(
            JOHN, "two-handed-weapon", AttackKind.CHARGE, ALAN, has_mom=True, action_faces=(5,)
        )
        stage = resolve_action(d, ctx)
        preview = damage_preview(d, ctx, stage)
        assert "MOM" in preview.mom_text and "3d6" in preview.lines[0]
        summary, state = record(ctx, replace(d, damage_faces=(1, 1, 2)))
        assert "4 Damage does not beat Armor 4" in summary.paragraph
        assert 'Knocked Back 1"' in summary.paragraph
        assert not state.unit(ALAN).disrupted and state.unit(JOHN).close_combat == {ALAN}
        assert [d["role"] for d in summary.events[0].details["dice"]][-1] == "MOM"
        assert (
            "Little John: Action Ready → Spent; Counters used 0 → 1 of 1; in Close Combat "
            "with Guard Alan"
        ) in summary.changes
        assert 'move Guard Alan 1" directly away (KnockBack, not Disrupted)' in summary.changes

    def test_charge_keeps_an_unspent_mom(self):
        ctx = make_ctx()
        d = AttackDraft(
            JOHN,
            "two-handed-weapon",
            AttackKind.CHARGE,
            ALAN,
            has_mom=True,
            action_faces=(2,),
            collide=False,
        )
        _summary, state = record(ctx, d)
        assert state.unit(JOHN).mom

    def test_explosion_every_target_in_the_blast(self):
        ctx = make_ctx()
        d = AttackDraft(
            TUCK,
            "explosive",
            AttackKind.THROWN,
            GUY,
            distance=Fraction(3),
            action_faces=(4,),
            blast_ids=(BERT,),
        )
        stage = resolve_action(d, ctx)
        assert damage_preview(d, ctx, stage).blast
        summary, state = record(ctx, replace(d, damage_faces=(3,)))
        assert state.unit(GUY).disrupted and state.unit(BERT).disrupted
        assert 'Knocked Back 1" and Disrupted' in summary.paragraph
        summary, state = record(ctx, replace(d, damage_faces=(7,)))
        assert set(summary.events[0].killed) == {GUY, BERT}

    def test_the_blast_lists_each_target_with_its_own_chance(self):
        """One 1d10 Exp roll; each target compares it with its own Armor (3.2): a minifig is
        destroyed on 5 or more (3/5), the Sheriff when it beats his rolled 2d6."""
        ctx = make_ctx()
        d = AttackDraft(
            TUCK,
            "explosive",
            AttackKind.THROWN,
            ALAN,
            distance=Fraction(3),
            action_faces=(4,),
            blast_ids=(SHERIFF, BERT, TUCK),
        )
        preview = damage_preview(d, ctx, resolve_action(d, ctx))
        rows = {(c.unit_id, c.name, c.armor): c.kill for c in preview.targets}
        hero = attack_odds(6, None, "1d10", "2d6", automatic_hit=True).kill
        assert rows == {
            (ALAN, "Guard Alan", "4"): Fraction(3, 5),
            (SHERIFF, "The Sheriff", "2d6"): hero,
            (BERT, "Guard Bert", "4"): Fraction(3, 5),
        }  # never the thrower
        assert Fraction(1, 5) < hero < Fraction(2, 5)
        assert preview.kill == Fraction(3, 5)

    def test_a_missed_explosive_can_still_catch_its_target(self):
        """5.3: a Missed Shot lands within as many inches as it missed by; an Explosive blasts
        there, and the table ticks what the blast catches, the target included."""
        ctx = make_ctx()
        d = AttackDraft(
            TUCK,
            "explosive",
            AttackKind.THROWN,
            ALAN,
            distance=Fraction(3),
            action_faces=(1,),
            blast_ids=(ALAN, BERT),
        )
        preview = damage_preview(d, ctx, resolve_action(d, ctx))
        assert preview.blast and preview.nothing.startswith(
            'the Explosive missed: it lands within 1" of Guard Alan'
        )
        assert [c.unit_id for c in preview.targets] == [ALAN, BERT]
        assert preview.kill == Fraction(3, 5) and "Guard Alan" in preview.armor_text
        summary, state = record(ctx, replace(d, damage_faces=(7,)))
        assert summary.events[-1].killed == (ALAN, BERT)
        assert state.unit(ALAN).dead and state.unit(BERT).dead

    def test_a_missed_shot_shows_the_chance_for_what_it_strikes(self):
        """Guard Bert 11" from Thieven Hood: 1 inch beyond the longbow's 10", so 1d6+1-1 must
        beat Armor 4 (a 5 or 6: 1/3); the Action penalty does not matter (5.3)."""
        ctx = make_ctx()
        d = AttackDraft(
            HOOD,
            "longbow",
            AttackKind.RANGED,
            GUY,
            distance=Fraction(8),
            action_faces=(2,),
            missed_strikes=BERT,
            missed_distance=Fraction(11),
        )
        preview = damage_preview(d, ctx, resolve_action(d, ctx))
        assert preview.kill == Fraction(1, 3)
        assert preview.armor == "4" and "destroy Guard Bert" in preview.armor_text
        assert "-1 Damage: 1 inch beyond Range (5.1 Out of Range)" in "".join(preview.lines)
        near = damage_preview(replace(d, missed_distance=Fraction(9)), ctx, resolve_action(d, ctx))
        assert near.kill == Fraction(1, 2)  # in Range: 1d6+1 beats 4 on a 4, 5 or 6

    def test_a_collision_shows_the_chance_of_knockback(self):
        """5.4: MOM 1d6 against POP 1d6, each with bonus dice on a 6: the target flies when
        the MOM is higher (a little more than the 15/36 of plain dice)."""
        ctx = make_ctx()
        d = AttackDraft(
            JOHN, "two-handed-weapon", AttackKind.CHARGE, ALAN, has_mom=True, action_faces=(2,)
        )
        preview = damage_preview(d, ctx, resolve_action(d, ctx))
        assert preview.collision_possible
        assert preview.collision_chance == Fraction(3, 7)
        # The odds engine's distributions (bonus chains cut where they fall below 1e-12) agree.
        engine = attack_odds(6, None, "1d6", "1d6", automatic_hit=True).kill
        assert abs(engine - Fraction(3, 7)) < Fraction(1, 10**9)
        assert (
            damage_preview(replace(d, collide=False), ctx, resolve_action(d, ctx)).collision_chance
            is None
        )

    def test_a_pike_is_one_counter(self):
        ctx = make_ctx()
        assert ctx.setup.unit(JOHN).counters == 1
        d = AttackDraft(JOHN, "two-handed-weapon", AttackKind.STRIKE, ALAN)
        assert attack_problem(ctx, d) is None
        summary, _state = record(ctx, replace(d, action_faces=(2,)))
        assert summary.events[0].participants[0].hands == 1
        assert attack_problem(ctx, replace(d, kind=AttackKind.SHOVE, item_key=None)) is None

    def test_shove_and_grab(self):
        ctx = make_ctx()
        d = AttackDraft(WILL, None, AttackKind.SHOVE, BERT)
        summary, state = record(ctx, d)
        assert state.unit(BERT).disrupted and not state.unit(WILL).close_combat
        assert summary.events[0].participants[0].hands == 2
        summary, state = record(ctx, replace(d, obstacle=Fraction(1)))
        assert "Smash" in " ".join(summary.details)
        summary, state = record(ctx, replace(d, kind=AttackKind.GRAB))
        assert state.unit(WILL).grabbing == {BERT}


class TestBenny:
    def test_options_follow_the_policy_and_explain_refusals(self):
        ctx = make_ctx()
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY, action_faces=(6,))
        stage = resolve_action(d, ctx)
        assert stage.pending == "attack:4"
        options = benny_options(d, ctx, stage.pending, stage)
        assert options[0].use is BennyUse.DAMAGE  # the roll already hits
        rng = next(o for o in options if o.use is BennyUse.STAT)
        assert "no Range" in rng.problem

    def test_benny_damage_die(self):
        ctx = make_ctx()
        d = AttackDraft(WILL, "hand-weapon", AttackKind.STRIKE, GUY, action_faces=(6,)).with_benny(
            "attack:4", BennyUse.DAMAGE
        )
        damage = resolve_damage(replace(d, damage_faces=(2,)), ctx, resolve_action(d, ctx))
        assert damage.need is not None and damage.need.sides == 6
        damage = resolve_damage(replace(d, damage_faces=(2, 3)), ctx, resolve_action(d, ctx))
        assert [r.role for r in damage.dice] == [Role.NATURAL, Role.BENNY]
        assert damage.damage.destroyed


def test_default_draft_picks_a_weapon_and_an_enemy():
    ctx = make_ctx()
    d = default_draft(ctx, HOOD)
    assert (d.item_key, d.kind) == ("longbow", AttackKind.RANGED)
    assert ctx.fighter(d.target_id).player_id == 2
    assert default_draft(ctx, TUCK).kind is AttackKind.THROWN
    assert default_draft(ctx, WILL).kind is AttackKind.STRIKE


def test_object_armor_must_be_a_number_or_dice():
    with pytest.raises(Exception, match="Armor|dice|column"):
        ObjectTarget("the gate", "tough")
    assert Armor.parse(ObjectTarget("the gate", "2d6").armor).rolled


def test_strikers_need_a_measured_distance():
    with pytest.raises(Exception, match="measure the distance"):
        strikers(AttackDraft(HOOD, "longbow", AttackKind.RANGED, GUY), make_ctx())


def test_combined_kill_of_nothing_is_zero():
    assert combined_kill([], Armor(4)) == 0
