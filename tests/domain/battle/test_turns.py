"""Turn and response rules of the battle tracker (rules 003 ch. 4, 004 5.2 and 5.4)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from brikdesk.domain import battle as battle_pkg
from brikdesk.domain.battle import (
    EVENT_KINDS,
    READINGS,
    ActionSpent,
    ActionState,
    ActionUse,
    AttackResolved,
    BattleFinished,
    BattleHistory,
    BattleSetup,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    EventFormatError,
    Maneuver,
    Participant,
    PlayerSetup,
    RuleViolation,
    Status,
    StatusChange,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    UnitSetup,
    Use,
    acted,
    apply,
    attackers_left,
    automatic_hit_reasons,
    can_respond_now,
    close_combat_attack,
    close_combat_refusal,
    counters_for_loadout,
    describe,
    end_turn,
    engagement,
    from_payload,
    in_close_combat,
    initial_state,
    outnumbered,
    outnumbered_modifier,
    replay,
    spend_action,
    state_from_json,
    state_to_json,
    summarize_turn_change,
    to_record,
    why_not_respond,
)
from brikdesk.domain.battle import rules as rules_module
from brikdesk.domain.catalog import load_default_catalog
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.errors import UserError

# --- a small table to play on ---------------------------------------------------------------


def make_setup(
    teams: dict[str, str] | None = None,
    minifig: bool = True,
    counters: dict[str, int] | None = None,
    **armies: list[str],
) -> BattleSetup:
    """Players in keyword order (ids 1, 2, ...), units numbered 1, 2, ... across armies."""
    players, units = [], []
    for pid, (player, names) in enumerate(armies.items(), start=1):
        players.append(PlayerSetup(pid, player, (teams or {}).get(player)))
        for name in names:
            units.append(
                UnitSetup(
                    len(units) + 1,
                    pid,
                    name,
                    counters=(counters or {}).get(name, 2),
                    minifig=minifig or not name.startswith("Big"),
                )
            )
    return BattleSetup(tuple(players), tuple(units))


class Table:
    """Drives a battle the way the panel will: by recording events in a history."""

    def __init__(self, setup: BattleSetup) -> None:
        self.setup = setup
        self.history = BattleHistory(setup)

    @property
    def state(self):
        return self.history.state

    def id(self, name: str) -> int:
        return next(u.unit_id for u in self.setup.units if u.name == name)

    def unit(self, name: str):
        return self.state.unit(self.id(name))

    def do(self, event):
        self.history = self.history.record(event)
        return self.state

    def end_turn(self):
        before = self.state
        event, _ = end_turn(self.setup, before)
        self.do(event)
        return summarize_turn_change(self.setup, before, self.state)

    def act(self, name: str, how: ActionUse = ActionUse.ATTACK, target: str | None = None, **kw):
        return self.do(
            spend_action(
                self.state,
                self.id(name),
                how,
                target=None if target is None else self.id(target),
                **kw,
            )
        )

    def strike(self, name: str, target: str, **kw):
        return self.do(close_combat_attack(self.state, self.id(name), self.id(target), **kw))

    def counter(self, name: str, target: str, how: CounterUse = CounterUse.COUNTERSTRIKE):
        return self.do(CounterUsed(self.id(name), self.id(target), how))

    def set(self, name: str, status: Status, *with_names: str):
        return self.do(StatusSet(self.id(name), status, tuple(self.id(n) for n in with_names)))

    def clear(self, name: str, status: Status, *with_names: str):
        return self.do(StatusCleared(self.id(name), status, tuple(self.id(n) for n in with_names)))

    def refused(self, event_or_call, match: str):
        """The event is refused with a reason matching ``match`` and nothing changes."""
        before = self.history
        with pytest.raises(RuleViolation, match=match) as info:
            event_or_call()
        assert self.history is before
        return info.value


def two_armies() -> Table:
    return Table(make_setup(Red=["Ann", "Bob", "Cid"], Blue=["Xan", "Yul", "Zed"]))


# --- setup ---------------------------------------------------------------------------------


def test_setup_refuses_duplicate_units_unknown_players_and_empty_battles():
    red = PlayerSetup(1, "Red")
    with pytest.raises(UserError, match="mustered twice"):
        BattleSetup((red,), (UnitSetup(1, 1, "Ann"), UnitSetup(1, 1, "Bob")))
    with pytest.raises(UserError, match="belongs to no player"):
        BattleSetup((red,), (UnitSetup(1, 9, "Ann"),))
    with pytest.raises(UserError, match="at least one player"):
        BattleSetup((), ())
    with pytest.raises(UserError, match="twice"):
        BattleSetup((red, PlayerSetup(1, "Red again")), ())


def test_counters_come_from_the_loadout_one_per_weapon_or_empty_hand():
    cat = load_default_catalog()
    sword, shield, pike = cat.item("hand-weapon"), cat.item("shield"), cat.item("two-handed-weapon")
    armor = cat.item("body-armor")
    assert counters_for_loadout(2, [sword, shield, armor]) == 2
    assert counters_for_loadout(2, [pike]) == 1
    assert counters_for_loadout(2, []) == 2
    assert counters_for_loadout(2, [sword]) == 2  # the sword and one empty hand
    assert counters_for_loadout(4, [sword, sword, pike]) == 3  # over the top: a four-armed alien
    with pytest.raises(UserError, match="need 3 hands"):
        counters_for_loadout(2, [sword, pike])


# --- turn order, rounds ---------------------------------------------------------------------


def test_three_players_take_turns_in_order_and_rounds_follow_the_last_player():
    t = Table(make_setup(Red=["Ann"], Blue=["Xan"], Green=["Gus"]))
    seen = [(t.state.round, t.state.active_player.name)]
    for _ in range(6):
        t.end_turn()
        seen.append((t.state.round, t.state.active_player.name))
    assert seen == [
        (1, "Red"),
        (1, "Blue"),
        (1, "Green"),
        (2, "Red"),
        (2, "Blue"),
        (2, "Green"),
        (3, "Red"),
    ]
    assert [p.name for p in t.state.players_from_active()] == ["Red", "Blue", "Green"]
    t.end_turn()
    assert [p.name for p in t.state.players_from_active()] == ["Blue", "Green", "Red"]


def test_ending_a_turn_that_is_not_the_active_one_is_refused():
    t = Table(make_setup(Red=["Ann"], Blue=["Xan"]))
    t.refused(lambda: t.do(TurnEnded(player=2, round=1)), "Red's in round 1")
    t.refused(lambda: t.do(TurnEnded(player=1, round=2)), "Red's in round 1")


def test_battle_starts_with_the_first_player_ready_and_the_others_holding():
    t = two_armies()
    assert t.state.round == 1 and t.state.active_player.name == "Red"
    assert {t.unit(n).action for n in ("Ann", "Bob", "Cid")} == {ActionState.READY}
    assert {t.unit(n).action for n in ("Xan", "Yul", "Zed")} == {ActionState.HELD}
    assert can_respond_now(t.state, t.id("Xan"))
    assert not can_respond_now(t.state, t.id("Ann"))
    assert "own turn" in why_not_respond(t.state, t.id("Ann"))


# --- Actions and responses ------------------------------------------------------------------


def test_a_spent_action_cannot_be_used_again_in_the_same_turn():
    t = two_armies()
    t.act("Ann", target="Xan")
    assert t.unit("Ann").action is ActionState.SPENT_OWN_TURN
    assert acted(t.state, t.id("Ann")) and not acted(t.state, t.id("Bob"))
    err = t.refused(lambda: t.act("Ann", ActionUse.SPRINT), "already spent its Action")
    assert err.rule == "4.2 Action"


def test_a_held_action_responds_in_the_next_players_turn_and_then_cannot_respond_again():
    t = two_armies()
    t.end_turn()  # Red holds every Action
    assert t.unit("Ann").action is ActionState.HELD
    assert can_respond_now(t.state, t.id("Ann"))
    t.act("Xan", target="Bob")
    t.act("Ann", target="Xan")  # response
    assert t.history.events[-1].as_response
    assert t.unit("Ann").action is ActionState.SPENT_RESPONSE
    assert not can_respond_now(t.state, t.id("Ann"))
    assert why_not_respond(t.state, t.id("Ann")) == (
        "Ann has already responded since its last turn (4.3)."
    )
    err = t.refused(lambda: t.act("Ann", target="Yul"), "already responded")
    assert err.rule == "4.3 Enemy Response"
    t.end_turn()  # Red's turn again: the response Action recharges
    assert t.unit("Ann").action is ActionState.READY


def test_a_unit_that_spent_its_action_on_its_own_turn_cannot_respond_until_it_recharges():
    t = two_armies()
    t.act("Ann", target="Xan")
    t.end_turn()
    assert t.unit("Ann").action is ActionState.SPENT_OWN_TURN
    assert "spent its Action on its own turn" in why_not_respond(t.state, t.id("Ann"))
    t.refused(lambda: t.act("Ann", target="Xan"), "saved from its previous turn")
    t.end_turn()
    assert t.unit("Ann").action is ActionState.READY


def test_a_held_action_is_only_one_response_even_across_several_enemy_turns():
    t = Table(make_setup(Red=["Ann"], Blue=["Xan"], Green=["Gus"]))
    t.end_turn()  # Blue's turn; Ann holds
    t.act("Ann", ActionUse.BAIL, over_the_top=True)
    t.end_turn()  # Green's turn: Ann has responded since its last turn
    assert t.unit("Ann").action is ActionState.SPENT_RESPONSE
    t.refused(lambda: t.act("Ann"), "already responded")


def test_a_response_must_be_marked_as_one_and_an_own_turn_action_must_not_be():
    t = two_armies()
    t.refused(lambda: t.do(ActionSpent(t.id("Xan"), ActionUse.ATTACK)), "only act in response")
    t.refused(
        lambda: t.do(ActionSpent(t.id("Ann"), ActionUse.ATTACK, as_response=True)),
        "not in response",
    )


def test_sprint_is_not_a_response_but_bail_is_and_leaves_the_bailer_disrupted():
    t = two_armies()
    err = t.refused(lambda: t.act("Xan", ActionUse.SPRINT), "cannot Sprint as a response")
    assert err.rule == "4.3 Bailing"
    t.act("Xan", ActionUse.BAIL)
    assert t.unit("Xan").disrupted and t.unit("Xan").action is ActionState.SPENT_RESPONSE
    t.act("Yul", ActionUse.BAIL, over_the_top=True)
    assert not t.unit("Yul").disrupted


# --- Disrupted, Half Speed, Stopped ---------------------------------------------------------


def test_a_disrupted_unit_cannot_act_counter_parry_sprint_or_gain_mom():
    t = two_armies()
    t.strike("Ann", "Xan")
    t.act("Xan", ActionUse.BAIL, target="Ann")  # dodges the Strike, lands Disrupted
    assert t.unit("Xan").disrupted and not t.unit("Xan").may_respond
    t.refused(lambda: t.counter("Xan", "Ann"), "Disrupted")
    t.refused(lambda: t.counter("Xan", "Ann", CounterUse.PARRY), "Disrupted")
    t.refused(lambda: t.set("Xan", Status.MOM), "cannot gain a MOM")
    t.set("Bob", Status.DISRUPTED)
    err = t.refused(lambda: t.act("Bob", ActionUse.SPRINT), "Disrupted and cannot Sprint")
    assert err.rule == "4.1 Disrupted"
    t.refused(lambda: t.strike("Bob", "Yul"), "Disrupted")
    t.refused(lambda: t.act("Bob", ActionUse.PARRY), "Disrupted")


def test_a_disrupted_unit_recovers_at_half_speed_on_its_own_next_turn():
    t = two_armies()
    t.act("Xan", ActionUse.BAIL)  # Blue's Xan Bails during Red's turn
    summary = t.end_turn()  # Blue's turn
    xan = t.unit("Xan")
    assert not xan.disrupted and xan.recovering and xan.moves_at_half_speed
    assert Status.RECOVERING in xan.statuses
    assert summary.recovering == 1
    t.act("Xan", ActionUse.SPRINT)  # acting as normal, at Half Speed
    summary = t.end_turn()  # Red's turn: Xan's own turn is over, full speed again
    assert not t.unit("Xan").recovering and not t.unit("Xan").moves_at_half_speed
    assert summary.full_speed == 1


def test_disrupted_on_its_own_turn_lasts_through_the_enemy_turn():
    t = two_armies()
    t.act("Ann", ActionUse.BAIL)  # on Red's own turn
    t.end_turn()
    assert t.unit("Ann").disrupted  # helpless through Blue's turn
    t.refused(lambda: t.act("Ann", target="Xan"), "Disrupted")
    t.end_turn()
    assert not t.unit("Ann").disrupted and t.unit("Ann").recovering


def test_stopped_clears_at_the_start_of_the_units_own_turn_and_half_speed_stays():
    t = Table(make_setup(Red=["Ann"], Blue=["Xan"], Green=["Gus"]))
    t.set("Ann", Status.STOPPED)
    t.set("Ann", Status.HALF_SPEED)
    err = t.refused(lambda: t.act("Ann", ActionUse.SPRINT), "Stopped")
    assert err.rule == "4.1 Stopped"
    t.act("Ann", ActionUse.OTHER, note="mashes the self-destruct button")  # Stopped may act
    t.end_turn()
    t.end_turn()
    assert t.unit("Ann").stopped  # Blue's and Green's turn starts do not clear it
    summary = t.end_turn()
    assert not t.unit("Ann").stopped and t.unit("Ann").half_speed
    assert summary.unstopped == 1
    assert summary.headline == "Red: 1 Action recharged; 1 unit no longer Stopped"


def test_status_changes_that_change_nothing_are_refused():
    t = two_armies()
    t.set("Ann", Status.HALF_SPEED)
    t.refused(lambda: t.set("Ann", Status.HALF_SPEED), "already Half Speed")
    t.clear("Ann", Status.HALF_SPEED)
    t.refused(lambda: t.clear("Ann", Status.HALF_SPEED), "not Half Speed")
    with pytest.raises(UserError, match="needs the units"):
        t.set("Ann", Status.IN_CLOSE_COMBAT)
    with pytest.raises(UserError, match="does not name other units"):
        t.set("Ann", Status.STOPPED, "Xan")


# --- dead and out ---------------------------------------------------------------------------


def test_dead_units_cannot_act_counter_or_be_attacked_and_leave_close_combat():
    t = two_armies()
    t.strike("Ann", "Xan")
    t.strike("Bob", "Xan")
    t.set("Bob", Status.GRABBING, "Xan")
    t.do(UnitKilled(target=t.id("Xan"), actor=t.id("Ann"), cause="axe"))
    xan = t.unit("Xan")
    assert xan.dead and xan.statuses == (Status.DEAD,)
    assert not in_close_combat(t.state, t.id("Ann")) and not t.unit("Bob").grabbing
    t.refused(lambda: t.act("Xan", ActionUse.BAIL), "dead")
    t.refused(lambda: t.strike("Cid", "Xan"), "already dead")
    t.refused(lambda: t.do(UnitKilled(target=t.id("Xan"))), "already dead")
    t.end_turn()
    t.refused(lambda: t.act("Xan"), "dead")
    assert why_not_respond(t.state, t.id("Xan")) == "Xan is dead."


def test_a_unit_out_of_the_battle_cannot_act_until_it_returns():
    t = two_armies()
    t.set("Ann", Status.OUT)
    t.refused(lambda: t.act("Ann"), "out of the battle")
    t.clear("Ann", Status.OUT)
    t.act("Ann")
    assert t.unit("Ann").action is ActionState.SPENT_OWN_TURN


# --- Close Combat: Counters -----------------------------------------------------------------


def test_counters_work_with_a_spent_action_and_reset_every_player_turn():
    t = two_armies()
    t.strike("Ann", "Xan")  # Red's turn: Xan is in Close Combat, holding its Action
    t.counter("Xan", "Ann")  # Counterstrike: spends Xan's held Action
    assert t.unit("Xan").action is ActionState.SPENT_RESPONSE
    t.counter("Xan", "Ann", CounterUse.PARRY)  # Action already spent: Counters still usable
    xan = t.unit("Xan")
    assert (xan.counters_used, xan.counters_left) == (2, 0)
    err = t.refused(lambda: t.counter("Xan", "Ann", CounterUse.PARRY), "used 2 of its 2 Counters")
    assert err.rule == "5.2 Counters and Actions"
    summary = t.end_turn()  # Blue's turn: Counters back, Action recharged
    assert t.unit("Xan").counters_used == 0 and t.unit("Xan").action is ActionState.READY
    assert t.unit("Ann").counters_used == 0  # Ann's Strike hand is back too
    assert summary.counters_reset == 2 and summary.recharged == 1


def test_the_hank_and_butch_barroom_brawl_from_chapter_5_2():
    t = Table(make_setup(Cowboys=["Hank", "Butch"], Outlaws=["Slim", "Jake"]))
    # Cowboys' turn: the Outlaws start the brawl with Response Actions.
    t.strike("Slim", "Hank")
    t.strike("Jake", "Butch")
    t.set("Jake", Status.IN_CLOSE_COMBAT, "Hank")  # one brawl: Hank is within Jake's reach
    assert t.unit("Slim").action is ActionState.SPENT_RESPONSE
    t.counter("Hank", "Slim", CounterUse.PARRY)  # Shield Parry spends his Action
    assert t.unit("Hank").action is ActionState.SPENT_OWN_TURN
    assert t.unit("Butch").action is ActionState.READY  # Butch takes the hit
    # Outlaws' turn: they get their Actions back, the Cowboys their Counters.
    t.end_turn()
    assert t.unit("Slim").action is ActionState.READY
    t.strike("Slim", "Hank")
    t.counter("Hank", "Slim", CounterUse.PARRY)
    t.counter("Hank", "Jake")  # both Cowboys Counterstrike the fleeing Outlaw
    t.counter("Butch", "Jake")
    t.clear("Jake", Status.IN_CLOSE_COMBAT)  # Jake survives and Disengages
    assert t.unit("Hank").action is ActionState.SPENT_OWN_TURN  # spent since his own turn
    assert t.unit("Butch").action is ActionState.SPENT_RESPONSE  # now spent as well
    assert t.unit("Hank").counters_used == 2
    assert not in_close_combat(t.state, t.id("Jake"))
    assert engagement(t.state, t.id("Hank")) == {t.id("Hank"), t.id("Slim")}
    assert not in_close_combat(t.state, t.id("Butch"))


def test_a_counter_needs_close_combat_with_the_target():
    t = two_armies()
    err = t.refused(lambda: t.counter("Xan", "Ann"), "not in Close Combat")
    assert err.rule == "5.2 Counters and Actions"
    t.strike("Ann", "Xan")
    t.strike("Bob", "Yul")
    t.refused(lambda: t.counter("Xan", "Bob"), "not in Close Combat with Bob")


def test_own_turn_strikes_use_the_same_hands_as_counters():
    t = Table(make_setup(counters={"Ann": 2}, Red=["Ann", "Bob"], Blue=["Xan"]))
    t.strike("Ann", "Xan", hands=2)  # two weapons, two Strikes in one Action
    t.strike("Xan", "Ann")  # Xan's held Action: a response Strike
    t.refused(lambda: t.counter("Ann", "Xan", CounterUse.PARRY), "has 0 left")


# --- Close Combat: the three-attacker limit --------------------------------------------------


def test_a_fourth_close_combat_attacker_on_a_minifig_is_refused_with_the_reason():
    t = Table(make_setup(Red=["Ann", "Bob", "Cid", "Dag"], Blue=["Xan", "Big Tank"]))
    for name in ("Ann", "Bob", "Cid"):
        t.strike(name, "Xan")
    assert attackers_left(t.state, t.id("Xan")) == 0
    err = t.refused(lambda: t.strike("Dag", "Xan"), "already has three Close Combat attackers")
    assert "(Ann, Bob, Cid)" in err.message and err.rule == "5.2 Close Combat"
    assert t.unit("Dag").action is ActionState.READY  # nothing was spent
    t.end_turn()
    t.end_turn()  # a new Red turn: the count starts again
    assert attackers_left(t.state, t.id("Xan")) == 3
    t.strike("Dag", "Xan")


def test_larger_targets_have_no_attacker_limit():
    t = Table(make_setup(minifig=False, Red=["Ann", "Bob", "Cid", "Dag"], Blue=["Big Tank"]))
    for name in ("Ann", "Bob", "Cid", "Dag"):
        t.strike(name, "Big Tank")
    assert len(t.unit("Big Tank").attackers) == 4
    assert attackers_left(t.state, t.id("Big Tank")) is None


def test_a_counterstrike_counts_toward_the_three_but_a_parry_does_not():
    t = Table(make_setup(Red=["Ann"], Blue=["Xan", "Yul", "Zed", "Wes"]))
    t.end_turn()  # Blue's turn; Ann holds her Action
    for name in ("Xan", "Yul", "Zed"):
        t.strike(name, "Ann")
    t.set("Wes", Status.IN_CLOSE_COMBAT, "Xan")
    t.refused(lambda: t.counter("Wes", "Ann"), "already has three")
    t.counter("Ann", "Wes", CounterUse.PARRY)  # Ann Parries; not an attack on Wes
    assert t.unit("Wes").attackers == ()
    t.counter("Ann", "Xan")
    assert t.unit("Xan").attackers == (t.id("Ann"),)


# --- Close Combat: responses, outnumbered, Grabs ---------------------------------------------


def test_a_unit_in_close_combat_cannot_respond_to_events_outside_it():
    t = two_armies()
    t.strike("Ann", "Xan")
    t.act("Bob", target="Yul")  # Bob shoots at Yul, outside the Close Combat
    err = t.refused(lambda: t.strike("Xan", "Bob"), "cannot respond to Bob")
    assert err.rule == "5.2 Close Combat"
    t.refused(lambda: t.act("Xan", ActionUse.BAIL), "name the Close Combat opponent")
    t.strike("Xan", "Ann")  # inside its Close Combat: allowed
    assert t.unit("Xan").action is ActionState.SPENT_RESPONSE


def test_outnumbered_side_of_a_close_combat_is_marked():
    t = two_armies()
    t.strike("Ann", "Xan")
    assert not outnumbered(t.state, t.id("Ann")) and not outnumbered(t.state, t.id("Xan"))
    t.strike("Bob", "Xan")
    assert outnumbered(t.state, t.id("Xan")) and not outnumbered(t.state, t.id("Ann"))
    assert outnumbered_modifier(t.state, t.id("Xan")) == Modifier(
        -1, Stat.ACTION, "outnumbered in Close Combat, 1 against 2", "5.1 Combined Attacks"
    )
    assert outnumbered_modifier(t.state, t.id("Ann")) is None
    assert not outnumbered(t.state, t.id("Cid"))  # not in Close Combat


def test_allies_count_together_and_three_rival_sides_are_each_outnumbered():
    setup = make_setup(
        teams={"Red": "North", "Green": "North"}, Red=["Ann"], Green=["Gus"], Blue=["Xan", "Yul"]
    )
    t = Table(setup)
    t.strike("Ann", "Xan")
    t.set("Gus", Status.IN_CLOSE_COMBAT, "Yul")
    t.set("Yul", Status.IN_CLOSE_COMBAT, "Ann")
    assert not outnumbered(t.state, t.id("Ann")) and not outnumbered(t.state, t.id("Xan"))
    free_for_all = Table(make_setup(Red=["A1", "A2"], Blue=["B1", "B2"], Green=["C1", "C2"]))
    for a, b in (("A1", "B1"), ("A2", "C1"), ("B2", "C2"), ("A1", "C2"), ("B1", "C1")):
        free_for_all.set(a, Status.IN_CLOSE_COMBAT, b)
    assert all(outnumbered(free_for_all.state, free_for_all.id(n)) for n in ("A1", "B1", "C1"))


def test_grabs_lock_both_minifigs_in_place_until_released():
    t = two_armies()
    t.set("Ann", Status.GRABBING, "Xan")
    assert t.unit("Xan").grabbed_by == {t.id("Ann")} and in_close_combat(t.state, t.id("Xan"))
    assert automatic_hit_reasons(t.state, t.id("Xan"))
    err = t.refused(lambda: t.act("Xan", ActionUse.BAIL, target="Ann"), "in a Grab")
    assert err.rule == "5.2 Grabbing"
    t.refused(lambda: t.act("Ann", ActionUse.SPRINT), "in a Grab")
    t.refused(lambda: t.clear("Xan", Status.IN_CLOSE_COMBAT), "cannot Disengage")
    t.clear("Ann", Status.GRABBING)
    t.clear("Xan", Status.IN_CLOSE_COMBAT)
    assert not in_close_combat(t.state, t.id("Ann"))


def test_a_disrupted_unit_is_out_of_its_grab_and_loses_its_mom():
    t = two_armies()
    t.set("Bob", Status.MOM)
    t.set("Xan", Status.GRABBED, "Ann")
    t.set("Ann", Status.DISRUPTED)  # Shoved away
    assert not t.unit("Xan").grabbed and not t.unit("Ann").grabbing
    assert in_close_combat(t.state, t.id("Xan"))
    t.end_turn()
    assert t.unit("Bob").mom  # MOM is kept when the turn ends
    t.end_turn()
    t.set("Bob", Status.STOPPED)
    assert not t.unit("Bob").mom


# --- attacks resolved by the combat wizard ---------------------------------------------------


def test_a_resolved_combined_close_combat_attack_spends_counts_and_applies_its_results():
    t = two_armies()
    t.strike("Xan", "Bob")  # Blue's Xan responds: now in Close Combat with Bob
    event = AttackResolved(
        actor=t.id("Ann"),
        target=t.id("Xan"),
        close_combat=True,
        maneuver="Shove",
        participants=(
            Participant(t.id("Ann"), Use.ACTION, hands=2),
            Participant(t.id("Bob"), Use.COUNTER),
        ),
        effects=(StatusChange(t.id("Xan"), Status.DISRUPTED),),
        details={"dice": [{"sides": 6, "face": 4}], "modifiers": []},
    )
    t.do(event)
    assert t.unit("Ann").action is ActionState.SPENT_OWN_TURN
    assert t.unit("Ann").counters_used == 2 and t.unit("Bob").counters_used == 1
    assert t.unit("Xan").attackers == (t.id("Ann"), t.id("Bob")) and t.unit("Xan").disrupted
    kill = AttackResolved(
        actor=t.id("Cid"),
        target=t.id("Xan"),
        close_combat=True,
        participants=(Participant(t.id("Cid")),),
        killed=(t.id("Xan"),),
    )
    t.do(kill)
    assert t.unit("Xan").dead and t.unit("Cid").action is ActionState.SPENT_OWN_TURN
    assert describe(t.setup, kill) == (
        "Cid (Red): Close Combat attack on Xan (Blue): Xan (Blue) is killed"
    )


def test_a_resolved_attack_refuses_a_fourth_attacker_and_ranged_fire_from_close_combat():
    t = Table(make_setup(Red=["Ann", "Bob", "Cid", "Dag"], Blue=["Xan", "Yul"]))
    four = AttackResolved(
        actor=t.id("Ann"),
        target=t.id("Xan"),
        close_combat=True,
        participants=tuple(Participant(t.id(n)) for n in ("Ann", "Bob", "Cid", "Dag")),
    )
    t.refused(lambda: t.do(four), "already has three")
    t.strike("Ann", "Xan")
    ranged = AttackResolved(
        actor=t.id("Ann"), target=t.id("Yul"), participants=(Participant(t.id("Ann")),)
    )
    err = t.refused(lambda: t.do(ranged), "cannot make Ranged attacks")
    assert err.rule == "5.3 Ranged Combat"


# --- the battle log: payloads and words ------------------------------------------------------


def sample_events() -> list:
    return [
        TurnEnded(player=1, round=3),
        ActionSpent(4, ActionUse.BAIL, as_response=True, target=1, over_the_top=True),
        ActionSpent(1, ActionUse.OTHER, note="pulls the lever"),
        CounterUsed(4, 1, CounterUse.PARRY),
        CloseCombatAttack(1, 4, Maneuver.SHOVE, hands=2, as_response=False),
        StatusSet(1, Status.IN_CLOSE_COMBAT, (4, 5)),
        StatusCleared(1, Status.GRABBING, ()),
        UnitKilled(target=4, actor=None, cause="fell off the parapet"),
        AttackResolved(
            actor=1,
            target=4,
            close_combat=True,
            maneuver="Strike",
            participants=(Participant(1, Use.ACTION, 2), Participant(2, Use.COUNTER)),
            effects=(
                StatusChange(4, Status.DISRUPTED),
                StatusChange(4, Status.GRABBED, on=False, with_ids=(2,)),
            ),
            killed=(4,),
            details={
                "dice": [{"sides": 6, "face": 6, "role": "natural"}],
                "modifiers": [{"value": -1, "rule": "5.1"}],
                "outcome": {"hit": True},
            },
        ),
        BattleFinished(note="Red holds the bridge"),
        battle_pkg.LongActionStarted(1, "rowing the boat", turns=3),
        battle_pkg.FirstToAct(4, 1, simultaneous=False, reason="4.3: Skill Roll minus Use"),
        battle_pkg.WarningOverruled(
            1, "A second Strike needs a second weapon ready in Ann's hand", "5.2 Striking"
        ),
    ]


def test_every_event_kind_round_trips_exactly_through_stored_json():
    events = sample_events()
    assert {e.kind for e in events} == set(EVENT_KINDS)
    for event in events:
        kind, actor, target, payload = to_record(event)
        stored = json.loads(json.dumps(payload))
        assert from_payload(kind, actor, target, stored) == event


def test_the_wizards_own_payload_keys_survive_and_may_not_clash():
    event = sample_events()[8]
    payload = event.to_payload()
    assert payload["outcome"] == {"hit": True} and payload["killed"] == [4]
    with pytest.raises(EventFormatError, match="killed"):
        AttackResolved(
            actor=1, target=2, participants=(Participant(1),), details={"killed": "oops"}
        )


@pytest.mark.parametrize(
    ("kind", "actor", "target", "payload", "match"),
    [
        ("teleported", 1, None, {}, "unknown event kind"),
        ("turn_ended", None, None, {"player": True, "round": 1}, "integer"),
        ("turn_ended", None, None, {"player": 1}, "lacks 'round'"),
        (
            "action_spent",
            1,
            None,
            {"how": "dance", "as_response": False, "over_the_top": False, "note": ""},
            "unknown value 'dance'",
        ),
        (
            "status_set",
            1,
            None,
            {"status": "stopped", "with": [], "colour": "red"},
            "unknown payload keys",
        ),
        ("counter_used", 1, "2", {"how": "parry"}, "integer"),
    ],
)
def test_unreadable_stored_events_are_reported(kind, actor, target, payload, match):
    with pytest.raises(EventFormatError, match=match):
        from_payload(kind, actor, target, payload)


def test_every_event_reads_as_plain_words():
    setup = make_setup(Red=["Ann", "Bob"], Blue=["Xan", "Yul", "Zed"])
    words = [describe(setup, e) for e in sample_events()]
    assert words == [
        "Red ends their turn (round 3)",
        "Yul (Blue) responds: Bails away from Ann (Red) and lands on its feet (Over the Top)",
        "Ann (Red) spends its Action: pulls the lever",
        "Yul (Blue) uses a Counter: Parries Ann (Red)",
        "Ann (Red) Shoves Yul (Blue) (2 hands)",
        "Ann (Red) is in Close Combat with Yul (Blue) and Zed (Blue)",
        "Ann (Red) releases every Grab",
        "Yul (Blue) is killed (fell off the parapet)",
        "Ann (Red) and Bob (Red) with a Counter: Strike on Yul (Blue): Yul (Blue) is "
        "Disrupted; Yul (Blue) is released by Bob (Red); Yul (Blue) is killed",
        "The battle is over: Red holds the bridge",
        "Ann (Red) is Busy rowing the boat for 3 of its turns (Stopped, 4.2)",
        "Who acts first: Yul (Blue) acts before Ann (Red) (4.3: Skill Roll minus Use)",
        "Warning overruled by the organizer for Ann (Red): A second Strike needs a second "
        "weapon ready in Ann's hand (5.2 Striking)",
    ]
    assert describe(setup, ActionSpent(3, ActionUse.BAIL, as_response=True)) == (
        "Xan (Blue) responds: Bails and is Disrupted"
    )
    assert describe(setup, ActionSpent(1, ActionUse.SPRINT)) == "Ann (Red) Sprints"


def test_end_turn_says_what_changed():
    setup = make_setup(Red=[f"R{i}" for i in range(14)], Blue=["Xan"])
    t = Table(setup)
    for i in range(12):
        t.act(f"R{i}")
    t.set("R12", Status.DISRUPTED)
    t.set("R13", Status.DISRUPTED)
    first = t.end_turn()
    assert first.headline == "Blue: turn begins"  # Xan held its Action: nothing to recharge
    assert first.lines == ("Blue: turn begins",)
    assert t.state.round == 1
    summary = t.end_turn()
    assert summary.new_round and summary.round == 2
    assert summary.headline == (
        "Red: 12 Actions recharged; 2 units recover from Disruption (Half Speed this turn)"
    )
    assert summary.lines == (
        "Round 2 begins",
        summary.headline,
        "Blue: 1 unit holds its Action and may respond",
    )
    assert summary.text.startswith("Round 2 begins. Red: 12 Actions recharged;")


# --- history: undo, redo, the finished battle ------------------------------------------------


def test_undo_and_redo_move_through_the_log():
    t = two_armies()
    t.act("Ann")
    t.end_turn()
    after = t.state
    t.history = t.history.undo()
    assert t.state.active_player.name == "Red" and t.unit("Ann").action.spent
    t.history = t.history.redo()
    assert t.state == after
    t.history = t.history.undo().undo()
    assert t.state == initial_state(t.setup)
    t.act("Bob")
    assert not t.history.can_redo
    with pytest.raises(UserError, match="Nothing to redo"):
        t.history.redo()


def test_a_snapshot_from_another_battle_is_refused():
    t = two_armies()
    other = make_setup(Red=["Ann"], Blue=["Xan"])
    with pytest.raises(EventFormatError, match="not the battle's units"):
        state_from_json(other, state_to_json(t.state))
    with pytest.raises(EventFormatError, match="unreadable"):
        state_from_json(t.setup, {"version": 1, "round": 1})


def test_nothing_happens_after_the_battle_is_over():
    t = two_armies()
    t.do(BattleFinished(note="Blue surrenders"))
    t.refused(lambda: t.act("Ann"), "battle is over")
    t.refused(lambda: t.end_turn(), "battle is over")
    assert not can_respond_now(t.state, t.id("Xan"))


def test_the_readings_are_written_in_the_rules_docstring_with_sections():
    for key, text in READINGS.items():
        assert f"[{key}]" in rules_module.__doc__
        assert text[0].isdigit() or key in ("dead", "order")


# --- property: the incremental state equals the replay of the remaining events ---------------

PROPERTY_SETUP = make_setup(
    counters={"Ann": 1, "Xan": 3}, Red=["Ann", "Bob"], Blue=["Xan", "Yul"], Green=["Gus"]
)
IDS = [u.unit_id for u in PROPERTY_SETUP.units]


def _stored(event):
    kind, actor, target, payload = to_record(event)
    return from_payload(kind, actor, target, json.loads(json.dumps(payload)))


class BattleLog(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.history = BattleHistory(PROPERTY_SETUP)
        self.applied = 0

    def _try(self, event) -> None:
        before = self.history
        try:
            self.history = self.history.record(event)
            self.applied += 1
        except UserError:
            assert self.history is before

    @rule(data=st.data())
    def step(self, data):
        state = self.history.state
        a = data.draw(st.sampled_from(IDS))
        b = data.draw(st.sampled_from(IDS))
        kind = data.draw(
            st.sampled_from(
                [
                    "end",
                    "act",
                    "act",
                    "raw",
                    "cc",
                    "cc",
                    "cc",
                    "counter",
                    "counter",
                    "counter",
                    "set",
                    "clear",
                    "kill",
                    "attack",
                    "attack",
                    "undo",
                    "undo",
                    "redo",
                ]
            )
        )
        if kind == "undo":
            if self.history.can_undo:
                self.history = self.history.undo()
            return
        if kind == "redo":
            if self.history.can_redo:
                self.history = self.history.redo()
            return
        fighting = sorted(engagement(state, a) - {a})
        if fighting and kind in ("counter", "attack", "act"):
            b = data.draw(st.sampled_from(fighting))
        if kind == "end":
            event = end_turn(PROPERTY_SETUP, state)[0]
        elif kind == "act":
            how = data.draw(st.sampled_from(list(ActionUse)))
            event = spend_action(
                state,
                a,
                how,
                target=data.draw(st.sampled_from([None, b])),
                over_the_top=data.draw(st.booleans()),
            )
        elif kind == "raw":
            event = ActionSpent(a, ActionUse.ATTACK, as_response=data.draw(st.booleans()))
        elif kind == "cc":
            event = close_combat_attack(state, a, b, hands=data.draw(st.integers(0, 2)))
        elif kind == "counter":
            event = CounterUsed(a, b, data.draw(st.sampled_from(list(CounterUse))))
        elif kind in ("set", "clear"):
            status = data.draw(st.sampled_from(list(Status)))
            with_ids = (b,) if status.takes_units else ()
            event = (StatusSet if kind == "set" else StatusCleared)(a, status, with_ids)
        elif kind == "kill":
            event = UnitKilled(target=b, actor=a)
        else:
            use = data.draw(st.sampled_from(list(Use)))
            event = AttackResolved(
                actor=a,
                target=b,
                close_combat=data.draw(st.booleans()),
                participants=(Participant(a, use),),
                effects=(StatusChange(b, Status.STOPPED),),
                details={"roll": [3]},
            )
        self._try(event)

    @invariant()
    def state_is_the_replay_of_the_remaining_events(self):
        stored = [_stored(e) for e in self.history.events]
        assert stored == list(self.history.events)
        assert replay(PROPERTY_SETUP, stored) == self.history.state

    @invariant()
    def a_stored_snapshot_gives_back_the_same_state(self):
        data = json.loads(json.dumps(state_to_json(self.history.state)))
        assert state_from_json(PROPERTY_SETUP, data) == self.history.state

    @invariant()
    def the_state_keeps_the_rules(self):
        state = self.history.state
        for u in state.units:
            assert 0 <= u.counters_used <= u.counters
            assert len(u.attackers) <= 3
            assert not (u.disrupted and u.recovering)
            if u.action is ActionState.READY:
                assert u.player_id == state.active
            if u.dead or u.out:
                assert not (u.close_combat or u.grabbing or u.grabbed_by or u.mom)
            for other in u.close_combat:
                assert u.unit_id in state.unit(other).close_combat
            for other in u.grabbing:
                assert u.unit_id in state.unit(other).grabbed_by and other in u.close_combat

    @invariant()
    def what_refuses_the_attacker_refuses_every_target(self):
        """The battle panel asks ``close_combat_refusal`` once instead of trying a Close
        Combat attack on each enemy: when it refuses, the attack itself is refused against
        everyone, for the same reason wherever the target is alive and on the table."""
        state = self.history.state
        for a in IDS:
            own = state.unit(a).player_id == state.active
            for maneuver in Maneuver:
                why = close_combat_refusal(PROPERTY_SETUP, state, a, maneuver, as_response=not own)
                if why is None:
                    continue
                for b in IDS:
                    if b == a:
                        continue
                    with pytest.raises(UserError) as refused:
                        apply(
                            PROPERTY_SETUP,
                            state,
                            CloseCombatAttack(a, b, maneuver, 1, as_response=not own),
                        )
                    if state.unit(b).in_battle:
                        assert str(refused.value) == str(why)


BattleLog.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_undo_and_events_equal_replay = BattleLog.TestCase


# --- a long battle --------------------------------------------------------------------------
# (speed is measured by benchmarks/bench_turns.py, not asserted here)


def big_setup(units: int = 500) -> BattleSetup:
    players = (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue"))
    return BattleSetup(
        players, tuple(UnitSetup(i + 1, 1 + i % 2, f"U{i + 1}") for i in range(units))
    )


def test_replaying_a_thousand_events_of_500_units_gives_the_same_state():
    setup = big_setup()
    state = initial_state(setup)
    events = []
    while len(events) < 1000:
        ready = [
            u.unit_id
            for u in state.units
            if u.player_id == state.active and u.action is ActionState.READY
        ]
        event = (
            spend_action(state, ready[len(events) % len(ready)], ActionUse.ATTACK)
            if ready and len(events) % 100
            else end_turn(setup, state)[0]
        )
        state = apply(setup, state, event)
        events.append(event)
    assert replay(setup, events) == state
