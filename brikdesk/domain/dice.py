"""Dice expressions: ``NdX``, ``NdA`` (the wielder's Action die), flat ``+K``/``-K``, sums.

1.2 Numbers: dice are written ``NdX`` (N dice with X sides, added) with flat modifiers and
sums (``1d6+1d10+2``); ``dA`` is the wielder's own Action die (a d6 for a minifig, a d10 for a
Hero). Weapons that explode are written with a trailing ``Exp`` (``1d10 Exp``, chapter 3.2).

The parser is a small hand-written scanner; nothing is ever evaluated as code. Errors say what is
wrong and at which column (1-based), for example ``"2d"`` gives "missing number of sides after
'd' at column 3". Limits keep it safe (``brikdesk.limits``): dice of 2 to 100 sides, at most 20
dice in the whole expression and a spread (dice x sides over all terms, ``dA`` counted as the
largest Action die, a d12) of at most 1000, so that the exact odds of any expression the app
accepts anywhere (a catalog entry, an Armor, the command line) finish quickly; a flat part of at
most 1000 either way, at most 20 terms and 200 characters. The flat limit is on each number and on
the flat part as a whole (``|K| <= 1000``), not on a running sum: ``1000+1-1`` is read as 1000,
while ``600+600`` is refused.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from brikdesk.errors import UserError
from brikdesk.limits import MAX_DICE, MAX_DICE_SPREAD

#: Dice in one term: no more than in the whole expression.
MAX_DICE_PER_TERM = MAX_DICE
MIN_SIDES = 2
MAX_SIDES = 100
MAX_FLAT = 1000
MAX_TERMS = 20
MAX_LENGTH = 200

#: Action dice by skill (1.2 Numbers).
ACTION_DICE = {4: "Incompetent", 6: "Capable", 8: "Expert", 10: "Heroic", 12: "Supernatural"}


class DiceSyntaxError(UserError):
    """A dice expression that cannot be read; ``column`` is 1-based."""

    def __init__(self, message: str, column: int, text: str) -> None:
        super().__init__(f"{message} at column {column}", field="dice")
        self.reason = message
        self.column = column
        self.text = text


@dataclass(frozen=True, order=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides; ``sides is None`` means the wielder's Action die."""

    count: int
    sides: int | None

    def __str__(self) -> str:
        return f"{self.count}d{'A' if self.sides is None else self.sides}"


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: dice terms (added) and a flat part."""

    terms: tuple[DiceTerm, ...] = ()
    flat: int = 0
    explosive: bool = False
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        parts = [str(t) for t in self.terms]
        out = "+".join(parts)
        if self.flat or not parts:
            out += f"{self.flat:+d}" if parts else str(self.flat)
        if self.explosive:
            out += " Exp"
        return out

    @property
    def uses_action_die(self) -> bool:
        return any(t.sides is None for t in self.terms)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    def resolve(self, action_sides: int | None) -> DiceExpr:
        """Replace ``dA`` by the wielder's Action die and merge terms of the same die.

        Raises ``UserError`` when the expression uses ``dA`` and no Action die is known.
        """
        counts: Counter[int] = Counter()
        for t in self.terms:
            sides = t.sides
            if sides is None:
                if action_sides is None:
                    raise UserError(
                        f"'{self}' uses dA, the wielder's Action die, but no Action "
                        "die is known here",
                        field="dice",
                    )
                sides = action_sides
            counts[sides] += t.count
        terms = tuple(DiceTerm(counts[s], s) for s in sorted(counts, reverse=True))
        return DiceExpr(terms, self.flat, self.explosive)

    def largest_die(self, action_sides: int | None = None) -> int | None:
        """Sides of the largest die in the expression (``None`` if it has no dice)."""
        resolved = self.resolve(action_sides) if self.uses_action_die else self
        sides = [t.sides for t in resolved.terms if t.sides is not None]
        return max(sides) if sides else None

    def plus_dice(self, count: int, sides: int | None) -> DiceExpr:
        """This expression with ``count`` more dice of ``sides`` (e.g. a Benny or a MOM die)."""
        if count <= 0:
            return self
        return DiceExpr(self.terms + (DiceTerm(count, sides),), self.flat, self.explosive)

    def plus_flat(self, k: int) -> DiceExpr:
        return DiceExpr(self.terms, self.flat + k, self.explosive)

    def deflected(self, levels: int, action_sides: int | None = None) -> DiceExpr:
        """Deflection (3.3 Deflection): each level removes one die of each kind.

        ``2d6+1`` becomes ``1d6+1``; ``1d10 Exp`` becomes only its flat part. ``dA`` is resolved
        first so that a ``1dA+1d6`` weapon of a minifig loses one d6 per level, not two dice.
        """
        if levels <= 0 or not self.terms:
            return self
        resolved = self.resolve(action_sides)  # merges 1d6+1d6 into 2d6 first
        terms = tuple(
            DiceTerm(t.count - levels, t.sides) for t in resolved.terms if t.count > levels
        )
        # With no dice left nothing explodes: "only its flat part" (and str() stays parseable).
        return DiceExpr(terms, resolved.flat, resolved.explosive and bool(terms))


def parse(text: str) -> DiceExpr:
    """Parse a dice expression; raise ``DiceSyntaxError`` saying what is wrong and where."""
    if not isinstance(text, str):
        raise DiceSyntaxError("a dice expression must be text", 1, repr(text))
    if len(text) > MAX_LENGTH:
        raise DiceSyntaxError(
            f"expression longer than {MAX_LENGTH} characters", MAX_LENGTH + 1, text
        )
    return _Parser(text).parse()


def try_parse(text: str) -> tuple[DiceExpr | None, str | None]:
    """``(expr, None)`` or ``(None, message)``: for fields that validate as the user types."""
    try:
        return parse(text), None
    except DiceSyntaxError as exc:
        return None, str(exc)


@dataclass(frozen=True)
class _Token:
    kind: str  # "num", "d", "A", "+", "-", "exp", "end"
    text: str
    column: int


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._scan(text)
        self.pos = 0

    def _error(self, message: str, column: int) -> DiceSyntaxError:
        return DiceSyntaxError(message, column, self.text)

    def _scan(self, text: str) -> list[_Token]:
        tokens: list[_Token] = []
        i = 0
        n = len(text)
        while i < n:
            c = text[i]
            col = i + 1
            if c.isspace():
                i += 1
            elif c.isascii() and c.isdigit():
                j = i
                while j < n and text[j].isascii() and text[j].isdigit():
                    j += 1
                if j - i > 6:
                    raise self._error("number too long", col)
                tokens.append(_Token("num", text[i:j], col))
                i = j
            elif c in "+-":
                tokens.append(_Token(c, c, col))
                i += 1
            elif text[i : i + 3].lower() == "exp" and not text[i + 3 : i + 4].isalpha():
                tokens.append(_Token("exp", text[i : i + 3], col))
                i += 3
            elif c in "dD":
                tokens.append(_Token("d", c, col))
                i += 1
            elif c in "aA":
                tokens.append(_Token("A", c, col))
                i += 1
            else:
                if c.isprintable():
                    raise self._error(f"unexpected '{c}'", col)
                raise self._error(f"unexpected character U+{ord(c):04X}", col)
        tokens.append(_Token("end", "", n + 1))
        return tokens

    def _peek(self) -> _Token:
        return self.tokens[self.pos]

    def _next(self) -> _Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def parse(self) -> DiceExpr:
        if self._peek().kind == "end":
            raise self._error("empty dice expression", 1)
        terms: list[DiceTerm] = []
        flat = 0
        explosive = False
        sign_tok: _Token | None = None
        flat_parts: list[tuple[_Token, int]] = []  # (where the flat term starts, its value)
        first = True
        while True:
            tok = lead = self._peek()
            if tok.kind == "exp":
                raise self._error("'Exp' must come after the dice", tok.column)
            sign = 1
            if tok.kind in "+-":
                sign_tok = self._next()
                sign = -1 if tok.kind == "-" else 1
                if self._peek().kind in ("+", "-"):
                    raise self._error(
                        f"two signs in a row ('{tok.text}{self._peek().text}')", self._peek().column
                    )
            elif not first:
                raise self._error(f"expected '+' or '-' before '{tok.text}'", tok.column)
            term_start = self._peek()
            value = self._term()
            if isinstance(value, DiceTerm):
                if sign < 0:
                    assert sign_tok is not None
                    raise self._error("dice can only be added, not subtracted", sign_tok.column)
                terms.append(value)
                if len(terms) > MAX_TERMS:
                    raise self._error(f"more than {MAX_TERMS} dice terms", term_start.column)
                dice = sum(t.count for t in terms)
                if dice > MAX_DICE:
                    raise self._error(
                        f"more than {MAX_DICE} dice in one expression ({dice})", term_start.column
                    )
                spread = sum(t.count * (t.sides or max(ACTION_DICE)) for t in terms)
                if spread > MAX_DICE_SPREAD:
                    raise self._error(
                        f"too many sides: dice x sides come to {spread}, at most "
                        f"{MAX_DICE_SPREAD} (such as 10d100 or 20d50)",
                        term_start.column,
                    )
            else:
                if value > MAX_FLAT:
                    raise self._error(
                        f"flat modifier beyond {MAX_FLAT} either way", term_start.column
                    )
                flat += sign * value
                flat_parts.append((lead, sign * value))
            first = False
            tok = self._peek()
            if tok.kind == "exp":
                self._next()
                explosive = True
                if not terms:
                    raise self._error("'Exp' needs dice before it", tok.column)
                tok = self._peek()
                if tok.kind != "end":
                    raise self._error(f"nothing may follow 'Exp', found '{tok.text}'", tok.column)
            if tok.kind == "end":
                break
        if abs(flat) > MAX_FLAT:
            # The limit is on the flat part as a whole (|K| <= 1000), not on a running sum:
            # 1000+1-1 is 1000 and is accepted; 600+600 is refused where the flat part starts.
            parts = "".join(f"{v:+d}" for _tok, v in flat_parts).removeprefix("+")
            raise self._error(
                f"the flat part {parts} = {flat} is beyond {MAX_FLAT} either way",
                flat_parts[0][0].column,
            )
        return DiceExpr(tuple(terms), flat, explosive, self.text)

    def _term(self) -> DiceTerm | int:
        tok = self._peek()
        if tok.kind == "end":
            prev = self.tokens[self.pos - 1] if self.pos else tok
            raise self._error(f"missing number or dice after '{prev.text}'", tok.column)
        count: int | None = None
        if tok.kind == "num":
            self._next()
            count = int(tok.text)
            if self._peek().kind != "d":
                if self._peek().kind == "A":
                    raise self._error("missing 'd' before 'A'", self._peek().column)
                return count
        d_tok = self._peek()
        if d_tok.kind != "d":
            raise self._error(f"expected a number or dice, found '{d_tok.text}'", d_tok.column)
        self._next()
        if count is None:
            count = 1
        if count < 1:
            raise self._error("number of dice must be at least 1", tok.column)
        if count > MAX_DICE_PER_TERM:
            raise self._error(f"more than {MAX_DICE} dice in one expression ({count})", tok.column)
        side_tok = self._peek()
        if side_tok.kind == "A":
            self._next()
            return DiceTerm(count, None)
        if side_tok.kind != "num":
            raise self._error("missing number of sides after 'd'", side_tok.column)
        self._next()
        sides = int(side_tok.text)
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise self._error(
                f"a die must have {MIN_SIDES} to {MAX_SIDES} sides, not {sides}", side_tok.column
            )
        if self._peek().kind in ("d", "A", "num"):
            extra = self._peek()
            raise self._error(f"unexpected '{extra.text}' after 'd{sides}'", extra.column)
        return DiceTerm(count, sides)
