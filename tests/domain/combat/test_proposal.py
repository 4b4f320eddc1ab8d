"""A player's proposed attack (``brikdesk.domain.combat.proposal``): the draft made of their
choices is the quick form's draft of the same choices, the dice go to the stage that waits for
them, and the rules refuse what the tracker would."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from brikdesk.domain.battle import ActionSpent, ActionUse
from brikdesk.domain.combat import (
    AttackChoice,
    AttackKind,
    aimed_at,
    attack_lines,
    default_draft,
    proposal_refusal,
    proposal_text,
    proposed_draft,
    resolve_action,
    result_summary,
    weapon_choices,
    with_faces,
    with_weapon,
)
from brikdesk.domain.combat.proposal import parse_faces
from brikdesk.domain.odds import percent
from brikdesk.errors import UserError
from tests.domain.sherwood import ALAN, GUY, HOOD, TUCK, WILL, make_ctx


def test_the_draft_is_the_quick_forms_draft_of_the_same_keys() -> None:
    """The quick form: opened on the attacker, the target typed, the range, the dice."""
    ctx = make_ctx()
    quick = aimed_at(default_draft(ctx, WILL), ctx, ALAN)
    quick = replace(quick, action_faces=(5,), damage_faces=(4,))
    proposed = proposed_draft(ctx, AttackChoice(WILL, "hand-weapon", ALAN, None, (5, 4)))
    assert proposed == quick
    assert result_summary(proposed, ctx).paragraph == result_summary(quick, ctx).paragraph


def test_a_ranged_attack_keeps_its_range_and_a_strike_does_not() -> None:
    ctx = make_ctx()
    shot = proposed_draft(ctx, AttackChoice(HOOD, "longbow", GUY, Fraction(15, 2), ()))
    assert (shot.kind, shot.distance) == (AttackKind.RANGED, Fraction(15, 2))
    strike = proposed_draft(ctx, AttackChoice(WILL, "hand-weapon", GUY, Fraction(3), ()))
    assert (strike.kind, strike.distance) == (AttackKind.STRIKE, None)


def test_the_dice_go_to_the_action_roll_then_to_the_damage() -> None:
    ctx = make_ctx()
    d = with_faces(aimed_at(default_draft(ctx, WILL), ctx, GUY), ctx, (5, 4, 3, 2))
    assert (d.action_faces, d.damage_faces) == ((5,), (4,))  # the rest is not needed
    half = with_faces(d, ctx, (5,))
    assert (half.action_faces, half.damage_faces) == ((5,), ())
    assert resolve_action(with_faces(d, ctx, ()), ctx).need is not None


def test_a_weapon_or_target_the_rules_do_not_offer_is_refused_at_its_field() -> None:
    ctx = make_ctx()
    with pytest.raises(UserError, match="Not that weapon: it does not carry that") as err:
        proposed_draft(ctx, AttackChoice(WILL, "longbow", GUY, None, ()))
    assert err.value.field == "weapon"
    with pytest.raises(UserError, match="Not that target") as err:
        proposed_draft(ctx, AttackChoice(WILL, "hand-weapon", 99, None, ()))  # type: ignore[arg-type]
    assert err.value.field == "target"


def test_a_weapon_is_judged_as_the_attack_it_would_make() -> None:
    """As Alt+W in the quick form: the next weapon keeps the kind of attack when it allows it
    (Friar Tuck's hand weapon is thrown as his explosive was), else takes the first it allows
    (Thieven Hood's bare hands Shove); each weapon is offered judged as that attack."""
    ctx = make_ctx()
    d = default_draft(ctx, TUCK)
    assert d.kind is AttackKind.THROWN
    why = {key: problem for key, _label, problem in weapon_choices(ctx, d)}
    assert why["hand-weapon"] is None
    assert with_weapon(d, ctx, "hand-weapon").kind is AttackKind.THROWN
    bow = default_draft(ctx, HOOD)
    assert bow.kind is AttackKind.RANGED
    assert with_weapon(bow, ctx, None).kind is AttackKind.SHOVE


def test_the_odds_line_is_the_quick_forms() -> None:
    ctx = make_ctx()
    d = aimed_at(default_draft(ctx, WILL), ctx, GUY)
    lines = attack_lines(d, ctx)
    assert lines.odds.startswith("Needs ") and " · hit " in lines.odds
    assert " · destroy " in lines.odds


def test_the_rules_refuse_an_attack_whose_action_is_spent() -> None:
    ctx = make_ctx([ActionSpent(WILL, ActionUse.OTHER)])
    d = proposed_draft(ctx, AttackChoice(WILL, "hand-weapon", GUY, None, (5, 4)))
    why = result_summary(d, ctx).problem or proposal_refusal(ctx, result_summary(d, ctx).events)
    assert why is not None and "spent" in why
    fresh = make_ctx()
    ok = proposed_draft(fresh, AttackChoice(WILL, "hand-weapon", GUY, None, (5, 4)))
    assert proposal_refusal(fresh, result_summary(ok, fresh).events) is None


def test_the_proposal_says_who_does_what_with_which_dice() -> None:
    ctx = make_ctx()
    d = proposed_draft(ctx, AttackChoice(WILL, "hand-weapon", GUY, None, (5, 4)))
    assert proposal_text("Anna", d, ctx) == (
        "Anna: Will Scarlet strikes Guy of Gisbourne (Hand Weapon), dice 5 4"
    )


@pytest.mark.parametrize(
    ("typed", "faces"), [("5 4", (5, 4)), ("5,4", (5, 4)), ("", ()), (" 6 ", (6,))]
)
def test_dice_typed_as_a_player_types_them(typed: str, faces: tuple[int, ...]) -> None:
    assert parse_faces(typed) == faces


@pytest.mark.parametrize("typed", ["5 x", "0", "5.5", "1 " * 13])
def test_dice_that_are_not_faces_are_refused(typed: str) -> None:
    with pytest.raises(UserError) as err:
        parse_faces(typed)
    assert err.value.field == "dice"


def test_percent_reads_as_the_forms_do() -> None:
    assert [percent(x) for x in (None, 0, 1, Fraction(5, 12), 0.0001, 0.9999)] == [
        "-",
        "0%",
        "100%",
        "41.7%",
        "<0.1%",
        ">99.9%",
    ]
