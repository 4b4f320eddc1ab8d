"""A campaign's catalog: the rules edition's defaults plus the campaign's house rules.

The defaults come from ``resources/catalog-<edition>.json`` (``load_default_catalog``); a
campaign's edits are rows of ``house_item`` / ``house_unit_type`` holding the whole edited entry,
so "reset to the rules' value" deletes the row. An entry whose key the defaults lack is
``custom``. Every edit is reversible: its ``Done.value`` is an ``EntryChange`` (the stored entry
before and after, ``None`` meaning "no house rule"), undo puts ``before`` back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from brikdesk.domain.catalog import (
    Catalog,
    CatalogError,
    CatalogItem,
    Category,
    UnitType,
    house_rule_diff,
    item_from_dict,
    item_to_dict,
    load_default_catalog,
    new_key,
    unit_type_from_dict,
    unit_type_to_dict,
    validate_item_field,
    validate_unit_type_field,
    with_house_rules,
)
from brikdesk.domain.ids import CampaignId
from brikdesk.errors import ConflictError, UserError
from brikdesk.limits import MAX_CATALOG_ENTRIES
from brikdesk.persistence.models import Campaign, HouseEntry, HouseItem, HouseUnitType
from brikdesk.services.base import ServiceBase
from brikdesk.services.common import Changes, Done, step, storage_errors

log = logging.getLogger(__name__)

ITEM, UNIT_TYPE = "item", "unit_type"
#: ``put_entry(expect=ANY)``: store whatever is there now (no check).
ANY: Any = object()
_MODELS: dict[str, type[HouseItem] | type[HouseUnitType]] = {
    ITEM: HouseItem,
    UNIT_TYPE: HouseUnitType,
}
#: Fields whose value is true/false (set with a bool, not typed text).
ITEM_FLAGS = (
    "close_combat",
    "half_speed",
    "cant_swim",
    "charging",
    "shield",
    "armor_piercing",
    "worn",
    "as_object",
)
UNIT_TYPE_FLAGS = ("over_the_top",)


@dataclass(frozen=True)
class CatalogEntry:
    """One row of the catalog window: the entry in force, the rules' entry, the marks."""

    key: str
    entry: CatalogItem | UnitType
    default: CatalogItem | UnitType | None  # None: a custom entry
    changed: tuple[str, ...]  # fields that differ from the rules' entry
    #: The house-rule row's version (0: no house rule, the rules' entry); pass it back to edits.
    version: int = 0

    @property
    def id(self) -> str:
        return self.key

    @property
    def custom(self) -> bool:
        return self.default is None

    @property
    def house_rule(self) -> bool:
        return self.custom or bool(self.changed)


@dataclass(frozen=True)
class CatalogView:
    catalog: Catalog
    items: tuple[CatalogEntry, ...]
    unit_types: tuple[CatalogEntry, ...]


@dataclass(frozen=True)
class EntryChange:
    """A catalog edit: the stored house-rule entry before and after (``None``: no house rule)."""

    kind: str  # "item" or "unit_type"
    key: str
    before: Mapping[str, Any] | None
    after: Mapping[str, Any] | None


def _strip(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "house_rule"}


H = TypeVar("H", bound=HouseEntry)


def _locked_entry(s: Session, model: type[H], campaign_id: CampaignId, key: str) -> H | None:
    """The campaign's house rule ``key`` in ``model``'s table, read afresh and locked."""
    return s.scalar(
        select(model)
        .where(model.campaign_id == campaign_id, model.key == key)
        .with_for_update()
        .execution_options(populate_existing=True)
    )


def _parse(kind: str, data: Mapping[str, Any]) -> CatalogItem | UnitType:
    return (item_from_dict if kind == ITEM else unit_type_from_dict)(data)


def _to_dict(entry: CatalogItem | UnitType) -> dict[str, Any]:
    if isinstance(entry, CatalogItem):
        return _strip(item_to_dict(entry))
    return _strip(unit_type_to_dict(entry))


def load_campaign_catalog(s: Session, campaign_id: CampaignId) -> Catalog:
    """Defaults of the campaign's edition with its house rules, costs in its cost system."""
    c = s.get(Campaign, campaign_id)
    if c is None:
        raise UserError(f"there is no campaign with id {campaign_id}", field="id")
    return _catalog_for(s, c)


