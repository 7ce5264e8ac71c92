"""The battle report: every action of the log with its dice and odds, losses per side,
the luck ledger against a hand calculation, and the player-safe report."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.conftest import SAMPLES, SAVES, load_sample
from tests.session.test_redaction import SIDES, play, plays, undone_names
from tracker.cli import main
from tracker.core.model import LogEntry, Resolved
from tracker.report.gather import gather
from tracker.report.ledger import ledger
from tracker.report.render import render
from tracker.rules.d6battle import D6Encounter
from tracker.session.opening import load
from tracker.session.session import Session
from tracker.store import fs, save_encounter


def d6_session() -> Session:
    """The d6battle sample moved on to the English Shoot phase."""
    s = Session(load_sample("d6battle-crossbow-duel.toml", D6Encounter))
    for _ in range(8):
        where = s.play.where()
        if (where.phase, where.side) == ("shoot", "English"):
            return s
        s.execute("next phase")
    raise AssertionError("no English Shoot phase")


def volley(s: Session) -> None:
    """6 longbow shots at 4+ with 5 hits; Foot Sergeants save 6+ on 5 dice, 1 saved;
    KA 3 against D 4 kills on 1+, 4 dice."""
    s.execute("shoot Longbowmen Foot --dice hit=4,5,6,6,5,1 save=6,1,2,3,4 kill=2,3,1,6")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


# --- tracker report on each sample -------------------------------------------------------


def told(entry: LogEntry) -> list[str]:
    """The report's lines of a log entry: a line for each duty an advance ran, then the
    advance in its own words (without the duties')."""
    text = entry.text
    for part in entry.parts or ():
        text = text.replace(f"{part.text}; ", "", 1).replace(f"; {part.text}", "", 1)
    return [*(part.text for part in entry.parts or ()), text]


@pytest.mark.parametrize("name", SAMPLES)
def test_markdown_names_every_action_of_the_log(name: str, capsys) -> None:
    enc = load(SAVES / name)
    code, out, _ = run(capsys, "report", str(SAVES / name))
    assert code == 0
    plain = out.replace("\\", "")
    entries = enc.log[: enc.cursor]
    if not entries:
        assert "Nothing has happened yet." in out
    for n, entry in enumerate(entries, 1):
        assert f"{n}. " in plain
        for text in told(entry):
            assert text in plain, text


@pytest.mark.parametrize("name", SAMPLES)
def test_csv_has_one_row_per_die_with_its_source(name: str, capsys) -> None:
    enc = load(SAVES / name)
    code, out, _ = run(capsys, "report", str(SAVES / name), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    dice = [(i + 1, r) for i, e in enumerate(enc.log[: enc.cursor]) for r in e.rolls]
    assert len(rows) == len(dice)
    for row, (n, roll) in zip(rows, dice, strict=True):
        assert (int(row["entry"]), row["role"], int(row["value"]), row["source"]) == (
            n, roll.role, roll.value, roll.source)


@pytest.mark.parametrize("name", SAMPLES)
def test_json_parses_and_holds_every_line(name: str, capsys) -> None:
    enc = load(SAVES / name)
    code, out, _ = run(capsys, "report", str(SAVES / name), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [ln["text"] for ln in data["lines"]] == [
        text for e in enc.log[: enc.cursor] for text in told(e)]
    assert data["ruleset"] == enc.ruleset


def test_sample_casualties_per_side_come_from_the_log() -> None:
    """The sample: the longbows kill 3 Genoese (who rout), the crossbows 1 Man-at-Arms."""
    g = gather(load(SAVES / "d6battle-crossbow-duel.toml"))
    french, english = g.losses.total("French"), g.losses.total("English")
    assert (french.casualties, french.routed) == (3, 1)
    assert (english.casualties, english.routed) == (1, 0)


# --- the luck ledger against a hand calculation -----------------------------------------


def test_ledger_matches_a_hand_calculation() -> None:
    s = d6_session()
    volley(s)
    tallies = {(t.side, t.who, t.measure): t for t in ledger(gather(s.enc).lines)}
    hits = tallies[("English", "Longbowmen", "hits")]
    # 6 dice at 4+: expected 3; 5 or more hits: (C(6,5) + C(6,6)) / 2^6 = 7/64 = 10.9%
    assert (hits.dice, hits.actual) == (6, 5)
    assert hits.expected == pytest.approx(3.0)
    assert hits.chance == pytest.approx(7 / 64)
    assert f"{100 * hits.chance:.1f}%" == "10.9%"
    # the saves are the target's dice: 5 dice at 6+, 1 saved; at least 1: 1 - (5/6)^5
    saves = tallies[("French", "Foot Sergeants", "saves")]
    assert (saves.dice, saves.actual) == (5, 1)
    assert saves.expected == pytest.approx(5 / 6)
    assert saves.chance == pytest.approx(1 - (5 / 6) ** 5)
    rolls = tallies[("English", "Longbowmen", "kill rolls")]
    assert (rolls.dice, rolls.expected, rolls.actual, rolls.chance) == (4, 4.0, 4, 1.0)
    # the kills the action's own odds counted: 4 of them, against its pre-roll odds
    record = s.enc.log[s.enc.cursor - 1].resolved
    assert record is not None
    by_count = {int(label.split()[0]): p for label, p in record.odds}
    kills = tallies[("English", "Longbowmen", "kills")]
    assert (kills.dice, kills.actions, kills.actual) == (0, 1, 4)
    assert kills.expected == pytest.approx(sum(n * p for n, p in by_count.items()))
    assert kills.chance == pytest.approx(sum(p for n, p in by_count.items() if n >= 4))
    assert kills.source == "1 action's odds"
    assert tallies[("English", "", "hits")].actual == 5


def test_ledger_adds_up_a_sides_dice_across_actions() -> None:
    """Two volleys of 6 at 4+, 5 and 2 hits: 12 dice, 7 hits, P(7 or more) by hand."""
    s = d6_session()
    volley(s)
    s.execute("shoot Longbowmen Billmen force=yes --dice hit=1,2,3,4,5,3 kill=5,5")
    side = next(t for t in ledger(gather(s.enc).lines)
                if (t.side, t.who, t.measure) == ("English", "", "hits"))
    assert (side.dice, side.actual) == (12, 7)
    assert side.expected == pytest.approx(6.0)
    assert side.chance == pytest.approx(sum(comb(12, k) for k in range(7, 13)) / 2**12)


def test_an_action_keeps_the_odds_of_what_happened() -> None:
    s = d6_session()
    volley(s)
    record = s.enc.log[s.enc.cursor - 1].resolved
    assert record is not None
    assert record.happened == "4 kills, morale test"
    line = gather(s.enc).lines[-1]
    assert line.chance == dict(record.odds)["4 kills, morale test"]
    md = render(s.enc, "md")
    assert f"4 kills, morale test: {100 * line.chance:.1f}% before the dice" in md
    assert "hit d6 ×6: 4 5 6 6 5 1 (4+: 5 successes; entered)" in md


def test_a_journal_record_from_before_the_outcome_label_still_reads() -> None:
    old = {"action": "shoot", "outcome": "kills", "odds": [["1 kill", 0.5], ["2 kills", 0.5]]}
    assert Resolved.model_validate(old).happened == ""


def test_dice_rolled_by_the_tracker_are_marked_in_every_format() -> None:
    s = d6_session()
    s.execute("shoot Longbowmen Foot --dice hit=4,5,6,6,5,1 --roll-rest")
    line = gather(s.enc).lines[-1]
    sources = {d.role: d.source for d in line.dice}
    assert sources["hit"] == "entered" and sources["save"] == "rolled"
    rows = list(csv.DictReader(io.StringIO(render(s.enc, "csv"))))
    assert {r["source"] for r in rows if r["entry"] == str(line.index) and r["role"] == "save"} \
        == {"rolled"}
    assert "rolled by the tracker" in render(s.enc, "md")


# --- the player-safe report ---------------------------------------------------------------


def test_a_sides_report_leaves_out_what_it_may_not_see(tmp_path: Path, capsys) -> None:
    s = d6_session()
    s.execute("set Billmen hidden=yes")
    s.execute("note! the Billmen wait behind the hedge")
    volley(s)
    path = tmp_path / "duel.toml"
    save_encounter(s.enc, path)
    for fmt in ("md", "csv", "json"):
        code, out, _ = run(capsys, "report", str(path), "--side", "french", "--format", fmt)
        assert code == 0
        assert "Billmen" not in out and "hedge" not in out, fmt
        assert "Longbowmen" in out
    code, gm, _ = run(capsys, "report", str(path))
    assert "Billmen" in gm and "hedge" in gm
    # what the side may see keeps its odds and its ledger
    g = gather(load(path), "French")
    assert g.lines[-1].happened == "4 kills, morale test"
    assert any(t.who == "Foot Sergeants" for t in ledger(g.lines))


def test_a_hidden_units_action_is_not_in_another_sides_report() -> None:
    s = d6_session()
    s.execute("set Longbowmen hidden=yes")
    volley(s)
    for fmt in ("md", "csv", "json"):
        assert "Longbow" not in render(s.enc, fmt, "French"), fmt
    assert not any(t.side == "English" for t in ledger(gather(s.enc, "French").lines))


# --- the command line ---------------------------------------------------------------------


def test_report_writes_to_a_file_in_the_format_its_ending_says(tmp_path: Path, capsys) -> None:
    out = tmp_path / "duel.csv"
    code, said, _ = run(capsys, "report", str(SAVES / "d6battle-crossbow-duel.toml"),
                        "--out", str(out))
    assert code == 0 and str(out) in said
    assert out.read_text().startswith("entry,round,phase")


def test_report_into_a_folder_is_named_after_the_save(tmp_path: Path, capsys) -> None:
    """``--out reports/`` (a folder, or a name ending in /) writes duel-report.md in it."""
    save = tmp_path / "duel.toml"
    save_encounter(load(SAVES / "d6battle-crossbow-duel.toml"), save)
    (tmp_path / "here").mkdir()
    code, said, err = run(capsys, "report", str(save), "--out", str(tmp_path / "here"))
    assert code == 0, err
    assert said.startswith(f"{tmp_path / 'here' / 'duel-report.md'}: the md report")
    assert (tmp_path / "here" / "duel-report.md").read_text().startswith("# Battle report")
    code, said, err = run(capsys, "report", str(save), "--format", "csv",
                          "--out", f"{tmp_path / 'new'}/")
    assert code == 0, err
    assert (tmp_path / "new" / "duel-report.csv").read_text().startswith("entry,round")


def test_a_report_that_cannot_be_written_names_the_file_asked_for(tmp_path: Path,
                                                                   capsys) -> None:
    save = tmp_path / "duel.toml"
    save_encounter(load(SAVES / "d6battle-crossbow-duel.toml"), save)
    with fs.use(NoReplace()):
        code, _, err = run(capsys, "report", str(save), "--out", str(tmp_path / "r.md"))
    assert code == 2
    assert err == f"tracker: {tmp_path / 'r.md'}: Is a directory\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


class NoReplace(fs.Files):
    """A file system whose rename finds a folder at the name asked for."""

    def replace(self, src: Path, dst: Path) -> None:
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(src), None, str(dst))


@pytest.mark.parametrize("args, says", [
    (["--side", "Saracens"], "no such side"),
    (["--out", "{save}"], "the save itself"),
])
def test_report_refuses_with_one_line(tmp_path: Path, capsys, args, says) -> None:
    save = tmp_path / "duel.toml"
    save_encounter(load(SAVES / "d6battle-crossbow-duel.toml"), save)
    before = save.read_bytes()
    code, _, err = run(capsys, "report", str(save), *[a.format(save=save) for a in args])
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert save.read_bytes() == before


def test_tracker_report_does_not_load_the_terminal_ui() -> None:
    import subprocess
    import sys

    code = ("import sys\nfrom tracker.cli import main\n"
            f"main(['report', {str(SAVES / 'edc-roland-press.toml')!r}, '--format', 'json'])\n"
            "assert 'textual' not in sys.modules, 'textual imported'\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_a_skirmish_shot_names_whom_it_was_at_and_weighs_the_test_roll() -> None:
    """HârnMaster: Nolora's d100 against EML 80 (80 or less succeeds), rolled 30: one die
    expected to succeed 0.8 times; at least one success 80%."""
    from tracker.rules.harn import RULESET as HARN

    s = Session(load(SAVES / "harn-nolora-point-blank.toml"))
    assert s.ruleset is HARN
    for line in ("injury Sentry level=S2p", "next round", "load Nolora", "next round",
                 "missile Nolora at=Sentry ml=70 range=10 --dice test=30 --roll-rest"):
        s.execute(line)
    line = gather(s.enc).lines[-1]
    assert (line.actor, line.target, line.target_side) == ("Nolora", "Sentry", "brigands")
    assert "EML80" in line.text
    test = next(t for t in ledger([line]) if t.who == "Nolora")
    assert (test.dice, test.actual) == (1, 1)
    assert test.expected == pytest.approx(0.8) and test.chance == pytest.approx(0.8)
    assert line.happened == "CS: strike"


@settings(max_examples=60, deadline=None)
@given(plays())
def test_no_hidden_text_reaches_a_sides_report(case) -> None:
    """The player view's property test, on the report of each side in every format."""
    steps, never, secret_of = case
    session = play(steps)
    never = never - undone_names(session, never)
    for side in SIDES:
        for fmt in ("md", "csv", "json"):
            data = render(session.enc, fmt, side).lower().replace("\\", "")
            for token in never:
                assert token.lower() not in data, (side, fmt, token)
            for owner, tokens in secret_of.items():
                if owner != side:
                    for token in tokens:
                        assert token.lower() not in data, (side, owner, fmt, token)


def test_a_record_kept_before_the_outcome_label_is_named_by_its_outcome_word() -> None:
    s = d6_session()
    volley(s)
    s.execute("morale Foot --dice morale=1,1")
    entry = s.enc.log[s.enc.cursor - 1]
    assert entry.resolved is not None and entry.resolved.happened == "passed"
    old = entry.model_copy(update={"resolved": entry.resolved.model_copy(
        update={"happened": ""})})
    s.enc.log = [*s.enc.log[: s.enc.cursor - 1], old]
    line = gather(s.enc).lines[-1]
    assert line.happened == "passed"
    assert line.chance == dict(entry.resolved.odds)["passed"]
