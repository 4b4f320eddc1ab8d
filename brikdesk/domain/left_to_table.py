"""The rules the table plays that BrikDesk does not track: measured, placed or agreed on the
table, with the rule section each comes from. Help > Rules reference lists them together
("Left to the table"), so an organizer knows what to watch without the app.

BrikDesk records Actions, Counters, statuses, dice, Damage and kills; it never sees the table
itself. So inches, lines, spots and the players' agreements stay with the players: the app asks
for what they measured or chose (a distance, a target size, a Benny's embellishment) and
records the answer, but it cannot notice when one is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEFT_TO_THE_TABLE", "TableRule"]


@dataclass(frozen=True)
class TableRule:
    """A rule the table plays without the app: ``rule`` its name, ``section`` where it is
    written, ``table`` what the players do, ``app`` what BrikDesk does about it, if anything."""

    rule: str
    section: str
    table: str
    app: str


#: Every rule BrikDesk leaves to the table, in the order of the rules' chapters.
LEFT_TO_THE_TABLE: tuple[TableRule, ...] = (
    TableRule(
        "Move inches and Half Speed",
        "4.1 Movement",
        "Measure each unit's Move (a minifig's 5\", a Hero's 7\"), halved at Half Speed; a "
        "Stopped unit moves no further this turn.",
        "Shows each unit's Move and its Half Speed or Stopped status; never measures a move.",
    ),
    TableRule(
        "A Sprint's straight line",
        "4.1 Sprinting",
        "A Sprinting minifig's whole movement this turn goes in one straight line, over "
        "obstacles he can leap, with no door opened or code typed on the way.",
        "Rolls and records the Sprint's inches (one die for a group in 2010 and 2020) and warns "
        "when the bonus dice end in a 1; the line is the players' to hold.",
    ),
    TableRule(
        "Minor activities and Quick Actions",
        "4.1 Impaired Movement (2005: Quick Actions)",
        "Talking, opening a door, picking up or dropping an item, kneeling and standing up; in "
        "2005 each costs the inches its table says.",
        "Lists them in Rules by edition; spends no inches and keeps no inventory of dropped items.",
    ),
    TableRule(
        "Heroic Feats",
        "4.1 Disrupted",
        "A Disrupted Hero may attempt a Heroic Feat to move or act anyway.",
        "Keeps the Hero Disrupted; the organizer clears Disrupted by hand when the Feat works.",
    ),
    TableRule(
        "Embellishments",
        "4.2 Over the Top",
        "The players agree on what a Benny spent on an embellishment does (landing on his feet "
        "after a Bail, a precise spot).",
        "Records the embellishment's words in the log; applies nothing of it.",
    ),
    TableRule(
        "Who Acts First facts",
        "4.3 Who Acts First",
        'Judge whether the enemy is still 1" or more from acting, and whether both can happen '
        "at once.",
        "Asks those facts in the Who acts first dialog, then rolls or decides and logs it.",
    ),
    TableRule(
        "The Angry Inch",
        "4.3 Enemy Response, 5.2 Angry Inch",
        "A responder, and a minifig in Close Combat before each maneuver, may move one free inch.",
        "Nothing to record: the inch costs no Move and no Action.",
    ),
    TableRule(
        "Range, line of sight and Height Advantage",
        "5.1 Making Attacks",
        "Measure from the weapon's business end to the target, check the line of sight, and "
        "count inches of altitude above the target.",
        "Asks for the distance and the altitude measured and shows the Out of Range and Height "
        "Advantage modifiers they give.",
    ),
    TableRule(
        "Target size and visible sections",
        "5.1 Target Size and Visibility",
        "Judge how much of the target shows: two of three sections, one, or a Large target's "
        "visible Size.",
        "Offers each size as a choice with its modifier; the organizer picks what the table sees.",
    ),
    TableRule(
        "Who is within a blast",
        "3.2 Ranged Weapons (Explosives), 5.1 Target Size and Visibility",
        "Find every unit within 2\" of an Explosive's blast and where KnockBack sends them.",
        "The organizer picks the units in the blast; it rolls their Damage and records what falls.",
    ),
    TableRule(
        "Where a missed shot lands",
        "5.3 Missed Shots",
        "When a player insists on tracking a missed shot, it lands within as many inches of "
        "the target as it missed by, at a spot the target's owner (or an enemy of the "
        "attacker) chooses; what it hits there takes the Damage.",
        "Says how far it may land; the new target is a new attack the organizer records.",
    ),
    TableRule(
        "KnockBack direction and obstacles",
        "5.4 Charge! (Collisions), 3.2 Ranged Weapons (KnockBack)",
        "Send the target flying directly away from the blow; each inch stopped by an obstacle "
        "is 1 Smash Damage.",
        "Rolls KnockBack against POP and records Disrupted; the flight and its Smash stay on "
        "the table.",
    ),
    TableRule(
        "A MOM's straight line",
        "5.4 Charge! (Momentum)",
        'A minifig gains a MOM after 4" in a straight line and loses it on a turn to the '
        "side, on anything that breaks his run, or by ending a turn with Move inches left.",
        "Records the MOM the organizer says was earned, spends it on a Charge or Collision, "
        "and asks at End turn (2020) whether each holder used up his Move; a MOM lost on "
        "the way is the organizer's to clear.",
    ),
    TableRule(
        "Terrain, cover and buildings",
        "5.1 Making Attacks",
        "What blocks a line of sight, gives cover or stops a move, and what a Heavy Shield covers.",
        "Not modelled; a modifier the players agree on goes in as the organizer's own.",
    ),
)