def catalog_for_edition(s: Session, campaign_id: CampaignId, edition: str) -> Catalog:
    """The campaign's catalog as it would be in another rules edition (its house rules kept):
    what an edition change previews."""
    c = s.get(Campaign, campaign_id)
    if c is None:
        raise UserError(f"there is no campaign with id {campaign_id}", field="id")
    return _catalog_for(s, c, edition)


def _catalog_for(s: Session, c: Campaign, edition: str | None = None) -> Catalog:
    defaults = load_default_catalog(edition or c.edition)
    items: dict[str, CatalogItem] = {}
    types: dict[str, UnitType] = {}
    for kind, model in _MODELS.items():
        stored: Iterable[tuple[str, dict[str, Any]]] = s.execute(
            select(model.key, model.data).where(model.campaign_id == c.id).order_by(model.id)
        )
        for key, data in stored:
            try:
                entry = _parse(kind, {**data, "key": key})
            except CatalogError as exc:  # stored by an older BrikDesk with looser checks
                log.warning("house rule %s '%s' of campaign %s ignored: %s", kind, key, c.id, exc)
                continue
            if isinstance(entry, CatalogItem):
                items[key] = entry
            else:
                types[key] = entry
    merged = with_house_rules(defaults, items, types)
    return replace(merged, cost_unit=c.cost_system) if c.cost_system != merged.cost_unit else merged


