"""`tracker serve FOLDER`: every encounter with an access file beside it is served, each
with its own GM; a key with seats at several tables picks one first."""

from __future__ import annotations

import asyncio
import shutil

from tests.table.helpers import connect, make_keys, open_screen, start, table_save, write_access


async def test_a_folder_serves_each_encounter_with_an_access_file(tmp_path):
    keys = make_keys()
    folder = tmp_path / "club"
    folder.mkdir()
    ford = table_save(folder)
    bridge = folder / "bridge.toml"
    shutil.copy(ford, bridge)
    (folder / "lonely.toml").write_bytes(ford.read_bytes())  # no access file: not served
    write_access(folder, keys).rename(folder / "ford.access.toml")
    # at the bridge, the party's key is the GM's
    line = keys.party.export_public_key().decode().strip()
    (folder / "bridge.access.toml").write_text(f'[gm]\nkeys = ["{line}"]\n')
    server = start([str(folder), "--ssh", "127.0.0.1:0"], tmp_path / "home")
    try:
        said = "".join(server.out)
        assert "ford.toml" in said and "bridge.toml" in said and "lonely" not in said
        async with await connect(server.port, keys.gm) as conn:  # one table: straight in
            _, screen = await open_screen(conn)
            await screen.wait_for(": for commands")
            await screen.wait_for("Ambush at the ford")
        async with await connect(server.port, keys.party) as conn:  # two: a picker first
            chan, screen = await open_screen(conn)
            await screen.wait_for("press 1-2")
            assert "bridge.toml (gm)" in screen.text and "ford.toml (side party)" in screen.text
            number = "1" if screen.text.index("bridge.toml") < screen.text.index("ford.toml") \
                else "2"
            chan.write(number.encode())
            await screen.wait_for(": for commands")  # the GM's app of the bridge
            chan.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), 10)
    finally:
        server.stop()
