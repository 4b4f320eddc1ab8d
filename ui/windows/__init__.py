"""The organizer's windows: rosters (one per army) and the catalog of a campaign."""
