"""No import circle anywhere in brikdesk/ or ui/, imports made only for the type checker
included ("Rooms with their own doors" in docs/conventions.md): a module can be read, tested and
moved knowing only what it imports. The parts of a window never import the window."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

#: The parts each window is composed of, and the window they must not import.
PARTS = {
    "ui.main_window.window": [
        "ui.main_window.actions",
        "ui.main_window.battles",
        "ui.main_window.campaign",
        "ui.main_window.campaigns",
        "ui.main_window.files",
        "ui.main_window.menus",
        "ui.main_window.windows",
    ],
    "ui.windows.roster": [
        "ui.windows.roster_columns",
        "ui.windows.roster_commands",
        "ui.windows.roster_edits",
        "ui.windows.roster_table",
        "ui.windows.roster_text",
    ],
}


def graph(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(
        *packages, include_external_packages=False, exclude_type_checking_imports=False
    )


def circles(g: grimp.ImportGraph) -> list[list[str]]:
    """The import circles of ``g``: each group of modules that reach one another by imports
    (strongly connected, Tarjan's algorithm without recursion), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    work: list[tuple[str, Iterator[str]]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        work.append((module, iter(sorted(g.find_modules_directly_imported_by(module)))))

    for root in sorted(g.modules):
        if root in index:
            continue
        visit(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    visit(other)
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return sorted(found)


def test_brikdesk_and_ui_have_no_import_circle() -> None:
    assert circles(graph("brikdesk", "ui")) == []


def test_no_part_imports_its_window() -> None:
    g = graph("ui")
    for window, parts in PARTS.items():
        for part in parts:
            assert part in g.modules, part
            assert window not in g.find_modules_directly_imported_by(part), (part, window)
            assert not g.chain_exists(importer=part, imported=window), (part, window)


@pytest.fixture
def circular_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package whose window and part import each other, the part for its types only."""
    package = tmp_path / "circled"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "window.py").write_text("from circled.part import Part\n", encoding="utf-8")
    (package / "part.py").write_text(
        textwrap.dedent(
            """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from circled.window import Window
            class Part: ...
            """
        ),
        encoding="utf-8",
    )
    (package / "alone.py").write_text("import circled.window\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "circled"
    sys.modules.pop("circled", None)


def test_a_circle_through_a_type_only_import_is_found(circular_package: str) -> None:
    assert circles(graph(circular_package)) == [["circled.part", "circled.window"]]
