"""The rule prose of the combat wizard: the readings BrikDesk chose where the rules leave it
open (``READINGS``, shown where the rule applies) and the sentences citing a rule section that
the wizard's pages show. The pages display these; they do not write rules text of their own."""

from __future__ import annotations

import functools

from brikdesk.domain.rulesets import RuleSet

#: Readings the wizard chose where the rules leave it open: section -> text to show.
READINGS: dict[str, str] = {
    "5.1 Combined Attacks": (
        "Every participant makes its own Action Roll against the same target; the Damage of "
        "those that hit is added and compared with the Armor once. A Missed Shot is followed "
        "for the first attacker only; the organizer places the others' by hand."
    ),
    "5.2 Parrying": (
        "The target Parries the first attacker's attack, after its Action Roll hits (a Parry "
        "of a miss is pointless); a successful Shield Parry Deflects that attacker's Damage, a "
        "successful Parry of a Grab or Shove cancels it. The Parry uses a hand and spends the "
        "target's Action if it was unspent (the tracker's reading). The +1 against a "
        "Two-Handed Weapon also counts for a Shove made by a minifig holding one. A fumbled "
        "Parry's item lies as many inches away as the attacker's Action Roll; the battle log "
        "notes it (unless the organizer unticks it) and later Parries and attacks with that "
        "item carry a reminder, since BrikDesk does not track picking it up."
    ),
    "4.3 Bailing": (
        "A Bail is declared before the attack is rolled: the target rolls its dive first. When "
        "the organizer judges that the dive takes it out of the attack, the attack is avoided "
        "(no Action Roll; the attacker's Action is still spent); otherwise it is rolled as "
        "usual. The Bailer ends Disrupted unless a Benny lands it on its feet."
    ),
    "5.4 Charge": (
        "A MOM is spent on the Damage of a Charge that hits with a Charging Weapon, or on a "
        "Collision when the Charge misses and the target is in the charger's path; a MOM not "
        "spent is kept. Participants joining a Charge add their Damage but spend no MOM."
    ),
    "3.2 Explosives": (
        "Every other unit the organizer marks as inside the blast is hit by the same Damage "
        "roll with all three sections inside it; a survivor is Knocked Back and Disrupted. "
        "When the throw misses, the blast where it lands (5.3) may catch the target itself; "
        "the thrower is never listed (move him out of his own blast by hand)."
    ),
    "5.2 Hands": (
        "A participant's Strike, Charge or Grab uses one of its Counters (one hand, or the two "
        "hands on a Two-Handed Weapon, which is one Counter); a Shove uses both hands (one with "
        "a Shield), at most the unit's Counters."
    ),
    "Parting": (
        "A Close Combat maneuver counts toward the target's three attackers and engages the "
        "two, except where they end apart: a Shove or a Collision that Knocks the target "
        'Back, a Bail that dives out of the attack, a Charge that misses and runs on. The 1" '
        "KnockBack of a Heavy or Two-Handed weapon leaves them engaged (Disengage by hand "
        "if the table sees it otherwise)."
    ),
    "4.1 Movement": (
        "A Strike or Shove paid for in response at a unit of the active player that is in no "
        "Close Combat yet may be marked 'passing by' on the Attack page: he is then not locked "
        "in Close Combat with the attacker unless he Parries (4.1 'If he declines to Parry "
        "and survives, he can ignore the attack and continue moving normally'); unmarked, the "
        "Result page warns before Finish."
    ),
    "Rule warnings": (
        "Before Finish records, the wizard asks the battle rules what the organizer should "
        "check at the table (rule_warnings): the Result page shows each warning, and Finish "
        "waits until the organizer goes Back to change the attack or overrules it; an "
        "overruled warning is recorded with the attack and shown in the battle log."
    ),
    "4.3 Who Acts First (the wizard)": (
        "Asked only when the attack is paid for in response at a unit of the player whose "
        "turn it is. The contest's dice come first on the Action Roll page and the result is "
        "recorded with the attack; when the target acts first, the organizer resolves his "
        "Action on the table before this attack (Cancel if it takes the attacker out)."
    ),
    "5.4 Collisions (the wizard)": (
        "A Collision outside a missed Charge is its own kind of attack: no Action Roll and no "
        "Action, an Automatic Hit the target can only dodge by Bailing, MOM against POP. When "
        "the organizer says the runner has a MOM the tracker has not recorded, Finish records "
        "the MOM first; the Collision spends it."
    ),
    "4.1 Sprinting (the Sprint dialog)": (
        "The Sprint dialog rolls the edition's die (2005: 1d6 for every unit) with its bonus "
        "chain; a Benny not spent is said so. The roll is kept in the battle log as the note "
        "of the Action spent on the Sprint; a Charge may still follow as the same Action."
    ),
    "Dice": (
        "Every die is kept as the face it showed, typed from the physical dice or rolled by "
        "BrikDesk, in the order the rules ask for them; the wizard replays them on every "
        "change, so going Back and changing a judgement recomputes the same roll."
    ),
}

