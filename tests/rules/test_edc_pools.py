"""edc: Combat Pool refresh and its modifiers, Shock spill-over, the start-of-round upkeep,
and a property test that pool accounting never goes wrong across spends, wounds,
refreshes and undo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.edc_helpers import resolve, run
from tracker import rules
from tracker.core import history
from tracker.core.model import Wound
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter, combat_pool

EDC = rules.get("edc")


def upkeep(enc: EdcEncounter, dice: dict[str, list[int]] | None = None) -> list[str]:
    """A new round as the session begins it: the blood loss tests the first exchange owes
    as it begins (their dice entered), then the upkeep; the log's lines after the head."""
    from tracker.session.session import Session

    given = " ".join(f"{role}={','.join(map(str, v))}" for role, v in (dice or {}).items())
    out = Session(enc).execute("next round" + (f" --dice {given}" if given else ""))
    assert out.pending is None, out.message
    return [line for line in out.message.split("; ")[1:]  # what `next round` passed over
            if "had no turn" not in line and not line.endswith("skipped")]



# --- shock: the worked example ----------------------------------------------------------------


def test_seven_shock_on_five_cp():
    """7 Shock with 5 CP left: lose all 5 now and 2 at the start of next round."""
    f = resolve("shock", cp=5, shock=7, pain=2, base=12).figures
    assert f["cp_now"] == 0 and f["spill"] == 2 and f["next_cp"] == 10
    assert f["knockdown_roll"] is True


def test_shock_spill_unless_pain_greater():
    f = resolve("shock", cp=5, shock=7, pain=4, base=12).figures
    assert f["spill"] == 2 and f["next_cp"] == 8  # Pain 4 is the larger
    f = resolve("shock", cp=5, shock=3, pain=0, base=12).figures
    assert f["cp_now"] == 2 and f["spill"] == 0 and f["next_cp"] == 12
    assert f["knockdown_roll"] is False
    f = resolve("shock", cp=5, shock=5, base=12).figures
    assert f["cp_now"] == 0 and f["spill"] == 0 and not f["knockdown_roll"]


def test_shock_halved_at_health_one():
    f = resolve("shock", cp=0, shock=0, pain=0, base=11, halved="yes").figures
    assert f["next_cp"] == 6  # losses round down: 11 -> lose 5


def test_seven_shock_on_five_cp_in_the_encounter():
    c = EdcCombatant(id="a", name="Alan", reflex=6, proficiency=6)
    enc = EdcEncounter(name="x", combatants=[c])
    run(enc, "spend", actor="Alan", dice=7)
    assert c.combat_pool.left == 5
    run(enc, "hit", target="Alan", location="chest", level=2, shock=7, pain=2, blood_loss=0)
    assert c.combat_pool.left == 0 and c.shock_spill == 2
    upkeep(enc)
    assert c.combat_pool.size == 12 - 2 and c.shock_spill == 0
    assert "Pain -2" in c.combat_pool.breakdown


# --- the refresh --------------------------------------------------------------------------------


def fighter(**kw: object) -> EdcCombatant:
    data: dict[str, object] = {"id": "f", "name": "F", "reflex": 6, "proficiency": 6}
    data.update(kw)
    return EdcCombatant.model_validate(data)


def pool_of(c: EdcCombatant, *others: EdcCombatant, **settings_: object) -> tuple[int, list[str]]:
    enc = EdcEncounter(name="x", combatants=[c, *others], settings=settings_)
    return combat_pool(c, enc)


def test_refresh_base_and_breakdown():
    size, lines = pool_of(fighter())
    assert size == 12 and lines == ["Reflex 6", "Proficiency 6"]


def test_refresh_footing_mounted_reach():
    assert pool_of(fighter(footing="higher"))[0] == 14
    horse = fighter(mounted=True, opponent="g")
    ground = fighter(id="g", name="G")
    assert pool_of(horse, ground)[0] == 14
    rider2 = fighter(id="g", name="G", mounted=True)
    assert pool_of(horse, rider2)[0] == 12  # no height bonus against another rider
    dagger = fighter(reach=0, opponent="g")
    spear = fighter(id="g", name="G", reach=3)
    size, lines = pool_of(dagger, spear)
    assert size == 9 and "Reach 0 vs 3 -3" in lines
    assert pool_of(dagger.model_copy(update={"inside_reach": True}), spear)[0] == 12


def test_refresh_lighting():
    assert pool_of(fighter(lighting="dim"))[0] == 11
    assert pool_of(fighter(lighting="moonlight"))[0] == 9
    assert pool_of(fighter(lighting="darkness"))[0] == 6
    assert pool_of(fighter(lighting="darkness", dark_sight=True))[0] == 12
    assert pool_of(fighter(reflex=5, lighting="moonlight"))[0] == 9  # 11 - 2
    assert pool_of(fighter(reflex=5, lighting="moonlight"), fraction_rounding="loss_up")[0] == 8


