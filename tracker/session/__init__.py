"""The application layer: one open encounter and everything that works on it.

``session`` runs typed commands (``commands``) on an encounter, ``play`` walks its
sequence of play, ``saving`` commits and saves, ``redaction`` decides what a side may
see, ``opening`` opens a save (lock, read-only fallback, samples as copies) and ``live``
follows a journal as it is appended. The app, ``tracker exec`` and the player views all
go through here; nothing here imports Textual.
"""
