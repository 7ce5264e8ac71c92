"""The Warmaster actions, one a file: ``shoot``, ``driveback``, ``endphase``."""
