"""PySide6 loaded first, with its question about each later import asked more cheaply.

Once PySide6 is loaded, it asks of every module imported after it whether its source mentions
"PySide6": the answer decides whether the module may switch on PySide's opt-in ``__feature__``
names (``snake_case``, ``true_property``; BrikDesk uses neither). PySide answers with
``inspect.getsource``: each file is found again among all loaded modules, decoded, split into
lines and kept in ``linecache``. About 400 modules are imported after PySide6 before the
campaign shows (SQLAlchemy, the services, the windows). Importing them took 474-506 ms of CPU
with PySide's reading and 410-472 ms with this one (five interleaved runs, 2026-12-06), of a
start of about 800 ms (``benchmarks/bench_start.py``).

:func:`load_qt` keeps the question and its answer and changes only the reading: the module's
``.py`` file is read as bytes and searched for ``b"PySide6"``. Any module this cannot read
(no ``.py`` file, as in the bundle) is asked PySide's way. If a PySide6 release no longer
asks (its ``_mod_uses_pyside`` is gone), nothing is changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

import PySide6.QtCore  # noqa: F401  (loads PySide6 and its import hook)

#: PySide's own answer, kept for the modules :func:`mentions_pyside` cannot read.
_pyside_answer: Callable[[ModuleType], bool] | None = None


def mentions_pyside(module: ModuleType) -> bool:
    """Whether the source of ``module`` mentions "PySide6" (PySide's question, read as bytes)."""
    path = getattr(module, "__file__", None)
    if isinstance(path, str) and path.endswith(".py"):
        try:
            with open(path, "rb") as f:
                return b"PySide6" in f.read()
        except OSError:
            pass
    return _pyside_answer(module) if _pyside_answer is not None else False


def load_qt() -> bool:
    """Load PySide6 and answer its import question with :func:`mentions_pyside`; whether
    PySide6 asks it (False: this PySide6 release does not, and nothing was changed)."""
    global _pyside_answer
    feature = sys.modules.get("shibokensupport.feature")
    asks = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(asks):
        return False
    if asks is not mentions_pyside:
        _pyside_answer = asks
        feature._mod_uses_pyside = mentions_pyside  # type: ignore[attr-defined]
    return True
