"""Campaigns, players and armies: one method per user action, one transaction each.

Edits and deletes take ``version=``, the version of the row the caller's view showed
(``CampaignSummary.version`` ...): if someone else changed or deleted the row since, the action
is refused with a ``ConflictError`` saying so, and undo and redo steps refuse likewise when the
row moved on after their action (``services/versions.py``). Names that must be free (campaigns;
players of one campaign) are checked under a lock (the campaign's row; for campaign names a
transaction-level advisory lock on PostgreSQL; SQLite's write transactions are exclusive), so
two organizers adding "Red" at once get one player and one "already has a player" message.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, ScalarSelect, func, select, text
from sqlalchemy.orm import Session

from brikdesk.confusables import name_marks
from brikdesk.domain.catalog import DEFAULT_EDITION, Edition
from brikdesk.domain.ids import ArmyId, CampaignId, PlayerId
from brikdesk.errors import UserError
from brikdesk.limits import name_key
from brikdesk.persistence import snapshots
from brikdesk.persistence.models import (
    COST_SYSTEMS,
    Army,
    Battle,
    BattlePlayer,
    Campaign,
    HouseItem,
    HouseUnitType,
    Player,
    Unit,
    table_of,
)
from brikdesk.persistence.snapshots import Snapshot
from brikdesk.services.base import ServiceBase
from brikdesk.services.common import (
    Changes,
    Done,
    clean_colour,
    clean_int,
    clean_name,
    clean_notes,
    from_db_time,
    step,
    storage_errors,
)
from brikdesk.services.summaries import (
    NO_BUDGET,
    ArmyPatch,
    ArmySummary,
    CampaignPatch,
    CampaignSummary,
    Navigator,
    PlayerPatch,
    PlayerSummary,
)
from brikdesk.services.versions import Expected, Seen, seen, seen_from_dict

DEFAULT_BUDGET = 100
#: Colours offered to new players in turn: told apart with normal colour vision and with the
#: common deficiencies (protanopia, deuteranopia), on a light and a dark background; the text
#: on each is black or white, whichever reads (``brikdesk.domain.colours``).
PLAYER_COLOURS = (
    "#c0392b",  # red
    "#1f5fbf",  # blue
    "#27ae60",  # green
    "#d68910",  # orange
    "#e84393",  # pink
    "#7fd1c7",  # light teal
    "#9b59b6",  # violet
    "#f1c40f",  # yellow
)


def clean_edition(value: object) -> str:
    try:
        return Edition(str(value)).value
    except ValueError:
        raise UserError(
            f"'{value}' is not a rules edition BrikDesk knows; choose one of "
            + ", ".join(e.value for e in Edition),
            field="edition",
        ) from None


def clean_cost_system(value: object) -> str:
    if value not in COST_SYSTEMS:
        raise UserError(
            f"'{value}' is not a cost system; choose "
            + " or ".join(f"'{c}'" for c in COST_SYSTEMS),
            field="cost_system",
        )
    return str(value)


def campaign_summary(s: Session, c: Campaign) -> CampaignSummary:
    players = (
        s.scalar(select(func.count()).select_from(Player).where(Player.campaign_id == c.id)) or 0
    )
    armies = s.scalar(select(func.count()).select_from(Army).where(Army.campaign_id == c.id)) or 0
    units = (
        s.scalar(select(func.count()).select_from(Unit).join(Army).where(Army.campaign_id == c.id))
        or 0
    )
    battles = (
        s.scalar(select(func.count()).select_from(Battle).where(Battle.campaign_id == c.id)) or 0
    )
    return CampaignSummary(
        c.id,
        c.name,
        c.edition,
        c.cost_system,
        c.default_budget,
        c.notes,
        from_db_time(c.created_at),
        from_db_time(c.updated_at),
        players,
        armies,
        units,
        battles,
        c.version,
    )


def player_summary(p: Player, armies: int = 0) -> PlayerSummary:
    return PlayerSummary(p.id, p.campaign_id, p.name, p.colour, p.faction, armies, p.version)


class CampaignService(ServiceBase):
    """Campaigns, their players and armies."""

    # -- campaigns ----------------------------------------------------------------------------

    @storage_errors
    def list_campaigns(self) -> tuple[CampaignSummary, ...]:
        """Every campaign, most recently changed first."""
        with self._reading() as s:
            rows = s.scalars(
                select(Campaign).order_by(Campaign.updated_at.desc(), Campaign.id.desc())
            ).all()
            return tuple(campaign_summary(s, c) for c in rows)

    @storage_errors
    def get_campaign(self, campaign_id: CampaignId) -> CampaignSummary:
        with self._reading() as s:
            return campaign_summary(s, self._get(s, Campaign, campaign_id, "campaign"))

    @storage_errors
    def find_campaign(self, name: str) -> CampaignSummary | None:
        """The campaign called ``name`` (ignoring case and extra spaces), if any."""
        with self._reading() as s:
            c = campaign_by_name(s, name)
            return None if c is None else campaign_summary(s, c)

    @storage_errors
    def create_campaign(
        self,
        name: str,
        *,
        edition: str = DEFAULT_EDITION.value,
        cost_system: str = "CP",
        default_budget: int = DEFAULT_BUDGET,
        notes: str = "",
    ) -> Done[CampaignSummary]:
        name = clean_name(name, "The campaign's name")
        edition = clean_edition(edition)
        cost_system = clean_cost_system(cost_system)
        default_budget = clean_int(default_budget, "The default budget", field="default_budget")
        notes = clean_notes(notes)
        with self._sessions.begin() as s:
            lock_campaign_names(s)
            _check_free_name(s, name)
            now = self._now()
            c = Campaign(
                name=name,
                edition=edition,
                cost_system=cost_system,
                default_budget=default_budget,
                notes=notes,
                created_at=now,
                updated_at=now,
            )
            s.add(c)
            s.flush()
            summary = campaign_summary(s, c)
            snap = snapshots.take(s, table_of(Campaign), Campaign.id == c.id)
        text = f"Create campaign {name}"
        return Done(
            summary,
            Changes.CAMPAIGNS,
            text,
            redo=step(self.restore, snap, None, text),
            undo=step(self.delete_campaign, summary.id, version=_made(snap)),
        )

    @storage_errors
    def update_campaign(
        self, campaign_id: CampaignId, patch: CampaignPatch, *, version: Expected = None
    ) -> Done[CampaignPatch]:
        """Change some of a campaign's fields; ``value`` holds the old values."""
        with self._sessions.begin() as s:
            if patch.name is not None:
                lock_campaign_names(s)
            c = self._lock(s, Campaign, campaign_id, "campaign", version, fields=_fields(patch))
            before = seen(c)
            old = CampaignPatch(
                name=c.name if patch.name is not None else None,
                edition=c.edition if patch.edition is not None else None,
                cost_system=c.cost_system if patch.cost_system is not None else None,
                default_budget=c.default_budget if patch.default_budget is not None else None,
                notes=c.notes if patch.notes is not None else None,
            )
            if patch.name is not None:
                name = clean_name(patch.name, "The campaign's name")
                if name != c.name:
                    _check_free_name(s, name, but=c.id)
                c.name = name
            if patch.edition is not None:
                c.edition = clean_edition(patch.edition)
            if patch.cost_system is not None:
                c.cost_system = clean_cost_system(patch.cost_system)
            if patch.default_budget is not None:
                c.default_budget = clean_int(
                    patch.default_budget, "The default budget", field="default_budget"
                )
            if patch.notes is not None:
                c.notes = clean_notes(patch.notes)
            c.updated_at = self._now()
            s.flush()
            after = seen(c)
        changes = Changes.CAMPAIGNS
        if patch.edition is not None or patch.cost_system is not None:
            changes |= Changes.CATALOG | Changes.UNITS
        return Done(
            old,
            changes,
            "Edit campaign",
            redo=step(self.update_campaign, campaign_id, patch, version=before),
            undo=step(self.update_campaign, campaign_id, old, version=after),
        )

    @storage_errors
    def delete_campaign(
        self, campaign_id: CampaignId, *, version: Expected = None
    ) -> Done[Snapshot]:
        """Delete a campaign and everything in it; undo puts it all back."""
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign", version)
            text = f"Delete campaign {c.name}"
            snap = self._snapshot_delete(s, table_of(Campaign), Campaign.id == campaign_id)
        return self._deleted(snap, None, text)

    # -- players ------------------------------------------------------------------------------

    @storage_errors
    def list_players(self, campaign_id: CampaignId) -> tuple[PlayerSummary, ...]:
        with self._reading() as s:
            self._get(s, Campaign, campaign_id, "campaign")
            return _players(s, campaign_id)

    @storage_errors
    def add_player(
        self, campaign_id: CampaignId, name: str, *, colour: str | None = None, faction: str = ""
    ) -> Done[PlayerSummary]:
        name = clean_name(name, "The player's name")
        faction = clean_name(faction, "The faction", field="faction") if faction.strip() else ""
        with self._sessions.begin() as s:
            self._lock(s, Campaign, campaign_id, "campaign")  # names and colours: one at a time
            _check_free_player(s, campaign_id, name)
            if colour is None:
                n = (
                    s.scalar(
                        select(func.count())
                        .select_from(Player)
                        .where(Player.campaign_id == campaign_id)
                    )
                    or 0
                )
                colour = PLAYER_COLOURS[n % len(PLAYER_COLOURS)]
            p = Player(
                campaign_id=campaign_id, name=name, colour=clean_colour(colour), faction=faction
            )
            s.add(p)
            s.flush()
            summary = player_summary(p)
            snap = snapshots.take(s, table_of(Player), Player.id == p.id)
            self._touch(s, campaign_id)
        text = f"Add player {name}"
        return Done(
            summary,
            Changes.PLAYERS,
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(self.delete_player, summary.id, version=_made(snap)),
        )

    @storage_errors
    def update_player(
        self, player_id: PlayerId, patch: PlayerPatch, *, version: Expected = None
    ) -> Done[PlayerPatch]:
        with self._sessions.begin() as s:
            p = self._lock(s, Player, player_id, "player", version, fields=_fields(patch))
            before = seen(p)
            old = PlayerPatch(
                name=p.name if patch.name is not None else None,
                colour=p.colour if patch.colour is not None else None,
                faction=p.faction if patch.faction is not None else None,
            )
            if patch.name is not None:
                name = clean_name(patch.name, "The player's name")
                if name_key(name) != name_key(p.name):
                    self._lock(s, Campaign, p.campaign_id, "campaign")
                    _check_free_player(s, p.campaign_id, name, but=p.id)
                p.name = name
            if patch.colour is not None:
                p.colour = clean_colour(patch.colour)
            if patch.faction is not None:
                p.faction = (
                    clean_name(patch.faction, "The faction", field="faction")
                    if patch.faction.strip()
                    else ""
                )
            s.flush()
            after = seen(p)
            self._touch(s, p.campaign_id)
        return Done(
            old,
            Changes.PLAYERS | Changes.ARMIES | Changes.BATTLES,
            "Edit player",
            redo=step(self.update_player, player_id, patch, version=before),
            undo=step(self.update_player, player_id, old, version=after),
        )

    @storage_errors
    def delete_player(self, player_id: PlayerId, *, version: Expected = None) -> Done[Snapshot]:
        """Delete a player with their armies and units. Refused if they fought in a battle."""
        with self._sessions.begin() as s:
            p = self._lock(s, Player, player_id, "player", version)
            battles = (
                s.scalar(
                    select(func.count())
                    .select_from(BattlePlayer)
                    .where(BattlePlayer.player_id == player_id)
                )
                or 0
            )
            if battles:
                raise UserError(
                    f"{p.name} took part in {battles} battle"
                    f"{'s' if battles != 1 else ''}; delete "
                    f"{'those battles' if battles != 1 else 'that battle'} first "
                    "(the battle log needs its players)"
                )
            campaign_id = p.campaign_id
            text = f"Delete player {p.name}"
            snap = self._snapshot_delete(s, table_of(Player), Player.id == player_id)
            self._touch(s, campaign_id)
        return self._deleted(snap, campaign_id, text)

    # -- armies -------------------------------------------------------------------------------

    @storage_errors
    def list_armies(self, campaign_id: CampaignId) -> tuple[ArmySummary, ...]:
        with self._reading() as s:
            self._get(s, Campaign, campaign_id, "campaign")
            return army_summaries(s, Army.campaign_id == campaign_id)

    @storage_errors
    def get_army(self, army_id: ArmyId) -> ArmySummary:
        with self._reading() as s:
            self._get(s, Army, army_id, "army")
            return army_summaries(s, Army.id == army_id)[0]

    @storage_errors
    def add_army(
        self, player_id: PlayerId, name: str, *, budget: int | None = None
    ) -> Done[ArmySummary]:
        """A new, empty army for a player; ``budget`` defaults to the campaign's default."""
        name = clean_name(name, "The army's name")
        with self._sessions.begin() as s:
            p = self._get(s, Player, player_id, "player")
            if budget is None:
                budget = self._get(s, Campaign, p.campaign_id, "campaign").default_budget
            budget = clean_int(budget, "The budget", field="budget")
            check_free_army(s, p.campaign_id, name)
            a = Army(campaign_id=p.campaign_id, player_id=p.id, name=name, budget=budget)
            s.add(a)
            s.flush()
            summary = army_summaries(s, Army.id == a.id)[0]
            snap = snapshots.take(s, table_of(Army), Army.id == a.id)
            self._touch(s, p.campaign_id)
            campaign_id = p.campaign_id
        text = f"Add army {name}"
        return Done(
            summary,
            Changes.ARMIES,
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(self.delete_army, summary.id, version=_made(snap)),
        )

    @storage_errors
    def update_army(
        self, army_id: ArmyId, patch: ArmyPatch, *, version: Expected = None
    ) -> Done[ArmyPatch]:
        """Rename, re-budget or hand an army to another player of the same campaign."""
        with self._sessions.begin() as s:
            a = self._lock(s, Army, army_id, "army", version, fields=_fields(patch))
            before = seen(a)
            old = ArmyPatch(
                name=a.name if patch.name is not None else None,
                player_id=a.player_id if patch.player_id is not None else None,
                budget=(NO_BUDGET if a.budget is None else a.budget)
                if patch.budget is not None
                else None,
            )
            if patch.name is not None:
                name = clean_name(patch.name, "The army's name")
                if name_key(name) != name_key(a.name):
                    check_free_army(s, a.campaign_id, name, but=a.id)
                a.name = name
            if patch.player_id is not None:
                p = self._get(s, Player, patch.player_id, "player")
                if p.campaign_id != a.campaign_id:
                    raise UserError(f"{p.name} plays in another campaign", field="player")
                a.player_id = p.id
            if patch.budget is not None:
                a.budget = (
                    None
                    if patch.budget == NO_BUDGET
                    else clean_int(patch.budget, "The budget", field="budget")
                )
            s.flush()
            after = seen(a)
            self._touch(s, a.campaign_id)
        return Done(
            old,
            Changes.ARMIES | Changes.UNITS,
            "Edit army",
            redo=step(self.update_army, army_id, patch, version=before),
            undo=step(self.update_army, army_id, old, version=after),
        )

    @storage_errors
    def delete_army(self, army_id: ArmyId, *, version: Expected = None) -> Done[Snapshot]:
        """Delete an army and its units (battle logs keep their copies of the units)."""
        with self._sessions.begin() as s:
            a = self._lock(s, Army, army_id, "army", version)
            campaign_id = a.campaign_id
            text = f"Delete army {a.name}"
            snap = self._snapshot_delete(s, table_of(Army), Army.id == army_id)
            self._touch(s, campaign_id)
        return self._deleted(snap, campaign_id, text)

    # -- what changed -------------------------------------------------------------------------

    @storage_errors
    def content_stamp(self, campaign_id: CampaignId) -> tuple[object, ...]:
        """A value that changes whenever the campaign, its players, armies, units, house rules
        or battles change (each table's rows counted, their versions and the units' records
        summed), and not when only a battle's log does: the players' page reads the campaign's
        history and rosters again only then (a few small reads instead of all of it)."""
        with self._reading() as s:
            out: list[object] = [
                s.execute(
                    select(Campaign.version).where(Campaign.id == campaign_id)
                ).scalar_one_or_none()
            ]
            for model in (Player, Army, Battle, HouseItem, HouseUnitType):
                out.extend(
                    s.execute(
                        select(func.count(), func.coalesce(func.sum(model.version), 0)).where(
                            model.campaign_id == campaign_id
                        )
                    ).one()
                )
            units = (
                select(
                    Unit.status,
                    func.count(),
                    func.sum(Unit.version),
                    func.sum(Unit.kills),
                    func.sum(Unit.battles_fought),
                )
                .join(Army, Army.id == Unit.army_id)
                .where(Army.campaign_id == campaign_id)
                .group_by(Unit.status)
                .order_by(Unit.status)
            )
            out.extend(tuple(row) for row in s.execute(units))
        return tuple(out)

    # -- the navigator ------------------------------------------------------------------------

    @storage_errors
    def navigator(self, campaign_id: CampaignId) -> Navigator:
        """The campaign with its players, armies and battles, in one transaction."""
        from brikdesk.services.battles import battle_summaries

        with self._reading() as s:
            c = self._get(s, Campaign, campaign_id, "campaign")
            return Navigator(
                campaign_summary(s, c),
                _players(s, campaign_id),
                army_summaries(s, Army.campaign_id == campaign_id),
                battle_summaries(s, Battle.campaign_id == campaign_id),
            )


