"""Two organizers on one campaign: a write or an undo from a stale view is refused, with what
changed, and nothing is written (services/versions.py). ``other`` is a second set of services
over the same database, as another BrikDesk would be (tests/concurrency runs real processes)."""

from __future__ import annotations

import pytest

from brikdesk.errors import ConflictError, StorageError, UserError
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.services.common import storage_errors
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import ArmyPatch, CampaignPatch, Muster, PlayerPatch
from tests.services.conftest import Camp, TickingClock


@pytest.fixture
def other(db: Database) -> Services:
    return Services.open(db, TickingClock())


def unit(sv: Services, army_id: int, name: str):
    return next(u for u in sv.roster.roster(army_id).units if u.name == name)


def test_summaries_carry_the_version_and_an_edit_raises_it(sv: Services, camp: Camp) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Sir Brickley").value
    row = unit(sv, camp.red_army.id, "Sir Brickley")
    assert row.version == 1 and camp.red_army.version == 1 and camp.campaign.version == 1
    sv.roster.edit_unit(uid, UnitPatch(kills=1), version=row.version)
    assert sv.roster.unit_rows([uid])[0].version == 2
    # Touching the campaign (every edit stamps its updated_at) is not a change of its settings.
    assert sv.campaigns.get_campaign(camp.campaign.id).version == 1


def test_an_edit_from_a_stale_view_is_refused_saying_what_changed(
    sv: Services, other: Services, camp: Camp
) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Sir Brickley").value
    seen = unit(sv, camp.red_army.id, "Sir Brickley")
    other.roster.edit_unit(uid, UnitPatch(name="Sir Brick"))
    with pytest.raises(
        ConflictError,
        match=r"Sir Brick was changed by someone else since you "
        r"opened it \(name now 'Sir Brick'\); nothing was "
        r"changed",
    ):
        sv.roster.edit_unit(uid, UnitPatch(name="Sir Brickley the Bold"), version=seen.version)
    assert sv.roster.unit_rows([uid])[0].name == "Sir Brick"
    # From the fresh row it goes through.
    fresh = sv.roster.unit_rows([uid])[0]
    sv.roster.edit_unit(uid, UnitPatch(name="Sir Brickley the Bold"), version=fresh.version)
    assert sv.roster.unit_rows([uid])[0].name == "Sir Brickley the Bold"


def test_a_rename_undone_after_someone_else_renamed_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    """A renames, B renames, A's Undo: refused, naming B's rename, instead of wiping it."""
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Minifig 1").value
    mine = sv.roster.edit_unit(uid, UnitPatch(name="Sir Brickley"))
    theirs = other.roster.edit_unit(uid, UnitPatch(name="Sir Brick"))
    with pytest.raises(ConflictError) as err:
        mine.undo()
    assert str(err.value) == (
        "Sir Brickley was renamed to 'Sir Brick' by someone else since "
        "you changed it; nothing was changed"
    )
    assert sv.roster.unit_rows([uid])[0].name == "Sir Brick"
    # The other organizer's own undo is fine, and then mine applies again.
    theirs.undo()
    mine.undo()
    assert sv.roster.unit_rows([uid])[0].name == "Minifig 1"


def test_one_organizers_own_undo_and_redo_chain_still_works(sv: Services, camp: Camp) -> None:
    """Versions only grow, but an undo step accepts the row when its values are the ones its
    action left: add, rename, undo both, redo both."""
    add = sv.roster.add_unit(camp.red_army.id, "minifig", name="Ann")
    [uid] = add.value
    rename = sv.roster.edit_unit(uid, UnitPatch(name="Bea"), version=1)
    rename.undo()
    add.undo()
    assert sv.roster.roster(camp.red_army.id).units == ()
    add.redo()
    rename.redo()
    assert sv.roster.unit_rows([uid])[0].name == "Bea"
    rename.undo()
    rename.redo()
    assert sv.roster.unit_rows([uid])[0].name == "Bea"


def test_undoing_an_add_after_someone_edited_the_unit_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    add = sv.roster.add_unit(camp.red_army.id, "minifig", name="Rookie")
    [uid] = add.value
    other.roster.edit_unit(uid, UnitPatch(kills=2, notes="took the bridge"))
    with pytest.raises(
        ConflictError,
        match=r"Rookie had its notes changed and its kills changed "
        r"from 0 to 2 by someone else",
    ):
        add.undo()
    assert sv.roster.unit_rows([uid])[0].kills == 2


def test_deleting_a_changed_or_deleted_unit_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    a, b = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    ra, rb = sv.roster.unit_rows([a, b])
    other.roster.edit_unit(a, UnitPatch(status="wounded"))
    with pytest.raises(ConflictError, match="Minifig 1 was changed by someone else"):
        sv.roster.delete_unit(a, version=ra.version)
    other.roster.delete_unit(b)
    with pytest.raises(
        ConflictError,
        match="This unit was deleted by someone else since you opened it; nothing was changed",
    ):
        sv.roster.delete_unit(b, version=rb.version)
    with pytest.raises(ConflictError, match="This unit was deleted by someone else"):
        sv.roster.edit_unit(b, UnitPatch(kills=1), version=rb.version)
    assert [u.id for u in sv.roster.roster(camp.red_army.id).units] == [a]


