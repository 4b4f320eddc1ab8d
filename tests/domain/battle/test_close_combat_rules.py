"""Close Combat details in the tracker (5.2, 5.3, 5.4, 4.1), each test quoting its sentence
(2020 chapters 4 and 5)."""

from __future__ import annotations

import pytest

from brikdesk.domain.battle import (
    ActionSpent,
    ActionState,
    ActionUse,
    AttackResolved,
    BattleHistory,
    BattleSetup,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Maneuver,
    Participant,
    PlayerSetup,
    RuleViolation,
    Status,
    StatusCleared,
    StatusSet,
    UnitSetup,
    Use,
    end_turn,
    rule_warnings,
)


class Table:
    """Cowboys (Hank, Butch, Marshal) against Outlaws (Slim, Jake)."""

    NAMES = {"Hank": 1, "Butch": 2, "Marshal": 3, "Slim": 4, "Jake": 5}

    def __init__(self) -> None:
        self.setup = BattleSetup(
            (PlayerSetup(1, "Cowboys"), PlayerSetup(2, "Outlaws")),
            tuple(UnitSetup(uid, 1 if uid <= 3 else 2, name) for name, uid in self.NAMES.items()),
        )
        self.history = BattleHistory(self.setup)

    @property
    def state(self):
        return self.history.state

    def u(self, name: str):
        return self.state.unit(self.NAMES[name])

    def do(self, event):
        self.history = self.history.record(event)
        return self.state

    def end_turn(self):
        event, _ = end_turn(self.setup, self.state)
        self.do(event)

    def warns(self, event) -> str:
        return " | ".join(str(w) for w in rule_warnings(self.state, event))


H, B, M, S, J = 1, 2, 3, 4, 5


def test_a_charge_allows_a_single_strike_and_a_single_counter():
    # 5.4: "Due to the rush of the Charge, the attacker and defender are each limited to a
    # single Strike and Counter."
    t = Table()
    t.do(CloseCombatAttack(H, S, Maneuver.CHARGE))
    with pytest.raises(RuleViolation, match="a Charge allows a single Strike"):
        t.do(CounterUsed(H, S))
    t.do(CounterUsed(S, H, CounterUse.PARRY))
    with pytest.raises(RuleViolation, match="limited to a single Counter"):
        t.do(CounterUsed(S, H))
    assert t.u("Slim").counters_used == 1


def test_a_second_strike_must_hit_the_same_target():
    # 5.2 Striking: "If he has a second weapon ready in hand, he can use it to make a second
    # Strike against the same target."
    t = Table()
    t.do(CloseCombatAttack(H, S))
    t.do(StatusSet(H, Status.IN_CLOSE_COMBAT, (J,)))
    with pytest.raises(RuleViolation, match="second Strike must be against the same target, Slim"):
        t.do(CounterUsed(H, J))
    second = CounterUsed(H, S)
    assert (
        t.warns(second)
        == "A second Strike needs a second weapon ready in Hank's hand (5.2 Striking)"
    )
    t.do(second)
    assert t.u("Hank").counters_used == 2


def test_one_counterstrike_per_opponent_on_a_disengage_and_hank_and_butch():
    # 5.2 Disengaging: "up to three of his opponents can immediately take an Angry Inch and
    # make one Counterstrike if they have a weapon they haven't used yet in the turn."
    # Hank and Butch: "both Cowboys make one Counterattack on the fleeing Outlaw."
    t = Table()
    t.do(CloseCombatAttack(H, J))
    t.do(StatusSet(B, Status.IN_CLOSE_COMBAT, (J,)))
    t.end_turn()  # the Outlaws' turn: Jake flees
    t.do(StatusCleared(J, Status.IN_CLOSE_COMBAT))
    assert not t.u("Jake").close_combat
    assert "as he Disengages only with a weapon it has not used yet" in t.warns(CounterUsed(H, J))
    t.do(CounterUsed(H, J))
    t.do(CounterUsed(B, J))
    with pytest.raises(RuleViolation, match="already made its one Counterstrike on Jake"):
        t.do(CounterUsed(H, J))
    with pytest.raises(RuleViolation, match="nothing to Parry"):
        t.do(CounterUsed(B, J, CounterUse.PARRY))
    jake = t.u("Jake")
    assert not jake.close_combat and jake.attackers == (H, B)
    assert t.u("Butch").action is ActionState.SPENT_RESPONSE


def test_a_counterstrike_in_the_wizard_on_a_fleeing_minifig_is_allowed():
    t = Table()
    t.do(CloseCombatAttack(H, J))
    t.end_turn()
    t.do(StatusCleared(J, Status.IN_CLOSE_COMBAT))
    t.do(AttackResolved(H, J, (Participant(H, Use.COUNTER),), close_combat=True, maneuver="strike"))
    assert t.u("Jake").counterstruck_by == {H} and not t.u("Jake").close_combat


def test_a_parried_minifig_s_movement_is_over():
    # 4.1: "If the minifig decides to Parry the attack, they are both entered into Close
    # Combat and the minifig's movement is over for the turn."
    t = Table()
    t.do(CloseCombatAttack(S, H, as_response=True, passing_by=True))
    assert not t.u("Hank").close_combat  # not yet: he may ignore it
    t.do(CounterUsed(H, S, CounterUse.PARRY))
    hank = t.u("Hank")
    assert hank.stopped and S in hank.close_combat


def test_a_passer_by_who_does_not_parry_keeps_moving():
    # 4.1: "If he declines to Parry and survives, he can ignore the attack and continue
    # moving normally."
    t = Table()
    event = CloseCombatAttack(S, H, as_response=True)
    assert "mark the attack 'passing by'" in t.warns(event)
    t.do(CloseCombatAttack(S, H, as_response=True, passing_by=True))
    hank = t.u("Hank")
    assert not hank.close_combat and not hank.stopped and hank.attackers == (S,)
    t.do(ActionSpent(H, ActionUse.ATTACK))  # his Action is still his own


def test_several_ranged_weapons_at_one_target():
    # 5.3: "A minifig can only make Ranged attacks against a single target in a turn, even if
    # they have multiple Ranged weapons."
    t = Table()
    shot = AttackResolved(M, S, (Participant(M, Use.ACTION),), maneuver="ranged attack")
    t.do(shot)
    assert "fires again at the same target" in t.warns(shot)
    t.do(shot)  # the twin pistols' second shot
    with pytest.raises(RuleViolation, match="Ranged attacks go against a single target"):
        t.do(AttackResolved(M, J, (Participant(M, Use.ACTION),), maneuver="ranged attack"))
    t.end_turn()
    t.end_turn()
    assert t.u("Marshal").shot_at == ()


def test_a_collision_costs_no_action_after_a_charge_or_not():
    # 5.4: "A Collision occurs as part of normal Movement and does not cost an Action."
    t = Table()
    t.do(StatusSet(H, Status.MOM))
    crash = AttackResolved(H, S, (Participant(H, Use.ACTION),), maneuver="collision", effects=())
    assert t.warns(crash) == ""
    t.do(crash)
    hank = t.u("Hank")
    assert hank.action is ActionState.READY and not hank.mom
    assert "has no MOM recorded" in t.warns(crash)
