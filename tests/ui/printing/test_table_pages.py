"""A printed table's rows are kept together sensibly: a small table moves to the next page whole,
a long one never leaves a single row alone on its last page (the campaign report's page 2 held
one leaderboard row)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPdfWriter

from ui.printing import configure_page
from ui.printing.layout import (
    LAST_ROWS_TOGETHER,
    WHOLE_TABLE_ROWS,
    Block,
    Metrics,
    Paginator,
    table_blocks,
)


@pytest.fixture
def m(qapp, tmp_path) -> Metrics:
    w = QPdfWriter(str(tmp_path / "measure.pdf"))
    configure_page(w, "a4")
    return Metrics(w)


def place(m: Metrics, rows: int, room_for: int) -> list[int]:
    """Rows of a ``rows``-row table on each page, its header starting a page that has room
    for the header and ``room_for`` rows only (something else filled the rest)."""
    width = 400.0
    blocks = table_blocks(
        m,
        width,
        "Leaderboard",
        (("#", 40.0), ("Unit", 360.0)),
        [(str(i), "U") for i in range(rows)],
    )
    head, row = blocks[0].height, blocks[1].height
    body = QRectF(0, 0, width, 500)
    pager = Paginator(body, m)
    pager.add(Block("filler", [(500 - head - room_for * row - 0.5, [])]), None)
    for i, block in enumerate(blocks):
        pager.add(block, blocks[i + 1 : i + 9])
    return [sum(1 for p in page.placed if p.kind == "table-row") for page in pager.pages]


def test_a_long_table_leaves_no_row_alone_on_its_last_page(m: Metrics) -> None:
    # Room for 11 of 12 rows: the last three go over together, not the twelfth alone.
    assert place(m, 12, 11) == [12 - LAST_ROWS_TOGETHER, LAST_ROWS_TOGETHER]
    assert place(m, 12, 12) == [12]  # room for all: one page


def test_a_small_table_moves_to_the_next_page_whole(m: Metrics) -> None:
    assert place(m, WHOLE_TABLE_ROWS, WHOLE_TABLE_ROWS - 1) == [0, WHOLE_TABLE_ROWS]
    assert place(m, 3, 3) == [3]
