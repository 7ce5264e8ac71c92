"""Tables as validated data: load_table reads TOML into records and says what is wrong."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from tracker.core.tables import Modifier, TableError, applicable, load_table


@dataclass(frozen=True, slots=True)
class Band:
    name: str
    multiple: int
    modifier: int = 0
    zone_die: Literal["d6", "d8", "d10"] = "d10"


@dataclass(frozen=True, slots=True)
class Sheet:
    bands: tuple[Band, ...]
    modifiers: tuple[Modifier, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)
    scale: float = 1.0


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_table_reads_into_the_model(tmp_path: Path) -> None:
    path = write(tmp_path, """
scale = 2
[[bands]]
name = "direct pb"
multiple = 1
modifier = 10
zone_die = "d6"
[[modifiers]]
name = "Moving target"
value = -10
when = { target = "moving" }
""")
    sheet = load_table(Sheet, path)
    assert sheet.bands[0] == Band("direct pb", 1, 10, "d6")
    assert sheet.scale == 2.0 and isinstance(sheet.scale, float)
    assert sheet.modifiers[0].when == {"target": "moving"}


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ('[[bands]]\nname = "pb"\nmultiple = "one"\n', "bands[0].multiple", "a whole number"),
        ('[[bands]]\nname = "pb"\n', "bands[0].multiple", "missing"),
        ('[[bands]]\nname = "pb"\nmultiple = 1\nzone_die = "d7"\n', "bands[0].zone_die",
         "one of"),
        ('bands = []\ncolour = "red"\n', "colour", "unknown key"),
        # read as a text file gives them: true is not a number, "3" is not 3
        ('bands = []\nscale = true\n', "scale", "expected a number, got True"),
        ('[[bands]]\nname = "pb"\nmultiple = "3"\n', "bands[0].multiple",
         "expected a whole number, got '3'"),
        ('[[bands]]\nname = 3\nmultiple = 1\n', "bands[0].name", "expected text, got 3"),
        ('bands = 3\n', "bands", "a list"),
        ('bands = []\n[[modifiers]]\nname = "x"\nvalue = 1\nwhen = { a = { about = 1 } }\n',
         "modifiers[0].when.a", "unknown test"),
    ],
)
def test_errors_name_the_file_the_key_and_what_was_expected(
    tmp_path: Path, text: str, key: str, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(TableError) as err:
        load_table(Sheet, path)
    assert err.value.key == key
    assert expected in err.value.expected
    assert str(err.value).startswith("sheet.toml at ")


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="not valid TOML"):
        load_table(Sheet, write(tmp_path, "bands = [\n"))
    with pytest.raises(TableError, match="cannot read"):
        load_table(Sheet, tmp_path / "none.toml")


def test_the_table_is_read_again_when_the_file_changes(tmp_path: Path) -> None:
    path = write(tmp_path, '[[bands]]\nname = "a"\nmultiple = 1\n')
    first = load_table(Sheet, path)
    assert load_table(Sheet, path) is first  # validated once
    path.write_text('[[bands]]\nname = "b"\nmultiple = 2\n', encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert load_table(Sheet, path).bands[0].name == "b"


def test_modifier_rows_apply_when_their_facts_hold() -> None:
    rows = [
        Modifier("Moving target", -10, {"target": "moving"}),
        Modifier("Crosswind", -10, {"windforce": {"at_least": 2}}, per="windforce"),
        Modifier("Point blank", 10, {"band": ["pb"]}),
        Modifier("Named by the GM", 5),
    ]
    got = applicable(rows, {"target": "moving", "windforce": 3, "band": "direct"})
    assert [(m.name, v) for m, v in got] == [("Moving target", -10), ("Crosswind", -30)]
    assert applicable(rows, {"target": "still", "windforce": 1, "band": "pb"})[0][1] == 10


def test_a_per_row_at_zero_is_left_out_unless_it_is_kept() -> None:
    rows = [
        Modifier("Heft", -1, {"thrown": True}, per="heft"),
        Modifier("Evading (Dodge x 5)", -5, {"target": "evading"}, per="dodge", keep_zero=True),
    ]
    got = applicable(rows, {"thrown": True, "heft": 0, "target": "evading", "dodge": 0})
    assert [(m.name, v) for m, v in got] == [("Evading (Dodge x 5)", 0)]
    got = applicable(rows, {"thrown": True, "heft": 4, "target": "evading", "dodge": 2})
    assert [(m.name, v) for m, v in got] == [("Heft", -4), ("Evading (Dodge x 5)", -10)]
