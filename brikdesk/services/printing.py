"""What printing needs from the database: roster sheets and battle reports, and finding the
army or battle a user named.

Each method reads in one transaction and returns the domain's content (``RosterSheet``,
``BattleReport``), ready for ``ui/printing`` to lay out and paint, or ``report_markdown`` to
write. Nothing here imports Qt: the command line and the app share it.

Readings (``READINGS``, for the print dialog's notes):

- A roster sheet prints the units that can fight: a unit dead in the campaign is left out (the
  result names it) unless ``include_dead`` is asked for. Wounded units are printed with
  "Wounded" in their campaign notes, with their battles and kills.
- A name given on the command line matches an army (battle, campaign) ignoring case and extra
  spaces; if no name matches exactly, a unique part of a name does ("vanguard"). A number is
  an id. Several matches are refused with the candidates and their ids.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from brikdesk.domain.aftermath import result_from_json
from brikdesk.domain.ids import ArmyId, BattleId, CampaignId
from brikdesk.domain.report import (
    BattleFacts,
    BattleReport,
    LoggedEvent,
    ReportPlayer,
    ReportUnit,
    build_battle_report,
    report_markdown,
)
from brikdesk.domain.roster import Loadout, UnitSpec
from brikdesk.domain.sheets import RosterSheet, RosterSheetOptions, SheetHeader, build_roster_sheet
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.errors import UserError
from brikdesk.files import writable_target, write_atomically
from brikdesk.persistence.models import (
    Army,
    Battle,
    BattleEvent,
    BattlePlayer,
    BattleUnit,
    Campaign,
    Player,
    Unit,
)
from brikdesk.services.base import ServiceBase
from brikdesk.services.campaigns import army_summaries
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import from_db_time, storage_errors, unknown
from brikdesk.services.roster import overrides_from_json
from brikdesk.services.summaries import ArmySummary
from brikdesk.words import outcome_words

READINGS: dict[str, str] = {
    "dead_units": "A roster sheet prints the units that can fight: units dead in the campaign "
    "are left out unless asked for. Wounded units say so in their campaign notes.",
    "names": "Names match ignoring case and extra spaces; if none matches exactly, a unique "
    "part of a name does. A number is an id.",
}

PLURALS = {"army": "armies", "battle": "battles", "campaign": "campaigns"}

#: How many candidates an "unknown name" message lists before "and N more".
MAX_LISTED = 8


@dataclass(frozen=True)
class RosterPrint:
    """A roster sheet ready to lay out, with the army it is of and the units left out."""

    sheet: RosterSheet
    army: ArmySummary
    campaign: str
    left_out: tuple[str, ...]  # units dead in the campaign, not printed


@dataclass(frozen=True)
class BattleRosterPrint:
    """The roster sheet of a battle's mustered units, with the battle it is of."""

    sheet: RosterSheet
    battle_id: BattleId
    battle: str
    campaign: str
    players: tuple[str, ...]


#: The kind of id a ``Found`` holds (``CampaignId``, ``ArmyId`` or ``BattleId``).
IdT = TypeVar("IdT", bound=int)


@dataclass(frozen=True)
class Found(Generic[IdT]):
    """A campaign, army or battle a user named: its id, name and where it belongs."""

    id: IdT
    name: str
    campaign_id: CampaignId
    context: str  # "Margo, Demo: Battle for Baseplate Valley"

    @property
    def listing(self) -> str:
        return f"'{self.name}' (id {self.id}, {self.context})"


def campaign_notes(status: UnitStatus, battles: int, kills: int) -> str:
    """``"Wounded; 2 battles, 1 kill"``: a unit's campaign record for its card."""
    parts = []
    if status is UnitStatus.WOUNDED:
        parts.append("Wounded")
    elif status is UnitStatus.DEAD:
        parts.append("Dead in the campaign")
    record = []
    if battles:
        record.append(f"{battles} battle{'s' if battles != 1 else ''}")
    if kills:
        record.append(f"{kills} kill{'s' if kills != 1 else ''}")
    if record:
        parts.append(", ".join(record))
    return "; ".join(parts)


