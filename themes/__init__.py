"""The colour themes that ship with the tracker (installed as tracker.shipped.themes)."""
