"""tracker: a keyboard-driven terminal combat tracker for game masters."""

__version__ = "0.1.0"
