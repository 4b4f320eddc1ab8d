"""Deflection (3.3 Deflection): one die of each kind removed per level, whatever the spelling."""

from brikdesk.domain.dice import parse


def test_repeated_terms_of_one_die_are_one_kind():
    assert str(parse("1d6+1d6").deflected(1)) == "1d6"
    assert str(parse("1d6 + 2d6 + 1").deflected(2)) == "1d6+1"


def test_action_die_merges_with_the_same_die():
    # A minifig's 2dA + 1d6 is three d6: one Deflection level leaves two.
    assert str(parse("2dA+1d6+1").deflected(1, 6)) == "2d6+1"
    # A Hero's dA is a d10, another kind: each loses one.
    assert str(parse("1dA+1d6").deflected(1, 10)) == "0"
