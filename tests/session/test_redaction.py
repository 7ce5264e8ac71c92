"""What a side may see: hidden things never reach a player's view, in its data or on its
screen; other sides' wounds and notes never either, also not through log lines."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tracker.core.model import Combatant, Encounter, Pool, Unit, Wound
from tracker.session.redaction import HIDDEN_TURN
from tracker.session.session import CommandError, Session
from tracker.store import save_encounter
from tracker.ui.watch import WatchApp

SIDES = ("alpha", "beta")
VISIBLE = {"alpha": ["Aldo", "Bree"], "beta": ["Cato", "Dara"]}

# words nothing visible contains: a hidden name, a secret note, a side's secret detail;
# each ends in a number of its own, so no word is part of another
letters = st.text("bcdfghjkmnprstvwxz", min_size=3, max_size=6)


def encounter() -> Encounter:
    combatants = [
        Combatant(id=name.lower(), name=name, side=side, initiative=10 + i)
        for side, names in VISIBLE.items() for i, name in enumerate(names)
    ]
    return Encounter(name="Ford", ruleset="plain", seed=3, combatants=combatants,
                     units=[Unit(id="pikes", name="Pikes", side="beta")])


@st.composite
def plays(draw):  # type: ignore[no-untyped-def]
    """An encounter played by a GM with hidden things in it: the commands, and the words
    each viewpoint must never see."""
    count = iter(range(100, 1000))

    def word() -> str:
        return f"{draw(letters)}q{next(count)}"

    hidden = [word().capitalize() for _ in range(draw(st.integers(1, 3)))]
    steps: list[str] = []
    never: set[str] = set()  # no view may show these
    secret_of: dict[str, set[str]] = {s: set() for s in SIDES}  # only that side may
    for name in hidden:
        never.add(name)
        side = draw(st.sampled_from(SIDES))
        steps.append(f"add combatant {name} side={side} initiative=11 hidden=yes")
    for _ in range(draw(st.integers(3, 14))):
        kind = draw(st.sampled_from(
            ["secret", "public", "wound", "notes", "hiddenset", "hiddennote", "cond", "next",
             "undo", "remove", "hiddenunit", "pool", "stat", "statcond"]))
        token = word()
        side = draw(st.sampled_from(SIDES))
        who = draw(st.sampled_from(VISIBLE[side]))
        ghost = draw(st.sampled_from(hidden))
        if kind == "secret":
            steps.append(f"note! the {token} plan")
            never.add(token)
        elif kind == "public":
            steps.append("note the bridge creaks")
        elif kind == "wound":
            steps.append(f"wound {who} {token} level=3 kind=cut")
            secret_of[side].add(token)
        elif kind in ("stat", "statcond"):  # a stat only its side sees, alone or not
            value = str(next(count) * 97 + 50_000)
            steps.append(f"set {who} will=" + value + (" +tired" if kind == "statcond" else ""))
            secret_of[side].add(value)
        elif kind == "notes":
            steps.append(f"set {who} notes=secretly_{token}")
            secret_of[side].add(token)
        elif kind == "hiddenset":
            steps.append(f"set {ghost} notes={token} +lurking")
            never.add(token)
        elif kind == "hiddennote":  # a public note that names a hidden one, in lower case
            steps.append(f"note {ghost.lower()} is near")
        elif kind == "cond":
            steps.append(f"set {who} +watched_by_{ghost.lower()}")
        elif kind == "remove":
            steps.append(f"remove {ghost}")
        elif kind == "hiddenunit":
            name = word().capitalize()
            never.add(name)
            steps.append(f"add unit {name} side={side} hidden=yes")
        else:
            steps.append(kind)
    return steps, never, secret_of


def play(steps: list[str]) -> Session:
    session = Session(encounter())
    for line in steps:
        try:
            session.execute(line)
        except CommandError:  # a refused command (nothing to undo ...) changes nothing
            pass
    return session


def undone_names(session: Session, words: set[str]) -> set[str]:
    """Hidden names whose coming was undone and then dropped by a later change: the
    encounter no longer knows them, so a later public note may use the word."""
    applied = session.enc.log[: session.enc.cursor]
    came = {str(op.after.get("name")) for e in applied for op in e.ops
            if op.op == "add" and isinstance(op.after, dict) and op.after.get("hidden")}
    return {w for w in words if w[0].isupper() and w not in came}


def texts(view: Encounter) -> str:
    """Everything a view holds, as text: the encounter and every log entry it carries."""
    return (view.model_dump_json() + "".join(e.model_dump_json() for e in view.log)).lower()


@settings(max_examples=150, deadline=None)
@given(plays())
def test_no_hidden_text_reaches_any_view(case):
    steps, never, secret_of = case
    session = play(steps)
    never = never - undone_names(session, never)
    for side in (*SIDES, None):
        view = session.player_view(side)
        data = texts(view)
        for token in never:
            assert token.lower() not in data, (side, token)
        for owner, tokens in secret_of.items():
            if owner == side:
                continue
            for token in tokens:
                assert token.lower() not in data, (side, owner, token)
        assert all(not e.ops for e in view.log)
        assert view.seed == 0
        assert not any(c.hidden for c in view.combatants) and not any(u.hidden for u in view.units)


def test_a_side_sees_its_own_wounds_and_notes_and_only_that_another_side_was_wounded():
    session = play(["wound Aldo head level=3 kind=cut", "set Cato notes=secretly_a_vampire",
                    "wound Cato leg level=1"])
    alpha = session.player_view("alpha")
    assert alpha.find_combatant("aldo").wounds[0].location == "head"
    assert alpha.find_combatant("cato").wounds == [] and alpha.find_combatant("cato").notes == ""
    assert [e.text for e in alpha.log] == [
        "Aldo: wound to head level 3 cut", "Cato: notes changed", "Cato: wounded"]
    beta = session.player_view("beta")
    assert beta.find_combatant("cato").notes == "secretly_a_vampire"
    assert [e.text for e in beta.log][0] == "Aldo: wounded"
    spectator = session.player_view(None)
    assert all(c.wounds == [] and c.notes == "" for c in spectator.combatants)


def test_a_stat_set_for_one_side_is_told_to_no_other_and_what_shows_is_told():
    session = play(["set Cato will=3", "set Cato will=4 +tired initiative=5"])
    beta = session.player_view("beta")
    assert [e.text for e in beta.log] == ["Cato: will 3", "Cato: will 4, initiative 5, now tired"]
    for other in ("alpha", None):
        view = session.player_view(other)
        assert [e.text for e in view.log] == ["Cato: initiative 5, now tired"]
        assert view.find_combatant("cato").stats == {}


def test_a_hidden_change_leaves_every_view_as_it_was():
    session = play(["add combatant Wolf side=beta hidden=yes", "note the bridge creaks"])
    before = {side: texts(session.player_view(side)) for side in (*SIDES, None)}
    for line in ("note! the wolf waits", "set wolf will=9 +hungry", "set Cato will=7",
                 "set Cato will=8"):
        session.execute(line)
        for side in ("alpha", None):
            assert texts(session.player_view(side)) == before[side], (line, side)


def test_other_sides_pools_and_stats_are_not_shown_but_the_order_is_kept():
    session = play([])
    cato = session.enc.find_combatant("cato")
    cato.pools = [Pool(name="CP", size=9)]
    cato.stats = {"reflex": 5}
    session.enc.find_combatant("aldo").pools = [Pool(name="CP", size=7)]
    view = session.player_view("alpha")
    assert view.find_combatant("cato").pools == [] and view.find_combatant("cato").stats == {}
    assert view.find_combatant("aldo").pools[0].size == 7
    assert session.enc.find_combatant("cato").pools  # the GM's encounter is untouched


def test_a_revealed_combatant_is_seen_and_its_hidden_past_is_not():
    session = play(["add combatant Wolf side=beta initiative=20 hidden=yes", "note! wolf waits",
                    "note dawn", "set wolf hidden=no", "note the wolf leaps"])
    view = session.player_view("alpha")
    assert "Wolf" in [c.name for c in view.combatants]
    assert [e.text for e in view.log] == ["dawn", "Wolf: hidden no", "the wolf leaps"]


def test_while_a_hidden_combatant_acts_no_one_is_marked():
    from tracker.core.turns import acting_order, current_actor

    session = play(["add combatant Wolf side=beta initiative=20 hidden=yes"])
    session.enc.position.turn = acting_order(session.enc).index("wolf")
    assert session.player_view("alpha").position.turn == HIDDEN_TURN
    session.enc.position.turn += 1
    view = session.player_view("alpha")
    assert current_actor(view) == current_actor(session.enc)


def test_a_hidden_combatant_removed_long_after_it_came_leaves_no_line():
    session = play(["add combatant Wolf side=beta hidden=yes"]
                   + ["note tick"] * 210 + ["remove wolf"])
    assert session.enc.log[-1].secret  # marked when it was made
    assert all("wolf" not in e.text.lower() for e in session.player_view("alpha").log)


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    # the whole screen as the terminal shows it, a line per row
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


@pytest.mark.parametrize("count", examples(full=8, quick=3))
def test_no_hidden_text_reaches_a_player_views_screen(tmp_path_factory, count):
    @settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(plays())
    def check(case):  # type: ignore[no-untyped-def]
        steps, never, secret_of = case
        session = play(steps)
        never = never - undone_names(session, never)
        path = tmp_path_factory.mktemp("screen") / "ford.toml"
        save_encounter(session.enc, path)
        for side in ("alpha", None):
            shown = asyncio.run(screen_of(path, side)).lower()
            assert "ford" in shown  # the screen was drawn
            for token in never | set().union(*(t for s, t in secret_of.items() if s != side)):
                assert token.lower() not in shown, (side, token)

    check()


async def screen_of(path, side: str | None) -> str:  # type: ignore[no-untyped-def]
    """The screen of a player view of ``side`` (the public one for None)."""
    app = WatchApp(path, theme="tracker-dark", side=side, public=side is None)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        return screen_text(app)


def test_wound_details_show_on_the_own_sides_screen(tmp_path):
    session = play(["wound Aldo head level=3 kind=cut", "wound Cato flank level=2"])
    session.enc.find_combatant("aldo").wounds.append(Wound(location="ear"))
    path = tmp_path / "ford.toml"
    save_encounter(session.enc, path)

    shown = asyncio.run(screen_of(path, "alpha"))
    assert "wound to head level 3 cut" in shown
    assert "Cato: wounded" in shown and "flank" not in shown
