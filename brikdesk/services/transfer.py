"""Export and import of one whole campaign as versioned JSON (docs/campaign-format.md).

Export writes ``{"format": "brikdesk-campaign", "version": 2, ...}`` with export-local ids
(1, 2, 3... in a deterministic order), so exporting, importing and exporting again gives the same
text. Import reads a file back as a *new* campaign. It checks everything first (size, nesting
depth, JSON syntax, every field's type and range, every reference between ids) and refuses the
whole file on the first problem with a message that names the file, the JSON path and what is
wrong; only then does it write, in a single transaction. A refused file changes nothing.

Version 2 adds each finished battle's army records (``battles[].armies``: what each army was
going in and coming out, ``battle_army``), so that a round trip keeps the history's points
exactly. A version 1 file has none: its battles' points are rebuilt by the history from the
mustered units and the results, and marked approximate where they cannot be.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import EllipsisType
from typing import Any, Literal, overload

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from brikdesk import __version__
from brikdesk.confusables import name_marks
from brikdesk.domain.aftermath import remap_result
from brikdesk.domain.catalog import (
    KEY_RE,
    CatalogError,
    Edition,
    item_from_dict,
    load_default_catalog,
    unit_type_from_dict,
)
from brikdesk.domain.ids import CampaignId
from brikdesk.domain.roster import UnitOverrides
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import UserError
from brikdesk.files import file_kind, writable_target, write_atomically
from brikdesk.limits import (
    MAX_ARMIES,
    MAX_BATTLE_UNITS,
    MAX_BATTLES,
    MAX_CATALOG_ENTRIES,
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_JSON_CONTAINERS,
    MAX_JSON_VALUES,
    MAX_LOADOUT,
    MAX_NUMBER,
    MAX_PLAYERS,
    MAX_STATE_BYTES,
    MAX_UNITS,
    NAME_LEN,
    NOTES_LEN,
    PAYLOAD_TEXT_LEN,
    name_key,
    shown,
    text_problem,
)
from brikdesk.persistence import snapshots
from brikdesk.persistence.models import (
    BATTLE_STATUS,
    CAMPAIGN_STATUS,
    COST_SYSTEMS,
    Army,
    Battle,
    BattleArmy,
    BattleEvent,
    BattlePlayer,
    BattleUnit,
    Campaign,
    HouseEntry,
    HouseItem,
    HouseUnitType,
    Player,
    Unit,
    table_of,
)
from brikdesk.services.base import ServiceBase
from brikdesk.services.campaigns import campaign_by_name, campaign_summary
from brikdesk.services.common import (
    Changes,
    Done,
    clean_colour,
    step,
    storage_errors,
    to_db_time,
)
from brikdesk.services.events import (
    NotFinite,
    check_json,
    check_kind,
    check_payload,
    remap_payload,
)
from brikdesk.services.progress import Cancelled, Progress, no_progress
from brikdesk.services.roster import check_overrides, overrides_to_json
from brikdesk.services.summaries import CampaignSummary

__all__ = [
    "FORMAT",
    "VERSION",
    "Cancelled",
    "Progress",
    "TransferService",
    "check_document",
    "dumps",
    "export_document",
    "decode_document",
    "parse_document",
    "read_import_file",
]

FORMAT = "brikdesk-campaign"
#: 2: finished battles carry their army records (``battles[].armies``).
VERSION = 2
#: The first version whose battles may carry army records.
ARMY_RECORDS_VERSION = 2
#: A battle's army record's numbers, in and out (``BattleArmy``'s columns).
RECORD_NUMBERS = ("value", "alive", "casualties", "kills")
#: The limits that keep a hostile file from exhausting memory or time are in brikdesk.limits.

#: ``progress(stage, done, total)``: called as an import or export goes on; it may raise
#: ``Cancelled`` to stop (nothing is then written). See brikdesk.services.progress.
_no_progress = no_progress


def _time_text(value: datetime | None) -> str | None:
    if value is None:
        return None
    return to_db_time(value).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# -- export --------------------------------------------------------------------------------------


def export_document(s: Session, campaign_id: CampaignId) -> dict[str, Any]:
    c = s.get(Campaign, campaign_id)
    if c is None:
        raise UserError(f"there is no campaign with id {campaign_id}", field="id")
    players = s.scalars(select(Player).where(Player.campaign_id == c.id).order_by(Player.id)).all()
    pid: dict[int, int] = {p.id: i + 1 for i, p in enumerate(players)}  # db id -> file id
    armies = s.scalars(select(Army).where(Army.campaign_id == c.id).order_by(Army.id)).all()
    units_by_army: dict[int, list[Unit]] = {a.id: [] for a in armies}
    for u in s.scalars(
        select(Unit)
        .join(Army)
        .where(Army.campaign_id == c.id)
        .order_by(Unit.army_id, Unit.position, Unit.id)
    ):
        units_by_army[u.army_id].append(u)
    uid: dict[int, int] = {}
    aid: dict[int, int] = {a.id: i + 1 for i, a in enumerate(armies)}  # db id -> file id
    out_armies = []
    for i, a in enumerate(armies):
        units = []
        for u in units_by_army[a.id]:
            uid[u.id] = len(uid) + 1
            units.append(
                {
                    "id": uid[u.id],
                    "name": u.name,
                    "type": u.type_key,
                    "overrides": dict(u.overrides),
                    "hands": list(u.hands),
                    "worn": list(u.worn),
                    "carried": list(u.carried),
                    "notes": u.notes,
                    "status": u.status,
                    "battles_fought": u.battles_fought,
                    "kills": u.kills,
                }
            )
        out_armies.append(
            {
                "id": i + 1,
                "player": pid[a.player_id],
                "name": a.name,
                "budget": a.budget,
                "units": units,
            }
        )
    catalog: dict[str, list[dict[str, Any]]] = {}
    tables: tuple[tuple[str, type[HouseEntry]], ...] = (
        ("items", HouseItem),
        ("unit_types", HouseUnitType),
    )
    for name, model in tables:
        # Sorted here, by code point: ORDER BY on text follows the database's collation
        # (PostgreSQL's en_US puts "laserbeam" before "laser-pike"; SQLite does not).
        catalog[name] = [
            {"key": h.key, "custom": h.custom, "entry": dict(h.data)}
            for h in sorted(
                s.scalars(select(model).where(model.campaign_id == c.id)), key=lambda h: h.key
            )
        ]
    out_battles = []
    for bi, b in enumerate(
        s.scalars(select(Battle).where(Battle.campaign_id == c.id).order_by(Battle.id))
    ):
        bps = s.scalars(
            select(BattlePlayer)
            .where(BattlePlayer.battle_id == b.id)
            .order_by(BattlePlayer.turn_order, BattlePlayer.id)
        ).all()
        side = {bp.id: pid[bp.player_id] for bp in bps}
        bus = s.scalars(
            select(BattleUnit).where(BattleUnit.battle_id == b.id).order_by(BattleUnit.id)
        ).all()
        buid: dict[int, int] = {bu.id: i + 1 for i, bu in enumerate(bus)}  # db -> file
        events = s.scalars(
            select(BattleEvent).where(BattleEvent.battle_id == b.id).order_by(BattleEvent.seq)
        ).all()
        out_battles.append(
            {
                "id": bi + 1,
                "name": b.name,
                "status": b.status,
                "created_at": _time_text(b.created_at),
                "finished_at": _time_text(b.finished_at),
                "notes": b.notes,
                "players": [
                    {"player": pid[bp.player_id], "turn_order": bp.turn_order} for bp in bps
                ],
                "units": [
                    {
                        "id": buid[bu.id],
                        "player": side[bu.battle_player_id],
                        "unit": uid.get(bu.unit_id) if bu.unit_id is not None else None,
                        "name": bu.name,
                        "spec": dict(bu.spec),
                    }
                    for bu in bus
                ],
                "events": [
                    {
                        "seq": e.seq,
                        "kind": e.kind,
                        "actor": buid.get(e.actor_id) if e.actor_id is not None else None,
                        "target": buid.get(e.target_id) if e.target_id is not None else None,
                        "payload": remap_payload(
                            e.kind, e.payload, {"unit": buid, "player": pid}, strict=False
                        ),
                        "created_at": _time_text(e.created_at),
                        "reverted": e.reverted,
                    }
                    for e in events
                ],
            }
        )
        records = s.scalars(
            select(BattleArmy).where(BattleArmy.battle_id == b.id).order_by(BattleArmy.id)
        ).all()
        if records:  # what each army was going in and coming out (brikdesk.services.army_records)
            out_battles[-1]["armies"] = [
                {
                    "army": aid.get(r.army_id) if r.army_id is not None else None,
                    "name": r.army,
                    **{
                        f"{n}_{end}": getattr(r, f"{n}_{end}")
                        for n in RECORD_NUMBERS
                        for end in ("in", "out")
                    },
                }
                for r in records
            ]
        if b.result is not None:  # the post-battle update (brikdesk.services.aftermath)
            # a result that no longer fits (a player deleted) is left out: the log says it
            with contextlib.suppress(UserError):
                out_battles[-1]["result"] = remap_result(
                    b.result, buid, {p: pid[p] for p in (bp.player_id for bp in bps)}
                )
    return {
        "format": FORMAT,
        "version": VERSION,
        "generator": f"BrikDesk {__version__}",
        "campaign": {
            "name": c.name,
            "edition": c.edition,
            "cost_system": c.cost_system,
            "default_budget": c.default_budget,
            "notes": c.notes,
            "created_at": _time_text(c.created_at),
            "updated_at": _time_text(c.updated_at),
        },
        "players": [
            {"id": pid[p.id], "name": p.name, "colour": p.colour, "faction": p.faction}
            for p in players
        ],
        "armies": out_armies,
        "catalog": catalog,
        "battles": out_battles,
    }


def dumps(doc: Mapping[str, Any]) -> str:
    """The canonical text of a document (what ``brikdesk export`` writes)."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# -- reading and checking ------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _show(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return shown(v)
    if isinstance(v, int | float):
        return repr(v)[:40]
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "a list"
    return type(v).__name__


