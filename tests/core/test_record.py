"""Records behave as the frozen and plain dataclasses they stand in for."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import ClassVar

import pytest

from tracker.core.record import (
    MISSING,
    FrozenError,
    field,
    fields,
    is_record,
    make_record,
    record,
    replace,
)


@record
class Band:
    range: int
    ka: int
    ap: int = 0
    rules: tuple[str, ...] = ()
    shared: ClassVar[int] = 7


@record(frozen=False)
class Tally:
    name: str
    hits: list[int] = field(default_factory=list)
    note: str = field(default="", compare=False, repr=False)


@record
class Checked:
    low: int
    high: int
    seen: list[str] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if self.high < self.low:
            raise ValueError(f"high {self.high} is under low {self.low}")
        self.seen.append("post_init")


@record
class Weapon(Band):
    name: str = "bow"


@dataclasses.dataclass(frozen=True)
class DataBand:
    range: int
    ka: int
    ap: int = 0
    rules: tuple[str, ...] = ()


def test_init_positional_keywords_and_defaults_as_a_dataclass() -> None:
    for args, kwargs in [((12, 3), {}), ((12,), {"ka": 3, "ap": 1}), ((), {"range": 1, "ka": 2}),
                         ((4, 5, 6, ("x",)), {})]:
        ours, theirs = Band(*args, **kwargs), DataBand(*args, **kwargs)
        assert [getattr(ours, f.name) for f in fields(ours)] == \
            [getattr(theirs, f.name) for f in dataclasses.fields(theirs)]
    assert repr(Band(12, 3)) == "Band(range=12, ka=3, ap=0, rules=())"
    assert Band.shared == 7 and [f.name for f in fields(Band)] == ["range", "ka", "ap", "rules"]


@pytest.mark.parametrize("args, kwargs, says", [
    ((1,), {}, "missing required argument: 'ka'"),
    ((1, 2, 3, (), 5), {}, "takes 4 positional arguments but 5 were given"),
    ((1, 2), {"range": 3}, "multiple values for argument 'range'"),
    ((1, 2), {"armour": 3}, "unexpected keyword argument 'armour'"),
])
def test_a_wrong_call_is_a_type_error_naming_the_field(args, kwargs, says) -> None:
    with pytest.raises(TypeError, match=says):
        Band(*args, **kwargs)


def test_frozen_records_refuse_assignment_and_hash_by_value() -> None:
    band = Band(12, 3)
    with pytest.raises(FrozenError):
        band.ka = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del band.ka  # type: ignore[misc]
    assert band == Band(12, 3) and band != Band(12, 4)
    assert hash(band) == hash(Band(12, 3))
    assert len({band, Band(12, 3), Band(1, 1)}) == 2
    assert band != DataBand(12, 3)  # another class, even with the same fields


def test_plain_records_take_assignment_are_unhashable_and_compare_chosen_fields() -> None:
    a, b = Tally("a"), Tally("a")
    a.hits.append(3)
    assert b.hits == []  # each record its own list
    a.note = "left out of comparison"
    b.hits.append(3)
    assert a == b
    assert repr(a) == "Tally(name='a', hits=[3])"
    with pytest.raises(TypeError):
        hash(a)


def test_post_init_runs_and_non_init_fields_are_made() -> None:
    assert Checked(1, 2).seen == ["post_init"]
    with pytest.raises(ValueError, match="high 1 is under low 2"):
        Checked(2, 1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'seen'"):
        Checked(1, 2, seen=[])  # type: ignore[call-arg]


def test_fields_are_inherited_in_order_and_replace_keeps_the_class() -> None:
    w = Weapon(10, 2, name="sling")
    assert [f.name for f in fields(w)] == ["range", "ka", "ap", "rules", "name"]
    assert replace(w, ka=5) == Weapon(10, 5, name="sling")
    assert type(replace(w)) is Weapon
    with pytest.raises(TypeError, match="no field 'armour'"):
        replace(w, armour=1)
    with pytest.raises(ValueError, match="cannot be replaced"):
        replace(Checked(1, 2), seen=[])
    assert is_record(w) and is_record(Weapon) and not is_record(DataBand)


def test_keyword_only_records_and_match_args() -> None:
    class Params:
        def __init_subclass__(cls) -> None:
            make_record(cls, kw_only=True)

    class Shot(Params):
        attacks: int
        armour: int = 0

    with pytest.raises(TypeError, match="takes 0 positional arguments"):
        Shot(3)  # type: ignore[call-arg]
    assert Shot(attacks=3).armour == 0  # type: ignore[call-arg]
    assert Band.__match_args__ == ("range", "ka", "ap", "rules")
    match Band(1, 2):
        case Band(r, k):
            assert (r, k) == (1, 2)


def test_declarations_dataclasses_refuse_are_refused() -> None:
    with pytest.raises(ValueError, match="mutable default list"):
        @record
        class Bad:
            hits: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default field 'ka' follows default field"):
        @record
        class Out:
            range: int = 0
            ka: int  # type: ignore[misc]

    with pytest.raises(ValueError, match="both a default and a default_factory"):
        field(default=1, default_factory=int)
    assert repr(MISSING) == "MISSING"


def test_records_copy_and_pickle_as_values() -> None:
    band = Band(12, 3, rules=("volley",))
    assert copy.copy(band) == band and copy.deepcopy(band) == band
    assert pickle.loads(pickle.dumps(band)) == band
    tally = Tally("a", [1])
    assert copy.deepcopy(tally) == tally and copy.deepcopy(tally).hits is not tally.hits
