"""No module imports another module's underscore names: each module's public API
is what others use, so a module can be reorganised without breaking its neighbours."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def private_imports(source: str, module: str) -> list[str]:
    """``"from X import _name"`` for each underscore name ``source`` imports from another
    module (``__future__`` and dunder names such as ``__version__`` are fine)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or node.module in (None, "__future__"):
            continue
        if node.level == 0 and node.module == module:
            continue
        for alias in node.names:
            name = alias.name
            if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
                out.append(f"from {'.' * node.level}{node.module} import {name}")
    return out


def test_the_scan_finds_an_underscore_import_and_nothing_else():
    source = (
        "from __future__ import annotations\n"
        "from brikdesk.domain.combat.choices import rules_problem, _secret\n"
        "from brikdesk import __version__\n"
        "import brikdesk._private as fine_for_this_test\n"
    )
    assert private_imports(source, "brikdesk.x") == [
        "from brikdesk.domain.combat.choices import _secret"
    ]


def test_no_module_in_brikdesk_or_ui_imports_underscore_names_from_another():
    found = []
    for package in ("brikdesk", "ui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
            found += [
                f"{rel}: {line}"
                for line in private_imports(path.read_text(encoding="utf-8"), module)
            ]
    assert found == []
