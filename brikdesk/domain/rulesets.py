"""Rule sets: what chapter 4 (The Player Turn) says in each edition, as data the engine reads.

The campaign's edition picks the catalog (chapter 3's tables) *and* one frozen ``RuleSet``
(``rules_for(edition)``): the Sprint and Bail rolls (4.1, 4.3), Over the Top / Overskill (4.2),
recovery from Disruption (4.1), the long Actions (4.2) and Who Acts First (4.3). Every
difference between the editions that software can track is a field here, and the Rules
reference lists them side by side (``edition_table``); a test keeps the two in step.

Sources: chapter 4 of the 2005, 2010 and 2020 editions.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

from brikdesk.domain.catalog import DEFAULT_EDITION, Edition

__all__ = [
    "EDITION_ROWS",
    "READINGS",
    "RULES_2005",
    "RULES_2010",
    "RULES_2020",
    "RULE_SETS",
    "FirstRule",
    "Recovery",
    "RuleSet",
    "edition_table",
    "large_action_turns",
    "rules_for",
]


class FirstRule(str, Enum):
    """How Who Acts First (4.3) is settled when a response meets an Action."""

    SKILL_CONTEST = "skill_contest"  # 2005: Skill Roll minus Use, ties to the active player
    SPEED_THEN_SKILL = "speed_then_skill"  # 2010: an inch ahead; simultaneous; speed; Skill
    INCH_THEN_ROLL = "inch_then_roll"  # 2020: an inch ahead; simultaneous; higher Action Roll

    def __str__(self) -> str:
        return self.value


class Recovery(str, Enum):
    """What getting up from Disruption costs on the unit's next turn (4.1)."""

    STAND_UP = "stand_up"  # 2005: spend 2" of Move to stand up
    HALF_SPEED_TURN = "half_speed_turn"  # 2010/2020: Half Speed for that whole turn

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RuleSet:
    """Chapter 4 of one edition, as far as software can track it."""

    edition: Edition
    #: What the Action die's roll is called: "Skill Roll" (2005/2010), "Action Roll" (2020).
    action_roll: str
    #: What a natural 6+ on the Action die earns, or "" when the chapter has none (2005).
    over_the_top: str
    #: Die rolled for Sprint and Bail inches; ``None``: the unit's own Action die (a Hero's d10).
    distance_die: int | None
    #: The Bail is an Action Roll (Over the Top, the d4's bonus d4; no bonus d6 chain).
    bail_is_action_roll: bool
    #: Bail inches at Half Speed are halved (4.3); 2005 says nothing of it.
    bail_half_speed: bool
    #: The Sprint roll's highest face adds bonus dice (4.1 "like any other roll").
    sprint_bonus_dice: bool
    #: A chain of Sprint bonus dice ending in a 1 makes him run the full distance (4.1).
    sprint_runaway: bool
    #: Getting up from Disruption (4.1).
    recovery: Recovery
    #: Inches of Move standing up costs (2005: 2"), 0 when recovery is by Half Speed.
    recovery_move_cost: int
    #: Heavy Armor: recovering from Disruption takes the whole turn, Move and Action (2010).
    heavy_armor_full_turn_recovery: bool
    #: What an Action lasting the whole turn is called (4.2).
    full_turn_action: str
    #: What an Action lasting several turns is called (4.2).
    extended_action: str
    #: Lesser acts: "Quick Actions cost Move" (2005), "Move Actions" (2010), minor activities.
    minor_activities: str
    #: Quick Actions and their cost in inches of Move (2005's table, 4.1); empty when lesser
    #: acts are free or impair movement instead.
    quick_action_costs: tuple[tuple[str, int], ...]
    #: What defending against a Close Combat attack is called (2005/2010 Counter, 2020 Parry).
    parry_name: str
    #: Disengaging (5.2, 2020): the opponents left may each make one Counterstrike first.
    #: The 2005 and 2010 texts BrikDesk follows have no Close Combat chapter: no such rule.
    disengage_counterstrikes: bool
    #: Who Acts First (4.3).
    who_acts_first: FirstRule
    #: Minifigs Sprinting in a group may make one Sprint roll for the group (4.1, 2010/2020).
    group_sprint: bool
    #: A MOM abandons a minifig who ends a turn without using up all his Move (5.4, 2020).
    mom_lost_at_turn_end: bool
    #: The High Noon example of this edition, in a line.
    high_noon: str

    @property
    def name(self) -> str:
        return f"BrikWars {self.edition.value}"

    @property
    def has_over_the_top(self) -> bool:
        return bool(self.over_the_top)

    def quick_action_cost(self, what: str) -> int | None:
        """Inches of Move a Quick Action costs (2005, 4.1); ``None`` when this edition has no
        such cost (2010, 2020: free or an impairment instead) or does not list it."""
        return dict(self.quick_action_costs).get(what)