def test_refresh_pain_spill_health_prone_fumble():
    c = fighter(wounds=[Wound(location="arm", pain=3)], shock_spill=2)
    assert pool_of(c)[0] == 9
    c = fighter(wounds=[Wound(location="arm", pain=1)], shock_spill=4)
    size, lines = pool_of(c)
    assert size == 8 and lines[-1].startswith("Shock carried -4")
    assert pool_of(fighter(health=1))[0] == 6
    assert pool_of(fighter(health=1, reflex=5))[0] == 6  # 11: lose 5
    assert pool_of(fighter(prone=True))[0] == 6
    assert pool_of(fighter(fumble_penalty=3))[0] == 9
    assert pool_of(fighter(wounds=[Wound(location="arm", pain=20)]))[0] == 0


def test_pain_resisted_by_will_power():
    c = fighter(will_power=4, wounds=[Wound(location="arm", pain=5)])
    assert pool_of(c)[0] == 7
    assert pool_of(c, pain_resist="will_power")[0] == 11
    assert pool_of(c, pain_resist="half_will_power")[0] == 9


def test_spend_refuses_more_than_left():
    c = fighter()
    enc = EdcEncounter(name="x", combatants=[c])
    run(enc, "spend", actor="F", dice=10)
    with pytest.raises(RuleError, match="F has 2 CP left"):
        run(enc, "spend", actor="F", dice=3)
    assert c.combat_pool.spent == 10 and len(enc.log) == 1


# --- upkeep: blood loss -------------------------------------------------------------------------


def test_upkeep_blood_loss_costs_health_and_halves_at_one():
    c = fighter(toughness=2, health=2, wounds=[Wound(location="arm", blood_loss=6)])
    enc = EdcEncounter(name="x", combatants=[c])
    lines = upkeep(enc, {"toughness": [5, 3]})
    assert c.health == 1 and c.combat_pool.size == 6
    assert any("BL 6" in line for line in lines)
    upkeep(enc, {"toughness": [6, 1]})
    assert c.health == 1
    upkeep(enc, {"toughness": [2, 1]})
    assert c.health == 0 and c.out and "coma" in c.conditions
    for _ in range(3):
        history.undo(enc)
    assert c.health == 2 and not c.out and c.conditions == []


def test_blood_loss_tn_first_wound_sets_new_part_raises():
    from tracker.rules.edc.wounds import blood_loss_tn

    arm = Wound(location="arm", blood_loss=4)
    arm2 = Wound(location="arm", blood_loss=6)
    leg = Wound(location="leg", blood_loss=3)
    assert blood_loss_tn([]) == 0
    assert blood_loss_tn([arm]) == 4
    assert blood_loss_tn([arm, arm2]) == 4  # hit twice in the arm: no increase
    assert blood_loss_tn([arm, leg]) == 7
    assert blood_loss_tn([arm, leg], "one") == 5
    assert blood_loss_tn([Wound(location="arm"), leg]) == 3


def test_upkeep_order_by_reflex_and_unwounded_do_not_roll():
    slow = fighter(id="s", name="Slow", reflex=3)
    fast = fighter(id="q", name="Quick", reflex=8)
    enc = EdcEncounter(name="x", combatants=[slow, fast])
    lines = upkeep(enc)
    assert lines == ["Quick CP 14", "Slow CP 9"]
    assert not enc.log[-1].rolls


# --- property: pool accounting across spends, wounds, refreshes and undo --------------------------

LOCATIONS = ("arm", "leg", "head", "chest")

op = st.one_of(
    st.tuples(st.just("spend"), st.integers(0, 1), st.integers(0, 8)),
    st.tuples(
        st.just("wound"),
        st.integers(0, 1),
        st.integers(0, 9),  # shock
        st.integers(0, 4),  # pain
        st.integers(0, 6),  # blood loss
        st.sampled_from(LOCATIONS),
    ),
    st.tuples(st.just("refresh"), st.lists(st.integers(1, 10), min_size=6, max_size=6)),
    st.tuples(st.just("undo")),
)


class Ref:
    """What the rules say each pool is, kept by hand."""

    def __init__(self, reflex: int, prof: int) -> None:
        self.base = reflex + prof
        self.reflex = reflex
        self.size = self.base
        self.spent = 0
        self.spill = 0
        self.health = 3
        self.out = False
        self.wounds: list[tuple[int, int, str]] = []  # pain, blood loss, part

    def copy(self) -> Ref:
        r = Ref.__new__(Ref)
        r.__dict__ = {**self.__dict__, "wounds": list(self.wounds)}
        return r

    def bl(self) -> int:
        tn, parts = 0, set()
        for _, b, part in self.wounds:
            if b <= 0:
                continue
            if not parts:
                tn = b
            elif part not in parts:
                tn += b
            parts.add(part)
        return tn


