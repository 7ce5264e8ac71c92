"""The samples and army lists that ship with the tracker (installed as
tracker.shipped.saves)."""
