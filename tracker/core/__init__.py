"""The rules-free core: dice, the encounter model, history, commands, odds.

Nothing under this package imports Textual.
"""
