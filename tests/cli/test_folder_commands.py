"""turnlog-cli folder, list --folder and search --folder, run as real processes against a
real data directory."""

from __future__ import annotations

import json
import sqlite3

from cli_runs import cli
from turnlog.store import TurnlogStore


def _conversations(home, *titles: str) -> list[int]:
    """Answered conversations, written through the store as the window would."""
    from datetime import UTC, datetime

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    with TurnlogStore.open(home) as store:
        ids = []
        for title in titles:
            cid = store.conversations.create(title).id
            store.turns.commit(cid, PendingTurn(f"{title}-1", f"question about {title}",
                                                f"answer about {title}", "m", "stop", Usage(),
                                                datetime.now(UTC)))
            ids.append(cid)
        return ids


def test_folder_add_move_list_rename_and_remove(turnlog_home):
    garden, taxes, other = _conversations(turnlog_home, "orchid", "receipts", "misc")
    assert cli("folder", "add", "Garden 🌱").returncode == 0
    assert cli("folder", "add", "Taxes").returncode == 0
    refused = cli("folder", "add", "garden 🌱")
    assert refused.returncode == 1 and "folder_name_refused" in refused.stderr
    moved = cli("folder", "move", "--conversation", str(garden), "Garden 🌱")
    assert moved.returncode == 0, moved.stderr
    assert cli("folder", "move", "--conversation", str(taxes), "--conversation", str(other),
               "Taxes").returncode == 0
    listed = json.loads(cli("folder", "list", "--json").stdout)
    assert [(f["name"], f["conversations"]) for f in listed["folders"]] == [
        ("Garden 🌱", 1), ("Taxes", 2)]
    shown = cli("list", "--folder", "taxes")
    assert shown.returncode == 0
    assert "receipts" in shown.stdout and "misc" in shown.stdout
    assert "orchid" not in shown.stdout
    assert cli("folder", "move", "--conversation", str(other), "--out").returncode == 0
    assert "misc" not in cli("list", "--folder", "Taxes").stdout
    assert cli("folder", "rename", "Taxes", "Taxes 2026").returncode == 0
    assert "receipts" in cli("list", "--folder", "Taxes 2026").stdout
    missing = cli("list", "--folder", "Taxes")
    assert missing.returncode == 1 and "folder_not_found" in missing.stderr
    gone = cli("folder", "remove", "Taxes 2026")
    assert gone.returncode == 0 and "moved out" in gone.stdout
    assert "receipts" in cli("list").stdout  # moved out, not deleted


def test_folder_remove_with_conversations_asks_then_deletes_every_byte(turnlog_home):
    inside, outside = _conversations(turnlog_home, "ORCHID-17-INSIDE", "kept")
    cli("folder", "add", "Private")
    cli("folder", "move", "--conversation", str(inside), "Private")
    declined = cli("folder", "remove", "Private", "--with-conversations", input="n\n")
    assert declined.returncode == 1 and "1 conversation" in declined.stderr
    assert "ORCHID-17-INSIDE" in cli("list").stdout
    done = cli("folder", "remove", "Private", "--with-conversations", "--yes")
    assert done.returncode == 0, done.stderr
    assert "deleted 1 conversation" in done.stdout
    assert "ORCHID-17-INSIDE" not in cli("list").stdout and "kept" in cli("list").stdout
    for path in turnlog_home.iterdir():
        if path.is_file():
            assert b"ORCHID-17-INSIDE" not in path.read_bytes(), path.name
    assert json.loads(cli("folder", "list", "--json").stdout) == {"folders": []}


def test_search_folder_finds_only_what_is_in_it(turnlog_home):
    inside, outside = _conversations(turnlog_home, "orchid watering", "orchid prices")
    cli("folder", "add", "Garden")
    cli("folder", "move", "--conversation", str(inside), "Garden")
    everywhere = json.loads(cli("search", "orchid", "--json").stdout)["results"]
    assert {r["conversation"] for r in everywhere} == {inside, outside}
    found = cli("search", "orchid", "--folder", "Garden", "--json")
    assert found.returncode == 0, found.stderr
    assert {r["conversation"] for r in json.loads(found.stdout)["results"]} == {inside}
    missing = cli("search", "orchid", "--folder", "Nowhere")
    assert missing.returncode == 1 and "folder_not_found" in missing.stderr


def test_moving_a_conversation_that_is_not_there_is_refused(turnlog_home):
    _conversations(turnlog_home, "one")
    cli("folder", "add", "Box")
    refused = cli("folder", "move", "--conversation", "99", "Box")
    assert refused.returncode == 1 and "99" in refused.stderr
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert con.execute("SELECT count(*) FROM conversations WHERE folder_id IS NOT NULL"
                       ).fetchone() == (0,)
    con.close()
