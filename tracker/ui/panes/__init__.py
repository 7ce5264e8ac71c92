"""The panes of the GM's screen; each one redraws itself from the encounter."""
