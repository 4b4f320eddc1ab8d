"""scripts/coverage_report.py: the numbers ./run-tests prints, and the floor CI holds them to."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "coverage_report", ROOT / "scripts" / "coverage_report.py"
)
assert _spec is not None and _spec.loader is not None
report_module = importlib.util.module_from_spec(_spec)
sys.modules["coverage_report"] = report_module
_spec.loader.exec_module(report_module)
Covered = report_module.Covered

MODULES = {
    "brikdesk/a.py": Covered(100, 90, 20, 10),  # 100 of 120
    "brikdesk/b.py": Covered(30, 30, 10, 10),  # 40 of 40
    "ui/c.py": Covered(50, 10, 10, 0),  # 10 of 60
    "tests/x.py": Covered(10, 0, 0, 0),  # not a package measured
}


def test_a_package_counts_lines_and_branches_together() -> None:
    packages = report_module.by_package(MODULES)
    assert round(packages["brikdesk"].percent, 3) == round(100 * 140 / 160, 3)  # 87.5
    assert round(packages["ui"].percent, 3) == round(100 * 10 / 60, 3)


def test_the_check_fails_below_a_floor_and_names_the_package() -> None:
    assert report_module.below(MODULES, {"brikdesk": 87.5, "ui": 16.7}) == []
    failures = report_module.below(MODULES, {"brikdesk": 87.6, "ui": 16.7})
    assert len(failures) == 1 and failures[0].startswith("brikdesk coverage 87.5% is below")


def test_the_report_names_the_least_covered_modules_first() -> None:
    lines = report_module.report(MODULES, {"brikdesk": 80.0, "ui": 10.0}, least=2)
    assert lines[0].split()[:2] == ["brikdesk", "87.5%"]
    assert lines[1].split()[:2] == ["ui", "16.7%"]
    assert lines[2] == "    least covered: ui/c.py 17%, brikdesk/a.py 83%"


def test_the_floors_are_recorded_for_both_packages() -> None:
    floors = report_module.floors()
    assert set(floors) == {"brikdesk", "ui"}
    assert all(0 < level <= 100 for level in floors.values())