RULES_2005 = RuleSet(
    edition=Edition.E2005,
    action_roll="Skill Roll",
    over_the_top="",
    distance_die=6,
    bail_is_action_roll=False,
    bail_half_speed=False,
    sprint_bonus_dice=True,
    sprint_runaway=False,
    recovery=Recovery.STAND_UP,
    recovery_move_cost=2,
    heavy_armor_full_turn_recovery=False,
    full_turn_action="Extended Action (uses the whole Movement and Action)",
    extended_action="Extended Action over several turns; Large Actions: one turn per inch "
    "of Size for a lone minifig",
    minor_activities='Quick Actions cost Move: a door or a heavy item -1", standing up from '
    'seated -1", from prone -2"',
    quick_action_costs=(
        ("Talking", 0),
        ("Opening or closing a door", 1),
        ("Picking up or dropping equipment items", 0),
        ("Picking up a heavy item", 1),
        ("Dropping to a seated, kneeling, or prone position", 0),
        ("Standing up from a seated or kneeling position", 1),
        ("Standing up from a prone position", 2),
    ),
    parry_name="Counter",
    disengage_counterstrikes=False,
    who_acts_first=FirstRule.SKILL_CONTEST,
    group_sprint=False,
    mom_lost_at_turn_end=False,
    high_noon="Wayne 2-3 = -1 beats Shaun 1-3 = -2: Wayne's miss first, then Shaun's misfire",
)

RULES_2010 = RuleSet(
    edition=Edition.E2010,
    action_roll="Skill Roll",
    over_the_top="Overskill",
    distance_die=None,
    bail_is_action_roll=True,
    bail_half_speed=True,
    sprint_bonus_dice=True,
    sprint_runaway=True,
    recovery=Recovery.HALF_SPEED_TURN,
    recovery_move_cost=0,
    heavy_armor_full_turn_recovery=True,
    full_turn_action="Full-Round Action (Stopped, no other Action)",
    extended_action="Extended Action (a Full-Round Action over several turns)",
    minor_activities="Move Actions: free, or Half Speed / Stopped",
    quick_action_costs=(),
    parry_name="Counter",
    disengage_counterstrikes=False,
    who_acts_first=FirstRule.SPEED_THEN_SKILL,
    group_sprint=True,
    mom_lost_at_turn_end=False,
    high_noon="simultaneous: both miss; Shaun's natural 1 shoots his own foot",
)

RULES_2020 = RuleSet(
    edition=Edition.E2020,
    action_roll="Action Roll",
    over_the_top="Over the Top",
    distance_die=None,
    bail_is_action_roll=True,
    bail_half_speed=True,
    sprint_bonus_dice=True,
    sprint_runaway=True,
    recovery=Recovery.HALF_SPEED_TURN,
    recovery_move_cost=0,
    heavy_armor_full_turn_recovery=False,
    full_turn_action="full-turn Action (Stopped, no other Action)",
    extended_action="extended Action (a full-turn Action over several turns)",
    minor_activities="minor activities: free, or Half Speed / Stopped / Disrupted",
    quick_action_costs=(),
    parry_name="Parry",
    disengage_counterstrikes=True,
    who_acts_first=FirstRule.INCH_THEN_ROLL,
    group_sprint=True,
    mom_lost_at_turn_end=True,
    high_noon="simultaneous: both miss; Wayne's natural 1 shoots his own foot",
)

#: Every rule set, oldest first.
RULE_SETS: tuple[RuleSet, ...] = (RULES_2005, RULES_2010, RULES_2020)

