"""Attack rules (5.1 to 5.4): range, Action modifiers, Automatic Hits, Benny, Damage vs Armor."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brikdesk.domain import attack as atk
from brikdesk.domain.attack import (
    BARE_HANDS,
    READINGS,
    Armor,
    Attack,
    Attacker,
    Maneuver,
    SizeClass,
    Target,
    Weapon,
    apply_benny,
    apply_damage,
    automatic_hit,
    charging_weapon,
    check_range,
    damage_roll,
    explode,
    flat_damage,
    gains_mom,
    height_advantage,
    inches_out_of_range,
    inches_text,
    out_of_range_modifiers,
    resolve_attack,
    resolve_missed_shot,
    roll_attack_action,
    roll_attack_damage,
    roll_damage,
    target_size_modifiers,
    to_inches,
)
from brikdesk.domain.catalog import CatalogItem, Category
from brikdesk.domain.dice import parse
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.rolling import BennyUse, Role, TypedDice
from brikdesk.errors import UserError

MINIFIG = Attacker("Trooper")
HERO = Attacker("Hero", 10)
SWORD = Weapon("sword", 2, "1dA")
HALBERD = Weapon("halberd", 4, "2dA", two_handed=True, thrust=True, knockback=1)
GREATSWORD = Weapon("greatsword", 3, "1dA+2", heavy=True, knockback=1)
RIFLE = Weapon("rifle", 3, "1d6+1", 10, two_handed=True)
GRENADE = Weapon("grenade", 1, "1d10 Exp", 3, explosive_radius=2, knockback=1, thrown=True)


def ranged(distance, weapon=RIFLE, target=None, **kw):
    return Attack(MINIFIG, weapon, target or Target("Bob"), distance=distance, **kw)


def melee(weapon=SWORD, target=None, attacker=MINIFIG, **kw):
    kw.setdefault("in_reach", True)
    return Attack(attacker, weapon, target or Target("Bob"), **kw)


# ---- inches ---------------------------------------------------------------------------------


class TestInches:
    @pytest.mark.parametrize(
        "value, expected",
        [
            (7, Fraction(7)),
            (7.5, Fraction(15, 2)),
            ("7.5", Fraction(15, 2)),
            ("15/2", Fraction(15, 2)),
            ('3½"', Fraction(7, 2)),
            (Fraction(1, 2), Fraction(1, 2)),
        ],
    )
    def test_accepts_half_inches(self, value, expected):
        assert to_inches(value) == expected

    @pytest.mark.parametrize("bad", ["", "seven", -1, float("nan"), True, None])
    def test_refuses_what_is_not_a_distance(self, bad):
        with pytest.raises(UserError):
            to_inches(bad)

    def test_text(self):
        assert [inches_text(x) for x in (15, Fraction(7, 2), Fraction(1, 2), Fraction(9, 4))] == [
            '15"',
            '3½"',
            '½"',
            '2.25"',
        ]


# ---- 5.1 Range ------------------------------------------------------------------------------


class TestRange:
    def test_close_combat_needs_the_organizer_to_confirm_reach(self):
        with pytest.raises(UserError, match="must reach"):
            check_range(SWORD)
        assert check_range(SWORD, in_reach=True).can_attack
        assert not check_range(SWORD, in_reach=False).can_attack

    def test_out_of_reach_close_combat_attack_is_refused(self):
        with pytest.raises(UserError, match="must touch"):
            roll_attack_action(melee(in_reach=False), TypedDice([6]))

    def test_ranged_attack_needs_a_distance(self):
        with pytest.raises(UserError, match="measure the distance"):
            roll_attack_action(Attack(MINIFIG, RIFLE, Target("Bob")), TypedDice([6]))

    def test_in_range_has_no_penalty(self):
        rc = check_range(RIFLE, distance=10)
        assert (rc.inches_out, rc.penalties, rc.effective_range) == (0, (), 10)

    @pytest.mark.parametrize(
        "distance, out", [(Fraction(21, 2), 1), (11, 1), (Fraction(23, 2), 2), (15, 5)]
    )
    def test_any_part_of_an_inch_past_range_counts(self, distance, out):
        rc = check_range(RIFLE, distance=distance)
        assert rc.inches_out == out
        assert [(m.value, m.applies_to) for m in rc.penalties] == [
            (-out, Stat.ACTION),
            (-out, Stat.DAMAGE),
        ]
        assert all(m.rule == "5.1 Out of Range" for m in rc.penalties)

    def test_explosive_damage_is_exempt_from_out_of_range(self):
        rc = check_range(GRENADE, distance=5)
        assert [(m.value, m.applies_to) for m in rc.penalties] == [(-2, Stat.ACTION)]
        assert "Explosive Damage is not lowered" in rc.describe()

    @pytest.mark.parametrize(
        "altitude, bonus",
        [
            (0, None),
            (Fraction(1, 2), None),
            (1, 1),
            (Fraction(5, 2), 2),
            (5, 5),
            (9, 5),
            (-3, None),
        ],
    )
    def test_height_advantage(self, altitude, bonus):
        mod = height_advantage(altitude)
        assert (None if mod is None else mod.value) == bonus
        if mod is not None:
            assert (mod.applies_to, mod.rule) == (Stat.RANGE, "5.1 Height Advantage")

    def test_height_advantage_extends_the_range(self):
        rc = check_range(RIFLE, distance=14, altitude=3)
        assert (rc.effective_range, rc.inches_out) == (13, 1)

    def test_a_lower_attacker_has_no_penalty(self):
        rc = check_range(RIFLE, distance=10, altitude=-4)
        assert (rc.effective_range, rc.inches_out) == (10, 0)
        assert "no penalty for firing upwards" in rc.describe()

    @given(st.integers(0, 400), st.integers(0, 400), st.integers(1, 30))
    def test_out_of_range_penalty_is_monotone_in_distance(self, a, b, rng):
        near, far = sorted((Fraction(a, 2), Fraction(b, 2)))
        assert inches_out_of_range(near, rng) <= inches_out_of_range(far, rng)
        assert inches_out_of_range(near, rng) >= 0

    @given(st.fractions(min_value=-20, max_value=200))
    def test_height_advantage_never_exceeds_five(self, altitude):
        mod = height_advantage(altitude)
        assert mod is None or 1 <= mod.value <= 5

    @given(st.integers(0, 60), st.integers(0, 60))
    def test_out_of_range_modifiers_equal_inches(self, distance2, rng):
        weapon = Weapon("gun", 3, "1d6", rng + 1)
        rc = check_range(weapon, distance=Fraction(distance2, 2))
        assert all(m.value == -rc.inches_out for m in rc.penalties)
        assert rc.inches_out == max(0, -(-(Fraction(distance2, 2) - rng - 1) // 1))


# ---- 5.1 Action modifiers and Automatic Hits ------------------------------------------------


class TestActionModifiers:
    @pytest.mark.parametrize("sections, value", [(3, None), (2, -1), (1, -2)])
    def test_minifig_visibility(self, sections, value):
        mods = target_size_modifiers(Target("Bob", sections_visible=sections))
        assert [m.value for m in mods] == ([] if value is None else [value])

    def test_a_hidden_minifig_is_firing_blind_not_zero_sections(self):
        with pytest.raises(UserError, match="Firing Blind"):
            Target("Bob", sections_visible=0)

    @pytest.mark.parametrize(
        "size, value",
        [(SizeClass.BRICK_2X4, None), (SizeClass.BRICK_2X2, -1), (SizeClass.STUD_1X1, -2)],
    )
    def test_small_targets(self, size, value):
        mods = target_size_modifiers(Target("thing", size=size))
        assert [m.value for m in mods] == ([] if value is None else [value])

    @pytest.mark.parametrize("visible, value", [(1, None), (2, 1), (3, 1), (4, 2), (24, 12)])
    def test_large_targets_count_only_the_visible_in_range_part(self, visible, value):
        mods = target_size_modifiers(Target("frigate", size=SizeClass.LARGE, visible_size=visible))
        assert [m.value for m in mods] == ([] if value is None else [value])

    def test_size_modifies_explosion_damage_when_asked(self):
        (mod,) = target_size_modifiers(Target("Bob", sections_visible=1), Stat.DAMAGE)
        assert (mod.value, mod.applies_to) == (-2, Stat.DAMAGE)

    def test_firing_blind_disrupted_and_size_add_up(self):
        target = Target("Bob", sections_visible=2, disrupted=True)
        state = roll_attack_action(ranged(4, target=target, firing_blind=True), TypedDice([6]))
        assert [(m.value, m.rule) for m in state.roll.modifiers] == [
            (-1, "5.1 Minifig Visibility"),
            (-5, "5.1 Firing Blind"),
            (1, "4.1 Disrupted"),
        ]
        assert state.roll.total == 1 and not state.hit

    def test_outnumbered_in_close_combat(self):
        state = roll_attack_action(melee(outnumbered=True), TypedDice([2]))
        assert [(m.value, m.reason) for m in state.roll.modifiers] == [
            (-1, "outnumbered in Close Combat")
        ]
        assert not state.hit  # 2 - 1 < Use 2

    def test_ranged_attacks_are_not_made_from_close_combat(self):
        with pytest.raises(UserError, match="5.3"):
            ranged(3, outnumbered=True)

    def test_extra_house_rule_modifiers_are_listed(self):
        from brikdesk.domain.modifiers import Modifier

        fog = Modifier(-1, Stat.ACTION, "fog", "house rule")
        state = roll_attack_action(ranged(3, extra=(fog,)), TypedDice([4]))
        assert fog in state.roll.modifiers and state.roll.total == 3


class TestAutomaticHits:
    def test_inanimate_object_in_reach(self):
        crate = Target("the crate", inanimate=True, size=SizeClass.BRICK_2X4)
        state = roll_attack_action(melee(target=crate), TypedDice([]))
        assert state.hit and state.roll is None
        assert state.automatic.rule == "5.1 Automatic Hits"
        assert "the Action is still spent" in state.describe()

    def test_not_while_someone_attacks_the_attacker(self):
        crate = Target("the crate", inanimate=True, size=SizeClass.BRICK_2X4)
        assert automatic_hit(melee(target=crate, attacker_engaged=True)) is None

    def test_disrupted_target_in_touch(self):
        hit = automatic_hit(melee(target=Target("Bob", disrupted=True)))
        assert hit is not None and hit.rule == "4.1 Disrupted"

    def test_disrupted_target_far_away_gives_plus_one_to_ranged(self):
        attack = ranged(4, target=Target("Bob", disrupted=True))
        assert automatic_hit(attack) is None

    @pytest.mark.parametrize(
        "maneuver, rule", [(Maneuver.GRAB, "5.2 Grabbing"), (Maneuver.SHOVE, "5.2 Shoving")]
    )
    def test_grab_and_shove(self, maneuver, rule):
        hit = automatic_hit(melee(BARE_HANDS, maneuver=maneuver))
        assert hit.rule == rule and hit.can_be_avoided
        result = resolve_attack(melee(BARE_HANDS, maneuver=maneuver), TypedDice([]))
        assert result.hit and result.damage is None

    def test_close_combat_attacks_in_a_grab(self):
        assert automatic_hit(melee(grab_involved=True)).rule == "5.2 Grabbing"

    def test_an_automatic_hit_earns_no_benny(self):
        state = roll_attack_action(melee(grab_involved=True), TypedDice([]))
        with pytest.raises(UserError, match="no Action Roll earns no Benny"):
            apply_benny(state, BennyUse.ACTION, TypedDice([3]))


# ---- 4.2 Over the Top Benny -----------------------------------------------------------------


class TestBenny:
    def test_no_benny_below_six(self):
        state = roll_attack_action(ranged(3), TypedDice([5]))
        with pytest.raises(UserError, match="showed 5"):
            apply_benny(state, BennyUse.ACTION, TypedDice([3]))

    def test_cannon_fodder_never_goes_over_the_top(self):
        fodder = Attacker("fodder", over_the_top=False)
        state = roll_attack_action(Attack(fodder, RIFLE, Target("Bob"), distance=3), TypedDice([6]))
        assert not state.over_the_top
        with pytest.raises(UserError, match="no Benny to spend: fodder never goes Over the Top"):
            apply_benny(state, BennyUse.ACTION, TypedDice([3]))

    def test_action_benny_adds_a_d6_with_its_bonus_dice(self):
        dice = TypedDice([6, 6, 2])
        state = roll_attack_action(ranged(15), dice)  # 6 - 5 = 1, a miss
        assert not state.hit
        state = apply_benny(state, BennyUse.ACTION, dice)
        assert [d.role for d in state.benny_dice] == [Role.BENNY, Role.BONUS]
        assert state.roll.total == 9 and state.hit
        assert "+1d6 Action Roll (6+2)" in state.describe()

    def test_damage_benny_adds_the_largest_damage_die(self):
        dice = TypedDice([6, 3, 4])
        state = apply_benny(roll_attack_action(ranged(3), dice), BennyUse.DAMAGE, dice)
        part = damage_roll(state, dice)
        assert [(d.sides, d.face, d.role) for d in part.dice] == [
            (6, 3, Role.NATURAL),
            (6, 4, Role.BENNY),
        ]
        assert part.total == 8 and str(part.expr) == "1d6+1d6+1"

    def test_damage_benny_on_a_grenade_is_another_d10_exp(self):
        dice = TypedDice([6, 5, 7])
        state = apply_benny(
            roll_attack_action(ranged(2, weapon=GRENADE), dice), BennyUse.DAMAGE, dice
        )
        part = damage_roll(state, dice)
        assert [(d.sides, d.role) for d in part.dice] == [(10, Role.NATURAL), (10, Role.BENNY)]
        assert part.expr.explosive and part.total == 12

    def test_damage_benny_of_a_hero_sword_is_a_d10(self):
        dice = TypedDice([7, 4, 9])
        state = apply_benny(roll_attack_action(melee(attacker=HERO), dice), BennyUse.DAMAGE, dice)
        assert [d.sides for d in damage_roll(state, dice).dice] == [10, 10]

    def test_range_benny_never_for_close_combat(self):
        state = roll_attack_action(melee(), TypedDice([6]))
        with pytest.raises(UserError, match="no Range stat"):
            apply_benny(state, BennyUse.STAT, TypedDice([3]))

    def test_embellishment_must_say_what(self):
        state = roll_attack_action(ranged(3), TypedDice([6]))
        with pytest.raises(UserError, match="say what"):
            apply_benny(state, BennyUse.EMBELLISH, TypedDice([]), "  ")
        state = apply_benny(state, BennyUse.EMBELLISH, TypedDice([]), "the dragon's left eye")
        assert "the dragon's left eye" in state.describe()

    def test_a_planned_benny_is_spent_only_if_earned(self):
        result = resolve_attack(ranged(3), TypedDice([4, 2]), BennyUse.DAMAGE)
        assert result.roll.benny is BennyUse.NONE
        assert result.damage.total == 3


# ---- Damage vs Armor ------------------------------------------------------------------------


class TestDamage:
    @pytest.mark.parametrize("face, destroyed", [(2, False), (3, False), (4, True)])
    def test_damage_must_be_greater_than_armor(self, face, destroyed):
        result = resolve_attack(ranged(3), TypedDice([4, face]))
        assert result.damage.total == face + 1
        assert result.destroyed is destroyed
        assert result.describe().endswith("Bob is destroyed" if destroyed else "ka-ping")

    def test_damage_below_zero_counts_as_zero(self):
        attack = Attack(HERO, RIFLE, Target("Bob"), distance=14)
        result = resolve_attack(attack, TypedDice([7, 1]))
        # Hero's d10: 7 - 4 out of range = 3 hits Use 3; Damage 1+1-4 = -2 counts as 0
        assert result.damage.parts[0].raw_total == -2
        assert result.damage.total == 0
        assert "= -2, counts as 0" in result.describe()

    def test_damage_with_every_die_deflected_reads_naturally(self):
        shield = ("Bob's Shield Parry (5.2)",)
        none_left = roll_damage(parse("1d6"), TypedDice([]), action_sides=6, deflections=shield)
        assert none_left.describe() == "Deflection removed every die: 0"
        result = apply_damage(none_left, Target("Bob"), TypedDice([]))
        assert result.describe() == (
            "Deflection removed every die: 0 Damage does not beat Armor 4: ka-ping"
        )
        assert none_left.breakdown()[0] == "Damage 1d6, after Deflection no dice"
        flat_left = roll_damage(
            parse("1d6+1"),
            TypedDice([]),
            action_sides=6,
            deflections=shield,
            modifiers=out_of_range_modifiers(1),
        )
        assert flat_left.describe() == "Deflection removed every die: 1-1 = 0"
        assert flat_left.breakdown()[0] == "Damage 1d6+1, after Deflection no dice, +1"
        some_left = roll_damage(parse("2d6"), TypedDice([4]), action_sides=6, deflections=shield)
        assert some_left.describe() == "4 = 4"
        assert some_left.breakdown()[0] == "Damage 2d6, after Deflection 1d6"
        smash = flat_damage(2, 'Smash: 2" of KnockBack stopped', "5.4 Minifig Collisions")
        assert smash.describe() == "2"

    def test_hero_armor_is_rolled_each_time_with_bonus_dice(self):
        hero = Target("Hero", armor="2d6")
        result = resolve_attack(melee(GREATSWORD, target=hero), TypedDice([4, 6, 3, 6, 6, 2, 1]))
        # Damage: d6 shows 6, bonus d6 3, +2 = 11. Armor 2d6: 6 (bonus 6, bonus 2) and 1 = 15
        assert result.damage.total == 11
        assert result.damage.armor_value == 6 + 6 + 2 + 1
        assert not result.destroyed
        assert "rolled 6+6+2+1 = 15" in result.describe()

    def test_rolled_armor_is_not_rolled_when_damage_cannot_beat_it(self):
        hero = Target("Hero", armor="2d6")
        dice = TypedDice([4, 1])
        result = resolve_attack(melee(target=hero), dice)
        dice.check_all_used()
        assert result.damage.armor_roll is None and not result.destroyed
        assert "at least 2, no roll needed" in result.describe()

    def test_shield_deflection_removes_one_die_of_each_kind(self):
        dice = TypedDice([4, 3, 5])
        state = roll_attack_action(melee(HALBERD), dice)
        part = damage_roll(state, dice, deflections=["shield Parry"])
        assert str(part.expr) == "1d6" and part.total == 3
        assert dice.used == 2  # the Action die and one Damage die, not two

    def test_heavy_armor_and_shield_stack(self):
        target = Target("knight", deflection=1)
        state = roll_attack_action(melee(HALBERD, target=target), TypedDice([4]))
        part = damage_roll(state, TypedDice([]), deflections=["shield Parry"])
        assert part.dice == () and part.total == 0
        assert len(part.deflections) == 2

    def test_deflected_grenade_keeps_only_its_flat_part(self):
        assert (
            roll_damage(
                parse("1d10 Exp"), TypedDice([]), action_sides=6, deflections=["shield"]
            ).total
            == 0
        )

    def test_combined_attack_adds_damage_before_comparing_once(self):
        target = Target("ogre", armor=8, size=SizeClass.LARGE, visible_size=2)
        parts = []
        for name, faces in (("Ann", [3, 4]), ("Bea", [4, 5])):
            dice = TypedDice(faces)
            state = roll_attack_action(melee(attacker=Attacker(name), target=target), dice)
            parts.append(damage_roll(state, dice))
        result = apply_damage(parts, target, TypedDice([]))
        assert result.total == 9 and result.destroyed
        assert result.describe().startswith("combined Damage (Ann's sword: 4 = 4; Bea's sword:")

    def test_each_participant_is_floored_at_zero_before_adding(self):
        parts = [flat_damage(-3, "weak", "test"), flat_damage(5, "strong", "test")]
        assert apply_damage(parts, Target("Bob"), TypedDice([])).total == 5

    def test_a_fourth_close_combat_attacker_on_a_minifig_is_refused(self):
        parts = [
            damage_roll(
                roll_attack_action(melee(attacker=Attacker(n)), TypedDice([5, 1])), TypedDice([1])
            )
            for n in ("A", "B", "C", "D")
        ]
        apply_damage(parts[:3], Target("Bob"), TypedDice([]))
        with pytest.raises(UserError, match="no more than three Close Combat attackers"):
            apply_damage(parts, Target("Bob"), TypedDice([]))
        # a larger target has no such limit
        apply_damage(parts, Target("troll", size=SizeClass.LARGE, visible_size=4), TypedDice([]))

    def test_miss_has_no_damage(self):
        state = roll_attack_action(ranged(3), TypedDice([2]))
        with pytest.raises(UserError, match="missed"):
            roll_attack_damage(state, TypedDice([5]))

    def test_surviving_target_of_a_heavy_weapon_is_knocked_back(self):
        result = resolve_attack(melee(GREATSWORD), TypedDice([5, 1]))
        assert not result.destroyed and result.knockback == 1
        assert result.describe().endswith('Bob is Knocked Back 1" (3.1)')


# ---- 5.3 Missed Shots, Explosives ------------------------------------------------------------


class TestMissedShotsAndExplosions:
    def test_missed_by_is_the_margin(self):
        state = roll_attack_action(
            ranged(3, target=Target("Bob", sections_visible=1)), TypedDice([2])
        )
        assert state.missed_by == 3
        assert atk.missed_shot(state).radius == 3

    def test_close_combat_leaves_no_missed_shot(self):
        state = roll_attack_action(melee(), TypedDice([1]))
        with pytest.raises(UserError, match="only a Ranged attack"):
            atk.missed_shot(state)

    def test_range_benny_still_counts_for_the_missed_shot(self):
        dice = TypedDice([6, 2])
        state = roll_attack_action(
            ranged(10, target=Target("Bob", sections_visible=1), firing_blind=True), dice
        )
        state = apply_benny(state, BennyUse.STAT, dice)  # Range 12"
        assert not state.hit
        damage = resolve_missed_shot(state, Target("Al"), 13, TypedDice([5]))
        assert damage.total == 5  # 5 + 1 - 1 (one inch past 12")

    def test_blast_hits_every_target_with_its_own_modifiers(self):
        dice = TypedDice([3, 6])
        state = roll_attack_action(ranged(2, weapon=GRENADE), dice)
        targets = [
            Target("Al"),
            Target("Bo", sections_visible=1),
            Target("Cy", deflection=1),
            Target("tank", armor=10, size=SizeClass.LARGE, visible_size=8),
        ]
        blast = explode(state, targets, dice)
        dice.check_all_used()
        totals = {h.target.name: h.damage.total for h in blast.hits}
        assert totals == {"Al": 6, "Bo": 4, "Cy": 0, "tank": 10}
        assert [h.damage.destroyed for h in blast.hits] == [True, False, False, False]
        assert [h.disrupted for h in blast.hits] == [False, True, True, True]
        assert 'Knocked Back 1" and Disrupted' in blast.describe()

    def test_explosive_damage_is_not_lowered_out_of_range(self):
        dice = TypedDice([6, 5])
        state = roll_attack_action(ranged(5, weapon=GRENADE), dice)  # 6 - 2 = 4 hits Use 1
        blast = explode(state, [Target("Al")], dice)
        assert blast.hits[0].damage.total == 5


# ---- 5.4 Charge -----------------------------------------------------------------------------


class TestCharge:
    def test_mom_after_four_inches(self):
        assert not gains_mom(Fraction(7, 2))
        assert gains_mom(4)

    @pytest.mark.parametrize(
        "weapon, both, above, ok",
        [
            (HALBERD, True, False, True),
            (Weapon("halberd (axe head)", 4, "2dA", two_handed=True), True, False, False),
            (Weapon("halberd (axe head)", 4, "2dA", two_handed=True), True, True, True),
            (GREATSWORD, False, True, False),
            (GREATSWORD, True, True, True),
            (SWORD, True, True, False),
        ],
    )
    def test_charging_weapons(self, weapon, both, above, ok):
        assert charging_weapon(weapon, both_hands=both, from_above=above)[0] is ok

    def test_charge_that_hits_spends_the_mom_for_one_more_action_die(self):
        attack = melee(HALBERD, maneuver=Maneuver.CHARGE, has_mom=True)
        dice = TypedDice([5, 2, 3, 4])
        result = resolve_attack(attack, dice, spend_mom=True)
        dice.check_all_used()
        part = result.damage.parts[0]
        assert [d.role for d in part.dice] == [Role.NATURAL, Role.NATURAL, Role.MOM]
        assert part.total == 9 and result.destroyed

    def test_mom_needs_a_mom_and_a_charging_weapon(self):
        state = roll_attack_action(melee(HALBERD, maneuver=Maneuver.CHARGE), TypedDice([5]))
        with pytest.raises(UserError, match="no MOM"):
            damage_roll(state, TypedDice([1, 1, 1]), spend_mom=True)
        state = roll_attack_action(
            melee(SWORD, maneuver=Maneuver.CHARGE, has_mom=True), TypedDice([5])
        )
        with pytest.raises(UserError, match="not a Two-Handed or Heavy"):
            damage_roll(state, TypedDice([1, 1]), spend_mom=True)

    def test_a_missed_charge_keeps_the_mom(self):
        result = resolve_attack(
            melee(HALBERD, maneuver=Maneuver.CHARGE, has_mom=True), TypedDice([3])
        )
        assert not result.hit
        assert "keeps his MOM" in result.describe()


# ---- catalog profiles, armor, readings -------------------------------------------------------


def _item(**kw):
    base = dict(
        key="hand_weapon",
        name="Hand Weapon",
        category=Category.WEAPON,
        cost=2,
        use=2,
        range_inches=None,
        close_combat=True,
        damage="1dA",
        hands=1,
    )
    base.update(kw)
    return CatalogItem(**base)


class TestProfilesAndReadings:
    def test_thrown_hand_weapon(self):
        w = Weapon.from_item(_item(thrown_range=3, thrown_use=2), thrown=True)
        assert (w.use, w.range_inches, str(w.damage), w.thrown) == (2, 3, "1dA", True)

    def test_thrown_object_without_thrown_stats_has_range_three(self):
        w = Weapon.from_item(
            _item(key="random", name="Random Object", use=4, damage="1dA-2"), thrown=True
        )
        assert (w.use, w.range_inches) == (4, 3)

    def test_two_handed_weapons_cannot_be_thrown(self):
        with pytest.raises(UserError, match="can't be thrown"):
            Weapon.from_item(_item(name="Two-Handed Weapon", hands=2), thrown=True)

    def test_an_explosive_is_always_thrown(self):
        w = Weapon.from_item(
            _item(
                key="explosive",
                name="Explosive",
                use=1,
                close_combat=False,
                damage="1d10 Exp",
                thrown_range=3,
                thrown_use=1,
                explosive_radius=2,
                knockback=1,
            )
        )
        assert (w.use, w.range_inches, w.explosive, w.thrown) == (1, 3, True, True)
        assert w.name == "Explosive"

    def test_a_rolled_thrown_range_must_be_given(self):
        item = _item(
            key="explosive",
            name="Explosive",
            use=3,
            close_combat=False,
            damage="1d10 Exp",
            thrown_range_dice="1d6+2",
        )
        with pytest.raises(UserError, match="roll it and give the Range"):
            Weapon.from_item(item)
        assert Weapon.from_item(item, thrown_range=7).range_inches == 7

    def test_thrown_object_row_needs_the_object(self):
        with pytest.raises(UserError, match="pick that object"):
            Weapon.from_item(
                _item(
                    key="thrown-object",
                    name="Thrown Object",
                    use=None,
                    damage="",
                    thrown_range=3,
                    as_object=True,
                ),
                thrown=True,
            )

    def test_a_ranged_weapon_is_not_thrown(self):
        w = Weapon.from_item(
            _item(
                key="long-ranged-weapon",
                name="Long-Ranged Weapon",
                use=3,
                close_combat=False,
                range_inches=10,
                damage="1d6+1",
                hands=2,
            ),
            thrown=True,
        )
        assert (w.range_inches, w.thrown) == (10, False)

    def test_a_heavy_shield_is_not_a_heavy_weapon(self):
        w = Weapon.from_item(
            _item(
                key="heavy-shield",
                name="Heavy Shield",
                category=Category.SHIELD,
                use=3,
                damage="",
                shield=True,
            )
        )
        assert not w.heavy and w.shield

    def test_heavy_weapon_is_recognised(self):
        w = Weapon.from_item(_item(key="heavy_weapon", name="Heavy Weapon", damage="1dA+2"))
        assert w.heavy and w.close_combat

    @pytest.mark.parametrize(
        "text, fixed, minimum", [("4", 4, 4), ("2d6", None, 2), ("2d6+1", None, 3), (0, 0, 0)]
    )
    def test_armor_parse(self, text, fixed, minimum):
        armor = Armor.parse(text)
        assert armor.fixed == fixed and armor.minimum() == minimum

    def test_readings_name_their_sections(self):
        assert {
            "5.1 Out of Range",
            "5.1 Height Advantage",
            "5.3 Missed Shots",
            "4.2 Over the Top",
        } <= set(READINGS)
        assert all(text.strip() for text in READINGS.values())

    def test_modifiers_describe_themselves(self):
        (action, damage) = out_of_range_modifiers(3)
        assert action.describe() == "-3 Action Roll: 3 inches beyond Range (5.1 Out of Range)"
        assert damage.describe() == "-3 Damage: 3 inches beyond Range (5.1 Out of Range)"
