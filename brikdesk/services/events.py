"""The battle event payload: dice with roles, modifiers and an outcome, as checked JSON.

An event's ``payload`` is a JSON object. BrikDesk reads these keys (others are kept as they are,
for the battle tracker's own use):

- ``"dice"``: ``[{"sides": 6, "face": 5, "role": "natural", "why": "Action die for Kate's
  crossbow at Pete"}, ...]``, role one of the ``rolling.Role`` values (natural, bonus, Benny, MOM,
  POP), ``why`` what the die was for (``rolling.die_purpose``); an attack's dice also say whose
  roll they belong to: ``"roll"`` (bail, action, parry, knocked_away, damage, armor, first,
  other) and ``"owner"`` (the battle unit that rolled it, or null), and its modifiers the same;
  its ``outcome.rolls`` gives each roll's total (``combat.events``);
- ``"modifiers"``: ``[{"value": -1, "applies_to": "Action Roll", "reason": "...",
  "rule": "5.1 Out of Range"}, ...]``, ``applies_to`` one of the ``modifiers.Stat`` values;
- ``"outcome"``: an object; ``"killed": true`` (the target died; the actor gets the kill) and
  ``"wounded": true`` feed the campaign record when the battle is finished;
- ``"text"``: the event in plain words, for the log.

``check_payload`` refuses anything that is not plain JSON, is nested deeper than
``MAX_DEPTH`` or larger than ``MAX_PAYLOAD_BYTES``, and dice or modifiers that do not make sense.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeGuard

from brikdesk.domain.aftermath import fates_from_events
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import DieRoll, Role
from brikdesk.errors import UserError
from brikdesk.limits import MAX_PAYLOAD_BYTES, PAYLOAD_TEXT_LEN, shown, text_problem

MAX_DEPTH = 12
MAX_STRING = PAYLOAD_TEXT_LEN
MAX_DIE_SIDES = 100
KIND_RE = re.compile(r"[a-z][a-z0-9_.\-]{0,39}")

#: Event kinds the services and the demo write; the battle tracker may add its own.
ATTACK = "attack"
TURN_ENDED = "turn_ended"
ACTION = "action"
STATUS = "status"


def dice_payload(rolls: Iterable[DieRoll]) -> list[dict[str, Any]]:
    return [{"sides": d.sides, "face": d.face, "role": d.role.value, "why": d.why} for d in rolls]


def modifiers_payload(mods: Iterable[Modifier]) -> list[dict[str, Any]]:
    return [
        {"value": m.value, "applies_to": m.applies_to.value, "reason": m.reason, "rule": m.rule}
        for m in mods
    ]


def dice_from_payload(items: Any) -> tuple[DieRoll, ...]:
    out = []
    for d in items if isinstance(items, Sequence) and not isinstance(items, str) else ():
        try:
            out.append(
                DieRoll(
                    int(d["sides"]),
                    int(d["face"]),
                    Role(d.get("role", "natural")),
                    str(d.get("why", "")),
                )
            )
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)


def modifiers_from_payload(items: Any) -> tuple[Modifier, ...]:
    out = []
    for m in items if isinstance(items, Sequence) and not isinstance(items, str) else ():
        try:
            out.append(
                Modifier(int(m["value"]), Stat(m["applies_to"]), str(m["reason"]), str(m["rule"]))
            )
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)


def check_kind(kind: object, where: str = "kind") -> str:
    if not isinstance(kind, str) or not KIND_RE.fullmatch(kind):
        raise UserError(
            f"{where}: '{kind}' is not an event kind (lower-case letters, digits, "
            "'_', '.', '-'; at most 40 characters)",
            field="kind",
        )
    return kind


class NotFinite(str):
    """``NaN``, ``Infinity`` or ``-Infinity`` read from a JSON file (``parse_constant``): kept
    as a marker so that ``check_json`` refuses it naming its place."""

    __slots__ = ()


_Where = str | tuple[Any, str | int]  # a path, built into text only for a message


def _path_text(where: _Where) -> str:
    parts: list[str] = []
    while isinstance(where, tuple):
        where, key = where
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return where + "".join(reversed(parts))


#: Any character ``text_problem`` may refuse (a control character or a lone surrogate): text
#: without one needs only its length checked (the fast path for millions of strings).
_SUSPECT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_SCALARS = (str, int, bool, type(None))


def _check_value(v: Any, max_string: int | None) -> str | None:
    """A problem with a scalar ``v`` (as "<reason>"), or None; containers pass."""
    t = type(v)
    if t is str:
        if _SUSPECT.search(v) is None and (max_string is None or len(v) <= max_string):
            return None
        return text_problem(v, max_string if max_string is not None else len(v), lines=True)
    if t is int or t is bool or v is None:
        return None
    if isinstance(v, NotFinite):
        return f"{v} is not a number JSON allows"
    if isinstance(v, float):
        return None if math.isfinite(v) else f"{v} is not a finite number"
    if isinstance(v, str):
        return _check_value(str(v), max_string)
    if isinstance(v, int | dict | list | tuple | Mapping):
        return None
    return f"{type(v).__name__} is not a JSON value"


def check_json(
    value: Any, where: str, *, max_depth: int = MAX_DEPTH, max_string: int | None = MAX_STRING
) -> None:
    """Plain JSON only (objects with text keys, arrays, text, finite numbers, booleans, null),
    nested at most ``max_depth`` deep, text without control characters (but tab and line
    breaks) or lone surrogates and at most ``max_string`` characters long (``None``: any).

    Iterative, so hostile nesting cannot overflow the stack. What is stacked is one iterator
    per level of nesting, never the items waiting to be looked at (a list of 800,000 small
    objects once stacked them all, 120 MB), and a path is put into words only for the
    message, so that a file of millions of values is checked in little memory and time.
    ``UserError("<path>: <reason>")`` on the first problem.
    """
    problem = _check_value(value, max_string)
    if problem is not None:
        raise UserError(f"{where}: {problem}")
    first = _members(value)
    if first is None:
        return
    if max_depth <= 0:
        raise UserError(f"{where}: nested more than {max_depth} levels deep")
    stack: list[tuple[Iterator[tuple[Any, Any]], bool, _Where]] = [(*first, where)]
    while stack:
        items, is_map, at = stack[-1]
        for k, item in items:
            if is_map:
                if type(k) is not str:
                    raise UserError(f"{_path_text(at)}: key {k!r} is not text")
                if _SUSPECT.search(k) is not None:
                    raise UserError(
                        f"{_path_text(at)}: the key {shown(k)} {text_problem(k, len(k))}"
                    )
            if type(item) in _SCALARS:
                if type(item) is not str or (
                    _SUSPECT.search(item) is None
                    and (max_string is None or len(item) <= max_string)
                ):
                    continue
            else:
                inner = _members(item)
                if inner is not None:
                    if len(stack) >= max_depth:
                        raise UserError(
                            f"{_path_text((at, k))}: nested more than {max_depth} levels deep"
                        )
                    stack.append((*inner, (at, k)))
                    break  # go into it; this level's iterator goes on after it
            problem = _check_value(item, max_string)
            if problem is not None:
                raise UserError(f"{_path_text((at, k))}: {problem}")
        else:
            stack.pop()


def _members(v: Any) -> tuple[Iterator[tuple[Any, Any]], bool] | None:
    """An iterator over a container's (key, item) pairs and whether it is a mapping; None
    for anything else."""
    if type(v) is dict or isinstance(v, Mapping):
        return iter(v.items()), True
    if type(v) is list or isinstance(v, list | tuple):
        return enumerate(v), False
    return None


def check_payload(payload: object, where: str = "payload") -> dict[str, Any]:
    """A checked, JSON-ready copy of an event payload (see the module docstring)."""
    if not isinstance(payload, Mapping):
        raise UserError(f"{where}: the payload must be an object")
    check_json(payload, where)
    try:
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise UserError(f"{where}: not plain JSON ({exc})") from None
    if len(text.encode()) > MAX_PAYLOAD_BYTES:
        raise UserError(f"{where}: larger than {MAX_PAYLOAD_BYTES // 1024} KB")
    data: dict[str, Any] = json.loads(text)
    dice = data.get("dice", [])
    if not isinstance(dice, list):
        raise UserError(f"{where}.dice: must be a list")
    roles = {r.value for r in Role}
    for i, d in enumerate(dice):
        at = f"{where}.dice[{i}]"
        if not isinstance(d, dict):
            raise UserError(f"{at}: must be an object")
        sides, face = d.get("sides"), d.get("face")
        if not _is_int(sides) or not 2 <= sides <= MAX_DIE_SIDES:
            raise UserError(f"{at}.sides: {sides!r} is not a die size (2 to {MAX_DIE_SIDES})")
        if not _is_int(face) or not 1 <= face <= sides:
            raise UserError(f"{at}.face: a d{sides} cannot show {face!r}")
        role = d.get("role", "natural")
        if not isinstance(role, str) or role not in roles:
            raise UserError(
                f"{at}.role: {d.get('role')!r} is not one of " + ", ".join(sorted(roles))
            )
        if not isinstance(d.get("why", ""), str):
            raise UserError(f"{at}.why: must be text")
    mods = data.get("modifiers", [])
    if not isinstance(mods, list):
        raise UserError(f"{where}.modifiers: must be a list")
    stats = {s.value for s in Stat}
    for i, m in enumerate(mods):
        at = f"{where}.modifiers[{i}]"
        if not isinstance(m, dict):
            raise UserError(f"{at}: must be an object")
        if not _is_int(m.get("value")) or abs(m["value"]) > 1000:
            raise UserError(f"{at}.value: {m.get('value')!r} is not a modifier")
        applies_to = m.get("applies_to")
        if not isinstance(applies_to, str) or applies_to not in stats:
            raise UserError(
                f"{at}.applies_to: {m.get('applies_to')!r} is not one of "
                + ", ".join(sorted(stats))
            )
        for k in ("reason", "rule"):
            if not isinstance(m.get(k), str):
                raise UserError(f"{at}.{k}: must be text")
    outcome = data.get("outcome", {})
    if not isinstance(outcome, dict):
        raise UserError(f"{where}.outcome: must be an object")
    for k in ("killed", "wounded"):
        if k in outcome and not isinstance(outcome[k], bool):
            raise UserError(f"{where}.outcome.{k}: must be true or false")
    return data


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def record_from_events(
    events: Iterable[tuple[str, BattleUnitId | None, BattleUnitId | None, Mapping[str, Any]]],
) -> tuple[set[BattleUnitId], set[BattleUnitId], dict[BattleUnitId, int]]:
    """From (kind, actor, target, payload) of the events that stand, in order: the units that
    end the battle dead, those wounded, and each actor's kills
    (``brikdesk.domain.aftermath.fates_from_events`` says how each kind is read)."""
    fates = fates_from_events(events)
    return set(fates.dead), set(fates.wounded), fates.kills()


#: Where the battle tracker's payloads hold ids (``brikdesk.domain.battle.events``): unit ids
#: are battle-unit ids, player ids are campaign player ids. Export and import translate them.
#: Each path is a tuple of keys; ``"*"`` walks every element of a list.
PAYLOAD_IDS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "turn_ended": ((("player",), "player"),),
    "attack_resolved": (
        (("participants", "*", "unit"), "unit"),
        (("effects", "*", "unit"), "unit"),
        (("effects", "*", "with", "*"), "unit"),
        (("killed", "*"), "unit"),
        (("dice", "*", "owner"), "unit"),
        (("modifiers", "*", "owner"), "unit"),
        (("outcome", "rolls", "*", "owner"), "unit"),
    ),
    "status_set": ((("with", "*"), "unit"),),
    "status_cleared": ((("with", "*"), "unit"),),
}


def remap_payload(
    kind: str,
    payload: Mapping[str, Any],
    maps: Mapping[str, Mapping[int, Any]],
    where: str = "payload",
    *,
    strict: bool = True,
) -> dict[str, Any]:
    """A copy of ``payload`` with the ids at ``PAYLOAD_IDS[kind]`` translated through
    ``maps["unit"]`` / ``maps["player"]``. With ``strict`` an id that is not in the map (or is
    not a whole number) is a ``UserError`` naming its path; otherwise it becomes ``None``."""
    out: dict[str, Any] = json.loads(json.dumps(payload))

    def walk(node: Any, keys: tuple[str, ...], path: str, what: str) -> Any:
        if not keys:
            table = maps[what]
            if node is None:
                return None
            if isinstance(node, bool) or not isinstance(node, int) or node not in table:
                if strict:
                    raise UserError(f"{path}: {node!r} is not the id of a {what} of this battle")
                return None
            return table[node]
        head, rest = keys[0], keys[1:]
        if head == "*":
            if not isinstance(node, list):
                return node
            return [walk(v, rest, f"{path}[{i}]", what) for i, v in enumerate(node)]
        if not isinstance(node, dict) or head not in node:
            return node
        node[head] = walk(node[head], rest, f"{path}.{head}", what)
        return node

    for keys, what in PAYLOAD_IDS.get(kind, ()):
        out = walk(out, keys, where, what)
    return out