@settings(max_examples=150, deadline=None)
@given(
    stats=st.lists(st.tuples(st.integers(1, 8), st.integers(0, 8)), min_size=2, max_size=2),
    ops=st.lists(op, max_size=30),
)
def test_pool_accounting_property(stats, ops):
    fighters = [
        EdcCombatant(id=f"f{i}", name=f"F{i}", reflex=r, proficiency=p, toughness=3, health=3,
                     health_max=3)
        for i, (r, p) in enumerate(stats)
    ]
    enc = EdcEncounter(name="prop", combatants=fighters)
    refs = [Ref(r, p) for r, p in stats]
    stack: list[list[Ref]] = []

    for step in ops:
        kind = step[0]
        if kind == "spend":
            _, i, n = step
            ref = refs[i]
            if ref.out:
                continue
            if n > ref.size - ref.spent:
                with pytest.raises(RuleError):
                    run(enc, "spend", actor=f"F{i}", dice=n)
                continue
            stack.append([r.copy() for r in refs])
            run(enc, "spend", actor=f"F{i}", dice=n)
            ref.spent += n
        elif kind == "wound":
            _, i, shock, pain, bl, loc = step
            ref = refs[i]
            if ref.out:
                continue
            stack.append([r.copy() for r in refs])
            run(enc, "hit", target=f"F{i}", location=loc, level=1, shock=shock, pain=pain,
                blood_loss=bl)
            now = min(shock, max(ref.size - ref.spent, 0))
            ref.size -= now
            ref.spill += shock - now
            ref.wounds.append((pain, bl, loc))
        elif kind == "refresh":
            values = step[1]
            stack.append([r.copy() for r in refs])
            order = sorted(range(len(refs)), key=lambda k: (-refs[k].reflex, f"f{k}"))
            cursor = 0
            used: list[int] = []
            for k in order:
                ref = refs[k]
                if ref.out:
                    continue
                tn = ref.bl()
                if tn > 0:
                    rolled = values[cursor : cursor + 3]
                    cursor += 3
                    used += rolled
                    if not any(v >= min(tn, 10) for v in rolled):
                        ref.health -= 1
                        if ref.health == 0:
                            ref.out = True
                            continue
                pain = sum(w[0] for w in ref.wounds)
                size = max(ref.base - max(pain, ref.spill), 0)
                if ref.health == 1:
                    size -= size // 2
                ref.size, ref.spent, ref.spill = size, 0, 0
            upkeep(enc, {"toughness": used} if used else {})
        else:
            if not stack:
                assert history.undo(enc) is None
                continue
            history.undo(enc)
            refs = stack.pop()
        for c, ref in zip(enc.combatants, refs, strict=True):
            cp = c.combat_pool
            assert (cp.size, cp.spent, c.shock_spill) == (ref.size, ref.spent, ref.spill)
            assert cp.left == ref.size - ref.spent >= 0 or ref.out
            assert (c.health, c.out) == (ref.health, ref.out)
            assert c.pain == sum(w[0] for w in ref.wounds)
    rebuilt, _ = history.replay(enc)
    assert history.state_of(rebuilt) == history.state_of(enc)


def test_spent_this_exchange_for_the_pools_pane():
    c = fighter()
    enc = EdcEncounter(name="x", combatants=[c])
    run(enc, "spend", actor="F", dice=3)
    run(enc, "spend", actor="F", dice=2)
    assert c.spent_in_exchange(1, 0) == 5
    enc.position.phase = 1
    assert c.spent_in_exchange(1, 1) == 0
    run(enc, "spend", actor="F", dice=4)
    assert c.spent_in_exchange(1, 1) == 4 and c.combat_pool.spent == 9
    assert c.spent_in_exchange(2, 0) == 0


def test_session_runs_exchange_and_round_upkeep():
    from tracker.session.session import Session

    roland = fighter(id="roland", name="Roland", reflex=7, atn=6, dtn=6, opponent="guard")
    guard = fighter(id="guard", name="Guard", reflex=4, proficiency=5, dtn=6, side="foes")
    enc = EdcEncounter(name="s", combatants=[roland, guard])
    s = Session(enc)
    out = s.execute("exchange Roland Guard attack_dice=6 defense_dice=4 press_dice=6 "
                    "--dice attack=9,8,7,6,2,3 defense=8,7,6,1 press=9,5,4,3,3,1")
    assert out.resolution is not None and out.resolution.figures["press_feet"] == 6
    assert roland.combat_pool.left == 1 and guard.combat_pool.left == 5
    s.execute("next round")
    assert roland.combat_pool.left == 13 and guard.combat_pool.left == 9
    s.execute("undo")
    assert roland.combat_pool.left == 1
