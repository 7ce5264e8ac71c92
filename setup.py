"""The packages of the wheel: the tracker's code, found as it grows, and what ships with
it from the top-level ``themes/`` and ``saves/`` folders, which stay where they are and
are installed as ``tracker.shipped.themes`` and ``tracker.shipped.saves`` (also by an
editable install, which maps them to those folders). The rest is in pyproject.toml."""

from setuptools import find_packages, setup

SHIPPED = {"tracker.shipped.themes": "themes", "tracker.shipped.saves": "saves"}

setup(
    packages=[*find_packages(include=["tracker", "tracker.*"]), *SHIPPED],
    package_dir=SHIPPED,
)