def check_out_path(path: str | os.PathLike[str], *suffixes: str) -> Path:
    """The file to write, checked before any work: one of ``suffixes`` (case ignored), not a
    folder, in a folder that exists. A ``UserError`` naming ``--out`` otherwise."""
    target = Path(path)
    if suffixes and target.suffix.lower() not in suffixes:
        raise UserError(f"--out: '{target}' must end in " + " or ".join(suffixes), field="out")
    writable_target(target, field="out")  # a folder, device, FIFO, long name, missing folder
    return target


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (``brikdesk.files.write_atomically``)."""
    return write_atomically(path, text, field="out")


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    old = os.umask(0o022)
    os.umask(old)
    return old


def write_report_markdown(report: BattleReport, path: str | os.PathLike[str]) -> Path:
    """The battle report as a Markdown file (for a forum post)."""
    return write_text(path, report_markdown(report))


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def pick(what: str, ref: str, candidates: Sequence[Found[IdT]], scope: str = "") -> Found[IdT]:
    """The one candidate ``ref`` names (an id, a name, or a unique part of a name), or a
    ``UserError`` in one line: unknown (with the names there are) or ambiguous (with ids)."""
    whats = PLURALS.get(what, f"{what}s")
    wanted = _norm(ref)
    if not wanted:
        raise UserError(f"name the {what} (its name or id)", field=what)
    where = f" in {scope}" if scope else ""
    if wanted.isdigit():
        by_id = [c for c in candidates if c.id == int(wanted)]
        if by_id:
            return by_id[0]
    for matches in (
        [c for c in candidates if _norm(c.name) == wanted],
        [c for c in candidates if wanted in _norm(c.name)],
    ):
        if len(matches) == 1:
            return matches[0]
        if matches:
            listed = ", ".join(c.listing for c in matches[:MAX_LISTED])
            more = f" and {len(matches) - MAX_LISTED} more" if len(matches) > MAX_LISTED else ""
            raise UserError(
                f"'{ref}' matches {len(matches)} {whats}{where}: {listed}{more}; give the id",
                field=what,
            )
    if not candidates:
        raise UserError(
            f"there is no {what} called '{ref}'{where}: there are no {whats}", field=what
        )
    listed = ", ".join(c.listing for c in candidates[:MAX_LISTED])
    more = (
        f" and {len(candidates) - MAX_LISTED} more ('brikdesk list' shows them all)"
        if len(candidates) > MAX_LISTED
        else ""
    )
    raise UserError(
        f"there is no {what} called '{ref}'{where}; the {whats} are: {listed}{more}", field=what
    )


class PrintService(ServiceBase):
    """Reading what printed sheets and reports show."""

    # -- finding what the user named ----------------------------------------------------------

    @storage_errors
    def find_campaign(self, ref: str) -> Found[CampaignId]:
        with self._reading() as s:
            rows = [
                Found(c.id, c.name, c.id, f"{c.edition} rules")
                for c in s.scalars(select(Campaign).order_by(Campaign.id))
            ]
        return pick("campaign", ref, rows)

    @storage_errors
    def find_army(self, ref: str, campaign: str | None = None) -> Found[ArmyId]:
        """The army ``ref`` names (id, name or unique part), within ``campaign`` if given."""
        scope_id, scope = self._scope(campaign)
        with self._reading() as s:
            q = (
                select(Army.id, Army.name, Army.campaign_id, Player.name, Campaign.name)
                .join(Player, Player.id == Army.player_id)
                .join(Campaign, Campaign.id == Army.campaign_id)
                .order_by(Army.id)
            )
            if scope_id is not None:
                q = q.where(Army.campaign_id == scope_id)
            rows = [
                Found(i, n, c, f"{p}, {cn}" if scope_id is None else p)
                for i, n, c, p, cn in s.execute(q)
            ]
        return pick("army", ref, rows, scope)

    @storage_errors
    def find_battle(self, ref: str, campaign: str | None = None) -> Found[BattleId]:
        scope_id, scope = self._scope(campaign)
        with self._reading() as s:
            q = (
                select(Battle.id, Battle.name, Battle.campaign_id, Battle.status, Campaign.name)
                .join(Campaign, Campaign.id == Battle.campaign_id)
                .order_by(Battle.id)
            )
            if scope_id is not None:
                q = q.where(Battle.campaign_id == scope_id)
            rows = [
                Found(
                    i,
                    n,
                    c,
                    (
                        st.replace("_", " ")
                        if scope_id is not None
                        else f"{st.replace('_', ' ')}, {cn}"
                    ),
                )
                for i, n, c, st, cn in s.execute(q)
            ]
        return pick("battle", ref, rows, scope)

    def _scope(self, campaign: str | None) -> tuple[CampaignId | None, str]:
        if campaign is None:
            return None, ""
        c = self.find_campaign(campaign)
        return c.id, f"'{c.name}'"

    # -- the roster sheet ---------------------------------------------------------------------

    @storage_errors
    def roster_sheet(
        self,
        army_id: ArmyId,
        options: RosterSheetOptions | None = None,
        *,
        date: _dt.date | None = None,
        include_dead: bool = False,
    ) -> RosterPrint:
        """The printed content of one army (one transaction). ``date`` defaults to today (the
        service's clock, in local time)."""
        options = options or RosterSheetOptions()
        with self._reading() as s:
            army = self._get(s, Army, army_id, "army")
            summary = army_summaries(s, Army.id == army_id)[0]
            campaign_name = _campaign(s, army.campaign_id).name
            cat = load_campaign_catalog(s, army.campaign_id)
            units = [
                (
                    UnitSpec(
                        u.name,
                        u.type_key,
                        Loadout(tuple(u.hands or ()), tuple(u.worn or ()), tuple(u.carried or ())),
                        overrides_from_json(u.overrides),
                        u.notes,
                    ),
                    campaign_notes(u.status, u.battles_fought, u.kills),
                    u.status,
                )
                for u in s.scalars(
                    select(Unit).where(Unit.army_id == army_id).order_by(Unit.position, Unit.id)
                )
            ]
        printed = [
            (spec, note)
            for spec, note, status in units
            if include_dead or status is not UnitStatus.DEAD
        ]
        left_out = tuple(
            spec.name
            for spec, _note, status in units
            if not include_dead and status is UnitStatus.DEAD
        )
        notes: dict[str, str] = {}
        clash: set[str] = set()
        for spec, text in printed:  # names are not unique: a note shared by all of that name
            if spec.name in notes and notes[spec.name] != text:
                clash.add(spec.name)
            notes.setdefault(spec.name, text)
        for name in clash:
            notes[name] = ""
        header = SheetHeader(
            army=summary.name,
            player=summary.player_name,
            campaign=campaign_name,
            budget=summary.budget,
            date=date or self._clock().astimezone().date(),
            colour=_colour(summary.player_colour),
        )
        sheet = build_roster_sheet(
            header,
            [spec for spec, _note in printed],
            cat,
            options,
            campaign_notes={k: v for k, v in notes.items() if v},
        )
        return RosterPrint(sheet, summary, campaign_name, left_out)

    @storage_errors
    def battle_roster_sheet(
        self,
        battle_id: BattleId,
        options: RosterSheetOptions | None = None,
        *,
        date: _dt.date | None = None,
    ) -> BattleRosterPrint:
        """The roster sheet of exactly the units mustered into a battle (the battle's copies,
        every side, in turn order): each card says whose unit it is and from which army."""
        options = options or RosterSheetOptions()
        with self._reading() as s:
            b = self._get(s, Battle, battle_id, "battle")
            campaign_name = _campaign(s, b.campaign_id).name
            cat = load_campaign_catalog(s, b.campaign_id)
            players = [
                (bp.id, p.name)
                for bp, p in s.execute(
                    select(BattlePlayer, Player)
                    .join(Player)
                    .where(BattlePlayer.battle_id == battle_id)
                    .order_by(BattlePlayer.turn_order, BattlePlayer.id)
                )
            ]
            rows = s.scalars(
                select(BattleUnit).where(BattleUnit.battle_id == battle_id).order_by(BattleUnit.id)
            ).all()
            order = {bp: i for i, (bp, _n) in enumerate(players)}
            names = dict(players)
            units = []
            for bu in sorted(rows, key=lambda r: (order.get(r.battle_player_id, 0), r.id)):
                stored = bu.spec if isinstance(bu.spec, dict) else {}
                army = stored.get("army") if isinstance(stored.get("army"), str) else ""
                units.append(
                    (
                        UnitSpec(
                            bu.name,
                            str(stored.get("type", "")),
                            Loadout(
                                tuple(stored.get("hands") or ()),
                                tuple(stored.get("worn") or ()),
                                tuple(stored.get("carried") or ()),
                            ),
                            overrides_from_json(stored.get("overrides") or {}),
                            str(stored.get("notes") or ""),
                        ),
                        ", ".join(x for x in (names.get(bu.battle_player_id, ""), army) if x),
                    )
                )
            name = b.name
        notes: dict[str, str] = {}
        for spec, side in units:  # a name shared across sides gets no side note
            notes[spec.name] = side if notes.get(spec.name, side) == side else ""
        header = SheetHeader(
            army=name,
            player=" vs ".join(n for _bp, n in players),
            campaign=campaign_name,
            budget=None,
            date=date or self._clock().astimezone().date(),
        )
        sheet = build_roster_sheet(
            header,
            [spec for spec, _side in units],
            cat,
            options,
            campaign_notes={k: v for k, v in notes.items() if v},
        )
        return BattleRosterPrint(
            sheet, battle_id, name, campaign_name, tuple(n for _bp, n in players)
        )

    # -- the battle report --------------------------------------------------------------------

    @storage_errors
    def battle_report(self, battle_id: BattleId) -> BattleReport:
        """The report of a battle from the events that stand (one transaction)."""
        with self._reading() as s:
            b = self._get(s, Battle, battle_id, "battle")
            campaign = _campaign(s, b.campaign_id)
            players = [
                ReportPlayer(p.id, p.name, p.colour, p.faction)
                for _bp, p in s.execute(
                    select(BattlePlayer, Player)
                    .join(Player)
                    .where(BattlePlayer.battle_id == battle_id)
                    .order_by(BattlePlayer.turn_order, BattlePlayer.id)
                )
            ]
            side = dict(
                s.execute(
                    select(BattlePlayer.id, BattlePlayer.player_id).where(
                        BattlePlayer.battle_id == battle_id
                    )
                ).all()
            )
            units = [
                ReportUnit(bu.id, side[bu.battle_player_id], bu.name)
                for bu in s.scalars(
                    select(BattleUnit)
                    .where(BattleUnit.battle_id == battle_id)
                    .order_by(BattleUnit.id)
                )
            ]
            events = [
                LoggedEvent(e.seq, e.kind, e.actor_id, e.target_id, dict(e.payload))
                for e in s.scalars(
                    select(BattleEvent)
                    .where(BattleEvent.battle_id == battle_id, BattleEvent.reverted.is_(False))
                    .order_by(BattleEvent.seq)
                )
            ]
            when = from_db_time(b.finished_at or b.created_at)
            facts = BattleFacts(
                name=b.name,
                campaign=campaign.name,
                status=b.status,
                date=when.astimezone().date() if when else None,
                notes=b.notes,
                edition=campaign.edition,
            )
            result = result_from_json(b.result) if b.status is BattleStatus.FINISHED else None
        report = build_battle_report(facts, players, units, events)
        if result is None:
            return report
        if result.draw:
            return replace(report, outcome=outcome_words(None).capitalize())
        winner = next((p.name for p in players if p.player_id == result.winner), None)
        return replace(report, outcome=outcome_words(winner)) if winner is not None else report


def _campaign(s: Session, campaign_id: CampaignId) -> Campaign:
    """The campaign an army or battle belongs to (the foreign key keeps it; a database edited
    by hand may not: then the usual "there is no campaign with id" error)."""
    campaign = s.get(Campaign, campaign_id)
    if campaign is None:
        raise unknown("campaign", campaign_id)
    return campaign


def _colour(value: str | None) -> str | None:
    """A player's colour as ``#rrggbb`` for the sheet's header band (``#abc`` widened)."""
    if not value:
        return None
    v = value.strip().lstrip("#")
    if len(v) == 3:
        v = "".join(ch * 2 for ch in v)
    return f"#{v.lower()}" if len(v) == 6 else None


__all__ = [
    "READINGS",
    "BattleRosterPrint",
    "Found",
    "PrintService",
    "RosterPrint",
    "campaign_notes",
    "check_out_path",
    "pick",
    "write_report_markdown",
    "write_text",
]
