"""Dice expressions: what the parser accepts, what it refuses (and where), and what the
expression operations (resolve dA, Deflection, extra dice) give."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from brikdesk.domain.dice import (
    MAX_FLAT,
    MAX_SIDES,
    MIN_SIDES,
    DiceExpr,
    DiceSyntaxError,
    DiceTerm,
    parse,
    try_parse,
)
from brikdesk.errors import UserError
from brikdesk.limits import MAX_DICE, MAX_DICE_SPREAD

D6, D10, DA = 6, 10, None


def expr(*terms: tuple[int, int | None], flat: int = 0, explosive: bool = False) -> DiceExpr:
    return DiceExpr(tuple(DiceTerm(n, s) for n, s in terms), flat, explosive)


# -- the forms the issue names ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d6+1", expr((1, D6), flat=1)),
        ("2dA", expr((2, DA))),
        ("1d10", expr((1, D10))),
        ("1dA-2", expr((1, DA), flat=-2)),
        ("1d6 + 1d10 + 2", expr((1, D6), (1, D10), flat=2)),
        ("1d10 Exp", expr((1, D10), explosive=True)),
    ],
)
def test_parses_the_rule_book_forms(text: str, expected: DiceExpr) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1D6+1", expr((1, D6), flat=1)),
        ("2da", expr((2, DA))),
        ("2DA", expr((2, DA))),
        ("1d10 exp", expr((1, D10), explosive=True)),
        ("1D10 EXP", expr((1, D10), explosive=True)),
        ("1d10exp", expr((1, D10), explosive=True)),
    ],
)
def test_any_case(text: str, expected: DiceExpr) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  1d6+1  ", expr((1, D6), flat=1)),
        ("1d6   +\t1", expr((1, D6), flat=1)),
        ("\t2dA\n", expr((2, DA))),
        ("1d6+1d10+2", expr((1, D6), (1, D10), flat=2)),
        ("1 d 6", expr((1, D6))),
    ],
)
def test_whitespace_is_ignored(text: str, expected: DiceExpr) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d6", expr((1, D6))),  # a missing count means one die
        ("dA+2", expr((1, DA), flat=2)),
        ("3", expr(flat=3)),
        ("-2", expr(flat=-2)),
        ("+4", expr(flat=4)),
        ("1d6+1-3", expr((1, D6), flat=-2)),  # flat parts add up
        ("1d6+1d6", expr((1, D6), (1, D6))),  # terms stay as typed; resolve() merges them
    ],
)
def test_other_accepted_forms(text: str, expected: DiceExpr) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("1d6+1", "1d6+1"),
        ("2dA", "2dA"),
        ("1dA-2", "1dA-2"),
        ("1d6 + 1d10 + 2", "1d6+1d10+2"),
        ("1D10  exp", "1d10 Exp"),
        ("d6", "1d6"),
        ("-2", "-2"),
        ("0", "0"),
    ],
)
def test_str_is_the_canonical_spelling(text: str, shown: str) -> None:
    assert str(parse(text)) == shown


def test_the_typed_text_is_kept_but_not_compared() -> None:
    typed = parse(" 1D6 + 1 ")
    assert typed.text == " 1D6 + 1 "
    assert typed == parse("1d6+1")


# -- errors: what is wrong and at which column --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("2d", "missing number of sides after 'd' at column 3", 3),
        ("d", "missing number of sides after 'd' at column 2", 2),
        ("", "empty dice expression at column 1", 1),
        ("   ", "empty dice expression at column 1", 1),
        ("2d6+", "missing number or dice after '+' at column 5", 5),
        ("1d6 + ", "missing number or dice after '+' at column 7", 7),
        ("2x6", "unexpected 'x' at column 2", 2),
        ("2d6-1d4", "dice can only be added, not subtracted at column 4", 4),
        ("-1d6", "dice can only be added, not subtracted at column 1", 1),
        ("2d6++1", "two signs in a row ('++') at column 5", 5),
        ("2d6+-1", "two signs in a row ('+-') at column 5", 5),
        ("0d6", "number of dice must be at least 1 at column 1", 1),
        ("2A", "missing 'd' before 'A' at column 2", 2),
        ("2d6 3", "unexpected '3' after 'd6' at column 5", 5),
        ("1d6 1d6", "unexpected '1' after 'd6' at column 5", 5),
        ("2d6d6", "unexpected 'd' after 'd6' at column 4", 4),
        ("Exp", "'Exp' must come after the dice at column 1", 1),
        ("2 Exp", "'Exp' needs dice before it at column 3", 3),
        ("1d10 Exp +1", "nothing may follow 'Exp', found '+' at column 10", 10),
        ("1d6 ex", "unexpected 'e' at column 5", 5),
        ("1234567", "number too long at column 1", 1),
        ("1d6+1\u00bd", "unexpected '\u00bd' at column 6", 6),
    ],
)
def test_errors_say_what_and_where(text: str, message: str, column: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert str(caught.value) == message
    assert caught.value.column == column
    assert caught.value.text == text
    assert caught.value.field == "dice"


def test_a_syntax_error_is_a_user_error() -> None:
    # The interface shows UserErrors where the user typed ("Two kinds of errors" in
    # docs/conventions.md).
    with pytest.raises(UserError, match="column 3"):
        parse("2d")


def test_try_parse_gives_the_message_for_as_you_type_checks() -> None:
    assert try_parse("2d") == (None, "missing number of sides after 'd' at column 3")
    assert try_parse("2d6") == (expr((2, D6)), None)


# -- limits -----------------------------------------------------------------------------------


def test_at_most_20_dice_in_the_whole_expression() -> None:
    assert parse(f"{MAX_DICE}d6") == expr((20, D6))
    assert parse("10d6+10d8").dice_count == 20
    with pytest.raises(DiceSyntaxError) as caught:
        parse("21d6")
    assert str(caught.value) == "more than 20 dice in one expression (21) at column 1"
    with pytest.raises(DiceSyntaxError) as caught:
        parse("10d6 + 11d8")
    assert str(caught.value) == "more than 20 dice in one expression (21) at column 8"


@pytest.mark.parametrize(
    "text, spread",
    [
        ("11d100", 1100),
        ("100d100", None),
        ("10d100+1d20", 1020),
        ("20d60", 1200),
        ("9d100+10dA", 1020),
    ],
)
def test_the_spread_of_dice_times_sides_is_bounded(text: str, spread: int | None) -> None:
    """Bound the work of the odds, not only the number of dice: 10d100 is the most."""
    assert parse("10d100").dice_count == 10
    assert parse("20d50").dice_count == 20
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    if spread is not None:
        assert f"dice x sides come to {spread}, at most {MAX_DICE_SPREAD}" in str(caught.value)


def test_a_control_character_is_named_not_echoed() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("1d6\x1b[2J")
    assert str(caught.value) == "unexpected character U+001B at column 4"


@pytest.mark.parametrize("sides", [MIN_SIDES, 4, 12, 20, MAX_SIDES])
def test_dice_of_2_to_100_sides(sides: int) -> None:
    assert parse(f"1d{sides}") == expr((1, sides))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d1", "a die must have 2 to 100 sides, not 1 at column 3"),
        ("2d0", "a die must have 2 to 100 sides, not 0 at column 3"),
        ("1d101", "a die must have 2 to 100 sides, not 101 at column 3"),
        ("1d6+1d1000", "a die must have 2 to 100 sides, not 1000 at column 7"),
    ],
)
def test_dice_sides_out_of_range(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "flat"),
    [
        (f"{MAX_FLAT}", 1000),
        (f"-{MAX_FLAT}", -1000),
        ("1d6+1000", 1000),
        ("2dA-1000", -1000),
        # The limit is on the flat part as a whole, not on a running sum.
        ("1000+1-1", 1000),
        ("-1000-1+1", -1000),
        ("1d6+1000+1000-1000", 1000),
    ],
)
def test_flat_part_up_to_1000_either_way(text: str, flat: int) -> None:
    assert parse(text).flat == flat


@pytest.mark.parametrize(
    ("text", "column"), [("1001", 1), ("-1001", 2), ("1d6+1001", 5), ("1000+1001-1000", 6)]
)
def test_a_flat_number_beyond_1000_is_refused_where_it_stands(text: str, column: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.reason == "flat modifier beyond 1000 either way"
    assert caught.value.column == column


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("600+600", "the flat part 600+600 = 1200 is beyond 1000 either way at column 1"),
        ("1d6+600+1d4+401", "the flat part 600+401 = 1001 is beyond 1000 either way at column 4"),
        ("2d6 -1000 -1", "the flat part -1000-1 = -1001 is beyond 1000 either way at column 5"),
    ],
)
def test_a_flat_part_adding_up_beyond_1000_is_refused_where_it_starts(
    text: str, message: str
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert str(caught.value) == message


def test_at_most_20_terms_and_200_characters() -> None:
    assert len(parse("+".join(["1d6"] * 20)).terms) == 20
    with pytest.raises(DiceSyntaxError, match="more than 20 dice terms at column 81"):
        parse("+".join(["1d6"] * 21))
    with pytest.raises(DiceSyntaxError, match="longer than 200 characters at column 201"):
        parse("1d6" + " " * 198)


def test_text_only() -> None:
    with pytest.raises(DiceSyntaxError, match="must be text"):
        parse(6)  # type: ignore[arg-type]


# -- round trip (hypothesis) ------------------------------------------------------------------


def _case(rng: st.DataObject, text: str) -> str:
    return "".join(c.upper() if rng.draw(st.booleans()) else c.lower() for c in text)


_space = st.sampled_from(["", "", " ", "  ", "\t"])
_dice = st.tuples(st.integers(1, 4), st.one_of(st.none(), st.integers(MIN_SIDES, MAX_SIDES)))
# Flat parts whose running sum stays within the limit (at most 3 parts of at most 300).
_flat = st.integers(-300, 300)
_items = st.lists(
    st.one_of(_dice.map(lambda d: ("dice", d)), _flat.map(lambda k: ("flat", k))),
    min_size=1,
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(items=_items, explosive=st.booleans(), data=st.data())
def test_generated_expressions_parse_to_what_was_written(items, explosive, data) -> None:
    flats = [k for kind, k in items if kind == "flat"][:3]
    items = [it for it in items if it[0] == "dice"] + [("flat", k) for k in flats]
    items = data.draw(st.permutations(items))
    parts = []
    for i, (kind, value) in enumerate(items):
        if kind == "dice":
            count, sides = value
            count_text = "" if count == 1 and data.draw(st.booleans()) else str(count)
            term = _case(data, f"{count_text}d{'A' if sides is None else sides}")
            parts.append(("+" if i else "") + term)
        else:
            parts.append(f"{value:+d}" if i or value < 0 else str(value))
    text = "".join(data.draw(_space) + p for p in parts)
    dice = [v for kind, v in items if kind == "dice"]
    assume(
        sum(c for c, _s in dice) <= MAX_DICE
        and sum(c * (s or 12) for c, s in dice) <= MAX_DICE_SPREAD
    )
    exploding = explosive and bool(dice)
    if exploding:
        text += data.draw(_space.filter(bool)) + _case(data, "exp")
    parsed = parse(text)
    assert parsed == expr(*dice, flat=sum(flats), explosive=exploding)
    assert parse(str(parsed)) == parsed


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789dDaAeExXpP+- \t", max_size=24))
def test_any_text_parses_and_round_trips_or_fails_at_a_column(text: str) -> None:
    try:
        parsed = parse(text)
    except DiceSyntaxError as exc:
        assert 1 <= exc.column <= len(text) + 1
        assert str(exc).endswith(f"at column {exc.column}")
    else:
        assert parse(str(parsed)) == parsed


# -- resolve dA -------------------------------------------------------------------------------


def test_resolve_turns_dA_into_the_wielders_action_die() -> None:
    assert parse("2dA+1").resolve(6) == parse("2d6+1")  # a minifig
    assert parse("2dA+1").resolve(10) == parse("2d10+1")  # a Hero


def test_resolve_merges_dice_of_one_size_largest_first() -> None:
    assert parse("1dA+1d6").resolve(6) == expr((2, D6))
    assert parse("1d6+1d10+1d6+2").resolve(None) == expr((1, D10), (2, D6), flat=2)


def test_resolve_keeps_explosive() -> None:
    assert parse("1dA Exp").resolve(8) == expr((1, 8), explosive=True)


def test_resolve_without_an_action_die_is_refused() -> None:
    with pytest.raises(UserError, match="uses dA, the wielder's Action die"):
        parse("1dA-2").resolve(None)


def test_largest_die() -> None:
    assert parse("1d6+1d10").largest_die() == 10
    assert parse("1dA+1d6").largest_die(8) == 8
    assert parse("5").largest_die() is None


# -- Deflection (3.3 Deflection) --------------------------------------------------------------


def test_deflection_removes_one_die_of_each_kind() -> None:
    assert parse("2d6+1").deflected(1) == parse("1d6+1")
    assert parse("2d6+1d10+3").deflected(1) == parse("1d6+3")


def test_deflection_of_an_explosive_leaves_only_the_flat_part() -> None:
    deflected = parse("1d10 Exp").deflected(1)
    assert deflected == expr(flat=0)
    assert not deflected.explosive
    assert str(deflected) == "0"
    assert parse("1d10+2 Exp").deflected(1) == expr(flat=2)


def test_deflection_keeps_explosive_while_dice_remain() -> None:
    assert parse("2d10 Exp").deflected(1) == expr((1, D10), explosive=True)


def test_each_level_removes_one_more_die() -> None:
    assert parse("3d6+1").deflected(2) == parse("1d6+1")
    assert parse("3d6+1").deflected(3) == parse("1")
    assert parse("3d6+1").deflected(0) == parse("3d6+1")


def test_deflection_resolves_dA_first() -> None:
    # a minifig's 1dA+1d6 is 2d6 and loses one d6; a Hero's is 1d10+1d6 and loses both
    assert parse("1dA+1d6").deflected(1, 6) == parse("1d6")
    assert parse("1dA+1d6").deflected(1, 10) == parse("0")


# -- extra dice (Benny, MOM) ------------------------------------------------------------------


def test_plus_dice_adds_a_term() -> None:
    assert str(parse("1d6+1").plus_dice(1, 6)) == "1d6+1d6+1"
    assert str(parse("1d10 Exp").plus_dice(1, 10)) == "1d10+1d10 Exp"
    assert parse("1d6").plus_dice(0, 6) == parse("1d6")
    assert parse("1d6").plus_dice(1, None).uses_action_die


def test_plus_flat() -> None:
    assert parse("1d6+1").plus_flat(-3) == parse("1d6-2")
