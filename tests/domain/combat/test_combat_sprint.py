"""A Sprint rolled for the Sprint dialog (4.1) under the battle's edition: the dice replayed
from the faces, the Benny, the runaway, Half Speed and the event the tracker records."""

from __future__ import annotations

from fractions import Fraction

from brikdesk.domain.battle import ActionSpent, ActionUse, Status, StatusSet, apply
from brikdesk.domain.combat.sprint import (
    SprintDraft,
    bonus_chains,
    resolve_sprint,
    runaway_warning,
    sprint_events,
    sprint_problem,
)
from brikdesk.domain.rolling import BennyUse
from brikdesk.domain.rulesets import RULES_2005, RULES_2010
from tests.domain.sherwood import ALAN, HOOD, WILL, make_ctx


def test_a_2010_hero_sprints_his_skill_roll_with_overskill():
    """2010 4.1: "giving himself extra inches of Move for the turn equal to his Skill Roll";
    "an Overskill Benny can be spent ... +1d6 inches to the distance of a Sprint" -- Hood's d10
    shows 10: a bonus d6 (3), and Overskill earns a Benny spent on +1d6 (2)."""
    ctx = make_ctx(rules=RULES_2010)
    stage = resolve_sprint(SprintDraft(HOOD), ctx)
    assert stage.need is not None and stage.need.sides == 10
    stage = resolve_sprint(SprintDraft(HOOD, (10, 3)), ctx)
    assert stage.pending and not stage.complete
    stage = resolve_sprint(SprintDraft(HOOD, (10, 3, 2), BennyUse.STAT), ctx)
    assert stage.complete and stage.result is not None
    assert stage.result.sprint_inches == 15
    assert bonus_chains(stage.dice) == ("Sprint d10 10 → bonus d6 3 = 13", "Benny d6 2")


def test_2005_has_no_runaway_rule():
    """2005 4.1 knows no runaway: a chain ending in 1 is just inches."""
    stage = resolve_sprint(SprintDraft(WILL, (6, 1)), make_ctx(rules=RULES_2005))
    assert stage.complete and stage.result is not None
    assert stage.result.sprint_inches == 7 and runaway_warning(stage.result) is None


def test_at_half_speed_he_goes_half_the_inches():
    """4.1 Half Speed (READINGS "4.1 Half Speed": "a Sprint of 5 is 2½\"")."""
    ctx = make_ctx([StatusSet(WILL, Status.HALF_SPEED)])
    stage = resolve_sprint(SprintDraft(WILL, (5,)), ctx)
    assert stage.result is not None and stage.result.distance == Fraction(5, 2)
    (event,) = sprint_events(SprintDraft(WILL, (5,)), ctx, stage)
    assert isinstance(event, ActionSpent) and event.how is ActionUse.SPRINT
    assert event.note == '5" more Move, at Half Speed 2½"'
    apply(ctx.setup, ctx.state, event)  # the tracker takes it


def test_a_sprint_is_never_a_response():
    """4.3 (2020): "Minifigs are not able to Sprint as a Response Action."; the rules
    engine's reason is given."""
    problem = sprint_problem(SprintDraft(ALAN), make_ctx())
    assert problem is not None and "Sprint" in problem
    assert sprint_problem(SprintDraft(WILL), make_ctx()) is None