def test_redoing_a_delete_after_someone_changed_the_restored_unit_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Lazarus").value
    gone = sv.roster.delete_unit(uid)
    gone.undo()
    other.roster.edit_unit(uid, UnitPatch(name="Lazarus II"))
    with pytest.raises(ConflictError, match="Lazarus was renamed to 'Lazarus II'"):
        gone.redo()
    assert sv.roster.unit_rows([uid])[0].name == "Lazarus II"


def test_a_reorder_undone_after_someone_added_a_unit_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    a, b = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    done = sv.roster.reorder_units(camp.red_army.id, [b, a])
    other.roster.add_unit(camp.red_army.id, "minifig")
    with pytest.raises(ConflictError, match="Red Army were added, removed or reordered"):
        done.undo()


def test_players_armies_campaigns_and_battles_refuse_stale_edits(
    sv: Services, other: Services, camp: Camp
) -> None:
    other.campaigns.update_player(camp.red.id, PlayerPatch(name="Crimson"))
    with pytest.raises(
        ConflictError,
        match=r"The player Crimson was changed by someone else "
        r"since you opened it \(colour now '#ff0000'\)",
    ):
        sv.campaigns.update_player(
            camp.red.id, PlayerPatch(colour="#00ff00"), version=camp.red.version
        )
    other.campaigns.update_army(camp.blue_army.id, ArmyPatch(budget=50))
    with pytest.raises(ConflictError, match="The army Blue Army was changed"):
        sv.campaigns.delete_army(camp.blue_army.id, version=camp.blue_army.version)
    assert sv.campaigns.get_army(camp.blue_army.id).budget == 50
    other.campaigns.update_campaign(camp.campaign.id, CampaignPatch(default_budget=99))
    with pytest.raises(ConflictError, match=r"default budget now 99"):
        sv.campaigns.update_campaign(
            camp.campaign.id, CampaignPatch(default_budget=10), version=camp.campaign.version
        )
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 1).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 1).value
    battle = sv.battles.create_battle(
        camp.campaign.id, "Ford", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
    )
    other.battles.update_battle(battle.value.id, name="Ford of Tears")
    with pytest.raises(ConflictError, match="The battle Ford was renamed to 'Ford of Tears'"):
        battle.undo()  # the undo of the creation would delete the renamed battle
    with pytest.raises(ConflictError, match="The battle Ford of Tears was changed"):
        sv.battles.update_battle(battle.value.id, notes="x", version=battle.value.version)
    assert [b.name for b in sv.battles.list_battles(camp.campaign.id)] == ["Ford of Tears"]


def test_a_player_undo_after_a_rename_elsewhere_is_refused(
    sv: Services, other: Services, camp: Camp
) -> None:
    added = sv.campaigns.add_player(camp.campaign.id, "Green")
    other.campaigns.update_player(added.value.id, PlayerPatch(faction="Frogs"))
    with pytest.raises(
        ConflictError,
        match=r"The player Green had its faction changed from '' "
        r"to 'Frogs' by someone else",
    ):
        added.undo()
    assert [p.name for p in sv.campaigns.list_players(camp.campaign.id)][-1] == "Green"


def test_catalog_edits_refuse_stale_views_and_stale_undos(
    sv: Services, other: Services, camp: Camp
) -> None:
    cid = camp.campaign.id
    entry = next(e for e in sv.catalog.view(cid).items if e.key == "shield")
    assert entry.version == 0  # the rules' entry: no house rule yet
    mine = sv.catalog.set_item_field(cid, "shield", "cost", "3", version=entry.version)
    with pytest.raises(
        ConflictError, match="Shield was changed by someone else since you opened it"
    ):
        other.catalog.set_item_field(cid, "shield", "cost", "5", version=entry.version)
    fresh = next(e for e in other.catalog.view(cid).items if e.key == "shield")
    assert fresh.version == 1
    other.catalog.set_item_field(cid, "shield", "cost", "5", version=fresh.version)
    with pytest.raises(
        ConflictError, match="Shield was changed by someone else since you changed it"
    ):
        mine.undo()
    assert sv.catalog.catalog(cid).get_item("shield").cost == 5


def test_the_orms_version_check_is_a_conflict() -> None:
    """A write that slipped past the service's check is still refused by the version counter
    (``UPDATE ... WHERE version = ?`` matched no row)."""
    from sqlalchemy.orm.exc import StaleDataError

    @storage_errors
    def stale() -> None:
        raise StaleDataError("UPDATE statement on table 'unit' expected to update 1 row(s)")

    with pytest.raises(ConflictError, match="someone else changed this"):
        stale()
    assert issubclass(ConflictError, UserError) and not issubclass(ConflictError, StorageError)
