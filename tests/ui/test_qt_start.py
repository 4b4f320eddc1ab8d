"""PySide6's question about each import, answered by reading bytes (``ui.qt_start``): the same
answers as PySide's own, for a start that no longer pays for ``inspect.getsource``."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

import ui.qt_start as qt_start


def _feature() -> ModuleType:
    feature = sys.modules.get("shibokensupport.feature")
    assert feature is not None, "PySide6 loaded without its feature module"
    return feature


# PySide's own reading warns of Python's deprecated module_repr on built-in modules.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_every_loaded_module_gets_the_answer_pyside_itself_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    feature = _feature()
    pyside_answer = feature._mod_uses_pyside
    if pyside_answer is qt_start.mentions_pyside:  # loaded by an app start in this process
        pyside_answer = qt_start._pyside_answer
    assert pyside_answer is not None
    monkeypatch.setattr(feature, "_mod_uses_pyside", pyside_answer)
    monkeypatch.setattr(qt_start, "_pyside_answer", None)

    assert qt_start.load_qt() is True
    assert feature._mod_uses_pyside is qt_start.mentions_pyside
    import sqlalchemy.orm

    import ui.app

    modules = [m for m in list(sys.modules.values()) if isinstance(m, ModuleType)]
    assert len(modules) > 300
    differ = [m.__name__ for m in modules if qt_start.mentions_pyside(m) != pyside_answer(m)]
    assert differ == []
    # The answers that matter: BrikDesk's windows use PySide6, the database layer does not.
    assert qt_start.mentions_pyside(ui.app) is True
    assert qt_start.mentions_pyside(sqlalchemy.orm) is False


def test_a_module_without_a_source_file_is_asked_pysides_way(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    asked: list[str] = []

    def pyside_answer(module: ModuleType) -> bool:
        asked.append(module.__name__)
        return True

    monkeypatch.setattr(qt_start, "_pyside_answer", pyside_answer)
    bundled = ModuleType("bundled")
    bundled.__file__ = str(tmp_path / "gone.py")  # in the bundle: no .py beside it
    compiled = ModuleType("compiled")
    compiled.__file__ = str(tmp_path / "compiled.so")
    assert qt_start.mentions_pyside(bundled) is True
    assert qt_start.mentions_pyside(compiled) is True
    assert asked == ["bundled", "compiled"]


def test_a_pyside_that_no_longer_asks_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    newer = ModuleType("shibokensupport.feature")  # a release without the question
    monkeypatch.setitem(sys.modules, "shibokensupport.feature", newer)
    assert qt_start.load_qt() is False
    assert not hasattr(newer, "_mod_uses_pyside")
