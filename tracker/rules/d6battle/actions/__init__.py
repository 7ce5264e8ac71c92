"""The d6battle actions, one a file: ``shoot``, ``combat``, ``morale``, ``command``."""