_BY_EDITION = {r.edition: r for r in RULE_SETS}


def rules_for(edition: Edition | str | None) -> RuleSet:
    """The rule set of ``edition`` (an ``Edition`` or its text, e.g. a campaign's column);
    ``None`` gives the default (2020)."""
    if edition is None:
        return _BY_EDITION[DEFAULT_EDITION]
    try:
        return _BY_EDITION[Edition(edition)]
    except ValueError:
        known = ", ".join(e.value for e in Edition)
        raise ValueError(f"no rule set for edition {edition!r}; known: {known}") from None


#: The rows of the "Rules by edition" table: (field, label, section). Every field of
#: ``RuleSet`` but the edition itself appears exactly once (a test checks it).
EDITION_ROWS: tuple[tuple[str, str, str], ...] = (
    ("action_roll", "The Action die's roll is called", "4.2"),
    ("over_the_top", "A natural 6+ on the Action die earns", "4.2"),
    ("distance_die", "Die for Sprint and Bail inches", "4.1, 4.3"),
    (
        "bail_is_action_roll",
        "Bail rolled as an Action Roll (Benny, d4 bonus d4, no bonus d6)",
        "4.2, 4.3",
    ),
    ("bail_half_speed", "Bail at Half Speed: half the inches", "4.3"),
    ("sprint_bonus_dice", "Sprint roll earns bonus dice", "4.1"),
    ("sprint_runaway", "Bonus chain ending in 1: must run the full distance", "4.1"),
    ("recovery", "Getting up from Disruption", "4.1"),
    ("recovery_move_cost", "Move spent standing up", "4.1"),
    ("heavy_armor_full_turn_recovery", "Heavy Armor: recovering takes the whole turn", "4.1"),
    ("full_turn_action", "An Action taking the whole turn", "4.2"),
    ("extended_action", "An Action taking several turns", "4.2"),
    ("minor_activities", "Lesser acts", "4.1, 4.2"),
    ("quick_action_costs", "Quick Actions that cost Move", "4.1"),
    ("parry_name", "Defending against a Close Combat attack is called", "4.1, 5.2"),
    (
        "disengage_counterstrikes",
        "Disengaging: each opponent left may make one Counterstrike first",
        "5.2",
    ),
    ("who_acts_first", "Who Acts First", "4.3"),
    ("group_sprint", "Sprinting in a group: one roll for the whole group", "4.1"),
    (
        "mom_lost_at_turn_end",
        "A MOM is lost by ending a turn with Move inches left",
        "5.4",
    ),
    ("high_noon", "The High Noon example", "4.3"),
)


