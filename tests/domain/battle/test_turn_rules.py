"""Turn rules by edition: Who Acts First, long Actions, recovery, loadout statuses, Sprint and
Charge. Each test quotes the sentence it enforces (the 2005, 2010 and 2020 editions' chapter 4)."""

from __future__ import annotations

import pytest

from brikdesk.domain.battle import (
    ActionState,
    ActionUse,
    BattleHistory,
    BattleSetup,
    CloseCombatAttack,
    LongActionStarted,
    Maneuver,
    PlayerSetup,
    RuleViolation,
    Status,
    StatusCleared,
    StatusSet,
    UnitSetup,
    describe,
    end_turn,
    spend_action,
    state_from_json,
    state_to_json,
    summarize_turn_change,
    why_not_respond,
)
from brikdesk.domain.battle.first import Contender, First, who_acts_first
from brikdesk.domain.rolling import NeedDie, TypedDice
from brikdesk.domain.rulesets import RULES_2005, RULES_2010, RULES_2020, RuleSet
from brikdesk.errors import UserError

WAYNE = Contender(1, "Hairtrigger Wayne", 6, use=3)
SHAUN = Contender(2, "Shoot-Em-in-the-Back Shaun", 6, use=3)


class Table:
    """Red (Ann, Axel in Heavy Armor) against Blue (Xan)."""

    def __init__(self, rules: RuleSet = RULES_2020) -> None:
        self.setup = BattleSetup(
            (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue")),
            (
                UnitSetup(1, 1, "Ann"),
                UnitSetup(2, 1, "Axel", start_statuses=(Status.HALF_SPEED,), heavy_armor=True),
                UnitSetup(3, 2, "Xan"),
            ),
            rules=rules,
        )
        self.history = BattleHistory(self.setup)

    @property
    def state(self):
        return self.history.state

    def do(self, event):
        self.history = self.history.record(event)
        return self.state

    def end_turn(self):
        before = self.state
        event, _ = end_turn(self.setup, before)
        self.do(event)
        return summarize_turn_change(self.setup, before, self.state)


# ---- Who Acts First (4.3) -------------------------------------------------------------------


class TestWhoActsFirst:
    def test_high_noon_2005(self):
        # 4.3 (2005): "After subtracting their Use ratings, Wayne's total of -1 is higher than
        # Shaun's total of -2; his missed shot occurs first."
        result = who_acts_first(WAYNE, SHAUN, TypedDice([2, 1]), rules=RULES_2005)
        assert result.first is First.ACTIVE
        assert result.active_rolls[0].total == 2 and result.responder_rolls[0].total == 1
        assert (
            "Hairtrigger Wayne 2-3 = -1, Shoot-Em-in-the-Back Shaun 1-3 = -2" in result.describe()
        )
        event = result.to_event()
        assert (event.actor, event.target, event.simultaneous) == (1, 2, False)
        # "Shaun's shot occurs second, and since it was a Critical Failure, the gun goes off
        # before he even gets it out of the holster."
        assert result.responder_rolls[0].critical_failure
        assert not result.active_rolls[0].critical_failure

    def test_2005_tie_goes_to_the_active_player_when_not_simultaneous(self):
        # 4.3 (2005): "In the case of a tie, assume that both Actions occurred simultaneously
        # if possible; otherwise, the player whose turn it is acts first."
        assert (
            who_acts_first(WAYNE, SHAUN, TypedDice([4, 4]), rules=RULES_2005).first
            is First.SIMULTANEOUS
        )
        assert (
            who_acts_first(
                WAYNE, SHAUN, TypedDice([4, 4]), rules=RULES_2005, simultaneous_possible=False
            ).first
            is First.ACTIVE
        )

    def test_2005_a_bail_has_no_use_to_subtract(self):
        # 4.3 (2005): "There is no Use rating for Bailing, so a Bailing unit will get to act
        # first more often than not."
        bailer = Contender(2, "Shaun", 6, use=None)
        assert (
            who_acts_first(WAYNE, bailer, TypedDice([4, 2]), rules=RULES_2005).first
            is First.RESPONDER
        )

    def test_2005_response_to_movement_is_fast_enough(self):
        # 4.3 (2005): "If a unit is taking an Action in Response to enemy Movement ... then
        # his Response is automatically fast enough".
        assert (
            who_acts_first(WAYNE, SHAUN, TypedDice([]), rules=RULES_2005, to_movement=True).first
            is First.RESPONDER
        )

    @pytest.mark.parametrize("rules", [RULES_2010, RULES_2020])
    def test_high_noon_2010_2020_fire_simultaneously(self, rules):
        # 4.3 (2020): "The minifigs fire simultaneously"; "Otherwise, both Actions occur
        # simultaneously if possible".
        result = who_acts_first(WAYNE, SHAUN, TypedDice([]), rules=rules)
        assert result.first is First.SIMULTANEOUS
        assert result.to_event().simultaneous

    def test_2020_an_inch_ahead_acts_first(self):
        # 4.3 (2020): "If a minifig is able to act or react while his opponent is still an
        # inch or more away from acting himself, then the minifig acts first."
        assert (
            who_acts_first(WAYNE, SHAUN, TypedDice([]), inch_or_more_away=True).first
            is First.RESPONDER
        )

    def test_2020_otherwise_the_higher_action_roll(self):
        # 4.3 (2020): "with the higher Action Roll going first otherwise."
        result = who_acts_first(WAYNE, SHAUN, TypedDice([3, 3, 2, 5]), simultaneous_possible=False)
        assert result.first is First.RESPONDER and len(result.active_rolls) == 2

    def test_2010_full_speed_before_half_speed(self):
        # 4.3 (2010): "a minifig moving at regular speed takes his Action before a minifig
        # moving at Half Speed."
        slow = Contender(1, "Wayne", 6, use=3, half_speed=True)
        result = who_acts_first(
            slow, SHAUN, TypedDice([]), rules=RULES_2010, simultaneous_possible=False
        )
        assert result.first is First.RESPONDER
        with pytest.raises(NeedDie):  # 2020 has no speed step: it rolls
            who_acts_first(slow, SHAUN, TypedDice([]), simultaneous_possible=False)

    def test_the_log_shows_it(self):
        t = Table(RULES_2005)
        event = who_acts_first(
            Contender(1, "Ann", use=3),
            Contender(3, "Xan", use=3),
            TypedDice([1, 5]),
            rules=RULES_2005,
        ).to_event()
        before = t.state
        assert t.do(event) == before  # it changes nothing but the log
        assert describe(t.setup, event).startswith(
            "Who acts first: Xan (Blue) acts before Ann (Red) (Skill Roll minus Use"
        )


# ---- Long Actions (4.2) ---------------------------------------------------------------------


class TestLongActions:
    def test_full_turn_action_stops_and_ends_with_the_turn(self):
        # 4.2 (2020): "Once engaged in a full-turn Action, a minifig is Stopped and can't engage
        # in any other type of Action or movement of his own for the rest of the turn".
        t = Table()
        t.do(LongActionStarted(1, "piloting the truck"))
        ann = t.state.unit(1)
        assert ann.busy == "piloting the truck" and ann.stopped
        assert Status.BUSY in ann.statuses and ann.action is ActionState.SPENT_OWN_TURN
        with pytest.raises(RuleViolation, match="already spent its Action"):
            t.do(spend_action(t.state, 1, ActionUse.ATTACK))
        t.end_turn()
        assert not t.state.unit(1).busy
        assert why_not_respond(t.state, 1) == "Ann spent its Action on its own turn (4.3)."

    def test_extended_action_spans_turns_and_cannot_respond(self):
        # 4.2 (2020): "A full-turn Action that extends over multiple turns is an extended
        # Action."
        t = Table()
        t.do(LongActionStarted(1, "rowing the boat", turns=2))
        t.end_turn()  # Blue's turn
        assert why_not_respond(t.state, 1) == "Ann is Busy rowing the boat (4.2 Long Actions)."
        summary = t.end_turn()  # Red's second turn: still rowing
        ann = t.state.unit(1)
        assert ann.busy and ann.stopped and ann.action is ActionState.SPENT_OWN_TURN
        assert "1 unit is Busy this turn" in summary.text
        t.end_turn()
        assert not t.state.unit(1).busy
        t.end_turn()
        assert t.state.unit(1).action is ActionState.READY and not t.state.unit(1).stopped

    def test_only_on_its_own_turn_and_with_words(self):
        t = Table()
        with pytest.raises(RuleViolation, match="only on its own turn"):
            t.do(LongActionStarted(3, "hacking the satellite"))
        with pytest.raises(UserError, match="Say what"):
            t.do(LongActionStarted(1, "  "))
        with pytest.raises(UserError, match="starting a full-turn or extended Action"):
            t.do(StatusSet(1, Status.BUSY))

    def test_the_organizer_can_end_it_early(self):
        t = Table()
        t.do(LongActionStarted(1, "reading a wargaming rulebook", turns=5))
        t.do(StatusCleared(1, Status.BUSY))
        assert not t.state.unit(1).busy

    def test_snapshot_keeps_it(self):
        t = Table()
        t.do(LongActionStarted(1, "rowing", turns=3))
        assert state_from_json(t.setup, state_to_json(t.state)) == t.state


# ---- Disruption and recovery by edition (4.1) -------------------------------------------------


class TestRecovery:
    def test_2020_recovers_at_half_speed(self):
        # 4.1 (2020): "On their following turn, minifigs recover from Disruption, getting up
        # and moving at Half Speed for their full turn".
        t = Table()
        t.do(StatusSet(1, Status.DISRUPTED))
        t.end_turn()
        t.end_turn()
        assert t.state.unit(1).recovering and not t.state.unit(1).standing_up

    def test_2005_stands_up_for_two_inches(self):
        # 4.3 (2005): "On its following turn, the unit recovers (spending 2\" of Move to stand
        # up) and may once again behave as normal."
        t = Table(RULES_2005)
        t.do(StatusSet(1, Status.DISRUPTED))
        t.end_turn()
        summary = t.end_turn()
        ann = t.state.unit(1)
        assert ann.standing_up and not ann.recovering and not ann.moves_at_half_speed
        assert Status.STANDING_UP in ann.statuses
        assert '1 unit stands up from Disruption (2" of Move)' in summary.text
        t.end_turn()
        assert not t.state.unit(1).standing_up

    def test_2010_heavy_armor_spends_the_whole_turn_getting_up(self):
        # 4.1 (2010): "Unless they have assistance, Heavy Armored minifigs use up a full turn's
        # worth of Movement and Action to recover from being Disrupted."
        t = Table(RULES_2010)
        t.do(StatusSet(2, Status.DISRUPTED))
        t.do(StatusSet(1, Status.DISRUPTED))
        t.end_turn()
        t.end_turn()
        axel, ann = t.state.unit(2), t.state.unit(1)
        assert axel.busy == "getting up in Heavy Armor" and axel.stopped
        assert axel.action is ActionState.SPENT_OWN_TURN
        assert ann.recovering and not ann.busy
        t.end_turn()
        assert not t.state.unit(2).busy

    def test_2020_heavy_armor_recovers_like_anyone(self):
        t = Table(RULES_2020)
        t.do(StatusSet(2, Status.DISRUPTED))
        t.end_turn()
        t.end_turn()
        assert t.state.unit(2).recovering and not t.state.unit(2).busy


# ---- Loadout statuses (4.1) ------------------------------------------------------------------


def test_heavy_armor_half_speed_applies_from_the_start():
    # 4.1 (2020): "Actions or conditions that actively burden a minifig, such as wearing Heavy
    # Armor ... will reduce a minifig's movement to Half Speed."
    t = Table()
    assert t.state.unit(2).half_speed and t.state.unit(2).moves_at_half_speed
    assert not t.state.unit(1).half_speed
    with pytest.raises(UserError, match="a loadout gives only Half Speed or Stopped"):
        UnitSetup(9, 1, "Zed", start_statuses=(Status.DEAD,))


# ---- Sprint and Charge as one Action (4.1, 5.4) ---------------------------------------------


class TestSprintCharge:
    def test_a_charge_may_follow_a_sprint_in_the_same_action(self):
        # 4.1 (2020): "Sprinting can be combined with a Charge attack (5.4: Charge!) as part of
        # a single Action."
        t = Table()
        t.do(spend_action(t.state, 1, ActionUse.SPRINT))
        t.do(CloseCombatAttack(1, 3, Maneuver.CHARGE))
        assert 3 in t.state.unit(1).close_combat

    def test_but_not_a_strike_and_only_one_charge(self):
        t = Table()
        t.do(spend_action(t.state, 1, ActionUse.SPRINT))
        with pytest.raises(RuleViolation, match="already spent its Action"):
            t.do(CloseCombatAttack(1, 3, Maneuver.STRIKE))
        t.do(CloseCombatAttack(1, 3, Maneuver.CHARGE))
        with pytest.raises(RuleViolation, match="already spent its Action"):
            t.do(CloseCombatAttack(1, 3, Maneuver.CHARGE))

    def test_the_sprint_is_forgotten_when_the_turn_ends(self):
        t = Table()
        t.do(spend_action(t.state, 1, ActionUse.SPRINT))
        t.end_turn()
        assert not t.state.unit(1).sprinted
