"""The access file: keys by role, and a bad file refused with file, key and what was
expected."""

from __future__ import annotations

import pytest

from tests.table.helpers import make_keys, write_access
from tracker.table.access import GM, SPECTATOR, AccessError, Role, read_access


def line(key) -> str:  # type: ignore[no-untyped-def]
    return key.export_public_key().decode().strip()


def blob(key) -> str:  # type: ignore[no-untyped-def]
    return line(key).split()[1]


def test_each_key_has_its_role(tmp_path):
    keys = make_keys()
    access = read_access(write_access(tmp_path, keys, open_table=True))
    assert access.role_of(blob(keys.gm)) == Role(GM)
    assert access.role_of(blob(keys.party)) == Role("side", "party")
    assert access.role_of(blob(keys.spectator)) == Role(SPECTATOR)
    assert access.role_of(blob(keys.stranger)) is None
    assert access.open_spectators and access.sides == ["party"]


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ('[gm]\nkeys = "ssh-ed25519 AAAA"\n', "gm.keys", "a list of public key lines"),
        ("[gm]\nkeys = [3]\n", "gm.keys[0]", "a public key line in quotes, found 3"),
        ('[gm]\nkeys = ["hello"]\n', "gm.keys[0]", "an OpenSSH public key line"),
        ('[gm]\nkeys = ["ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQAB x"]\n', "gm.keys[0]",
         "a ssh-ed25519 key (the key data says otherwise)"),
        ("[gm]\nkey = []\n", "gm.key", "only keys"),
        ("[players]\n", "players", "only [gm], [sides.NAME] and [spectators] tables"),
        ('[spectators]\nopen = "yes"\n', "spectators.open", "true or false, found 'yes'"),
        ("[gm]\nkeys = []\n", "gm.keys", "at least one key (no one could connect)"),
        ("sides = 1\n", "sides", "[sides.NAME] tables, one for each side"),
        ("[gm\n", "", "valid TOML"),
    ],
)
def test_a_bad_file_says_where_and_what_was_expected(tmp_path, text, key, expected):
    path = tmp_path / "access.toml"
    path.write_text(text)
    with pytest.raises(AccessError) as bad:
        read_access(path)
    assert bad.value.path == path and bad.value.key == key
    assert bad.value.expected.startswith(expected), bad.value.expected


def test_a_key_of_two_roles_is_refused(tmp_path):
    keys = make_keys()
    path = tmp_path / "access.toml"
    path.write_text(f'[gm]\nkeys = ["{line(keys.gm)}"]\n[sides.foes]\nkeys = ["{line(keys.gm)}"]\n')
    with pytest.raises(AccessError) as bad:
        read_access(path)
    assert str(bad.value) == (f"{path} at sides.foes.keys[0]: a key of one role only "
                              "(it is also at gm.keys[0])")


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(AccessError, match="no such file"):
        read_access(tmp_path / "nope.toml")


def test_the_host_key_is_made_once_and_kept_private(tmp_path):
    from tracker.table.ssh import HOST_KEY, fingerprint, host_key

    first = host_key(tmp_path)
    assert (tmp_path / HOST_KEY).stat().st_mode & 0o777 == 0o600
    (tmp_path / HOST_KEY).chmod(0o644)
    again = host_key(tmp_path)
    assert fingerprint(again) == fingerprint(first)
    assert (tmp_path / HOST_KEY).stat().st_mode & 0o777 == 0o600
