"""The rules' own worked examples, replayed with the faces the rules describe (typed dice)."""

from fractions import Fraction

import pytest

from brikdesk.domain.attack import (
    Attack,
    Attacker,
    AttackResult,
    SizeClass,
    Target,
    Weapon,
    apply_benny,
    missed_shot,
    resolve_attack,
    resolve_missed_shot,
    roll_attack_action,
    roll_attack_damage,
)
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.rolling import BennyUse, NeedDie, TypedDice
from brikdesk.errors import UserError

PISTOL = Weapon("pistol", 3, "1d6", 6)
THROWN_AXE = Weapon("thrown viking axe", 2, "1dA", 3, thrown=True)
LONGBOW = Weapon("longbow", 3, "1d6+1", 10, two_handed=True)


class TestHighNoonShootout:
    """2020 chapter 4 (4.3 Who Acts First): both fire at once; Wayne rolls 1, Shaun rolls 2."""

    def test_wayne_critical_failure_and_shaun_miss(self):
        wayne = Attacker("Hairtrigger Wayne")
        shaun = Attacker("Shoot-Em-in-the-Back Shaun")
        dice = TypedDice([1, 2])
        wayne_shot = roll_attack_action(Attack(wayne, PISTOL, Target("Shaun"), distance=4), dice)
        shaun_shot = roll_attack_action(Attack(shaun, PISTOL, Target("Wayne"), distance=4), dice)
        dice.check_all_used()

        assert wayne_shot.critical_failure
        assert not wayne_shot.hit
        assert "critical failure" in wayne_shot.describe()

        assert not shaun_shot.critical_failure
        assert not shaun_shot.hit
        assert shaun_shot.missed_by == 1
        assert shaun_shot.describe() == (
            "Shoot-Em-in-the-Back Shaun's pistol at Wayne: 2 = 2 vs Use 3: miss by 1"
        )

    def test_critical_failure_fails_whatever_the_modifiers(self):
        # A huge target in range would make 1 + 10 beat Use 3, but a natural 1 still fails.
        barn = Target("the barn", armor=10, size=SizeClass.LARGE, visible_size=20)
        shot = roll_attack_action(
            Attack(Attacker("Hairtrigger Wayne"), PISTOL, barn, distance=2), TypedDice([1])
        )
        assert shot.roll.total == 11
        assert not shot.hit

    def test_missed_shots_need_no_damage_dice(self):
        result = resolve_attack(
            Attack(Attacker("Shaun"), PISTOL, Target("Wayne"), distance=4), TypedDice([2])
        )
        assert result.damage is None
        assert result.describe().endswith('a tracked Missed Shot lands within 1" (5.3)')


class TestVikingThrownAxe:
    """2020 chapter 5 (5.3 Missed Shots): needs 2, rolls 1, the pirate within 1", Damage 4-1 = 3."""

    def test_missed_shot_hits_the_pirate_for_three(self):
        viking = Attacker("the viking")
        ninja = Target("the ninja")
        pirate = Target("the pirate", armor=4)
        dice = TypedDice([1, 4])
        shot = roll_attack_action(Attack(viking, THROWN_AXE, ninja, distance=3), dice)
        assert shot.range.inches_out == 0  # "just within range"
        assert not shot.hit
        assert shot.missed_by == 1
        assert missed_shot(shot).radius == 1

        damage = resolve_missed_shot(shot, pirate, Fraction(7, 2), dice)
        dice.check_all_used()
        part = damage.parts[0]
        assert [m.value for m in part.modifiers] == [-1]
        assert part.modifiers[0].applies_to is Stat.DAMAGE
        assert part.modifiers[0].rule == "5.1 Out of Range"
        assert damage.total == 3
        assert not damage.destroyed
        assert damage.describe() == "4-1 = 3 Damage does not beat Armor 4: ka-ping"

    def test_the_action_penalty_is_irrelevant_for_a_missed_shot(self):
        # Even 2 inches out of range only costs Damage: the d6 showing 6 (+ bonus 1) less 2.
        shot = roll_attack_action(
            Attack(Attacker("the viking"), THROWN_AXE, Target("the ninja"), distance=3),
            TypedDice([1]),
        )
        damage = resolve_missed_shot(shot, Target("the pirate"), 5, TypedDice([6, 1]))
        assert damage.total == 5
        assert damage.destroyed

    def test_a_thrown_axe_uses_the_thrown_profile(self):
        assert (THROWN_AXE.use, THROWN_AXE.range_inches, str(THROWN_AXE.damage)) == (2, 3, "1dA")


class TestThievenHoodLongbow:
    """2010 chapter 4 (4.2 Overskill example): d10 shows 8, the Benny buys +1d6 Range showing 2."""

    def setup_method(self):
        self.attack = Attack(
            Attacker("Thieven Hood", 10),
            LONGBOW,
            Target("the rope", armor=1, size=SizeClass.STUD_1X1, inanimate=True),
            distance=15,
        )

    def test_step_by_step(self):
        dice = TypedDice([8, 2, 2])
        state = roll_attack_action(self.attack, dice)
        # Before the Benny: 8 - 2 (rope) - 5 (five inches out) = 1, a miss.
        assert state.roll.total == 1
        assert not state.hit
        assert state.over_the_top and state.benny_available

        state = apply_benny(state, BennyUse.STAT, dice)
        assert state.range.effective_range == 12
        assert state.range.inches_out == 3
        assert [(m.value, m.applies_to) for m in state.roll.modifiers] == [
            (-2, Stat.ACTION),
            (-3, Stat.ACTION),
        ]
        assert state.roll.total == 3
        assert state.hit

        damage = roll_attack_damage(state, dice)
        dice.check_all_used()
        assert damage.total == 0
        assert not damage.destroyed
        result = AttackResult(state, damage)
        assert result.describe() == (
            "Thieven Hood's longbow hits the rope; 2+1-3 = 0 Damage does not beat Armor 1: ka-ping"
        )

    def test_resolve_attack_replays_the_same_dice(self):
        result = resolve_attack(self.attack, TypedDice([8, 2, 2]), BennyUse.STAT)
        assert result.hit and not result.destroyed
        assert result.describe() == (
            "Thieven Hood's longbow hits the rope; 2+1-3 = 0 Damage does not beat Armor 1: ka-ping"
        )

    def test_the_benny_is_spent_only_once(self):
        dice = TypedDice([8, 2])
        state = apply_benny(roll_attack_action(self.attack, dice), BennyUse.STAT, dice)
        with pytest.raises(UserError, match="already spent"):
            apply_benny(state, BennyUse.DAMAGE, dice)

    def test_typed_dice_ask_for_the_next_die_by_name(self):
        dice = TypedDice([8])
        state = roll_attack_action(self.attack, dice)
        with pytest.raises(NeedDie) as err:
            apply_benny(state, BennyUse.STAT, dice)
        assert err.value.sides == 6
        assert "Range" in err.value.why
