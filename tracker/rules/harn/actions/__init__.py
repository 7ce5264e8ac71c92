"""The HârnMaster missile actions, one a file."""
