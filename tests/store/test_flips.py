"""A bit flipped in an earlier journal record is reported with its line and byte, by
opening and by `check`, however the journal is read (test_cuts.py flips bits throughout
the state and the journal and repairs each case)."""

from __future__ import annotations

from tests.conftest import journal_of
from tests.store.damage import played
from tracker.session.opening import model_for
from tracker.store.verify import check_save


def test_every_flip_in_an_earlier_record_is_reported_with_its_line_and_byte(tmp_path):
    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    whole = jpath.read_bytes()
    starts = [0] + [i + 1 for i, b in enumerate(whole[:-1]) if b == 0x0A]
    for line, at in enumerate(starts[:-1], 1):  # the records before the state's own
        for inside in (at + 3, at + 40):
            damaged = bytearray(whole)
            damaged[inside] ^= 0x04
            jpath.write_bytes(bytes(damaged))
            report = check_save(path, model_for)
            assert not report.ok
            assert any(f"ford.journal.jsonl line {line}, byte {at}:" in p
                       for p in report.problems), (line, report.problems)
    jpath.write_bytes(whole)
    assert check_save(path, model_for).ok


def test_the_chain_is_checked_alike_whatever_the_size_of_the_blocks_read(tmp_path,
                                                                          monkeypatch):
    from tracker.session.opening import load
    from tracker.store import SaveError, chain

    path = tmp_path / "ford.toml"
    played(path)
    jpath = journal_of(path)
    whole = jpath.read_bytes()
    last = whole.rindex(b"\n", 0, len(whole) - 1) + 1
    for block in (1, 7, 300, 1 << 20):
        monkeypatch.setattr(chain, "CHAIN_BLOCK", block)
        assert len(load(path).log) == 5
        for at in (0, 40, last - 1, last + 5):
            damaged = bytearray(whole)
            damaged[at] ^= 0x01
            jpath.write_bytes(bytes(damaged))
            line = whole.count(b"\n", 0, at) + 1
            start = whole.rfind(b"\n", 0, at) + 1
            try:
                load(path)
            except SaveError as exc:
                assert f"line {line}, byte {start}:" in str(exc), (block, at, str(exc))
            else:
                raise AssertionError(f"a flip at byte {at} opened (blocks of {block})")
        jpath.write_bytes(whole)