class _Obj:
    """A JSON object at a path, read field by field; unknown fields are refused."""

    def __init__(
        self, value: Any, path: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> None:
        if not isinstance(value, dict):
            raise _Refused(path, f"must be an object, not {_show(value)}")
        for k in value:
            if k not in fields and k not in optional:
                raise _Refused(path, f"unknown field '{k}'")
        for k in fields:
            if k not in value:
                raise _Refused(path, f"missing field '{k}'")
        self.v = value
        self.path = path

    def at(self, k: str) -> str:
        return f"{self.path}.{k}"

    def get(self, k: str, default: Any = None) -> Any:
        return self.v.get(k, default)

    @overload
    def number(
        self,
        k: str,
        lo: int = 0,
        hi: int = MAX_NUMBER,
        *,
        null: Literal[False] = False,
        default: EllipsisType = ...,
    ) -> int: ...
    @overload
    def number(
        self,
        k: str,
        lo: int = 0,
        hi: int = MAX_NUMBER,
        *,
        null: bool = False,
        default: int | None | EllipsisType = ...,
    ) -> int | None: ...
    def number(
        self,
        k: str,
        lo: int = 0,
        hi: int = MAX_NUMBER,
        *,
        null: bool = False,
        default: int | None | EllipsisType = ...,
    ) -> int | None:
        """The whole number at ``k`` (``null``: or null; ``default``: when ``k`` is absent)."""
        if not isinstance(default, EllipsisType) and k not in self.v:
            return default
        x = self.v.get(k)
        if x is None and null:
            return None
        if isinstance(x, bool) or not isinstance(x, int):
            raise _Refused(
                self.at(k), f"must be a whole number{' or null' if null else ''}, not {_show(x)}"
            )
        if not lo <= x <= hi:
            raise _Refused(self.at(k), f"must be from {lo} to {hi}, not {x}")
        return x

    def text(
        self,
        k: str,
        max_len: int,
        *,
        empty: bool = True,
        lines: bool = True,
        default: str | EllipsisType = ...,
    ) -> str:
        if isinstance(default, str) and k not in self.v:
            return default
        x = self.v.get(k)
        if not isinstance(x, str):
            raise _Refused(self.at(k), f"must be text, not {_show(x)}")
        if not empty and not x.strip():
            raise _Refused(self.at(k), "must not be empty")
        # The same check as the app's (services.common.clean_name / clean_notes).
        problem = text_problem(x, max_len, lines=lines)
        if problem is not None:
            raise _Refused(self.at(k), problem)
        return x

    def name(self, k: str, *, empty: bool = False) -> str:
        x = self.text(k, NAME_LEN, empty=empty, lines=False)
        if x != " ".join(x.split()):
            raise _Refused(self.at(k), "a name is one line without extra spaces")
        return x

    def choice(self, k: str, allowed: tuple[str, ...]) -> str:
        x = self.v.get(k)
        if x not in allowed:
            raise _Refused(self.at(k), f"must be one of {', '.join(allowed)}, not {_show(x)}")
        return str(x)

    def flag(self, k: str) -> bool:
        x = self.v.get(k)
        if not isinstance(x, bool):
            raise _Refused(self.at(k), f"must be true or false, not {_show(x)}")
        return x

    def array(self, k: str, max_len: int) -> list[Any]:
        x = self.v.get(k)
        if not isinstance(x, list):
            raise _Refused(self.at(k), f"must be a list, not {_show(x)}")
        if len(x) > max_len:
            raise _Refused(self.at(k), f"has {len(x)} entries; at most {max_len}")
        return x

    def time(self, k: str, *, null: bool = False) -> datetime | None:
        x = self.v.get(k)
        if x is None and null:
            return None
        if not isinstance(x, str) or not re.fullmatch(
            r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})", x
        ):
            raise _Refused(
                self.at(k),
                f'must be a UTC time such as "2026-05-01T14:30:00.000000Z", not {_show(x)}',
            )
        try:
            t = datetime.fromisoformat(x.replace("Z", "+00:00"))
        except ValueError as exc:
            raise _Refused(self.at(k), f"is not a real time: {exc}") from None
        return t.astimezone(UTC).replace(tzinfo=None)

    def json_object(self, k: str, max_bytes: int = MAX_STATE_BYTES) -> dict[str, Any]:
        x = self.v.get(k)
        if not isinstance(x, dict):
            raise _Refused(self.at(k), f"must be an object, not {_show(x)}")
        try:
            check_json(x, self.at(k), max_depth=12)
        except UserError as exc:
            raise _Refused(self.at(k), str(exc).split(": ", 1)[-1]) from None
        if len(json.dumps(x, ensure_ascii=False).encode()) > max_bytes:
            raise _Refused(self.at(k), f"larger than {max_bytes // 1024} KB")
        return x


