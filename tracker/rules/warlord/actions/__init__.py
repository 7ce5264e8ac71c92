"""The Fantasy Warlord actions, one a file: ``fire``, ``endphase``, ``order``,
``holdfire``, ``movefire``, ``morale``."""
