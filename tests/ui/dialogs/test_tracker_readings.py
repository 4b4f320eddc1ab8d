"""Help > Rules reference lists the battle tracker's readings."""

from __future__ import annotations


def test_the_tracker_readings_are_in_the_rules_reference() -> None:
    from brikdesk.domain.tracking import READINGS
    from ui.dialogs.rules_reference import readings

    shown = {r.text for r in readings()}
    assert all(text in shown for text in READINGS.values())