@overload
def _key(value: Any, path: str, *, null: Literal[False] = False) -> str: ...
@overload
def _key(value: Any, path: str, *, null: bool) -> str | None: ...
def _key(value: Any, path: str, *, null: bool = False) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or not KEY_RE.match(value):
        raise _Refused(
            path,
            f"{_show(value)} is not a catalog key (lower-case letters, digits "
            "and hyphens, like 'hand-weapon')",
        )
    return value


@overload
def _ref(
    value: Any, path: str, known: Mapping[int, Any], what: str, *, null: Literal[False] = False
) -> int: ...
@overload
def _ref(
    value: Any, path: str, known: Mapping[int, Any], what: str, *, null: bool
) -> int | None: ...
def _ref(
    value: Any, path: str, known: Mapping[int, Any], what: str, *, null: bool = False
) -> int | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in known:
        raise _Refused(path, f"{_show(value)} is not the id of a {what} in this file")
    return int(value)


@dataclass
class _Plan:
    """A checked document, ready to write."""

    campaign: dict[str, Any]
    players: list[dict[str, Any]] = field(default_factory=list)
    armies: list[dict[str, Any]] = field(default_factory=list)
    #: (army id, unit id in the file, row of the unit table without army and position)
    units: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    house: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    battles: list[dict[str, Any]] = field(default_factory=list)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)  # in C; a key given twice makes the dict shorter than the pairs
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _v in pairs:
            if k in seen:
                raise _Refused("$", f"the field '{k}' appears twice in one object")
            seen.add(k)
    return out


