"""The conventions live in the repository, and the code cites them by the headings of
docs/conventions.md: a reader who meets a citation finds what it means by searching that page,
never by looking for an issue list or a numbered list that is not here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONVENTIONS = ROOT / "docs" / "conventions.md"

#: Where a reader of the project looks: the code, its tests and benchmarks, and the docs.
SEARCHED = ("brikdesk", "ui", "docs", "tests", "benchmarks", "README.md", "CONTRIBUTING.md")

#: A reference to an issue or a numbered convention: the word, then a number (with or
#: without "#"), which points nowhere inside the repository; and so do the documents the
#: project was started from, outside it: a rules-facts sheet's sections ("rules facts §2") and
#: the seeds' file numbers ("seed 004"). Cite the rule's own section (5.1) or the repository's
#: own resource instead.
NUMBERED = re.compile(
    r"\b(?:issues?|(?:design )?conventions?)\s+#?\d+"
    r"|\brules[ -]facts\b"
    r"|\bseeds?\s+0\d\d\b",
    re.IGNORECASE,
)

#: A citation: one or more quoted headings followed by the page they are on, across a line
#: break and a comment's leading "#" ('"One undo path" in docs/conventions.md',
#: '("Rules as data", docs/conventions.md)', '"A" and "B" (docs/conventions.md)').
CITATION = re.compile(
    r'((?:"[^"]{3,80}"(?:,? and |, ))*"[^"]{3,80}")(?: in|,| \()\s*(?:docs/)?conventions\.md'
)
QUOTED = re.compile(r'"([^"]+)"')


def searched_files() -> list[Path]:
    found: list[Path] = []
    for name in SEARCHED:
        top = ROOT / name
        found += [top] if top.is_file() else sorted(top.rglob("*"))
    return [p for p in found if p.suffix in {".py", ".md", ".sh", ".toml"} and p.is_file()]


def headings() -> set[str]:
    text = CONVENTIONS.read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^#{2,3} (.+)$", text, re.MULTILINE)}


def citations(text: str) -> list[str]:
    """The headings ``text`` cites, with line breaks and comment marks folded away."""
    flat = re.sub(r"\s*\n\s*(?:#:?\s*)?", " ", text)
    return [q for m in CITATION.finditer(flat) for q in QUOTED.findall(m.group(1))]


def test_nothing_cites_an_issue_or_a_numbered_convention() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in searched_files()
        if path != Path(__file__)  # the examples of what is forbidden, below
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NUMBERED.search(line)
    ]
    assert not found, (
        "cite a convention by its heading in docs/conventions.md, a rule by its own section, "
        "and say what a change does rather than which issue asked for it:\n" + "\n".join(found)
    )


def test_the_scan_finds_the_references_it_forbids() -> None:
    for wrong in (
        "(issue 23)",
        "design convention 10",
        "conventions 5 and 14",
        "Issue #7",
        "(rules facts §2)",
        "Rules facts §1:",
        "seed 004",
        "(seeds 001 = 2005, 003 = 2020)",
    ):
        assert NUMBERED.search(wrong), wrong
    for right in (
        "an issue with 3 units",
        "Two kinds of errors",
        "the 2020 conventions",
        "(5.1 Out of Range)",
        "a seed of 42",
        "RandomDice(seed=7)",
    ):
        assert not NUMBERED.search(right), right


def test_every_cited_heading_is_on_the_conventions_page() -> None:
    known = headings()
    cited: dict[str, list[str]] = {}
    for path in searched_files():
        for title in citations(path.read_text(encoding="utf-8")):
            cited.setdefault(title, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 10  # the code does cite the page, so the scan below means something
    missing = {title: where for title, where in cited.items() if title not in known}
    assert not missing, f"no such heading in docs/conventions.md: {missing}"


def test_the_citation_scan_reads_across_lines_and_lists() -> None:
    text = '# see "One undo path" and "Rules as data" in\n    # docs/conventions.md, and ("X y z",\n docs/conventions.md)'
    assert citations(text) == ["One undo path", "Rules as data", "X y z"]


def test_the_page_states_the_rules_a_newcomer_looks_for() -> None:
    expected = {
        "The shape",
        "Explain every number",
        "Rules as data",
        "One user action, one transaction",
        "One undo path",
        "Writes as background operations",
        "Speed a person perceives",
        "Colours from the theme, names for every control",
        "Rooms with their own doors",
        "Outputs are checked before they replace",
        "Common words for common things",
        "Small commits that say why",
        "Tests",
    }
    assert expected <= headings()
    speed = CONVENTIONS.read_text(encoding="utf-8").split("## Speed a person perceives")[1]
    for figure in ("100 ms", "50 ms", "99th percentile", "60 units", "500", "sum(range(10**6))"):
        assert figure in speed.split("\n## ")[0], figure


#: Keep a Changelog's groups, in the order a release lists them.
CHANGE_GROUPS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def test_the_changelog_has_one_heading_of_each_kind_per_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.split(r"(?m)^## ", text)[1:]
    assert releases[0].startswith("[Unreleased]")
    for release in releases:
        groups = re.findall(r"(?m)^### (.+)$", release)
        title = release.splitlines()[0]
        assert all(g in CHANGE_GROUPS for g in groups), (title, groups)
        assert groups == sorted(set(groups), key=CHANGE_GROUPS.index), (
            f"{title}: one heading of each kind, in the order {CHANGE_GROUPS}: {groups}"
        )