def _made(snap: Snapshot) -> Seen:
    """What the undo of a create expects: the root row as the create made it."""
    [row] = snap.table_rows(snap.root)
    return seen_from_dict(snap.root, row)


def _fields(patch: object) -> tuple[str, ...]:
    """The columns a patch changes (named in a conflict message)."""
    return tuple(f for f, v in vars(patch).items() if v is not None)


def lock_campaign_names(s: Session) -> None:
    """Serialise the checks of campaign names (no row to lock: the name is new). PostgreSQL: a
    transaction-level advisory lock; SQLite: the write transaction already is exclusive.
    Anything that checks a campaign name is free before storing it calls this first (an
    import of a campaign too)."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _NAMES_LOCK})


#: The advisory lock key of campaign names ("BRIK" in ASCII).
_NAMES_LOCK = 0x4252494B


def campaign_by_name(s: Session, name: str) -> Campaign | None:
    """The campaign whose name is ``name`` to a reader: the same but for case, width and
    spaces, or a look-alike (Unicode's confusable skeleton: "Mаrgo" with a Cyrillic а)."""
    wanted = name_marks(str(name))
    for c in s.scalars(select(Campaign)):
        if not wanted.isdisjoint(name_marks(c.name)):
            return c
    return None


def _check_free_name(s: Session, name: str, but: int | None = None) -> None:
    other = campaign_by_name(s, name)
    if other is not None and other.id != but:
        raise UserError(
            f"a campaign called '{other.name}' already exists; choose another name", field="name"
        )


def _check_free_player(
    s: Session, campaign_id: CampaignId, name: str, but: int | None = None
) -> None:
    """``UserError`` naming the player of the campaign (other than ``but``) whose name is
    ``name`` to a reader (see ``campaign_by_name``)."""
    wanted = name_marks(name)
    for pid, other in s.execute(
        select(Player.id, Player.name).where(Player.campaign_id == campaign_id)
    ):
        if pid != but and not wanted.isdisjoint(name_marks(other)):
            raise UserError(f"this campaign already has a player called '{other}'", field="name")


def check_free_army(s: Session, campaign_id: CampaignId, name: str, but: int | None = None) -> None:
    """``UserError`` naming the army of the campaign (other than ``but``) whose name is
    ``name`` to a reader (see ``campaign_by_name``): two armies the battle log, the reports
    and the standings could not tell apart. (Units may share a name.)"""
    wanted = name_marks(name)
    for aid, other in s.execute(select(Army.id, Army.name).where(Army.campaign_id == campaign_id)):
        if aid != but and not wanted.isdisjoint(name_marks(other)):
            raise UserError(f"this campaign already has an army called '{other}'", field="name")


def _players(s: Session, campaign_id: CampaignId) -> tuple[PlayerSummary, ...]:
    counts = dict(
        s.execute(
            select(Army.player_id, func.count())
            .where(Army.campaign_id == campaign_id)
            .group_by(Army.player_id)
        ).all()
    )
    return tuple(
        player_summary(p, counts.get(p.id, 0))
        for p in s.scalars(
            select(Player).where(Player.campaign_id == campaign_id).order_by(Player.id)
        )
    )


def army_summaries(s: Session, where: ColumnElement[bool]) -> tuple[ArmySummary, ...]:
    """Armies matching ``where`` with their player and unit count (one query)."""
    n_units: ScalarSelect[int] = (
        select(func.count()).where(Unit.army_id == Army.id).correlate(Army).scalar_subquery()
    )
    rows = s.execute(
        select(Army, Player.name, Player.colour, n_units)
        .join(Player, Player.id == Army.player_id)
        .where(where)
        .order_by(Army.id)
    ).all()
    return tuple(
        ArmySummary(
            a.id, a.campaign_id, a.player_id, pname, pcolour, a.name, a.budget, n or 0, a.version
        )
        for a, pname, pcolour, n in rows
    )