def _too_big() -> _Refused:
    return _Refused("$", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")


#: A JSON string, from its opening quote to its closing one (escapes such as ``\\"`` inside).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_JSON_TEXT_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
#: What stands outside texts once they are emptied: anything but a quote, and ``""``.
_OUTSIDE = re.compile(rb'[^"]*(?:""[^"]*)*')
_OUTSIDE_TEXTS = re.compile(r'[^"]*(?:""[^"]*)*')
#: The piece of a file the exact count looks at once: its memory is bounded by this, not
#: by the file (the texts of one piece, emptied, are a copy of at most this size).
_SHAPE_PIECE = 64 * 1024


def _count_outside_texts(data: bytes | bytearray | str, stop: tuple[int, int]) -> tuple[int, int]:
    """The commas and the opening brackets (``[`` and ``{``) of ``data`` that stand outside
    its texts, counted piece by piece in constant memory; the count ends early once the
    commas pass ``stop[0]`` or the brackets ``stop[1]`` (the file is refused either way).

    Each piece starts outside any text; its texts are emptied (``""``) by one regular
    expression in C and what is left is counted. A piece that ends inside a text (its emptied
    form then holds a quote that is not one of a ``""``: that text's opening one) is counted
    up to that quote, and the next piece starts after the text's end, found in the whole file
    by the same expression (a text of 60 MB is passed over in C, without a copy). A text that
    never ends is left to the parse, which says where."""
    text = isinstance(data, str)
    string: Any = _JSON_TEXT_STRING if text else _JSON_STRING
    empty: Any = '""' if text else b'""'
    outside: Any = _OUTSIDE_TEXTS if text else _OUTSIDE
    comma: Any = "," if text else b","
    square: Any = "[" if text else b"["
    curly: Any = "{" if text else b"{"
    view: Any = data if isinstance(data, str) else memoryview(data)
    commas = brackets = 0
    at = 0
    while at < len(data) and commas <= stop[0] and brackets <= stop[1]:
        end = min(len(data), at + _SHAPE_PIECE)
        bare = string.sub(empty, view[at:end])
        cut = outside.match(bare).end()  # up to the quote of a text the piece cuts, if any
        commas += bare.count(comma, 0, cut)
        brackets += bare.count(square, 0, cut) + bare.count(curly, 0, cut)
        if cut == len(bare):
            at = end
            continue
        whole = string.match(data, end - (len(bare) - cut))
        if whole is None:
            break
        at = whole.end()
    return commas, brackets


def _check_shape(data: bytes | bytearray | str) -> None:
    """Refuse a file with more than ``MAX_JSON_VALUES`` values or ``MAX_JSON_CONTAINERS``
    lists and objects before it is parsed: every value after the first in a list or an object
    follows a comma, and each list and object becomes a Python object, so these counts bound
    the parse's memory and time whatever the file's size.

    Commas and brackets are counted first in one pass in C, without a copy; those inside
    texts count too (notes holding a pasted CSV), so a count over a limit is made exact by
    ``_count_outside_texts``, in constant memory (no whole-file expression, no copy of the
    file: a 63 MB file of short texts took 2.8 GB that way), stopping as soon as it is over."""
    if isinstance(data, str):
        commas = data.count(",")
        containers = data.count("[") + data.count("{")
    else:
        commas = data.count(b",")
        containers = data.count(b"[") + data.count(b"{")
    if commas <= MAX_JSON_VALUES and containers <= MAX_JSON_CONTAINERS:
        return
    commas, containers = _count_outside_texts(data, (MAX_JSON_VALUES, MAX_JSON_CONTAINERS))
    if commas > MAX_JSON_VALUES:
        raise _Refused(
            "$",
            f"the file holds more than {MAX_JSON_VALUES:,} values; a campaign at the largest "
            "size this format allows holds far fewer",
        )
    if containers > MAX_JSON_CONTAINERS:
        raise _Refused(
            "$",
            f"the file holds more than {MAX_JSON_CONTAINERS:,} lists and objects; a campaign "
            "at the largest size this format allows holds about 1,000,000",
        )


def decode_document(data: bytes | bytearray) -> str:
    """The text of an import file's bytes, after the checks that need no parse (the size,
    the shape: ``_check_shape``); ``_Refused`` on any problem. The caller lets go of ``data``
    once this returns, so that the parse that follows holds the text alone (as ``json.load``
    does), not the bytes too."""
    if len(data) > MAX_FILE_BYTES:
        raise _too_big()
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        # UTF-16 with its byte order mark: what Windows PowerShell's ``brikdesk export --out
        # - > f.json`` writes. Its text is half its size or less; checked as text.
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _Refused(
                "$", f"not UTF-16 text after its byte order mark (byte {exc.start}: {exc.reason})"
            ) from None
        _check_shape(text)
        return text
    _check_shape(data)  # bound the work before parsing
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _Refused("$", f"not UTF-8 text (byte {exc.start})") from None


def parse_document(data: bytes | bytearray | str) -> Any:
    """JSON text -> Python value, with the size limit; ``_Refused`` on any problem.

    ``NaN``, ``Infinity`` and ``-Infinity`` are read as ``NotFinite`` markers, so that the check
    that follows refuses them naming their place in the file.
    """
    if isinstance(data, str):
        text = data
        if len(text) > MAX_FILE_BYTES:
            raise _too_big()
        _check_shape(text)
    else:
        text = decode_document(data)
    if not text.strip():
        raise _Refused("$", "the file is empty")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=NotFinite)
    except json.JSONDecodeError as exc:
        ended = exc.pos >= len(text.rstrip())
        hint = " (the file ends too early: is it truncated?)" if ended else ""
        raise _Refused(
            "$", f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}{hint}"
        ) from None
    except RecursionError:
        raise _Refused("$", f"nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise _Refused("$", f"not valid JSON: {exc}") from None


def _check_plain_json(value: Any, path: str) -> None:
    """``check_json`` as the whole document gets it (NaN, a control character in a key...)."""
    try:
        check_json(value, path, max_depth=MAX_DEPTH, max_string=None)
    except UserError as exc:
        where, _, reason = str(exc).partition(": ")
        raise _Refused(where, reason) from None


def _without_units(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with each army's ``units`` list left out (a shallow copy; paths stay the same)."""
    armies = doc.get("armies")
    if not isinstance(armies, list):
        return doc
    return dict(
        doc,
        armies=[
            {k: v for k, v in a.items() if k != "units"} if isinstance(a, dict) else a
            for a in armies
        ],
    )


def _no_name_twice(seen: dict[str, str], name: str, where: str, what: str) -> None:
    """Refuse ``name`` if one of ``seen``'s names (its marks -> the name) is the same to a
    reader (``brikdesk.confusables.name_marks``), naming both; else remember it."""
    marks = name_marks(name)
    clash = next((seen[m] for m in marks if m in seen), None)
    if clash is not None:
        alike = "" if name_key(clash) == name_key(name) else f" and '{name}', which look alike"
        raise _Refused(where, f"two {what} are called '{clash}'{alike}")
    seen.update(dict.fromkeys(marks, name))


def check_document(doc: Any, progress: Progress = _no_progress) -> _Plan:
    """Check a parsed document completely; ``_Refused`` names the first problem's path."""
    if not isinstance(doc, dict):
        raise _Refused("$", f"not a BrikDesk campaign: the file holds {_show(doc)}, not an object")
    if doc.get("format") != FORMAT:
        raise _Refused(
            "$.format",
            f"not a BrikDesk campaign export (format is "
            f"{_show(doc.get('format'))}, expected '{FORMAT}')",
        )
    # Text is checked field by field below (names against NAME_LEN, notes against NOTES_LEN),
    # so that a long name is reported against its own limit. The units (the bulk of a file)
    # are left out: a plain one is read field by field by type (``_plain_unit``), any other
    # gets this check before the full one.
    _check_plain_json(_without_units(doc), "$")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise _Refused("$.version", f"must be a whole number, not {_show(version)}")
    if version > VERSION:
        raise _Refused(
            "$.version",
            f"version {version} was written by a newer BrikDesk; this one reads version {VERSION}",
        )
    if version < 1:
        raise _Refused("$.version", f"unknown version {version}")
    root = _Obj(
        doc,
        "$",
        ("format", "version", "campaign", "players", "armies", "catalog", "battles"),
        ("generator",),
    )
    root.text("generator", 200, default="")

    c = _Obj(
        root.get("campaign"),
        "$.campaign",
        ("name", "edition", "cost_system", "default_budget", "notes", "created_at", "updated_at"),
    )
    edition = c.choice("edition", tuple(e.value for e in Edition))
    plan = _Plan(
        campaign={
            "name": c.name("name"),
            "edition": edition,
            "cost_system": c.choice("cost_system", COST_SYSTEMS),
            "default_budget": c.number("default_budget"),
            "notes": c.text("notes", NOTES_LEN),
            "created_at": c.time("created_at"),
            "updated_at": c.time("updated_at"),
        }
    )

    players: dict[int, dict[str, Any]] = {}
    names: dict[str, str] = {}  # a mark of a player's name (name_marks) -> that name
    for i, raw in enumerate(root.array("players", MAX_PLAYERS)):
        p = _Obj(raw, f"$.players[{i}]", ("id", "name", "colour", "faction"))
        pid = p.number("id", 1)
        if pid in players:
            raise _Refused(p.at("id"), f"id {pid} is used twice")
        name = p.name("name")
        _no_name_twice(names, name, p.at("name"), "players")
        try:
            colour = clean_colour(p.get("colour"))
        except UserError as exc:
            raise _Refused(p.at("colour"), str(exc)) from None
        if colour != p.get("colour"):
            raise _Refused(
                p.at("colour"), f"must be #rrggbb in lower case, not {_show(p.get('colour'))}"
            )
        faction = p.name("faction", empty=True)
        players[pid] = {"name": name, "colour": colour, "faction": faction}
    plan.players = [dict(v, _id=k) for k, v in players.items()]

    unit_ids: dict[int, int] = {}  # export unit id -> export army id
    army_ids: set[int] = set()
    n_units = 0
    raw_armies = root.array("armies", MAX_ARMIES)
    army_names: dict[str, str] = {}
    all_units = sum(
        len(a["units"])
        for a in raw_armies
        if isinstance(a, dict) and isinstance(a.get("units"), list)
    )
    for i, raw in enumerate(raw_armies):
        progress("Checking", n_units, all_units)
        a = _Obj(raw, f"$.armies[{i}]", ("id", "player", "name", "budget", "units"))
        aid = a.number("id", 1)
        if aid in army_ids:
            raise _Refused(a.at("id"), f"id {aid} is used twice")
        army_ids.add(aid)
        player = _ref(a.get("player"), a.at("player"), players, "player")
        army_name = a.name("name")
        _no_name_twice(army_names, army_name, a.at("name"), "armies")
        plan.armies.append(
            {
                "_id": aid,
                "_player": player,
                "name": army_name,
                "budget": a.number("budget", null=True),
            }
        )
        units = a.array("units", MAX_UNITS)
        n_units += len(units)
        if n_units > MAX_UNITS:
            raise _Refused(a.at("units"), f"more than {MAX_UNITS} units in the file")
        for j, uraw in enumerate(units):
            row = _plain_unit(uraw, unit_ids)
            if row is None:  # not the plain case: the full check says what is wrong, if anything
                upath = f"{a.at('units')}[{j}]"
                _check_plain_json(uraw, upath)
                row = _check_unit(uraw, upath, unit_ids)
            unit_ids[uraw["id"]] = aid
            plan.units.append((aid, uraw["id"], row))

    cat = _Obj(root.get("catalog"), "$.catalog", ("items", "unit_types"))
    defaults = load_default_catalog(edition)
    for kind, model, parse, lookup in (
        ("items", HouseItem, item_from_dict, defaults.get_item),
        ("unit_types", HouseUnitType, unit_type_from_dict, defaults.get_unit_type),
    ):
        seen: set[str] = set()
        for i, raw in enumerate(cat.array(kind, MAX_CATALOG_ENTRIES)):
            h = _Obj(raw, f"$.catalog.{kind}[{i}]", ("key", "custom", "entry"))
            key = _key(h.get("key"), h.at("key"))
            if key in seen:
                raise _Refused(h.at("key"), f"'{key}' appears twice")
            seen.add(key)
            custom = h.flag("custom")
            if custom != (lookup(key) is None):
                raise _Refused(
                    h.at("custom"),
                    f"'{key}' is {'not ' if custom else ''}in the "
                    f"{edition} rules, so custom must be "
                    f"{'false' if custom else 'true'}",
                )
            entry = h.get("entry")
            if not isinstance(entry, dict):
                raise _Refused(h.at("entry"), f"must be an object, not {_show(entry)}")
            if "house_rule" in entry:
                raise _Refused(h.at("entry"), "unknown field 'house_rule'")
            if entry.get("key") != key:
                raise _Refused(h.at("entry") + ".key", f"must be '{key}', the entry's key")
            try:
                check_json(entry, h.at("entry"), max_string=PAYLOAD_TEXT_LEN)
            except UserError as exc:
                path_, _, reason = str(exc).partition(": ")
                raise _Refused(path_, reason) from None
            try:
                parse(entry, source=None)
            except CatalogError as exc:
                raise _Refused(h.at("entry"), exc.message) from None
            plan.house.append((model, {"key": key, "data": entry, "custom": custom}))

    for i, raw in enumerate(root.array("battles", MAX_BATTLES)):
        plan.battles.append(
            _check_battle(raw, f"$.battles[{i}]", players, unit_ids, army_ids, version)
        )
    return plan


#: A unit's fields in the file, in the order a missing one is looked for.
_UNIT_FIELD_ORDER = (
    "id",
    "name",
    "type",
    "overrides",
    "hands",
    "worn",
    "carried",
    "notes",
    "status",
    "battles_fought",
    "kills",
)
_UNIT_FIELDS = frozenset(_UNIT_FIELD_ORDER)


def _plain_keys(items: Any, null: bool) -> bool:
    return (
        type(items) is list
        and len(items) <= MAX_LOADOUT
        and all(
            (type(k) is str and KEY_RE.match(k) is not None) or (null and k is None) for k in items
        )
    )


def _plain_unit(raw: Any, unit_ids: Mapping[int, int]) -> dict[str, Any] | None:
    """The unit's row if ``raw`` is a unit in its plain form (no overrides, every field of the
    expected type and within its limits), else None: ``_check_unit`` then reads it field by
    field and names what is wrong. Accepts only what ``_check_unit`` accepts, with the same
    row, in a fraction of the time (200,000 units are checked one by one)."""
    if type(raw) is not dict or raw.keys() != _UNIT_FIELDS:
        return None
    uid, name, notes = raw["id"], raw["name"], raw["notes"]
    fought, kills, key = raw["battles_fought"], raw["kills"], raw["type"]
    if not (
        type(uid) is int
        and 1 <= uid <= MAX_NUMBER
        and uid not in unit_ids
        and raw["overrides"] == {}
        and type(name) is str
        and name.strip()
        and text_problem(name, NAME_LEN) is None
        and name == " ".join(name.split())
        and type(key) is str
        and KEY_RE.match(key) is not None
        and type(notes) is str
        and text_problem(notes, NOTES_LEN, lines=True) is None
        and raw["status"] in CAMPAIGN_STATUS
        and type(fought) is int
        and 0 <= fought <= MAX_NUMBER
        and type(kills) is int
        and 0 <= kills <= MAX_NUMBER
        and _plain_keys(raw["hands"], True)
        and _plain_keys(raw["worn"], False)
        and _plain_keys(raw["carried"], False)
    ):
        return None
    return {
        "name": name,
        "type_key": key,
        "overrides": {},
        "hands": raw["hands"],
        "worn": raw["worn"],
        "carried": raw["carried"],
        "notes": notes,
        "status": raw["status"],
        "battles_fought": fought,
        "kills": kills,
    }


def _check_unit(raw: Any, path: str, unit_ids: Mapping[int, int]) -> dict[str, Any]:
    u = _Obj(raw, path, _UNIT_FIELD_ORDER)
    uid = u.number("id", 1)
    if uid in unit_ids:
        raise _Refused(u.at("id"), f"id {uid} is used twice")
    ov = _Obj(u.get("overrides"), u.at("overrides"), (), ("action_die", "move", "armor", "cost"))
    armor = ov.get("armor")
    if armor is not None and not isinstance(armor, str):
        raise _Refused(ov.at("armor"), f'must be text such as "5" or "2d6", not {_show(armor)}')
    overrides = UnitOverrides(
        action_die=ov.number("action_die", 1, 100, default=None),
        move=ov.number("move", 0, 100, default=None),
        armor=armor,
        cost=ov.number("cost", 0, 999, default=None),
    )
    try:
        checked = check_overrides(overrides)
    except UserError as exc:
        raise _Refused(ov.at(exc.field or "overrides"), str(exc)) from None
    if checked != overrides:
        raise _Refused(ov.at("armor"), f"write the Armor as {checked.armor!r}")
    lists = {}
    for name in ("hands", "worn", "carried"):
        items = u.array(name, MAX_LOADOUT)
        lists[name] = [
            _key(k, f"{u.at(name)}[{n}]", null=name == "hands") for n, k in enumerate(items)
        ]
    return {
        "name": u.name("name"),
        "type_key": _key(u.get("type"), u.at("type")),
        "overrides": overrides_to_json(overrides),
        **lists,
        "notes": u.text("notes", NOTES_LEN),
        "status": u.choice("status", CAMPAIGN_STATUS),
        "battles_fought": u.number("battles_fought"),
        "kills": u.number("kills"),
    }


def _check_battle(
    raw: Any,
    path: str,
    players: Mapping[int, Any],
    unit_ids: Mapping[int, int],
    army_ids: set[int],
    version: int = VERSION,
) -> dict[str, Any]:
    b = _Obj(
        raw,
        path,
        (
            "id",
            "name",
            "status",
            "created_at",
            "finished_at",
            "notes",
            "players",
            "units",
            "events",
        ),
        ("result", "armies"),
    )
    b.number("id", 1)
    status = b.choice("status", BATTLE_STATUS)
    finished_at = b.time("finished_at", null=True)
    if (finished_at is None) != (status != BattleStatus.FINISHED):
        raise _Refused(
            b.at("finished_at"),
            "a finished battle has a finish time, and only a finished battle has one",
        )
    out: dict[str, Any] = {
        "name": b.name("name"),
        "status": status,
        "created_at": b.time("created_at"),
        "finished_at": finished_at,
        "notes": b.text("notes", NOTES_LEN),
        "players": [],
        "units": [],
        "events": [],
    }
    sides: set[int] = set()
    for i, raw_p in enumerate(b.array("players", MAX_PLAYERS)):
        p = _Obj(raw_p, f"{b.at('players')}[{i}]", ("player", "turn_order"))
        pid = _ref(p.get("player"), p.at("player"), players, "player")
        if pid in sides:
            raise _Refused(p.at("player"), f"player {pid} is in the battle twice")
        sides.add(pid)
        out["players"].append({"_player": pid, "turn_order": p.number("turn_order", 0, 1000)})
    local: dict[int, int] = {}
    mustered: set[int] = set()
    for i, raw_u in enumerate(b.array("units", MAX_BATTLE_UNITS)):
        u = _Obj(raw_u, f"{b.at('units')}[{i}]", ("id", "player", "unit", "name", "spec"))
        bid = u.number("id", 1)
        if bid in local:
            raise _Refused(u.at("id"), f"id {bid} is used twice in this battle")
        local[bid] = bid
        side = _ref(u.get("player"), u.at("player"), {p: 1 for p in sides}, "player of this battle")
        unit = _ref(u.get("unit"), u.at("unit"), unit_ids, "unit", null=True)
        if unit is not None:
            if unit in mustered:
                raise _Refused(u.at("unit"), f"unit {unit} is mustered twice")
            mustered.add(unit)
        out["units"].append(
            {
                "_id": bid,
                "_player": side,
                "_unit": unit,
                "name": u.name("name"),
                "spec": u.json_object("spec"),
            }
        )
    last_seq = 0
    reverted_seen = False
    for i, raw_e in enumerate(b.array("events", MAX_EVENTS)):
        e = _Obj(
            raw_e,
            f"{b.at('events')}[{i}]",
            ("seq", "kind", "actor", "target", "payload", "created_at", "reverted"),
        )
        seq = e.number("seq", 1, 10 * MAX_EVENTS)
        if seq is None or seq <= last_seq:
            raise _Refused(
                e.at("seq"), f"events must be in increasing seq order ({seq} after {last_seq})"
            )
        last_seq = seq
        kind = e.get("kind")
        try:
            check_kind(kind, e.at("kind"))
            payload = check_payload(e.get("payload"), e.at("payload"))
            remap_payload(
                kind, payload, {"unit": local, "player": {p: p for p in sides}}, e.at("payload")
            )
        except UserError as exc:
            path_, _, reason = str(exc).partition(": ")
            raise _Refused(path_, reason) from None
        reverted = e.flag("reverted")
        if reverted_seen and not reverted:
            raise _Refused(
                e.at("reverted"),
                "a standing event can't follow a reverted one "
                "(undone events form the end of the log)",
            )
        reverted_seen = reverted_seen or reverted
        out["events"].append(
            {
                "seq": seq,
                "kind": kind,
                "_actor": _ref(
                    e.get("actor"), e.at("actor"), local, "unit of this battle", null=True
                ),
                "_target": _ref(
                    e.get("target"), e.at("target"), local, "unit of this battle", null=True
                ),
                "payload": payload,
                "created_at": e.time("created_at"),
                "reverted": reverted,
            }
        )
    out["armies"] = _check_records(b, status, army_ids, version)
    out["result"] = None
    if b.get("result") is not None:
        if status != BattleStatus.FINISHED:
            raise _Refused(b.at("result"), "only a finished battle has a result")
        try:
            out["result"] = remap_result(
                b.get("result"), local, {p: p for p in sides}, b.at("result")
            )
        except UserError as exc:
            path_, _, reason = str(exc).partition(": ")
            raise _Refused(path_, reason) from None
    return out


def _check_records(b: _Obj, status: str, army_ids: set[int], version: int) -> list[dict[str, Any]]:
    """A finished battle's army records (``battles[].armies``, version 2): each army at most
    once, an army of this file or null (deleted since), whole numbers, and the tallies so far
    (casualties, kills) never less coming out than going in."""
    if "armies" not in b.v:
        return []
    if version < ARMY_RECORDS_VERSION:
        raise _Refused(
            b.at("armies"),
            f"army records came with version {ARMY_RECORDS_VERSION} of the format; "
            f"this file says version {version}",
        )
    if status != BattleStatus.FINISHED:
        raise _Refused(b.at("armies"), "only a finished battle has army records")
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    fields = tuple(f"{n}_{end}" for n in RECORD_NUMBERS for end in ("in", "out"))
    for i, raw in enumerate(b.array("armies", MAX_ARMIES)):
        r = _Obj(raw, f"{b.at('armies')}[{i}]", ("army", "name", *fields))
        army = _ref(r.get("army"), r.at("army"), {a: a for a in army_ids}, "army", null=True)
        if army is not None:
            if army in seen:
                raise _Refused(r.at("army"), f"army {army} has two records in this battle")
            seen.add(army)
        row: dict[str, Any] = {"_army": army, "army": r.name("name")}
        for f in fields:
            row[f] = r.number(f)
        for n in ("casualties", "kills"):
            if row[f"{n}_out"] < row[f"{n}_in"]:
                raise _Refused(
                    r.at(f"{n}_out"),
                    f"{row[f'{n}_out']} is less than {n}_in ({row[f'{n}_in']}): "
                    f"{n} are counted so far, so they never go down",
                )
        out.append(row)
    return out


def _write(s: Session, plan: _Plan, name: str, progress: Progress = _no_progress) -> CampaignId:
    c = plan.campaign
    total = len(plan.units) + sum(len(b["units"]) + len(b["events"]) for b in plan.battles)
    written = 0
    cid = s.scalars(
        insert(Campaign).returning(Campaign.id),
        [
            {
                "name": name,
                "edition": c["edition"],
                "cost_system": c["cost_system"],
                "default_budget": c["default_budget"],
                "notes": c["notes"],
                "created_at": c["created_at"],
                "updated_at": c["updated_at"],
            }
        ],
    ).one()

    def many(
        model: type[Player | Army | BattlePlayer | BattleUnit | BattleEvent],
        rows: list[dict[str, Any]],
    ) -> list[int]:
        nonlocal written
        out: list[int] = []
        for at in range(0, len(rows), _WRITE_BATCH):
            progress("Writing", written, total)
            batch = rows[at : at + _WRITE_BATCH]
            out += s.scalars(insert(model).returning(model.id, sort_by_parameter_order=True), batch)
            written += len(batch)
        return out

    pids = many(
        Player,
        [
            {"campaign_id": cid, "name": p["name"], "colour": p["colour"], "faction": p["faction"]}
            for p in plan.players
        ],
    )
    player_db = {p["_id"]: pid for p, pid in zip(plan.players, pids, strict=True)}
    aids = many(
        Army,
        [
            {
                "campaign_id": cid,
                "player_id": player_db[a["_player"]],
                "name": a["name"],
                "budget": a["budget"],
            }
            for a in plan.armies
        ],
    )
    army_db = {a["_id"]: aid for a, aid in zip(plan.armies, aids, strict=True)}
    positions: dict[int, int] = {}
    rows = []
    by_place: dict[tuple[int, int], int] = {}
    for aid, uid, row in plan.units:  # the checked rows get their army and place in it
        position = positions[aid] = positions.get(aid, 0) + 1
        row["army_id"] = army_db[aid]
        row["position"] = position
        rows.append(row)
        by_place[(row["army_id"], position)] = uid
    # Units are the bulk (200,000 at most): a Core executemany without RETURNING (the ORM's
    # bulk insert took twice as long), their ids read back by (army, position), which the
    # file fixes.
    units = table_of(Unit)
    connection = s.connection()
    for at in range(0, len(rows), _WRITE_BATCH):
        progress("Writing", written, total)
        connection.execute(units.insert(), rows[at : at + _WRITE_BATCH])
        written += len(rows[at : at + _WRITE_BATCH])
    unit_db: dict[int, int] = {}
    if any(bu["_unit"] is not None for b in plan.battles for bu in b["units"]):
        for uid, army_id, position in s.execute(
            select(Unit.id, Unit.army_id, Unit.position).where(
                Unit.army_id.in_(list(army_db.values()))
            )
        ):
            unit_db[by_place[(army_id, position)]] = uid
    for model, h in plan.house:
        s.execute(insert(model), [{"campaign_id": cid, **h}])
    for b in plan.battles:
        bid = s.scalars(
            insert(Battle).returning(Battle.id),
            [
                {
                    "campaign_id": cid,
                    "state": {},
                    **{k: b[k] for k in ("name", "status", "created_at", "finished_at", "notes")},
                }
            ],
        ).one()
        bp_ids = many(
            BattlePlayer,
            [
                {
                    "battle_id": bid,
                    "player_id": player_db[p["_player"]],
                    "turn_order": p["turn_order"],
                }
                for p in b["players"]
            ],
        )
        side_db = {p["_player"]: x for p, x in zip(b["players"], bp_ids, strict=True)}
        bu_ids = many(
            BattleUnit,
            [
                {
                    "battle_id": bid,
                    "battle_player_id": side_db[u["_player"]],
                    "unit_id": unit_db[u["_unit"]] if u["_unit"] is not None else None,
                    "name": u["name"],
                    "spec": u["spec"],
                    "state": {},
                }
                for u in b["units"]
            ],
        )
        local_db = {u["_id"]: x for u, x in zip(b["units"], bu_ids, strict=True)}
        if b["armies"]:
            s.execute(
                insert(BattleArmy),
                [
                    {
                        "battle_id": bid,
                        "army_id": army_db[r["_army"]] if r["_army"] is not None else None,
                        **{k: v for k, v in r.items() if not k.startswith("_")},
                    }
                    for r in b["armies"]
                ],
            )
        if b["result"] is not None:
            s.execute(
                update(Battle)
                .where(Battle.id == bid)
                .values(result=remap_result(b["result"], local_db, player_db))
            )
        many(
            BattleEvent,
            [
                {
                    "battle_id": bid,
                    "seq": e["seq"],
                    "kind": e["kind"],
                    "actor_id": local_db.get(e["_actor"]) if e["_actor"] is not None else None,
                    "target_id": local_db.get(e["_target"]) if e["_target"] is not None else None,
                    "payload": remap_payload(
                        e["kind"], e["payload"], {"unit": local_db, "player": player_db}
                    ),
                    "created_at": e["created_at"],
                    "reverted": e["reverted"],
                }
                for e in b["events"]
            ],
        )
    return cid


#: Rows inserted per statement when importing (and between two progress reports).
_WRITE_BATCH = 5000


def _refusal(source: str, exc: _Refused) -> UserError:
    return UserError(f"{source} was not imported: {exc.path}: {exc.reason}", field="file")


def _not_undoable() -> Changes:
    raise UserError("this import was made without Undo (from the command line)")


class TransferService(ServiceBase):
    """Export a campaign to JSON, import one back as a new campaign."""

    @storage_errors
    def export_campaign(self, campaign_id: CampaignId) -> dict[str, Any]:
        """The campaign as a format-1 document (plain JSON values)."""
        with self._reading() as s:
            return export_document(s, campaign_id)

    def export_json(self, campaign_id: CampaignId) -> str:
        return dumps(self.export_campaign(campaign_id))

    def write_export(
        self,
        campaign_id: CampaignId,
        path: str | os.PathLike[str],
        *,
        progress: Progress = _no_progress,
    ) -> Path:
        """Write the export to ``path`` atomically (a temporary file renamed into place).

        A file that is replaced keeps its permissions; a new file gets the usual ones (0666
        less the umask, as any program's new file). ``progress`` may raise ``Cancelled``: the
        temporary file is then removed and ``path`` is left as it was.
        """
        progress("Reading the campaign", 0, 1)
        writable_target(path, field="file")  # refused before the campaign is read
        text = self.export_json(campaign_id)
        return write_atomically(
            path, text, field="file", progress=lambda done, total: progress("Writing", done, total)
        )

    def check(self, data: bytes | str, *, source: str = "the file") -> dict[str, Any]:
        """Check a document without writing; returns its campaign fields. ``UserError``."""
        try:
            plan = check_document(parse_document(data))
        except _Refused as exc:
            raise _refusal(source, exc) from None
        return dict(plan.campaign)

    @storage_errors
    def import_campaign(
        self,
        data: bytes | str,
        *,
        name: str | None = None,
        source: str = "the file",
        replace: bool = False,
        progress: Progress = _no_progress,
        undoable: bool = True,
    ) -> Done[CampaignSummary]:
        """Import an export as a new campaign (called ``name`` if given).

        Refused whole, with nothing written, if anything in it is wrong, or if a campaign of
        that name exists (unless ``replace``: then that campaign is deleted in the same
        transaction; ``brikdesk demo`` uses this). ``progress`` is told how far it got and may
        raise ``Cancelled``: the transaction is then rolled back and nothing is written.
        ``undoable=False`` (the command line, which has no Undo) skips the copy kept for Undo
        (for the largest file, hundreds of MB); the result's steps then refuse with a message.
        """
        progress("Reading", 0, 1)
        try:
            doc = parse_document(data)
        except _Refused as exc:
            raise _refusal(source, exc) from None
        del data
        return self._import_document(
            doc, name=name, source=source, replace=replace, progress=progress, undoable=undoable
        )

    @storage_errors
    def _import_document(
        self,
        doc: Any,
        *,
        name: str | None,
        source: str,
        replace: bool,
        progress: Progress,
        undoable: bool,
    ) -> Done[CampaignSummary]:
        """``import_campaign`` of a parsed document."""
        try:
            plan = check_document(doc, progress)
        except _Refused as exc:
            raise _refusal(source, exc) from None
        from brikdesk.services.common import clean_name

        final = (
            clean_name(name, "The campaign's name") if name is not None else plan.campaign["name"]
        )
        with self._sessions.begin() as s:
            other = campaign_by_name(s, final)
            replaced = None
            if other is not None:
                if not replace:
                    raise UserError(
                        f"a campaign called '{other.name}' already exists; import "
                        "this one under another name",
                        field="name",
                    )
                replaced = snapshots.take(s, table_of(Campaign), Campaign.id == other.id)
                snapshots.delete_rows(s, table_of(Campaign), Campaign.id == other.id)
            cid = _write(s, plan, final, progress)
            summary = campaign_summary(s, self._get(s, Campaign, cid, "campaign"))
            snap = snapshots.take(s, table_of(Campaign), Campaign.id == cid) if undoable else None
            progress("Saving", 1, 1)
        text = f"Import {final}"
        changes = (
            Changes.CAMPAIGNS
            | Changes.PLAYERS
            | Changes.ARMIES
            | Changes.UNITS
            | Changes.CATALOG
            | Changes.BATTLES
            | Changes.EVENTS
        )
        if snap is None:
            return Done(summary, changes, text, redo=_not_undoable, undo=_not_undoable)
        return Done(
            summary,
            changes,
            text,
            redo=step(self.swap_campaigns, replaced.ids("campaign")[0] if replaced else None, snap),
            undo=step(self.swap_campaigns, cid, replaced),
        )

    @storage_errors
    def swap_campaigns(
        self, delete_id: CampaignId | None, restore: snapshots.Snapshot | None
    ) -> Done[None]:
        """Delete one campaign and put back another from a snapshot, in one transaction: the
        undo and redo of an import (which may have replaced a campaign of the same name)."""
        with self._sessions.begin() as s:
            gone = None
            if delete_id is not None:
                gone = snapshots.take(s, table_of(Campaign), Campaign.id == delete_id)
                snapshots.delete_rows(s, table_of(Campaign), Campaign.id == delete_id)
            if restore is not None:
                if snapshots.existing_ids(s, restore):
                    raise UserError("can't undo: that campaign is back already")
                if campaign_by_name(s, restore.table_rows("campaign")[0]["name"]) is not None:
                    raise UserError("can't undo: a campaign of the same name exists")
                snapshots.restore(s, restore)
        back = restore.ids("campaign")[0] if restore is not None else None
        return Done(
            None,
            Changes.CAMPAIGNS | Changes.UNITS | Changes.BATTLES,
            "Import",
            redo=step(self.swap_campaigns, delete_id, restore),
            undo=step(self.swap_campaigns, back, gone),
        )

    def import_file(
        self,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        progress: Progress = _no_progress,
        undoable: bool = True,
    ) -> Done[CampaignSummary]:
        p = Path(path)
        progress("Reading", 0, 1)
        try:
            # Nested, so that the bytes are let go once decoded and the text once parsed:
            # the parse holds the text alone, as json.load does, and the import the values.
            doc = parse_document(decode_document(read_import_file(p, progress)))
        except _Refused as exc:
            raise _refusal(p.name, exc) from None
        return self._import_document(
            doc, name=name, source=p.name, replace=False, progress=progress, undoable=undoable
        )


_CHUNK = 1024 * 1024


def read_import_file(path: Path, progress: Progress = _no_progress) -> bytearray:
    """The bytes of ``path``, never more than the size limit + 1 byte read.

    Anything but a regular file (a device such as ``/dev/zero``, a FIFO, a folder, a symlink to
    one of those) is refused before it is opened: its reported size says nothing and reading it
    may never end or never start. ``UserError`` names the file and the reason.
    """
    mb = MAX_FILE_BYTES // (1024 * 1024)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise UserError(
                f"{path.name} was not imported: it is not a regular file "
                f"(it is {file_kind(info.st_mode)})",
                field="file",
            )
        if info.st_size > MAX_FILE_BYTES:
            raise UserError(
                f"{path.name} was not imported: the file is larger than {mb} MB", field="file"
            )
        # O_NONBLOCK: if the file was swapped for a FIFO since, opening it does not wait
        # (Windows has no FIFOs and no O_NONBLOCK, and needs O_BINARY for raw bytes).
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb", buffering=0) as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UserError(
                    f"{path.name} was not imported: it is not a regular file", field="file"
                )
            # One buffer of the file's size, filled in place: no pieces joined into a copy.
            data = bytearray(info.st_size + 1)
            view = memoryview(data)
            total = 0
            while total < len(data):
                progress("Reading", total, info.st_size)
                got = f.readinto(view[total : min(len(data), total + _CHUNK)])
                if not got:
                    break
                total += got
            view.release()
            if total > info.st_size:  # it grew while being read: the rest, to the limit + 1
                while total <= MAX_FILE_BYTES:
                    extra = f.read(min(_CHUNK, MAX_FILE_BYTES + 1 - total))
                    if not extra:
                        break
                    data += extra
                    total += len(extra)
                if total > MAX_FILE_BYTES:
                    raise UserError(
                        f"{path.name} was not imported: the file is larger than {mb} MB",
                        field="file",
                    )
    except OSError as exc:
        raise UserError(f"could not read {path}: {exc.strerror or exc}", field="file") from None
    del data[total:]
    return data
