"""A brawl: several units in one Close Combat (2020 rules 5.2), and Disengaging
from it, replayed as the rules' Hank and Butch example tells it, sentence by sentence.

Each step the example allows is recorded and accepted; each thing the rules forbid on the
way is tried and refused with its section. Reading ``brawl`` (the organizer says an attack
"joins the brawl of" a unit) and ``disengage_brawl`` in ``brikdesk.domain.battle.rules``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from brikdesk.domain.battle import (
    READINGS,
    ActionState,
    AttackResolved,
    BattleHistory,
    BattleSetup,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Participant,
    PlayerSetup,
    RuleViolation,
    Status,
    StatusCleared,
    UnitSetup,
    Use,
    describe,
    end_turn,
    engagement,
    from_payload,
    outnumbered,
    replay,
    to_record,
)
from brikdesk.domain.rulesets import RULES_2005, RULES_2010, RuleSet
from brikdesk.errors import UserError

H, B, S, J = 1, 2, 3, 4  # Hank, Butch (Cowboys); Slim, Jake (Outlaws)


class Saloon:
    """The barroom: the Cowboys play first, the Outlaws second."""

    def __init__(self, rules: RuleSet | None = None) -> None:
        names = {"Hank": H, "Butch": B, "Slim": S, "Jake": J}
        setup = BattleSetup(
            (PlayerSetup(1, "Cowboys"), PlayerSetup(2, "Outlaws")),
            tuple(UnitSetup(uid, 1 if uid <= B else 2, name) for name, uid in names.items()),
        )
        self.setup = setup if rules is None else replace(setup, rules=rules)
        self.history = BattleHistory(self.setup)

    @property
    def state(self):
        return self.history.state

    def u(self, unit: int):
        return self.state.unit(unit)

    def do(self, event):
        self.history = self.history.record(event)

    def refused(self, event, match: str, rule: str) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation, match=match) as info:
            self.do(event)
        assert info.value.rule == rule
        assert self.state == before  # nothing changed
        return info.value

    def end_turn(self):
        event, _ = end_turn(self.setup, self.state)
        self.do(event)


def test_the_hank_and_butch_brawl_replays_step_by_step_as_written():
    t = Saloon()
    # "Two Cowboy minifigs, Hank and Butch, are in a surprise barroom brawl after being
    # attacked on their own turn by a Response Action from two Outlaw minifigs."
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.do(CloseCombatAttack(J, B, as_response=True, brawl=S))  # the organizer: one brawl
    assert engagement(t.state, H) == {H, B, S, J}
    assert t.u(S).action is t.u(J).action is ActionState.SPENT_RESPONSE
    assert not outnumbered(t.state, H) and not outnumbered(t.state, S)  # two against two

    # "Both Cowboys both have their full set of two Counters available."
    assert t.u(H).counters_left == t.u(B).counters_left == 2

    # "Hank uses the Shield to Parry one of the attacks, spending his Action."
    t.do(CounterUsed(H, S, CounterUse.PARRY))
    assert t.u(H).action is ActionState.SPENT_OWN_TURN
    # "Butch takes the other Outlaw's attack." (nothing to record: his Action is untouched)
    assert t.u(B).action is ActionState.READY

    # "Next, it's the Outlaws' turn, and they get their own Actions back."
    t.end_turn()
    assert t.u(S).action is t.u(J).action is ActionState.READY
    # "The Cowboys have their Counters back, because it's a new player's turn."
    assert t.u(H).counters_left == t.u(B).counters_left == 2

    # "One attacks Hank again, ..."
    t.do(CloseCombatAttack(S, H))
    # "... while the other is yellow-bellied and tries to Disengage."
    t.do(StatusCleared(J, Status.IN_CLOSE_COMBAT))
    assert not t.u(J).close_combat
    assert t.u(J).disengaged_from == {H, B}  # every opponent of the brawl, not only Butch
    assert t.u(J).action is ActionState.READY  # 5.2: "free to spend it on whatever new Action"

    # "Hank Parries with the Shield again, ..." (his Action is spent, his hands are not)
    t.do(CounterUsed(H, S, CounterUse.PARRY))
    # "... and both Cowboys make one Counterattack on the fleeing Outlaw."
    t.do(CounterUsed(H, J))  # Hank never fought Jake directly: the brawl makes it legal
    t.do(CounterUsed(B, J))
    assert t.u(J).attackers == (H, B)

    # "Hank's Action was already spent from the previous turn, and now Butch's Action is
    # spent as well."
    assert t.u(H).action is ActionState.SPENT_OWN_TURN
    assert t.u(B).action is ActionState.SPENT_RESPONSE

    # What the rules forbid on the way, each refused with its section:
    # "one Counterstrike" each on the Disengaging minifig (5.2 Disengaging);
    t.refused(CounterUsed(B, J), "already made its one Counterstrike on Jake", "5.2 Disengaging")
    # "each of his hands once": Hank has used his Shield and his bottle (5.2);
    t.refused(CounterUsed(H, S), "used 2 of its 2 Counters", "5.2 Counters and Actions")
    # a Disengaging minifig is fled from, not fought: nothing of his to Parry (5.2);
    t.refused(CounterUsed(B, J, CounterUse.PARRY), "nothing to Parry", "5.2 Disengaging")
    # Slim is Jake's own side: no Counter at him (5.2 Counters and Actions).
    t.refused(CounterUsed(S, J), "not in Close Combat with Jake", "5.2 Counters and Actions")

    # The brawl goes on without Jake: Hank and Slim, with Butch no longer fighting anyone.
    assert engagement(t.state, H) == {H, S}
    assert not t.u(B).close_combat
    # 5.3: "Minifigs who successfully Disengage from Close Combat without spending their
    # Action are free to make Ranged attacks once they're out of Close Combat range."
    t.do(AttackResolved(J, B, (Participant(J, Use.ACTION),)))
    assert t.u(J).action is ActionState.SPENT_OWN_TURN


def test_without_the_join_the_fights_stay_apart_and_hank_is_refused():
    # The same opening recorded as two separate fights: Hank may not Counter Jake, who is in
    # another fight (5.2 Counters and Actions), until the organizer joins the fights.
    t = Saloon()
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.do(CloseCombatAttack(J, B, as_response=True))
    assert engagement(t.state, H) == {H, S}
    t.refused(CounterUsed(H, J), "not in Close Combat with Jake", "5.2 Counters and Actions")
    t.end_turn()
    t.do(StatusCleared(J, Status.IN_CLOSE_COMBAT))
    assert t.u(J).disengaged_from == {B}
    t.refused(CounterUsed(H, J), "not in Close Combat", "5.2 Counters and Actions")
    t.do(CounterUsed(B, J))


def test_in_a_brawl_a_counter_goes_at_an_opponent_not_at_a_friend():
    t = Saloon()
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.do(CloseCombatAttack(J, B, as_response=True, brawl=H))  # joined through an opponent
    assert engagement(t.state, B) == {H, B, S, J}
    t.do(CounterUsed(B, S))  # Butch may Counter Slim, across the brawl
    t.refused(CounterUsed(B, H), "on Butch's side of the brawl", "5.2 Counters and Actions")


def test_a_join_is_stored_on_the_event_so_replay_and_undo_are_exact():
    t = Saloon()
    t.do(CloseCombatAttack(S, H, as_response=True))
    before = t.state
    joined = CloseCombatAttack(J, B, as_response=True, brawl=S)
    t.do(joined)
    kind, actor, target, payload = to_record(joined)
    assert payload["brawl"] == S
    assert from_payload(kind, actor, target, payload) == joined
    assert replay(t.setup, t.history.events) == t.state
    assert "Jake (Outlaws) responds: Strikes Butch (Cowboys), joining the brawl of Slim" in (
        describe(t.setup, joined)
    )
    t.history = t.history.undo()
    assert t.state == before and not t.u(S).brawl
    t.history = t.history.redo()
    assert engagement(t.state, H) == {H, B, S, J}
    # The wizard's event carries the same choice.
    wizard = AttackResolved(
        J, B, (Participant(J, Use.RESPONSE),), close_combat=True, maneuver="strike", brawl=S
    )
    assert from_payload(*to_record(wizard)) == wizard
    by_wizard = replay(t.setup, (t.history.events[0], wizard))
    assert by_wizard.units == t.state.units


def test_a_join_needs_a_brawl_and_a_fighter_locked_in():
    t = Saloon()
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.refused(
        CloseCombatAttack(J, B, as_response=True, brawl=B),
        "Butch is in no Close Combat: there is no brawl to join",
        "5.2 Close Combat",
    )
    with pytest.raises(UserError, match="passing by"):
        t.do(CloseCombatAttack(J, B, as_response=True, passing_by=True, brawl=S))


def test_leaving_close_combat_takes_the_join_along():
    t = Saloon()
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.do(CloseCombatAttack(J, B, as_response=True, brawl=S))
    t.do(StatusCleared(B, Status.IN_CLOSE_COMBAT))  # the organizer parts Butch and Jake
    assert not t.u(J).brawl and not t.u(S).brawl
    assert engagement(t.state, H) == {H, S}


@pytest.mark.parametrize("rules", [RULES_2005, RULES_2010])
def test_disengaging_gives_no_free_counterstrikes_where_the_edition_has_none(rules):
    # 2005 and 2010: the rules texts hold only chapter 4 (how minifigs enter Close Combat), so
    # leaving it gives no free Counterstrikes; a held Action may still respond (4.3).
    t = Saloon(rules)
    t.do(CloseCombatAttack(S, H, as_response=True))
    t.end_turn()
    t.do(StatusCleared(S, Status.IN_CLOSE_COMBAT))
    assert not t.u(S).disengaged_from
    t.refused(CounterUsed(H, S), "not in Close Combat", "5.2 Counters and Actions")


def test_the_readings_are_written_down():
    assert "joins the brawl of" in READINGS["brawl"]
    assert "up to three of his opponents" in READINGS["disengage_brawl"]
