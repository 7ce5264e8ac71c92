"""The rules layer keeps the shape the house style asks for: small modules, tables as TOML
beside each ruleset, one odds module on icepool, one dice-notation parser. (ruff and
``mypy --strict`` run in ``.ci/run``.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "tracker" / "rules"
MAX_LINES = 300
NOTATION_SAMPLES = ("3d6", "d100", "2d6+1", "6d10>=7", "4d6kh3")


def rules_modules() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def ruleset_folders() -> list[Path]:
    return sorted(p.parent for p in RULES.glob("*/__init__.py"))


def test_the_rulesets_are_found() -> None:
    names = {p.name for p in ruleset_folders()}
    assert {"harn", "edc", "warlord", "d6battle", "warmaster"} <= names
    assert len(rules_modules()) > 50


def test_every_rules_module_is_at_most_300_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in rules_modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


WITHOUT_TABLES = {"plain"}
"""Rulesets of no rules text, so of no printed table (plain: any game)."""


@pytest.mark.parametrize("folder", [f for f in ruleset_folders() if f.name not in WITHOUT_TABLES],
                         ids=lambda p: p.name)
def test_each_ruleset_holds_its_tables_as_toml_beside_it(folder: Path) -> None:
    tables = sorted(folder.glob("*.toml"))
    assert tables, f"{folder.name} has no TOML tables beside it"
    source = "\n".join(p.read_text(encoding="utf-8") for p in folder.rglob("*.py"))
    unread = [t.name for t in tables if t.name not in source]
    assert unread == [], f"{folder.name}: tables no module reads"


def test_no_tables_outside_the_ruleset_folders() -> None:
    folders = set(ruleset_folders())
    stray = [str(p.relative_to(ROOT)) for p in RULES.rglob("*.toml") if p.parent not in folders]
    assert stray == []


def test_the_odds_module_is_on_icepool() -> None:
    tree = ast.parse((ROOT / "tracker" / "core" / "odds.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "icepool" in imported


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return f"{_name(func.value)}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else ""


def test_no_ruleset_has_its_own_binomial() -> None:
    found: list[str] = []
    for path in rules_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "binomial" in node.name.lower():
                found.append(f"{where}: def {node.name}")
        for call in _calls(tree):
            if _name(call.func).split(".")[-1] in ("comb", "factorial"):
                found.append(f"{where}: {_name(call.func)}()")
    assert found == [], "binomials belong in tracker/core/odds.py"


def _is_dice_notation(pattern: str) -> bool:
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        return False
    # a pattern for any word at all ("[a-z0-9]+") reads "2d6" too, but is no dice parser
    return any(compiled.fullmatch(s) for s in NOTATION_SAMPLES) and not compiled.fullmatch("sword")


def test_no_ruleset_parses_dice_notation_itself() -> None:
    found: list[str] = []
    for path in rules_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree):
            name = _name(call.func)
            if not name.startswith("re.") or not call.args:
                continue
            arg = call.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                if _is_dice_notation(arg.value):
                    found.append(f"{path.relative_to(ROOT)}: {name}({arg.value!r})")
    assert found == [], "dice notation is parsed by tracker/core/dice.py only"


def test_the_notation_check_would_catch_a_dice_regex() -> None:
    assert _is_dice_notation(r"(\d*)d(\d+)([+-]\d+)?")
    assert not _is_dice_notation(r"\d+")
    assert not _is_dice_notation(r"[\s_]+")
    assert not _is_dice_notation(r"[a-z0-9]+")


def _imports_in_functions(path: Path, source: str | None = None) -> list[str]:
    """``file:line: import`` for each import statement inside a function of ``path``
    (or of ``source``, read as that file)."""
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            found += [f"{path.relative_to(ROOT)}:{n.lineno}: {ast.unparse(n)}"
                      for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return found


def test_imports_are_at_the_top_of_the_file() -> None:
    """Every module imports what it uses at its top; what loads later goes through
    ``tracker/startup.py``, the one place that says what each late load saves."""
    startup = ROOT / "tracker" / "startup.py"
    inside = [line for path in sorted((ROOT / "tracker").rglob("*.py")) if path != startup
              for line in _imports_in_functions(path)]
    assert inside == []


def test_the_import_check_would_catch_an_import_in_a_function() -> None:
    late = "import os\n\n\ndef late() -> None:\n    import json\n"
    assert _imports_in_functions(ROOT / "tracker" / "late.py", late) == [
        "tracker/late.py:5: import json"]
    assert not _imports_in_functions(ROOT / "tracker" / "cli.py")
