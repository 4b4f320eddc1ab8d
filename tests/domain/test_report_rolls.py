"""The battle report prints each roll with its own dice.

Attacks recorded the way the combat wizard's Finish records them (typed dice), then told by
the report: the Parry's die under the Parry, the Bail's under the Bail, each attacker of a
Combined Attack with its own Action Roll, totals that add up."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from brikdesk.domain.battle import Use
from brikdesk.domain.combat import AttackDraft, AttackKind, Joiner, Reaction
from brikdesk.domain.report import (
    BattleFacts,
    LoggedEvent,
    ReportPlayer,
    ReportUnit,
    build_battle_report,
    report_markdown,
)
from brikdesk.domain.rolling import BennyUse
from tests.domain.sherwood import (
    ALAN,
    GUY,
    HOOD,
    MUCH,
    UNITS,
    WILL,
    make_ctx,
    record,
)


def _report(draft: AttackDraft, edition: str = ""):
    summary, _state = record(make_ctx(), draft)
    events = [
        LoggedEvent(i, e.kind, e.actor, e.target, e.to_payload())
        for i, e in enumerate(summary.events, 1)
    ]
    players = [ReportPlayer(1, "Merry Men"), ReportPlayer(2, "Nottingham")]
    units = [ReportUnit(uid, p, n) for uid, (n, p, _t, _h) in UNITS.items()]
    return build_battle_report(BattleFacts("Sherwood", edition=edition), players, units, events)


def test_the_parry_die_is_printed_under_the_parry_not_in_the_attackers_roll():
    """The issue's "Brute 2 ... d6 5 + d6 3": the 3 was the Parry's die."""
    report = _report(
        AttackDraft(
            WILL,
            "hand-weapon",
            AttackKind.STRIKE,
            GUY,
            reaction=Reaction.PARRY,
            parry_item="shield",
            action_faces=(5, 3),
        )
    )
    attack, parry = report.entries  # the Parry follows the Strike it answers (5.2 Parrying)
    assert parry.rolls == ("Parry roll (Guy of Gisbourne): d6 3 = 3 against Use 2: success",)
    assert attack.rolls[0] == "Action Roll (Will Scarlet): d6 5 = 5 against Use 2: hit"
    md = report_markdown(report)
    assert "   - Parry roll (Guy of Gisbourne): d6 3 = 3 against Use 2: success" in md
    assert md.index("Action Roll (Will Scarlet)") < md.index("Parry roll")
    # READINGS "parry_order": "a Strike Parried or Bailed out of counts as no hit".
    assert report.tally.attacks == 1 and report.tally.hits == 0


def test_the_bail_die_is_printed_under_the_bail():
    """The issue's "Archer 1 ... d6 1 + d6 2, -1 = 2": the 1 was the Bail's die."""
    draft = AttackDraft(
        ALAN,
        "short-ranged-weapon",
        AttackKind.RANGED,
        HOOD,
        use=Use.RESPONSE,
        distance=Fraction(4),
        reaction=Reaction.BAIL,
        action_faces=(1, 5),
        damage_faces=(3, 3, 3),
    )
    bail, attack = _report(draft).entries
    assert bail.rolls == ("Bail (Thieven Hood): d10 1 = 1: a natural 1, fails",)
    assert attack.headline.startswith("Guard Alan (Nottingham) in response shoots at")
    assert attack.rolls == (
        "Action Roll (Guard Alan): d6 5 = 5 against Use 3: hit",
        "Damage: d6 3 against Armor 6",
        "Armor roll (Thieven Hood): d6 3 + d6 3 = 6",
    )


def test_each_attacker_of_a_combined_attack_has_its_own_roll():
    """The issue's "Archer 1 and Archer 2 ... d6 5 + d6 2 = 5" printed as one roll."""
    draft = AttackDraft(
        WILL,
        "hand-weapon",
        AttackKind.STRIKE,
        GUY,
        joiners=(Joiner(MUCH, "hand-weapon"),),
        action_faces=(5, 2),
        damage_faces=(2, 3),
    )
    (attack,) = _report(draft).entries
    assert attack.headline.startswith("Will Scarlet (Merry Men) and Much (Merry Men) strike")
    assert attack.rolls == (
        "Action Roll (Will Scarlet): d6 5 = 5 against Use 2: hit",
        "Action Roll (Much): d6 2 = 2 against Use 2: hit",
        "Damage: d6 2 (Will Scarlet) + d6 3 (Much) = 5 against Armor 4",
    )


def test_an_attackers_own_modifiers_are_summed_into_his_own_total_only():
    """Guard Alan shoots 1 inch beyond Range: his -1 is his, and 6 - 1 = 5."""
    draft = AttackDraft(
        ALAN,
        "short-ranged-weapon",
        AttackKind.RANGED,
        WILL,
        distance=Fraction(7),
        action_faces=(6,),
    )
    draft = replace(draft, bennies=((f"attack:{ALAN}", BennyUse.NONE),), damage_faces=(4,))
    report = _report(draft)
    (attack,) = report.entries
    line = attack.rolls[0]
    assert line.startswith("Action Roll (Guard Alan): d6 6, -1 = 5 against Use 3: hit")
    assert any(m.startswith("-1 Action Roll (Guard Alan)") for m in attack.modifiers)


def test_a_2010_report_says_overskill_for_a_natural_six():
    """2010 4.2 names a natural 6 Overskill; the report says so in a 2010 battle."""
    draft = AttackDraft(
        WILL,
        "hand-weapon",
        AttackKind.STRIKE,
        GUY,
        action_faces=(6,),
        bennies=(("attack:4", BennyUse.EMBELLISH),),
        damage_faces=(1,),
    )
    rolls_2010 = "\n".join(_report(draft, "2010").entries[0].rolls)
    assert "(Overskill: a Benny)" in rolls_2010 and "Over the Top" not in rolls_2010
    assert "(Over the Top: a Benny)" in "\n".join(_report(draft, "2020").entries[0].rolls)
