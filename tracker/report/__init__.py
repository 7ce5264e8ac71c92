"""The battle report: the story of a battle from its journal, its losses and its luck.

``gather`` reads the facts from the log (nothing is resolved again); ``ledger`` weighs
the dice against their odds; ``render_md``, ``render_csv`` and ``render_json`` lay the
report out for ``tracker report`` (``render``); the app's report screen draws the same
facts.
"""
