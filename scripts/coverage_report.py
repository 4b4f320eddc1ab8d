"""Print the line and branch coverage of brikdesk/ and ui/ from the data ./run-tests collected,
with the least-covered modules; with ``--check``, exit 1 when a package is below the floor
recorded in pyproject.toml (``[tool.brikdesk.coverage-floor]``), as CI does.

    .venv/bin/python scripts/coverage_report.py [--check] [--data .coverage] [--least 8]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("brikdesk", "ui")


@dataclass(frozen=True)
class Covered:
    """Lines and branches measured and run, of a module or a package."""

    lines: int
    lines_run: int
    branches: int
    branches_run: int

    @property
    def percent(self) -> float:
        """Coverage's own figure: lines and branches run over lines and branches measured."""
        total = self.lines + self.branches
        return 100.0 * (self.lines_run + self.branches_run) / total if total else 100.0

    def __add__(self, other: Covered) -> Covered:
        return Covered(
            self.lines + other.lines,
            self.lines_run + other.lines_run,
            self.branches + other.branches,
            self.branches_run + other.branches_run,
        )


def floors(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, float]:
    """The recorded floor of each package."""
    with open(pyproject, "rb") as f:
        table = tomllib.load(f)["tool"]["brikdesk"]["coverage-floor"]
    return {name: float(table[name]) for name in PACKAGES}


def measured(data_file: Path) -> dict[str, Covered]:
    """Each measured module (a path relative to the checkout) with what of it ran."""
    cov = coverage.Coverage(data_file=str(data_file), config_file=str(ROOT / "pyproject.toml"))
    cov.load()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "coverage.json"
        cov.json_report(outfile=str(out))
        files = json.loads(out.read_text(encoding="utf-8"))["files"]
    modules = {}
    for name, data in files.items():
        path = Path(name)
        rel = (path.relative_to(ROOT) if path.is_absolute() else path).as_posix()
        s = data["summary"]
        modules[rel] = Covered(
            s["num_statements"],
            s["covered_lines"],
            s.get("num_branches", 0),
            s.get("covered_branches", 0),
        )
    return modules


def by_package(modules: dict[str, Covered]) -> dict[str, Covered]:
    totals = {name: Covered(0, 0, 0, 0) for name in PACKAGES}
    for path, covered in modules.items():
        top = path.split("/", 1)[0]
        if top in totals:
            totals[top] = totals[top] + covered
    return totals


def report(modules: dict[str, Covered], floor: dict[str, float], least: int) -> list[str]:
    """The lines to print: each package against its floor, then the least-covered modules of
    more than 20 lines."""
    lines = []
    for name, covered in by_package(modules).items():
        lines.append(
            f"    {name:<9}{covered.percent:5.1f}%  (floor {floor[name]:.1f}%; "
            f"lines {covered.lines_run}/{covered.lines}, "
            f"branches {covered.branches_run}/{covered.branches})"
        )
    sized = [(c.percent, path) for path, c in modules.items() if c.lines > 20]
    lowest = sorted(sized)[:least]
    if lowest:
        lines.append("    least covered: " + ", ".join(f"{p} {pc:.0f}%" for pc, p in lowest))
    return lines


def below(modules: dict[str, Covered], floor: dict[str, float]) -> list[str]:
    """Why the check fails: each package under its floor (rounded as printed)."""
    return [
        f"{name} coverage {round(c.percent, 1):.1f}% is below the recorded floor "
        f"{floor[name]:.1f}% (pyproject.toml, [tool.brikdesk.coverage-floor])"
        for name, c in by_package(modules).items()
        if round(c.percent, 1) < floor[name]
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 below a recorded floor")
    parser.add_argument("--data", type=Path, default=ROOT / ".coverage")
    parser.add_argument("--least", type=int, default=8, help="how many modules to name")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"coverage: no data in {args.data}", file=sys.stderr)
        return 1
    modules = measured(args.data)
    floor = floors()
    print("\n".join(report(modules, floor, args.least)))
    if not args.check:
        return 0
    failures = below(modules, floor)
    for failure in failures:
        print(f"coverage: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
