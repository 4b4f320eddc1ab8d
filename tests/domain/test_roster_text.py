"""The roster as text (plain, Markdown, BBCode): every unit, its equipment and cost, the total
and the budget, in each format."""

from __future__ import annotations

import pytest

from brikdesk.domain.roster_text import (
    FORMATS,
    RosterText,
    TextUnit,
    format_for,
    roster_text,
)

ARMY = RosterText(
    army="Red Vanguard",
    player="Margo",
    units=(
        TextUnit("Sir Reg", "Hero", 14, ("Sword", "Shield"), ("Heavy Armor",), notes="leads"),
        TextUnit("Pikeman Hobb", "Minifig", 6, ("Long Close Combat Weapon",)),
        TextUnit("Crossbow Kate", "Minifig", 7, ("Crossbow",), carried=("Grenade",)),
        TextUnit("Thunderstud", "Minifig", 2, status="wounded"),
    ),
    total=29,
    budget=40,
    campaign="Siege of Brickton",
    edition="2020",
)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_unit_its_equipment_cost_total_and_budget_are_in_each_format(fmt: str) -> None:
    text = roster_text(ARMY, fmt)
    for name, cost in (("Sir Reg", 14), ("Pikeman Hobb", 6), ("Crossbow Kate", 7)):
        line = next(li for li in text.splitlines() if name in li)
        assert f"{cost} CP" in line
    assert "Sword, Shield" in text and "worn: Heavy Armor" in text
    assert "carried: Grenade" in text
    assert "unarmed" in next(li for li in text.splitlines() if "Thunderstud" in li)
    assert "wounded" in text
    assert "Total 29 / 40 CP (11 CP left)" in text
    assert "Margo · Siege of Brickton · BrikWars 2020" in text
    assert "4 units" in text


def test_plain_text_reads_as_a_chat_message() -> None:
    assert roster_text(ARMY, "text") == (
        "Red Vanguard (4 units)\n"
        "Margo · Siege of Brickton · BrikWars 2020\n"
        "\n"
        "- Sir Reg (Hero): Sword, Shield; worn: Heavy Armor - 14 CP\n"
        "    leads\n"
        "- Pikeman Hobb (Minifig): Long Close Combat Weapon - 6 CP\n"
        "- Crossbow Kate (Minifig): Crossbow; carried: Grenade - 7 CP\n"
        "- Thunderstud (Minifig): unarmed - 2 CP [wounded]\n"
        "\n"
        "Total 29 / 40 CP (11 CP left)\n"
    )


def test_markdown_is_a_table_with_escaped_names() -> None:
    odd = RosterText("A|B *army*", "P", (TextUnit("x_y [1]", "Minifig", 3),), 3, None)
    text = roster_text(odd, "markdown")
    assert text.splitlines()[0] == "## A\\|B \\*army\\*"
    assert "| x\\_y \\[1\\] | Minifig | unarmed | 3 CP |" in text
    assert "**Total 3 CP (no budget)**" in text
    md = roster_text(ARMY, "markdown").splitlines()
    assert md[4:6] == ["| Unit | Type | Equipment | Cost |", "| --- | --- | --- | ---: |"]
    assert len([li for li in md if li.startswith("| ") and "CP |" in li]) == 4


def test_bbcode_is_a_forum_list_where_names_cannot_open_tags() -> None:
    text = roster_text(ARMY, "bbcode")
    assert text.splitlines()[0] == "[size=150][b]Red Vanguard[/b][/size]"
    assert "[list]" in text and "[/list]" in text
    assert text.count("[*]") == 4
    assert "[*][b]Pikeman Hobb[/b] (Minifig): Long Close Combat Weapon - 6 CP" in text
    assert "[b]Total 29 / 40 CP (11 CP left)[/b]" in text
    sneaky = RosterText("[url]x[/url]", "P", (TextUnit("[b]Bob", "Minifig", 1),), 1, 0)
    out = roster_text(sneaky, "bbcode")
    assert "(url)x(/url)" in out and "(b)Bob" in out
    assert "Total 1 / 0 CP (over budget by 1 CP)" in out


def test_the_file_ending_chooses_the_format() -> None:
    assert [format_for(p) for p in ("a.md", "b.TXT", "c.bbcode", "d.pdf", "e")] == [
        "markdown",
        "text",
        "bbcode",
        None,
        None,
    ]
    with pytest.raises(ValueError, match="unknown roster text format"):
        roster_text(ARMY, "html")
