"""An Action that is not an attack (2020, 4.2 Use Ratings): "Besides weapon attacks, there are
lesser alternate tasks that minifigs might attempt ... Most will have a default Use rating of
3; players may agree on a higher or lower difficulty as seems appropriate." """

from __future__ import annotations

from brikdesk.domain.combat.action_roll import DEFAULT_USE, resolve_task, task_text
from brikdesk.domain.rolling import BennyUse
from brikdesk.domain.rulesets import RULES_2005, RULES_2010, RULES_2020


def test_the_default_use_is_three():
    assert DEFAULT_USE == 3


def test_the_roll_asks_its_die_then_meets_the_use_or_not():
    assert resolve_task(6, 3, (), None, RULES_2020).need.sides == 6
    ok = resolve_task(6, 3, (3,), None, RULES_2020)
    assert ok.complete and ok.roll.success and ok.roll.total == 3
    low = resolve_task(6, 3, (2,), None, RULES_2020)
    assert low.complete and not low.roll.success
    assert task_text("picks the lock", low.roll, None, RULES_2020) == (
        "picks the lock, Action Roll d6 2 vs Use 3: failure"
    )
    one = resolve_task(6, 1, (1,), None, RULES_2020)  # a natural 1 fails whatever the Use
    assert one.complete and one.roll.critical_failure and not one.roll.success


def test_a_natural_six_asks_for_the_benny_and_its_die():
    """4.2: a natural 6 goes Over the Top and earns a Benny; +1d6 to the Action Roll adds a
    die to the total (Use 9 needs it: 6 + 4 = 10)."""
    pending = resolve_task(6, 9, (6,), None, RULES_2020)
    assert pending.pending and not pending.complete
    need = resolve_task(6, 9, (6,), BennyUse.ACTION, RULES_2020)
    assert need.need is not None and need.need.sides == 6
    done = resolve_task(6, 9, (6, 4), BennyUse.ACTION, RULES_2020)
    assert done.complete and done.roll.total == 10 and done.roll.success
    assert task_text("leaps the chasm", done.roll, BennyUse.ACTION, RULES_2020) == (
        "leaps the chasm, Action Roll d6 6+4 vs Use 9: success "
        "(Over the Top: +1d6 to the Action Roll)"
    )
    overskill = resolve_task(6, 3, (6,), BennyUse.EMBELLISH, RULES_2010)
    assert "(Overskill: an embellishment" in task_text(
        "", overskill.roll, BennyUse.EMBELLISH, RULES_2010
    )


def test_2005_and_cannon_fodder_earn_no_benny():
    assert resolve_task(6, 3, (6,), None, RULES_2005).complete
    assert resolve_task(6, 3, (6,), None, RULES_2020, can_go_over_the_top=False).complete