class CatalogService(ServiceBase):
    """The campaign's catalog: view, edit fields, custom entries, reset to the rules."""

    @storage_errors
    def catalog(self, campaign_id: CampaignId) -> Catalog:
        """The campaign's catalog (a frozen domain ``Catalog``) for costs and checks."""
        with self._reading() as s:
            return load_campaign_catalog(s, campaign_id)

    @storage_errors
    def view(self, campaign_id: CampaignId) -> CatalogView:
        """Every item and unit type with the rules' value and what differs."""
        with self._reading() as s:
            c = self._get(s, Campaign, campaign_id, "campaign")
            cat = _catalog_for(s, c)
            defaults = load_default_catalog(c.edition)
            versions = {
                kind: dict(
                    s.execute(
                        select(model.key, model.version).where(model.campaign_id == c.id)
                    ).all()
                )
                for kind, model in _MODELS.items()
            }

        def rows(
            entries: Sequence[CatalogItem | UnitType],
            lookup: Callable[[str], CatalogItem | UnitType | None],
            kind: str,
        ) -> tuple[CatalogEntry, ...]:
            out = []
            for e in entries:
                d = lookup(e.key)
                out.append(
                    CatalogEntry(
                        e.key,
                        e,
                        d,
                        () if d is None else house_rule_diff(d, e),
                        versions[kind].get(e.key, 0),
                    )
                )
            return tuple(out)

        return CatalogView(
            cat,
            rows(cat.items, defaults.get_item, ITEM),
            rows(cat.unit_types, defaults.get_unit_type, UNIT_TYPE),
        )

    # -- field edits --------------------------------------------------------------------------

    @storage_errors
    def set_item_field(
        self,
        campaign_id: CampaignId,
        key: str,
        field: str,
        value: Any,
        *,
        version: int | None = None,
    ) -> Done[EntryChange]:
        """Set one field of an item as typed (``"3"``, ``"CC"``, ``"1dA+2"``, ``"-"``), or a
        flag to True/False, or ``category``. The whole entry is checked before it is stored.
        ``field="range"`` takes ``CC``, ``-`` or inches (sets Range and Close Combat).
        ``version``: ``CatalogEntry.version`` as the caller's view showed it (see ``_put``)."""
        return self._set_field(campaign_id, ITEM, key, field, value, version)

    @storage_errors
    def set_unit_type_field(
        self,
        campaign_id: CampaignId,
        key: str,
        field: str,
        value: Any,
        *,
        version: int | None = None,
    ) -> Done[EntryChange]:
        """Set one field of a unit type as typed (``"d8"``, ``"7"``, ``"2d6"``) or a flag."""
        return self._set_field(campaign_id, UNIT_TYPE, key, field, value, version)

    def _set_field(
        self,
        campaign_id: CampaignId,
        kind: str,
        key: str,
        field: str,
        value: Any,
        version: int | None = None,
    ) -> Done[EntryChange]:
        flags = ITEM_FLAGS if kind == ITEM else UNIT_TYPE_FLAGS
        if field in flags:
            if not isinstance(value, bool):
                raise UserError(f"{field.replace('_', ' ')} is either on or off", field=field)
            updates: dict[str, Any] = {field: value}
        elif kind == ITEM and field == "category":
            try:
                updates = {"category": Category(str(value)).value}
            except ValueError:
                raise UserError(
                    f"'{value}' is not a category; choose one of "
                    + ", ".join(c.value for c in Category),
                    field=field,
                ) from None
        else:
            if not isinstance(value, str):
                value = "-" if value is None else str(value)
            try:
                checked = (validate_item_field if kind == ITEM else validate_unit_type_field)(
                    field, value
                )
            except ValueError as exc:
                if isinstance(exc, UserError):
                    raise
                raise UserError(
                    f"'{field}' is not a field that can be edited", field=field
                ) from None
            if kind == ITEM and field == "range":
                updates = {"range_inches": checked[0], "close_combat": checked[1]}
            else:
                updates = {field: checked}
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            cat = _catalog_for(s, c)
            current = cat.get_item(key) if kind == ITEM else cat.get_unit_type(key)
            if current is None:
                raise UserError(
                    f"there is no {_what(kind)} '{key}' in this campaign's catalog", field="key"
                )
            data = {**_to_dict(current), **updates}
            try:
                entry = _parse(kind, data)
            except CatalogError as exc:
                raise UserError(exc.reason, field=field) from None
            change = self._put(s, c, kind, key, _to_dict(entry), version=version, name=current.name)
        label = getattr(current, "name", key)
        return self._done(campaign_id, change, f"Edit {label}: {field.replace('_', ' ')}")

    @storage_errors
    def reset_item_field(
        self, campaign_id: CampaignId, key: str, field: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        """Put one field of an item back to the rules' value."""
        return self._reset_field(campaign_id, ITEM, key, field, version)

    @storage_errors
    def reset_unit_type_field(
        self, campaign_id: CampaignId, key: str, field: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        return self._reset_field(campaign_id, UNIT_TYPE, key, field, version)

    def _reset_field(
        self, campaign_id: CampaignId, kind: str, key: str, field: str, version: int | None = None
    ) -> Done[EntryChange]:
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            defaults = load_default_catalog(c.edition)
            default = defaults.get_item(key) if kind == ITEM else defaults.get_unit_type(key)
            if default is None:
                raise UserError(
                    f"'{key}' is a custom {_what(kind)}: it has no rules' value", field="key"
                )
            fields = ("range_inches", "close_combat") if field == "range" else (field,)
            if any(not hasattr(default, f) or f in ("key", "house_rule") for f in fields):
                raise UserError(f"'{field}' is not a field that can be reset", field=field)
            cat = _catalog_for(s, c)
            current = cat.get_item(key) if kind == ITEM else cat.get_unit_type(key)
            assert current is not None
            data = _to_dict(current)
            ddata = _to_dict(default)
            for f in fields:
                if f in ddata:
                    data[f] = ddata[f]
                else:
                    data.pop(f, None)
            try:
                entry = _parse(kind, data)
            except CatalogError as exc:
                raise UserError(
                    f"can't reset {field} alone: {exc.reason}; reset the whole entry instead",
                    field=field,
                ) from None
            change = self._put(s, c, kind, key, _to_dict(entry), version=version, name=default.name)
        return self._done(campaign_id, change, f"Reset {default.name}: {field}")

    # -- whole entries ------------------------------------------------------------------------

    @storage_errors
    def reset_item(
        self, campaign_id: CampaignId, key: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        """Put an item back to the rules' value (drop the house rule)."""
        return self._reset(campaign_id, ITEM, key, version)

    @storage_errors
    def reset_unit_type(
        self, campaign_id: CampaignId, key: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        return self._reset(campaign_id, UNIT_TYPE, key, version)

    def _reset(
        self, campaign_id: CampaignId, kind: str, key: str, version: int | None = None
    ) -> Done[EntryChange]:
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            defaults = load_default_catalog(c.edition)
            default = defaults.get_item(key) if kind == ITEM else defaults.get_unit_type(key)
            if default is None:
                raise UserError(
                    f"'{key}' is a custom {_what(kind)}: it has no rules' value to "
                    "go back to (delete it instead)",
                    field="key",
                )
            model = _MODELS[kind]
            if (
                s.scalar(select(model.id).where(model.campaign_id == c.id, model.key == key))
                is None
            ):
                raise UserError(f"{default.name} already has the rules' value", field="key")
            change = self._put(s, c, kind, key, None, version=version, name=default.name)
        return self._done(campaign_id, change, f"Reset {default.name} to the rules")

    @storage_errors
    def add_custom_item(
        self,
        campaign_id: CampaignId,
        name: str,
        *,
        based_on: str | None = None,
        category: str = Category.WEAPON.value,
    ) -> Done[EntryChange]:
        """A new custom item, a copy of ``based_on`` (a key) or a plain one-handed weapon."""
        return self._add(campaign_id, ITEM, name, based_on, category)

    @storage_errors
    def add_custom_unit_type(
        self, campaign_id: CampaignId, name: str, *, based_on: str | None = "minifig"
    ) -> Done[EntryChange]:
        """A new custom unit type, a copy of ``based_on`` (default: the Minifig)."""
        return self._add(campaign_id, UNIT_TYPE, name, based_on, None)

    def _add(
        self,
        campaign_id: CampaignId,
        kind: str,
        name: str,
        based_on: str | None,
        category: str | None,
    ) -> Done[EntryChange]:
        from brikdesk.services.common import clean_name

        name = clean_name(name, f"The {_what(kind)}'s name", max_len=80)
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            cat = _catalog_for(s, c)
            entries = cat.items if kind == ITEM else cat.unit_types
            key = new_key(
                name,
                {e.key for e in entries}
                | set(
                    s.scalars(select(_MODELS[kind].key).where(_MODELS[kind].campaign_id == c.id))
                ),
            )
            if based_on is not None:
                base = cat.get_item(based_on) if kind == ITEM else cat.get_unit_type(based_on)
                if base is None:
                    raise UserError(
                        f"there is no {_what(kind)} '{based_on}' to copy", field="based_on"
                    )
                data = {**_to_dict(base), "key": key, "name": name}
            elif kind == ITEM:
                try:
                    cat_value = Category(category or "weapon")
                except ValueError:
                    raise UserError(f"'{category}' is not a category", field="category") from None
                data = {
                    "key": key,
                    "name": name,
                    "category": cat_value.value,
                    "cost": 1,
                    "use": 3,
                    "range_inches": None,
                    "close_combat": True,
                    "damage": "1dA",
                    "hands": 1,
                }
                if cat_value is Category.ARMOR:
                    data.update(use=None, close_combat=False, damage="", hands=0, worn=True)
            else:
                data = {
                    "key": key,
                    "name": name,
                    "action_die": 6,
                    "move": 5,
                    "armor": "4",
                    "cost": 4,
                }
            entry = _parse(kind, data)
            change = self._put(s, c, kind, key, _to_dict(entry))
        return self._done(campaign_id, change, f"Add {name}")

    @storage_errors
    def delete_custom_item(
        self, campaign_id: CampaignId, key: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        """Delete a custom item (units that hold it show an "unknown item" warning)."""
        return self._delete(campaign_id, ITEM, key, version)

    @storage_errors
    def delete_custom_unit_type(
        self, campaign_id: CampaignId, key: str, *, version: int | None = None
    ) -> Done[EntryChange]:
        return self._delete(campaign_id, UNIT_TYPE, key, version)

    def _delete(
        self, campaign_id: CampaignId, kind: str, key: str, version: int | None = None
    ) -> Done[EntryChange]:
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            defaults = load_default_catalog(c.edition)
            if defaults.get_item(key) if kind == ITEM else defaults.get_unit_type(key):
                raise UserError(
                    f"'{key}' is in the rules and can't be deleted; reset it to "
                    "the rules' value instead",
                    field="key",
                )
            model = _MODELS[kind]
            if (
                s.scalar(select(model.id).where(model.campaign_id == c.id, model.key == key))
                is None
            ):
                if version:
                    raise ConflictError(
                        f"the custom {_what(kind)} '{key}' was deleted by "
                        "someone else since you opened it; nothing was changed"
                    )
                raise UserError(f"there is no custom {_what(kind)} '{key}'", field="key")
            change = self._put(s, c, kind, key, None, version=version)
        return self._done(campaign_id, change, f"Delete {key}")

    @storage_errors
    def put_entry(
        self,
        campaign_id: CampaignId,
        kind: str,
        key: str,
        data: Mapping[str, Any] | None,
        *,
        expect: Any = ANY,
    ) -> Done[EntryChange]:
        """Store ``data`` as the house-rule entry of ``key`` (``None``: no house rule).

        The primitive behind undo and redo of every catalog edit. ``expect``: the stored entry
        the step's action left (``None``: none); if it is another now, someone else changed
        the entry since, and the step is refused (``ConflictError``)."""
        if kind not in _MODELS:
            raise UserError(f"'{kind}' is not a catalog entry kind")
        if data is not None:
            try:
                _parse(kind, {**data, "key": key})
            except CatalogError as exc:
                raise UserError(exc.message) from None
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            change = self._put(s, c, kind, key, data, expect=expect)
        return self._done(campaign_id, change, "Catalog edit")

    def _put(
        self,
        s: Session,
        c: Campaign,
        kind: str,
        key: str,
        data: Mapping[str, Any] | None,
        *,
        version: int | None = None,
        expect: Any = ANY,
        name: str | None = None,
    ) -> EntryChange:
        """Store the house-rule entry, under the campaign row's lock (every catalog write takes
        it first, through ``_lock``). ``version``: the caller view's ``CatalogEntry.version``
        (0: it showed no house rule); ``expect``: the stored data an undo or redo step expects.
        Either one not matching: ``ConflictError``, nothing stored."""
        model = _MODELS[kind]
        row = _locked_entry(s, model, c.id, key)
        before: dict[str, Any] | None = None if row is None else dict(row.data)
        label = name or (before or {}).get("name") or key
        if version is not None and version != (0 if row is None else row.version):
            raise ConflictError(
                f"{label} was changed by someone else since you opened it; nothing was changed"
            )
        if expect is not ANY and (None if expect is None else dict(expect)) != before:
            raise ConflictError(
                f"{label} was changed by someone else since you changed it; nothing was changed"
            )
        defaults = load_default_catalog(c.edition)
        default = defaults.get_item(key) if kind == ITEM else defaults.get_unit_type(key)
        if data is not None and default is not None and _to_dict(default) == dict(data):
            data = None  # every value is the rules' again: no house rule
        if data is None:
            if row is not None:
                s.execute(delete(model).where(model.id == row.id))
        elif row is None:
            held = s.execute(
                select(func.count()).select_from(model).where(model.campaign_id == c.id)
            ).scalar_one()
            if held >= MAX_CATALOG_ENTRIES:  # the bound an import reads back (one set of limits)
                raise UserError(
                    f"this campaign already has {held:,} house {_what(kind)}s, the most a "
                    "campaign can hold (its export could not be imported again); delete one first",
                    field="name",
                )
            s.add(model(campaign_id=c.id, key=key, data=dict(data), custom=default is None))
        else:
            row.data = dict(data)
            row.custom = default is None
        self._touch(s, c.id)
        return EntryChange(kind, key, before, None if data is None else dict(data))

    def _done(self, campaign_id: CampaignId, change: EntryChange, text: str) -> Done[EntryChange]:
        return Done(
            change,
            Changes.CATALOG | Changes.UNITS,
            text,
            redo=step(
                self.put_entry,
                campaign_id,
                change.kind,
                change.key,
                change.after,
                expect=change.before,
            ),
            undo=step(
                self.put_entry,
                campaign_id,
                change.kind,
                change.key,
                change.before,
                expect=change.after,
            ),
        )


def _what(kind: str) -> str:
    return "item" if kind == ITEM else "unit type"
