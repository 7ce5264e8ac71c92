"""Which journal an encounter is written to is the store's to know: the log (core) holds
no store object, a copy of an encounter is written to no journal, and the store forgets a
log that is gone."""

from __future__ import annotations

import ast
import gc

from tests.conftest import ROOT, skirmish
from tracker.core.log import Log
from tracker.session.opening import load
from tracker.store import save_encounter
from tracker.store.toml_store import _links, link_of


def test_the_log_holds_no_store_object(skirmish_file):
    enc = load(skirmish_file)
    link = link_of(enc)
    assert link is not None and link.path == skirmish_file
    store_types = {type(link)}
    assert not any(type(v) in store_types for v in vars(enc.log).values())
    tree = ast.parse((ROOT / "tracker" / "core" / "log.py").read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imported if "store" in m]


def test_a_copy_is_written_to_a_journal_of_its_own(skirmish_file, tmp_path):
    enc = load(skirmish_file)
    copy = enc.model_copy(deep=True)
    assert link_of(copy) is None
    save_encounter(copy, tmp_path / "copy.toml")
    copied, original = link_of(copy), link_of(enc)
    assert copied is not None and original is not None
    assert copied.journal != original.journal


def test_the_link_goes_with_its_log(tmp_path):
    enc = skirmish()
    save_encounter(enc, tmp_path / "gone.toml")
    key = id(enc.log)
    assert key in _links
    enc.log = Log()
    gc.collect()
    assert key not in _links
