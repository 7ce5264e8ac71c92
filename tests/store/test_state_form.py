"""A state is read for what it is: anything of the schema 3 form makes it checked as
schema 3 whatever its `schema` line says; damage is reported with its key or its line
and byte; a folder in place of a save is an error."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SAMPLES, SAVES, journal_of
from tracker.cli import main
from tracker.session.opening import load, model_for
from tracker.store import SaveError
from tracker.store.verify import check_save


@pytest.fixture
def played(skirmish_file):
    assert main(["exec", str(skirmish_file), "set aldo initiative=12", "note a"]) == 0
    return skirmish_file


@pytest.mark.parametrize("schema", ["2", "1", "0", "x", '"3"'])
def test_the_schema_line_cannot_switch_the_checks_off(played, schema, capsys):
    text = played.read_text()
    assert "initiative = 12" in text
    played.write_text(re.sub(r"^schema = 3", f"schema = {schema}", text, flags=re.M)
                      .replace("initiative = 12", "initiative = 99"))
    with pytest.raises(SaveError):
        load(played)
    assert main(["check", str(played)]) == 1
    assert "end.checksum" in capsys.readouterr().err
    assert main(["exec", str(played), "note b"]) == 2
    assert sorted(p.name for p in played.parent.glob("*.jsonl")) == ["ford.journal.jsonl"]


def test_a_state_stripped_of_its_save_and_end_tables_is_still_schema_3(played):
    text = played.read_text()
    stripped = text[: text.index("[save]")].replace("schema = 3", "schema = 2")
    played.write_text(stripped)  # what is left names a checksummed journal
    with pytest.raises(SaveError) as err:
        load(played)
    assert err.value.key == "schema" and "a checksummed journal" in err.value.expected
    assert not check_save(played, model_for).ok


def test_old_saves_with_nothing_of_the_new_form_still_open(tmp_path):
    for sample in (SAVES / name for name in SAMPLES):
        assert check_save(sample, model_for).ok, sample.name


def test_invalid_utf8_is_reported_with_its_line_and_byte(played, capsys):
    raw = bytearray(played.read_bytes())
    at = raw.index(b"Ambush")
    raw[at] = 0xC1  # never valid in UTF-8
    played.write_bytes(bytes(raw))
    line = raw[:at].count(b"\n") + 1
    with pytest.raises(SaveError) as err:
        load(played)
    assert err.value.key == f"line {line}"
    assert f"the byte 0xc1 at byte {at} " in err.value.expected
    assert main(["check", str(played)]) == 1
    assert f"ford.toml at line {line}: UTF-8 text, found the byte 0xc1 at byte {at}" in \
        capsys.readouterr().err


def test_a_toml_error_names_its_line(played):
    text = played.read_text()
    played.write_text(text.replace('name = "Ambush', 'name = Ambush', 1))
    with pytest.raises(SaveError) as err:
        load(played)
    assert err.value.key.startswith("line ") or err.value.key == "end.checksum"


def test_a_folder_in_place_of_a_save_fails_check(tmp_path, capsys):
    folder = tmp_path / "battle.toml"
    folder.mkdir()
    assert main(["check", str(folder)]) == 1
    assert "battle.toml: a regular file: a folder, not a file" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["check", str(empty)]) == 1
    assert "a folder with no saves in it" in capsys.readouterr().err


def test_opening_finds_a_forged_id_in_an_earlier_record(played):
    from tracker.store import journal

    jpath = journal_of(played)
    lines = jpath.read_bytes().split(b"\n")
    body = lines[1][: lines[1].rindex(b',"h":"')]
    forged = re.sub(rb'^\{"id":"[0-9a-f]+"', b'{"id":"0000000000000000"', body)
    lines[1] = forged + b',"h":"' + journal.digest(forged).encode() + b'"}'
    jpath.write_bytes(b"\n".join(lines))
    with pytest.raises(SaveError, match="line 2, byte"):
        load(played)
