"""The persistent model: SQLAlchemy 2.x typed tables for campaigns and battles.

ORM rows never leave ``brikdesk.persistence`` and ``brikdesk.services``: the services turn them
into frozen summaries. Every schema change is an Alembic migration (``migrations/versions``);
production code never calls ``create_all()``. Constraint names follow ``NAMING_CONVENTION`` so
that migrations can name (and SQLite batch mode can rebuild) every constraint on any database.

Times are stored as naive UTC ``DateTime`` values (the same on SQLite and PostgreSQL); the
services hand them out as aware UTC datetimes. JSON columns use ``sqlalchemy.JSON``, which maps
to the native JSON type where the database has one.

Rows a user edits are versioned ("Shared data is versioned" in docs/conventions.md): ``Versioned``
gives the table a ``version`` column that SQLAlchemy's version counter raises on every ORM update
(``UPDATE ... WHERE id = ? AND version = ?``), so two writers can never both apply a change made
from the same version. The services compare the version a view showed with the row's
(``ConflictError`` on a mismatch). Versioned: campaign, player, army, unit, house_item,
house_unit_type, battle. Not versioned, deliberately: the battle log and the battle's caches
(``battle_event``, ``battle_unit``, ``battle_player``) have one writer, the tracker, which
serialises on the battle's row and checks new events against the log as it stands
(``services/tracker.py``).

Two deliberate shapes:

- A ``BattleUnit`` keeps a copy of the unit as it was mustered (``name`` and ``spec``): the
  campaign pool stays intact and editable, and a battle's log still reads correctly after the
  unit is changed or deleted (then ``unit_id`` becomes NULL).
- House-rule catalog entries (``HouseItem``, ``HouseUnitType``) hold the whole entry as JSON,
  apart from the rules edition's defaults (``resources/catalog-<edition>.json``); deleting the
  row is "reset to the rules' value". ``custom`` marks entries the rules do not have.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column, validates

from brikdesk.domain.ids import (
    ArmyId,
    BattleId,
    BattlePlayerId,
    BattleUnitId,
    CampaignId,
    EventId,
    PlayerId,
    UnitId,
)
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.limits import KEY_LEN, KIND_LEN, MAX_ID, NAME_LEN, NOTES_LEN  # noqa: F401

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# The column lengths and the largest id are limits like any other: stated once, in
# ``brikdesk.limits``, and importable from here as before.

CAMPAIGN_STATUS = tuple(s.value for s in UnitStatus)
BATTLE_STATUS = tuple(s.value for s in BattleStatus)
COST_SYSTEMS = ("CP", "Unit Inches")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN (" + ", ".join(f"'{v}'" for v in values) + ")"


def _stored_enum(enum: type[BattleStatus | UnitStatus], length: int) -> Enum:
    """A status column: text of ``length`` holding the members' values (what the database has
    always kept), read back as the enum. The table's own CHECK constraint lists the values, so
    the type adds none (no ``native_enum``, no second constraint)."""
    return Enum(
        enum,
        native_enum=False,
        create_constraint=False,
        length=length,
        values_callable=lambda members: [m.value for m in members],
        validate_strings=True,
    )


#: Ids are never reused (SQLite AUTOINCREMENT), so an undone delete can put rows back under
#: their old ids even after other rows were added meanwhile.
NO_REUSE = {"sqlite_autoincrement": True}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: dict[Any, Any] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: DateTime(),
        # the typed ids (``brikdesk.domain.ids``) are integer columns like any other
        **{
            id_type: Integer()
            for id_type in (
                CampaignId,
                PlayerId,
                ArmyId,
                UnitId,
                BattleId,
                BattlePlayerId,
                BattleUnitId,
                EventId,
            )
        },
    }


def table_of(model: type[Base]) -> Table:
    """The table ``model`` is stored in (``model.__table__`` is typed as any FROM clause)."""
    return Base.metadata.tables[model.__tablename__]


class Versioned:
    """A ``version`` (1 for a new row, and for rows older than schema revision 0003), raised by
    one on every ORM update of the row; an update whose version no longer matches raises
    ``StaleDataError`` (turned into ``ConflictError`` by the services)."""

    version: Mapped[int] = mapped_column(Integer, server_default="1")

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:
        # the mixin has no __table__ of its own; each mapped class it is part of has
        return {"version_id_col": cls.__table__.c.version}  # type: ignore[attr-defined]


class Campaign(Versioned, Base):
    __tablename__ = "campaign"
    __table_args__ = (
        CheckConstraint(_in("cost_system", COST_SYSTEMS), name="cost_system"),
        CheckConstraint("default_budget >= 0", name="default_budget"),
        NO_REUSE,
    )

    id: Mapped[CampaignId] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LEN), unique=True)
    edition: Mapped[str] = mapped_column(String(10))
    cost_system: Mapped[str] = mapped_column(String(20))
    default_budget: Mapped[int] = mapped_column(Integer)
    notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class Player(Versioned, Base):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("campaign_id", "name"), NO_REUSE)

    id: Mapped[PlayerId] = mapped_column(primary_key=True)
    campaign_id: Mapped[CampaignId] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    colour: Mapped[str] = mapped_column(String(7))
    faction: Mapped[str] = mapped_column(String(NAME_LEN), default="")


class Army(Versioned, Base):
    __tablename__ = "army"
    __table_args__ = (
        CheckConstraint("budget IS NULL OR budget >= 0", name="budget"),
        Index(None, "campaign_id"),
        Index(None, "player_id"),
        NO_REUSE,
    )

    id: Mapped[ArmyId] = mapped_column(primary_key=True)
    campaign_id: Mapped[CampaignId] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    player_id: Mapped[PlayerId] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    #: None: no budget (the campaign's default applies when the army is created).
    budget: Mapped[int | None] = mapped_column(Integer)


class HouseEntry(Versioned):
    """The shape of both house-rule tables: one campaign's own version of a catalog entry (the
    whole entry as JSON, under the entry's key), or a ``custom`` entry the rules do not have."""

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[CampaignId] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(KEY_LEN))
    data: Mapped[dict[str, Any]]
    custom: Mapped[bool] = mapped_column(Boolean, default=False)

    @declared_attr.directive
    def __table_args__(cls) -> tuple[Any, ...]:
        return (UniqueConstraint("campaign_id", "key"), NO_REUSE)


