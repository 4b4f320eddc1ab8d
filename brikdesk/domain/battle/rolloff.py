"""A roll-off for the players' turn order, with every die kept so the interface can show it.

The rules leave the turn order to the players. ``READING`` is BrikDesk's default: every player
rolls 1d6, the highest goes first, then the next highest, and so on; players who tie roll again
among themselves (as often as needed) to settle their places. A die is rolled through a
``DiceSource``: random with a seed, or faces typed in from the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from brikdesk.domain.ids import PlayerId
from brikdesk.domain.rolling import DiceSource
from brikdesk.errors import UserError

READING = (
    "Turn order (not set by the rules): every player rolls 1d6; the highest goes first, "
    "the next highest second, and so on; players who tie roll again among themselves "
    "to settle their places."
)

#: Most tie-break rounds before giving up (only a rigged dice source gets near it).
MAX_ROUNDS = 50


@dataclass(frozen=True)
class RollOffDie:
    """One die of the roll-off: who rolled it, in which round (1, then 2 for a tie-break...)."""

    player_id: PlayerId
    name: str
    round: int
    face: int


@dataclass(frozen=True)
class RollOff:
    """The turn order a roll-off gave and every die rolled.

    ``throws`` are the rolls in the order they were made: the first has every player's die,
    each later one the dice of players who tied and rolled again among themselves.
    """

    order: tuple[PlayerId, ...]
    throws: tuple[tuple[RollOffDie, ...], ...]
    names: tuple[tuple[PlayerId, str], ...] = ()
    sides: int = 6

    @property
    def dice(self) -> tuple[RollOffDie, ...]:
        return tuple(d for throw in self.throws for d in throw)

    @property
    def rounds(self) -> int:
        return max((d.round for d in self.dice), default=0)

    def lines(self) -> tuple[str, ...]:
        """``("Roll: Red 5, Blue 5, Green 2", "Tie-break: Red 3, Blue 6", "Order: ...")``."""
        out = []
        for throw in self.throws:
            label = "Roll" if throw[0].round == 1 else "Tie-break"
            out.append(f"{label}: " + ", ".join(f"{d.name} {d.face}" for d in throw))
        names = dict(self.names)
        out.append("Order: " + ", ".join(names.get(p, str(p)) for p in self.order))
        return tuple(out)

    @property
    def text(self) -> str:
        return "; ".join(self.lines())


def roll_off(
    players: Sequence[tuple[PlayerId, str]], dice: DiceSource, *, sides: int = 6
) -> RollOff:
    """Roll for the turn order of ``players`` (``(player_id, name)`` pairs); see ``READING``.

    Raises ``UserError`` if a player is listed twice, or if ties are still unbroken after
    ``MAX_ROUNDS`` rounds (a dice source that always shows the same face).
    """
    ids = [p for p, _ in players]
    if len(set(ids)) != len(ids):
        raise UserError("A player is listed twice for the roll-off.")
    names = dict(players)
    throws: list[tuple[RollOffDie, ...]] = []
    order: list[PlayerId] = []

    def settle(group: list[PlayerId], rnd: int) -> None:
        if len(group) == 1:
            order.append(group[0])
            return
        if rnd > MAX_ROUNDS:
            raise UserError(
                f"The roll-off is still tied after {MAX_ROUNDS} rounds; set the order by hand."
            )
        faces: dict[PlayerId, int] = {}
        throw = []
        for pid in group:
            what = f"{names[pid]}'s roll-off" + (" (tie-break)" if rnd > 1 else "")
            face = dice.roll(sides, what)
            faces[pid] = face
            throw.append(RollOffDie(pid, names[pid], rnd, face))
        throws.append(tuple(throw))
        for face in sorted(set(faces.values()), reverse=True):
            settle([pid for pid in group if faces[pid] == face], rnd + 1)

    if ids:
        settle(list(ids), 1)
    return RollOff(tuple(order), tuple(throws), tuple((p, n) for p, n in players), sides)
