"""Table mode gives the battle panel the whole window: the navigator steps aside and returns."""

from __future__ import annotations


def test_table_mode_hides_the_navigator_and_brings_it_back(open_main, demo_db):
    main = open_main(demo_db)
    battle = next(
        b.id
        for b in main.services.battles.list_battles(main.campaign_id)
        if b.status == "in_progress"
    )
    assert main.open_battle(battle)
    panel = main.battle_panel
    assert main.navigator_dock.isVisible()
    panel.set_table_mode(True)
    assert not main.navigator_dock.isVisible()
    panel.set_table_mode(False)
    assert main.navigator_dock.isVisible()
    panel.set_table_mode(True)
    main.show_overview()
    assert main.navigator_dock.isVisible()


def test_unit_names_fit_their_column_when_there_is_room(open_main, demo_db):
    main = open_main(demo_db)
    main.resize(1600, 900)
    battle = next(
        b.id
        for b in main.services.battles.list_battles(main.campaign_id)
        if b.status == "in_progress"
    )
    main.open_battle(battle)
    panel = main.battle_panel
    panel.set_table_mode(False)
    fm = panel.table.fontMetrics()
    longest = max(fm.horizontalAdvance(t.name) for t in panel.view.units)
    assert panel.table.columnWidth(0) >= longest
