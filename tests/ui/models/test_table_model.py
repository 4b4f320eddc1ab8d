"""The generic summary table model: sorting, filtering, selections by id, model rules."""

from dataclasses import dataclass

from PySide6.QtCore import QPersistentModelIndex, Qt

from ui.models.table import Column, IdRole, SummaryTableModel


@dataclass(frozen=True)
class Row:
    id: int
    name: str
    cost: int


COLUMNS = (
    Column("Name", lambda r: r.name),
    Column("Cost", lambda r: f"{r.cost} CP", sort_key=lambda r: r.cost, align_right=True),
)

ROWS = [
    Row(1, "Thieven Hood", 16),
    Row(2, "archer", 9),
    Row(3, "Brother Tuck", 4),
    Row(4, "Archer captain", 12),
]


def shown_names(model):
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def test_model_passes_qt_model_tester(qtmodeltester):
    model = SummaryTableModel(COLUMNS)
    model.set_rows(ROWS)
    qtmodeltester.check(model)
    model.sort(1, Qt.SortOrder.DescendingOrder)
    model.set_filter("arch")
    qtmodeltester.check(model)


def test_sorts_by_key_and_by_text_ignoring_case():
    model = SummaryTableModel(COLUMNS)
    model.set_rows(ROWS)
    model.sort(1)
    assert [model.index(r, 1).data() for r in range(4)] == ["4 CP", "9 CP", "12 CP", "16 CP"]
    model.sort(0, Qt.SortOrder.AscendingOrder)
    assert shown_names(model) == ["archer", "Archer captain", "Brother Tuck", "Thieven Hood"]


def test_filter_keeps_matching_rows_and_selection_follows_the_id():
    model = SummaryTableModel(COLUMNS)
    model.set_rows(ROWS)
    tuck = QPersistentModelIndex(model.index_of_id(3))
    model.sort(0, Qt.SortOrder.DescendingOrder)
    assert tuck.data(IdRole) == 3 and tuck.data() == "Brother Tuck"
    model.set_filter("ARCH")
    assert shown_names(model) == ["Archer captain", "archer"]
    assert not tuck.isValid()
    model.set_filter("")
    assert model.rowCount() == 4


def test_update_row_changes_one_row_in_place():
    model = SummaryTableModel(COLUMNS)
    model.set_rows(ROWS)
    assert model.update_row(Row(2, "longbowman", 10))
    assert model.index(model.row_of_id(2), 0).data() == "longbowman"
    assert not model.update_row(Row(99, "nobody", 0))