#: What the Damage page says of maneuvers that do no Damage, and of a Collision (5.2, 5.4).
SHOVE_DAMAGE = (
    'a Shove does no Damage: 2" of KnockBack directly away and Disrupted (5.2); '
    "an obstacle in the way turns the inches it prevents into Smash damage"
)
CHARGING_SHOVE = (
    'a Charging Shove: the MOM adds 1d6" of KnockBack (bonus dice on a 6) to the '
    "Shove's 2\" (5.4 Momentum)"
)
SPEND_MOM_SHOVE = 'Spend the MOM: a Charging Shove, 1d6" more KnockBack (5.4)'
GRAB_DAMAGE = "a Grab does no Damage: both are held in the Grab (5.2)"
COLLISION_LINE = (
    "Collision: MOM 1d6 against the target's POP 1d6, each with bonus dice on a "
    "6; any inches left Knock it Back and Disrupt it, none lock both in Close "
    "Combat (5.4)"
)


#: The sentences citing a rule section that the wizard's pages show (5.1 Combined Attacks,
#: 5.1 Checking Range, 5.4 Charge, 5.4 Momentum, 5.2 Parrying, 4.3 Bailing, 5.3 Missed Shots,
#: 3.1 KnockBack). Pages put a keyboard mnemonic into some of them; the words are these.
JOINERS_HEADING = "Others joining a Combined Attack (5.1): their Damage adds up"
RANGE_SUBTITLE = (
    "Measure from the weapon's business end; Close Combat weapons must touch the "
    "target (5.1 Checking Range)."
)
HAS_MOM = 'Ran 4" or more in a straight line at the target: a MOM (5.4)'
FROM_ABOVE = "Flying or falling: a mighty downward strike (5.4)"
CHARGE_NOTE = "A Charge: one Strike and one Counter each, no Angry Inches (5.4)."
SPEND_MOM = "Spend the MOM: one more Action die of Damage (5.4)"
PASSING_BY = (
    "He is passing by: he can ignore the attack and keep moving unless he Parries (4.1 Movement)"
)
WARNINGS_HEADING = "Check at the table before recording"
WARNINGS_NOTE = (
    "The rules allow this only in situations the tracker can't see. Go Back to "
    "change the attack, or overrule: it is recorded with the warning noted in the "
    "battle log."
)
SHIELD_PARRY_DEFLECTS = (
    "A successful Shield Parry Deflects the Damage: one die of each kind fewer (5.2)"
)


BLAST_SECTIONS_HEADING = (
    "Each one's sections inside the blast and visible from where it goes off (5.1)"
)
#: The sections of a minifig inside a blast and visible from the detonation point, and what
#: they do to the Explosion's Damage (5.1).
BLAST_SECTIONS = (
    (3, "3: all of him"),
    (2, "2 of 3 (-1 Damage)"),
    (1, "1 of 3 (-2 Damage)"),
    (0, "none: not affected"),
)


