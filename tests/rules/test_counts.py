"""Counts typed past any table's: a pool of 999,999,999 dice, a million stands, a hundred
million foes. Each is refused in one line or taken at once: no stage rolls more than
1,000 dice (as ``roll`` takes), no odds are worked out past what they can be, and no
list is built as long as a typed number."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAVES
from tracker.core import odds
from tracker.core.dice import MOST_DICE, Dice, DiceError
from tracker.rules import get
from tracker.rules.warmaster.actions.drive import drive_odds
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session

SAMPLES = sorted(p.name for p in SAVES.glob("*.toml") if p.name != "bestiary.toml")


def session_on(tmp_path: Path, sample: str) -> Session:
    path = tmp_path / sample
    shutil.copy(SAVES / sample, path)
    return Session(load(path), path)


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_count_of_every_action_typed_huge_is_refused_or_taken(
        tmp_path: Path, sample: str) -> None:
    """Each whole-number field of each action, typed as 999999999 with the first and
    last on the roster named and every limit forced: a one-line refusal, or the action
    taken (and undone)."""
    session = session_on(tmp_path, sample)
    names = [x.name for x in session.enc.everyone]
    tried = 0
    for action in session.ruleset.actions.values():
        slots = [p for p in action.params if p.kind in ("actor", "target")]
        who = " ".join(f'"{n}"' for n in (names[0], names[-1])[: len(slots)])
        for p in action.params:
            if p.kind not in ("int", "ints"):
                continue
            line = f"{action.name} {who} {p.name}=999999999 force=yes --roll-rest"
            tried += 1
            try:
                session.execute(line)
            except CommandError as exc:
                assert str(exc) and "\n" not in str(exc), line
            else:
                session.execute("undo")
    assert tried


def test_a_stage_of_more_than_a_thousand_dice_is_refused() -> None:
    dice = Dice(seed=1)
    assert len(dice.roll_many("hit", 6, MOST_DICE)) == MOST_DICE
    with pytest.raises(DiceError, match="hit: 1001 dice at once: at most 1000 in one roll"):
        dice.roll_many("hit", 6, MOST_DICE + 1)


def test_edc_a_pool_of_toughness_999999999_is_refused_naming_the_limit(tmp_path) -> None:
    session = session_on(tmp_path, "edc-roland-press.toml")
    with pytest.raises(CommandError) as refused:
        session.execute("knockout Roland dice=999999999 force=yes")
    assert str(refused.value) == "knockout: 999999999 dice at once: at most 1000 in one roll"
    with pytest.raises(CommandError, match="opponents=999999999: must be at most 100"):
        session.execute("opponents Roland opponents=999999999")


def test_warmaster_more_drive_back_dice_than_the_pace_rout_whatever_they_show() -> None:
    """Each die shows 1 or more: 31 dice are 31 cm or more, past a pace of 30 cm."""
    assert drive_odds(31, 30, None) == [("routed", 1.0)]
    assert drive_odds(1000, 30, None) == [("routed", 1.0)]
    ways = drive_odds(2, 30, None)  # two dice are never past 30 cm
    assert [label for label, _ in ways] == ["driven back", "driven back, confused"]


def test_warmaster_a_target_of_a_million_stands_loses_no_more_than_three_dice_remove(
        tmp_path: Path) -> None:
    """Three attack dice remove at most three stands of one Hit each: the odds of a
    target of a billion stands are those of a target of three, with nothing past."""
    shoot = get("warmaster").actions["shoot"]
    given = {"attacks": "3", "armour": "0", "hits_per_stand": "1"}
    huge = shoot.odds(shoot.parse_params({**given, "stands": "999999999"}))
    three = shoot.odds(shoot.parse_params({**given, "stands": "4"}))
    assert huge == three
    assert len(huge) == 4  # 0, 1, 2 or 3 stands removed


def test_totals_are_worked_out_for_at_most_two_hundred_dice() -> None:
    assert len(odds.dice_sum(odds.MOST_SUMMED, 6)) == 6 * odds.MOST_SUMMED + 1
    with pytest.raises(ValueError, match="201 dice at once: odds are worked out for at most"):
        odds.dice_sum(odds.MOST_SUMMED + 1, 6)
    with pytest.raises(ValueError, match="1001 dice at once"):
        odds.binomial(MOST_DICE + 1, 0.5)
