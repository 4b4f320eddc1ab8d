"""Test set-up shared by every test: headless Qt before any Qt import; the database backends.

``backend`` runs a test once per database backend (``[sqlite]``, and ``[postgresql]`` when
``BRIKDESK_TEST_DB_URL`` is set): a test gets it by asking for it, through a fixture that asks
for it (``db``, ``sv``...), or by living under ``tests/concurrency/``; one marked
``@pytest.mark.sqlite_only`` runs on SQLite alone. See ``tests/databases.py``.
"""

import gc
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import databases
from tests.databases import copy_database
from ui.collector import collect

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

#: Folders whose every test runs on every backend, whether or not it names ``backend``.
EVERY_BACKEND_DIRS = (Path(__file__).parent / "concurrency",)


@pytest.fixture(autouse=True)
def _garbage_collected_between_tests() -> Iterator[None]:
    """Python's cyclic garbage collector runs as in the app (``ui.collector``): never by
    itself (automatic collection is off), only on the main thread between Qt's events; here
    after each test, once pytest-qt has closed its windows.

    Left automatic, a collection could start inside Qt's painting of a window that only a
    cycle held (a signal connected to its own method): the window was deleted in the middle
    of its own paint and the test worker segfaulted. What a test made is in the young
    generations, so collecting those is enough and quick; each module's end collects all."""
    gc.disable()
    try:
        yield
    finally:
        collect(1)


@pytest.fixture(autouse=True, scope="module")
def _all_garbage_collected_after_each_module() -> Iterator[None]:
    """A full collection once a test file is done (module fixtures let go of their objects)."""
    yield
    collect(2)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """The database backend of this run of the test; ``fresh_url`` makes databases of it."""
    with databases.using(request.param) as name:
        yield name


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        names = [databases.SQLITE] if sqlite_only else databases.backends()
        metafunc.parametrize("backend", names, indirect=True)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting imported (modules, their classes and functions: most of the heap) stays
    for the session: frozen out of the collector's sight (``gc.freeze``), as the app freezes
    what its start-up made (``ui.collector``). Each module's full collection then looks at
    what the tests made, not at the whole heap again (0.2-0.3 s each under coverage)."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files in the order they are best started in: those with the most tests marked
    ``slow`` first, then those with the most tests; a file's own tests keep their order.
    ``./run-tests`` hands whole files to the workers in this order (``--dist loadfile
    --no-loadscope-reorder``), so the long ones start at once and both workers end together,
    instead of a long single-test file starting last on one worker."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def weight(tests: list[pytest.Item]) -> tuple[int, int]:
        slow = sum(1 for t in tests if t.get_closest_marker("slow") is not None)
        return -slow, -len(tests)

    items[:] = [item for tests in sorted(files.values(), key=weight) for item in tests]


def pytest_collectstart(collector: pytest.Collector) -> None:
    if isinstance(collector, pytest.Module) and any(
        collector.path.is_relative_to(d) for d in EVERY_BACKEND_DIRS
    ):
        collector.add_marker(pytest.mark.usefixtures("backend"))


@pytest.fixture(scope="session")
def cli_demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the demo campaign as ``brikdesk demo`` makes it, made once per
    session: a test copies it (``demo_copy``) instead of migrating and filling a new file."""
    from brikdesk.cli import main

    path = tmp_path_factory.mktemp("cli-demo") / "demo.sqlite3"
    assert main(["--db", f"sqlite:///{path}", "demo"]) == 0
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def demo_copy(cli_demo_template: Path, tmp_path: Path) -> str:
    """URL of this test's own copy of the demo campaign (``tmp_path/club.sqlite3``)."""
    return copy_database(cli_demo_template, tmp_path / "club.sqlite3")
