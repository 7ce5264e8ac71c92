"""What ships with the tracker: its colour themes (``tracker.shipped.themes``) and its
samples and army lists (``tracker.shipped.saves``), built from the top-level ``themes/``
and ``saves/`` folders (see setup.py) and found with ``importlib.resources``."""