def _cell(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "the unit's Action die"
    if isinstance(value, int):
        return f"d{value}" if value > 2 else f'{value}"'
    if isinstance(value, FirstRule):
        return _FIRST_RULE_TEXT[value]
    if isinstance(value, Recovery):
        return _RECOVERY_TEXT[value]
    if isinstance(value, tuple):
        return (
            "; ".join(f'{what} -{cost}"' if cost else f"{what} free" for what, cost in value)
            or "none"
        )
    text = str(value)
    return text or "none"


_FIRST_RULE_TEXT = {
    FirstRule.SKILL_CONTEST: "response to Movement: the responder; to an Action: Skill Roll "
    "minus Use, higher first; a tie simultaneous or the active player",
    FirstRule.SPEED_THEN_SKILL: 'responder first if the enemy still has 1" to go; else '
    "simultaneous; else full speed before Half Speed; else the "
    "higher Skill Roll",
    FirstRule.INCH_THEN_ROLL: 'responder first if the enemy is still 1" or more from acting; '
    "else simultaneous; else the higher Action Roll",
}

_RECOVERY_TEXT = {
    Recovery.STAND_UP: 'spend 2" of Move to stand up',
    Recovery.HALF_SPEED_TURN: "Half Speed for the whole next turn",
}


def edition_table() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The "Rules by edition" table: (label, section, one cell per rule set in ``RULE_SETS``)."""
    return tuple(
        (label, section, tuple(_cell(getattr(r, name)) for r in RULE_SETS))
        for name, label, section in EDITION_ROWS
    )


def ruleset_fields() -> tuple[str, ...]:
    """The fields of ``RuleSet`` the table must show (all but the edition)."""
    return tuple(f.name for f in fields(RuleSet) if f.name != "edition")


def large_action_turns(size_inches: int, minifigs: int = 1) -> int:
    """2005 4.2 Large Actions: "the number of minifigs required (or turns required for a single
    minifig) to perform a Large Action is equal to the Size in inches of the object being used."
    Reading: fewer minifigs share the work over ``ceil(size / minifigs)`` turns (at least 1);
    give the result to ``LongActionStarted(turns=...)``."""
    if size_inches < 1 or minifigs < 1:
        raise ValueError('a Large Action needs a Size of at least 1" and at least one minifig')
    return max(1, -(-size_inches // minifigs))


#: Readings chosen where an edition's text leaves room.
READINGS: dict[str, str] = {
    "Editions": (
        "The campaign's edition chooses both its catalog and its turn rules (chapter 4); the "
        "table 'Rules by edition' lists every difference BrikDesk tracks."
    ),
    "2005 4.1/4.3 Sprint and Bail": (
        "2005 gives Sprint and Bail 1d6 inches whatever the unit (a Hero too), not a Skill "
        "Roll, so there is no Benny; the d6 earns bonus dice like any roll (1.2). A natural 1 "
        "on a Bail falls on his face; the 2005 Sprint has no runaway rule."
    ),
    "4.1 Sprinting in a group": (
        "2010 and 2020: 'Minifigs Sprinting in a group can roll a single Action Die for the "
        "entire group's Sprint distance.' BrikDesk rolls (or takes) one die for the units "
        "chosen together, which must share that die (a Hero's d10 runs on his own), and "
        "records the same inches as each one's Sprint, in one undo step; a Benny earned goes "
        "to the whole group's Sprint. 2005 has no such sentence: each rolls his own 1d6."
    ),
    "5.4 A MOM at the end of a turn": (
        "2020: a minifig's MOM abandons him when he 'ends a turn without using up all of his "
        "Move inches'. BrikDesk does not measure Move, so End turn asks, for each of the "
        "ending player's units with a MOM, whether he used up his Move; the MOM of each one "
        "who did not is cleared with the turn's end, in the same undo step. Other players' "
        "units keep theirs: their turn is not ending. The 2005 and 2010 texts BrikDesk "
        "follows have no Charge chapter: a MOM recorded there is kept until spent or cleared "
        "by hand, and End turn says so."
    ),
    "2005 4.1 Recovery": (
        'On its next turn a Disrupted unit recovers by spending 2" of Move to stand up; it is '
        "not at Half Speed. BrikDesk shows 'Standing up (-2\")' for that turn."
    ),
    "2010 4.1 Heavy Armor": (
        "Unless assisted, a Heavy Armored minifig spends its whole next turn (Movement and "
        "Action) getting up: the tracker marks it Busy getting up, Action spent, Stopped; the "
        "organizer clears it when someone helps."
    ),
    "2005 4.2 Large Actions": (
        "A Large Action takes as many minifigs as the object's Size in inches, or one minifig "
        "that many turns; with fewer minifigs than that, BrikDesk divides the turns among them "
        "(rounding up) and tracks it as an extended Action."
    ),
    "5.2 Disengaging by edition": (
        "2020: a unit in Close Combat may Disengage on its own turn (Act > Disengage); up to "
        "three opponents of its brawl may first make one Counterstrike each, and its Action "
        "stays free unless it Parries or Bails. 2005 and 2010: the rules texts BrikDesk "
        "follows hold only their chapter 4, which says how minifigs enter Close Combat but "
        "not how they leave it, so Act > Leave Close Combat records the organizer's word "
        "with no free Counterstrikes (a held Action may still respond, 4.3)."
    ),
    "4.3 Bail as an Action Roll (2010, 2020)": (
        "The Bail is an Action Roll (4.3 'an Action Roll's worth of inches'), so it scores no "
        "bonus d6 (4.2 'doesn't score Critical Successes the same way'); a natural 6+ goes Over "
        "the Top: one Benny, +1d6\" or land on his feet, not both. A d4's natural 4 adds a "
        "bonus d4 (4.2)."
    ),
}
