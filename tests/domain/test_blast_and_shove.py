"""Explosions see each target from the point of detonation (5.1); a Charging Shove spends the
MOM for more KnockBack (5.2, 5.4). Quotes from the 2020 chapter 5."""

from __future__ import annotations

import pytest

from brikdesk.domain.actions import (
    BlastExposure,
    blast_targets,
    explode_from_point,
    shove,
)
from brikdesk.domain.attack import (
    Attack,
    Attacker,
    SizeClass,
    Target,
    Weapon,
    roll_attack_action,
)
from brikdesk.domain.rolling import Role, TypedDice
from brikdesk.errors import UserError

GRENADE = Weapon("grenade", 1, "1d10 Exp", 3, explosive_radius=2, knockback=1, thrown=True)


def test_pants_only_from_the_detonation_point():
    # 5.1: "Even if a minifig is fully visible from an Explosion's point of detonation, if his
    # head and body are outside the two inch radius then the Explosion affects his pants only,
    # doing -2 Damage."
    dice = TypedDice([4, 6])
    # The thrower saw only Al's head (1 section): that is the Action Roll's business only.
    primary = Target("Al", sections_visible=1)
    state = roll_attack_action(Attack(Attacker("Dot"), GRENADE, primary, distance=2), dice)
    blast = explode_from_point(
        state,
        [primary, Target("Bo"), Target("Cy")],
        [
            BlastExposure("Al", sections=3),
            BlastExposure("Bo", sections=1),
            BlastExposure("Cy", sections=0),
        ],
        dice,
    )
    dice.check_all_used()
    totals = {h.target.name: h.damage.total for h in blast.hits}
    assert totals == {"Al": 6, "Bo": 4}  # Cy is outside the radius and untouched


def test_large_targets_use_the_size_inside_the_blast():
    tank = Target("tank", armor=10, size=SizeClass.LARGE, visible_size=8)
    (seen,) = blast_targets([tank], [BlastExposure("tank", visible_size=4)])
    assert seen.visible_size == 4


def test_exposure_must_name_targets_in_the_blast():
    with pytest.raises(UserError, match="not in the blast: Zed"):
        blast_targets([Target("Al")], [BlastExposure("Zed", sections=2)])
    with pytest.raises(UserError, match="0 to 3 sections"):
        BlastExposure("Al", sections=4)


def test_a_charging_shove_adds_the_mom_knockback():
    # 5.4: "He might also use it to cause 1d6\" of KnockBack in a Collision or a Charging
    # Shove."
    result = shove("Hank", "Slim", mom_dice=TypedDice([6, 2]))
    assert result.knockback is not None and result.knockback.inches == 10
    assert [d.role for d in result.mom_dice] == [Role.MOM, Role.BONUS]
    assert 'Charging Shove: 2" + MOM 6+2' in result.describe()
    assert shove("Hank", "Slim").knockback.inches == 2