#: Who Acts First (4.3): the question on the Attack page and the facts each edition asks.
FIRST_ASK = "He is acting too: who acts first? (4.3 Who Acts First)"
FIRST_FACTS = {
    "to_movement": "This answers his Movement, not an Action: the response is fast enough",
    "target_use": "Use of what he attempts (blank: it has no Use)",
    "inch_away": "He is still an inch or more away from acting",
    "simultaneous": "Both Actions can happen at once",
}
FIRST_NOTE = (
    "The contest's dice come first on the Action Roll page; if he acts first, "
    "resolve his Action on the table before this attack."
)


def chart_policy(rules: RuleSet) -> str:
    """The Action Roll chart's legend and the Benny the odds assume (4.2), in the battle's
    edition: 2005 has no Over the Top."""
    if not rules.has_over_the_top:
        return (
            f"Chart: green hits, red is a critical failure. {rules.name} has no Over the "
            "Top: no Benny to spend (4.2)."
        )
    from brikdesk.domain.odds import BENNY_POLICY

    return (
        f"Chart: green hits, red is a critical failure, a gold edge goes "
        f"{rules.over_the_top}. The odds spend a Benny so: {BENNY_POLICY}"
    )


def together_destroy(target: str, chance: str) -> str:
    """The chance a Combined Attack destroys its target, in words (5.1)."""
    return f"Together they destroy {target} with a chance of {chance} (5.1 Combined Attacks)"


def parry_cancels(kind: str) -> str:
    """What a successful Parry of a Grab or Shove does (5.2)."""
    return f"A successful Parry cancels the {kind} (5.2)"


def bail_dice(rules: RuleSet, action_die: int) -> str:
    """The Bail's dice in the battle's edition (4.3): 2005 "within 1d6\"" for every unit,
    2010/2020 the unit's Action die (an Action Roll's worth of inches)."""
    return f"1d{rules.distance_die or action_die}"


def bail_label(rules: RuleSet, action_die: int) -> str:
    """The Bail entry of the reaction list (4.3)."""
    return f'Bail: dive {bail_dice(rules, action_die)}", then Disrupted'


def bail_note(name: str, action_die: int, rules: RuleSet) -> str:
    """How a Bail goes in the battle's edition (4.3)."""
    dice = bail_dice(rules, action_die)
    if not rules.bail_is_action_roll:
        how = (
            f'he dives {dice}" ({rules.name}: 1d6 for every unit, a Hero too; bonus dice '
            "on a 6; no Benny), ends prone and Disrupted"
        )
    else:
        how = (
            f"he dives an {rules.action_roll}'s worth of inches, {dice}\" (no bonus d6), "
            "ends prone and Disrupted"
        )
        if rules.has_over_the_top:
            how += f" unless he goes {rules.over_the_top} (a Benny lands him on his feet)"
    return f"{name} Bails first: {how}; a natural 1 falls where he stands (4.3)"


def missed_shot_lands(radius: str, target: str, blast: bool) -> str:
    """Where a Missed Shot lands, and what the organizer says next (5.3)."""
    return (
        f"Missed Shot: it lands within {radius} of {target}, at a spot the target's owner "
        "picks (5.3)"
        + ("; tick what the blast catches there" if blast else ". What does it hit there?")
    )


def weapon_knockback(target: str, inches: str) -> str:
    """A Heavy or Two-Handed weapon's KnockBack (3.1)."""
    return f"{target} is Knocked Back {inches} by the weapon (3.1)"


@functools.lru_cache(maxsize=256)
def readings_for(*sections: str) -> tuple[tuple[str, str], ...]:
    """Every reading BrikDesk chose for these rule ``sections`` ("5.1 Out of Range"), from the
    attack and action rules and the wizard's own, as ``(section, text)``: what the wizard shows
    where the rule applies (a reading is shown where it applies, naming its section). The readings are fixed
    texts, so each set of sections is looked up once."""
    from brikdesk.domain import actions, attack, rulesets
    from brikdesk.domain.battle import first, warnings

    out = []
    for section in dict.fromkeys(sections):
        for table in (
            attack.READINGS,
            actions.READINGS,
            rulesets.READINGS,
            first.READINGS,
            warnings.READINGS,
            READINGS,
        ):
            text = table.get(section)
            if text and (section, text) not in out:
                out.append((section, text))
    return tuple(out)
