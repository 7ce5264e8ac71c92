"""Dialogs and full screens: each one a ModalScreen that dismisses a typed result."""