class HouseItem(HouseEntry, Base):
    """A campaign's own version of a catalog item (a house rule), or a custom item."""

    __tablename__ = "house_item"


class HouseUnitType(HouseEntry, Base):
    """A campaign's own version of a unit type (a house rule), or a custom type."""

    __tablename__ = "house_unit_type"


class Unit(Versioned, Base):
    __tablename__ = "unit"
    __table_args__ = (
        CheckConstraint(_in("status", CAMPAIGN_STATUS), name="status"),
        CheckConstraint("battles_fought >= 0 AND kills >= 0", name="record"),
        Index(None, "army_id", "position"),
        NO_REUSE,
    )

    id: Mapped[UnitId] = mapped_column(primary_key=True)
    army_id: Mapped[ArmyId] = mapped_column(ForeignKey("army.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    type_key: Mapped[str] = mapped_column(String(KEY_LEN))
    #: Stat overrides: {"action_die": 8, "move": 6, "armor": "5", "cost": 3, ...}.
    overrides: Mapped[dict[str, Any]]
    #: Item keys in hand, one per hand used (JSON list of strings).
    hands: Mapped[list[Any]]
    worn: Mapped[list[Any]]
    carried: Mapped[list[Any]]
    notes: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[UnitStatus] = mapped_column(
        _stored_enum(UnitStatus, 10), default=UnitStatus.ALIVE
    )
    battles_fought: Mapped[int] = mapped_column(Integer, default=0)
    kills: Mapped[int] = mapped_column(Integer, default=0)
    position: Mapped[int] = mapped_column(Integer, default=0)

    @validates("status")
    def _status(self, _key: str, value: str) -> UnitStatus:
        return UnitStatus(value)  # the member, also when given its text


class Battle(Versioned, Base):
    __tablename__ = "battle"
    __table_args__ = (
        CheckConstraint(_in("status", BATTLE_STATUS), name="status"),
        Index(None, "campaign_id"),
        NO_REUSE,
    )

    id: Mapped[BattleId] = mapped_column(primary_key=True)
    campaign_id: Mapped[CampaignId] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    status: Mapped[BattleStatus] = mapped_column(
        _stored_enum(BattleStatus, 12), default=BattleStatus.PLANNED
    )
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    notes: Mapped[str] = mapped_column(Text, default="")
    #: Battle-level state cache (round, active player...): the event log is the truth.
    state: Mapped[dict[str, Any]]
    #: The post-battle update once finished (winner, notes, each unit's fate, promotions):
    #: the organizer's word, which may overrule the log (``brikdesk.services.aftermath``).
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    #: ``[first seq, last seq]`` of each group of events one action recorded together (more
    #: than one event): Undo and Redo take a group as one step (``brikdesk.services.tracker``).
    undo_groups: Mapped[list[list[int]]] = mapped_column(
        JSON, default=list, server_default=text("'[]'")
    )

    @validates("status")
    def _status(self, _key: str, value: str) -> BattleStatus:
        return BattleStatus(value)  # the member, also when given its text


class BattlePlayer(Base):
    __tablename__ = "battle_player"
    __table_args__ = (
        UniqueConstraint("battle_id", "player_id"),
        Index(None, "player_id"),
        NO_REUSE,
    )

    id: Mapped[BattlePlayerId] = mapped_column(primary_key=True)
    battle_id: Mapped[BattleId] = mapped_column(ForeignKey("battle.id", ondelete="CASCADE"))
    player_id: Mapped[PlayerId] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    turn_order: Mapped[int] = mapped_column(Integer)


class BattleUnit(Base):
    __tablename__ = "battle_unit"
    __table_args__ = (
        Index(None, "battle_id"),
        Index(None, "unit_id"),
        Index(None, "battle_player_id"),
        NO_REUSE,
    )

    id: Mapped[BattleUnitId] = mapped_column(primary_key=True)
    battle_id: Mapped[BattleId] = mapped_column(ForeignKey("battle.id", ondelete="CASCADE"))
    #: The campaign unit; NULL once that unit was deleted from the campaign.
    unit_id: Mapped[UnitId | None] = mapped_column(ForeignKey("unit.id", ondelete="SET NULL"))
    battle_player_id: Mapped[BattlePlayerId] = mapped_column(
        ForeignKey("battle_player.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    #: The unit as mustered: {"type": key, "overrides": {}, "hands": [], "worn": [], ...}.
    spec: Mapped[dict[str, Any]]
    #: Per-unit state cache for the battle tracker: the event log is the truth.
    state: Mapped[dict[str, Any]]


class BattleEvent(Base):
    __tablename__ = "battle_event"
    __table_args__ = (
        UniqueConstraint("battle_id", "seq"),
        Index(None, "actor_id"),
        Index(None, "target_id"),
        NO_REUSE,
    )

    id: Mapped[EventId] = mapped_column(primary_key=True)
    battle_id: Mapped[BattleId] = mapped_column(ForeignKey("battle.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(KIND_LEN))
    actor_id: Mapped[BattleUnitId | None] = mapped_column(
        ForeignKey("battle_unit.id", ondelete="SET NULL")
    )
    target_id: Mapped[BattleUnitId | None] = mapped_column(
        ForeignKey("battle_unit.id", ondelete="SET NULL")
    )
    #: {"dice": [{"sides", "face", "role", "why"}], "modifiers": [...], "outcome": {...}, ...}
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    reverted: Mapped[bool] = mapped_column(Boolean, default=False)


class BattleArmy(Base):
    """What an army was going into a finished battle and coming out of it: the
    cost of its living units, how many were alive, its casualties and kills so far. Written
    when the battle is finished, removed when that is undone; the history draws from it."""

    __tablename__ = "battle_army"
    __table_args__ = (
        UniqueConstraint("battle_id", "army_id"),
        Index(None, "army_id"),
        NO_REUSE,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    battle_id: Mapped[BattleId] = mapped_column(ForeignKey("battle.id", ondelete="CASCADE"))
    #: The army; NULL once it was deleted (its name stays).
    army_id: Mapped[ArmyId | None] = mapped_column(ForeignKey("army.id", ondelete="SET NULL"))
    army: Mapped[str] = mapped_column(String(NAME_LEN))
    value_in: Mapped[int] = mapped_column(Integer)
    value_out: Mapped[int] = mapped_column(Integer)
    alive_in: Mapped[int] = mapped_column(Integer)
    alive_out: Mapped[int] = mapped_column(Integer)
    casualties_in: Mapped[int] = mapped_column(Integer)
    casualties_out: Mapped[int] = mapped_column(Integer)
    kills_in: Mapped[int] = mapped_column(Integer)
    kills_out: Mapped[int] = mapped_column(Integer)
