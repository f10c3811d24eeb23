"""Delete for privacy: each scope leaves no copy of the deleted text in any file on disk.

Summaries echo the turns they cover (so derived data holds the secrets too),
request records exist, then the delete runs, the store closes, and every file
in the data directory is scanned in UTF-8 and UTF-16 for each deleted string.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from fakes import FakeEndpoint
from privacy_scan import scan, secrets_for
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.compaction import Compactor
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex, project
from turnlog.core.provider import Reply
from turnlog.core.send import Committed, PendingTurn, Sender, SendRequest
from turnlog.core.side import SideAnswered, SideAsker, SideRequest, side_budget
from turnlog.store import TurnlogStore


def reasoning_for(tag: str, n: int) -> str:
    """What a reasoning model thought before answering: stored with the turn, so a delete
    must remove it as it removes the question and the answer."""
    return f"ORCHID-17-SECRET-{tag}{n:03d}R 思考过程{tag}{n:03d}想 💭{tag}{n:03d}💭"


def current_question(tag: str) -> str:
    return f"ORCHID-17-SECRET-{tag}999Q-current"


def side_question(tag: str) -> str:
    return f"ORCHID-17-SECRET-{tag}998Q-side 旁问{tag}"


def seeded(home: Path) -> dict[str, object]:
    """Two conversations of 30 turns each, summarized, with request records, a pin, a
    note and a side question whose answer echoes everything its request carried."""
    echo = FakeEndpoint(summary=lambda text: Reply("Summary: " + text[-3000:], "stop",
                                                   Usage(9, 9, 18)))
    side_echo = FakeEndpoint(chat=lambda body: Reply(
        " | ".join(m["content"] for m in body["messages"]), "stop"))
    with TurnlogStore.open(home) as store:
        ids = {}
        for tag in ("A", "B"):
            conv = store.conversations.create(f"conversation {tag}", model="m",
                                              settings=ConversationSettings(
                                                 max_bytes=8_000, context_window=32_768,
                                                 output_reserve=1024))
            for i in range(1, 31):
                q, a = secrets_for(tag, i)
                store.turns.commit(conv.id, PendingTurn(f"{tag}{i}", q + " " + "x" * 200, a,
                                                        "m", "stop", Usage(), datetime.now(UTC),
                                                        reasoning=reasoning_for(tag, i)))
            costs = CostIndex()
            sender = Sender(store, echo, costs=costs,
                            compactor=Compactor(store.records, echo, costs=costs))
            outcome = sender.send(SendRequest(conv, current_question(tag), "m",
                                              Budget.from_settings(conv.settings)))
            assert isinstance(outcome, Committed)
            assert outcome.projection.summarized, "the seed must produce a summary"
            summary = store.records.latest_summary(conv.id)
            assert "ORCHID-17-SECRET" in summary.content
            assert store.records.of(conv.id)
            # Memory taken from the text: a pin from turn 2 (goes with it), a note.
            store.memory.add_pin(conv.id, secrets_for(tag, 2)[0], sources=[f"{tag}2"])
            store.memory.add_note(conv.id, secrets_for(tag, 30)[1])
            side = SideAsker(store, side_echo, costs=costs).ask(SideRequest(
                conv.id, side_question(tag), "m",
                side_budget(Budget.from_settings(conv.settings), 8_192), RequestOptions()))
            assert isinstance(side, SideAnswered) and 2 in side.side.summarized
            assert "ORCHID-17-SECRET" in side.side.answer
            ids[tag] = conv.id
    return ids


def strings(tag: str, ordinals) -> list[str]:
    return [s for i in ordinals for s in (*secrets_for(tag, i), reasoning_for(tag, i))]


def projected_text(home: Path, cid: int) -> str:
    with TurnlogStore.open(home, readonly=True) as store:
        body = project(store.turns(cid), "q", model="m",
                       budget=Budget(10**7, 10**6, 1024)).body
    return body.decode()


def test_delete_one_turn_removes_it_and_its_summary(turnlog_home):
    ids = seeded(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        counts = store.privacy.preview_turn("A2")
        assert counts.turns == 1 and counts.summaries >= 1 and counts.requests >= 1
        assert counts.side_questions == 1
        assert counts.describe().startswith(f"1 turn, {counts.summaries} summar")
        store.privacy.delete_turn("A2")
        assert store.records.latest_summary(ids["A"]) is None
        assert store.side.of(ids["A"]) == [] and store.side.of(ids["B"])
        assert [t.ordinal for t in store.turns(ids["A"])][:3] == [1, 3, 4]  # a gap, no renumber
        for record in store.records.of(ids["A"]):
            assert 2 not in record.sent + record.summarized + record.left_out
    assert scan(turnlog_home, strings("A", [2]) + [side_question("A")]) == []
    kept = strings("A", [1, *range(3, 31)]) + strings("B", range(1, 31))
    assert all(scan(turnlog_home, [s]) for s in kept)
    text = projected_text(turnlog_home, ids["A"])
    assert all(s in text for i in (1, 3, 30) for s in secrets_for("A", i))
    assert "ORCHID-17-SECRET-A001R" not in text  # the reasoning is kept, never sent
    assert projected_text(turnlog_home, ids["B"]).count("ORCHID-17-SECRET-B") == 61


def test_delete_conversation_removes_everything_of_it(turnlog_home):
    ids = seeded(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        counts = store.privacy.preview_conversation(ids["A"])
        assert (counts.conversations, counts.turns) == (1, 31) and counts.summaries >= 1
        assert counts.side_questions == 1 and counts.describe().endswith("1 side question")
        store.privacy.delete_conversation(ids["A"])
    assert scan(turnlog_home, strings("A", range(1, 31)) + [current_question("A"),
                                                            side_question("A")]) == []
    assert scan(turnlog_home, [side_question("B")])
    assert all(scan(turnlog_home, [s]) for s in strings("B", range(1, 31)))
    assert projected_text(turnlog_home, ids["B"]).count("ORCHID-17-SECRET-B") == 61


def test_delete_everything_via_the_cli(turnlog_home):
    seeded(turnlog_home)
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", "delete", "--all"],
                            input="yes\n", capture_output=True, text=True, timeout=60,
                            env=os.environ.copy())
    assert result.returncode == 0, result.stderr
    assert "2 conversations, 62 turns, " in result.stderr
    assert result.stdout.startswith("deleted 2 conversations, 62 turns")
    assert scan(turnlog_home, strings("A", range(1, 31)) + strings("B", range(1, 31))
                + [side_question("A"), side_question("B")]) == []
    listing = subprocess.run([sys.executable, "-m", "turnlog.cli", "list"], capture_output=True,
                             text=True, timeout=60, env=os.environ.copy())
    assert "no conversations yet" in listing.stdout


def test_cli_delete_asks_and_does_nothing_without_yes(turnlog_home):
    ids = seeded(turnlog_home)
    db = turnlog_home / "turnlog.sqlite3"
    before = db.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "turnlog.cli", "delete", "--conversation", str(ids["A"])],
        input="n\n", capture_output=True, text=True, timeout=60, env=os.environ.copy())
    assert result.returncode == 1
    assert "conversation A" in result.stderr and "31 turns, " in result.stderr
    assert "nothing deleted" in result.stderr
    assert db.read_bytes() == before


def test_cli_delete_turn_by_exported_id(turnlog_home):
    ids = seeded(turnlog_home)
    export = subprocess.run([sys.executable, "-m", "turnlog.cli", "export", str(ids["B"])],
                            capture_output=True, text=True, timeout=60, env=os.environ.copy())
    import json

    turn_id = json.loads(export.stdout.splitlines()[5])["id"]
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", "delete", "--turn", turn_id,
                             "--yes"], capture_output=True, text=True, timeout=60,
                            env=os.environ.copy())
    assert result.returncode == 0, result.stderr
    assert scan(turnlog_home, strings("B", [5])) == []


def test_late_summary_after_delete_is_not_stored(turnlog_home):
    """A summary whose call finishes after the user deleted a covered turn is discarded."""
    with TurnlogStore.open(turnlog_home) as store:
        conv = store.conversations.create("late", model="m", settings=ConversationSettings(
            max_bytes=8_000, context_window=32_768, output_reserve=1024))
        for i in range(1, 31):
            q, a = secrets_for("L", i)
            store.turns.commit(conv.id, PendingTurn(f"L{i}", q + " " + "x" * 200, a, "m",
                                                    "stop", Usage(), datetime.now(UTC)))

        def summary_while_deleting(text):
            store.privacy.delete_turn("L1")  # the user deletes while the summary is being made
            return Reply("Summary: " + text[-2000:], "stop")

        endpoint = FakeEndpoint(summary=summary_while_deleting)
        costs = CostIndex()
        sender = Sender(store, endpoint, costs=costs, compactor=Compactor(store.records, endpoint,
                                                                          costs=costs))
        outcome = sender.send(SendRequest(conv, "late?", "m",
                                          Budget.from_settings(conv.settings)))
        assert not isinstance(outcome, Committed)
        assert store.records.latest_summary(conv.id) is None
    assert scan(turnlog_home, strings("L", [1])) == []


@pytest.mark.parametrize("fmt", ["jsonl", "markdown"])
def test_export_before_delete(turnlog_home, fmt):
    ids = seeded(turnlog_home)
    out = subprocess.run([sys.executable, "-m", "turnlog.cli", "export", str(ids["A"]),
                          "--format", fmt], capture_output=True, text=True, timeout=60,
                         env=os.environ.copy())
    assert out.returncode == 0
    assert all(s in out.stdout for i in (1, 30) for s in secrets_for("A", i))
    if fmt == "markdown":
        assert out.stdout.startswith("# conversation A") and "## Turn 30" in out.stdout


@pytest.mark.parametrize("scope", ["turn", "conversation", "all"])
def test_delete_removes_a_copy_kept_from_before_an_upgrade(turnlog_home, scope):
    """A copy kept because an upgrade failed its checks holds every turn: a privacy delete
    removes it too, so the deleted text survives in no file."""
    import peewee

    from turnlog.store import upgrade
    from turnlog.store.log import PRAGMAS

    ids = seeded(turnlog_home)
    db_path = turnlog_home / "turnlog.sqlite3"
    db = peewee.SqliteDatabase(str(db_path), pragmas=PRAGMAS)
    db.connect()
    copy = upgrade.copy_aside(db, db_path, 1)
    db.close()
    assert copy.name in {name for name, _ in scan(turnlog_home, strings("A", [2]))}
    with TurnlogStore.open(turnlog_home) as store:
        if scope == "turn":
            store.privacy.delete_turn("A2")
        elif scope == "conversation":
            store.privacy.delete_conversation(ids["A"])
        else:
            store.privacy.delete_all()
    assert not copy.exists()
    assert scan(turnlog_home, strings("A", [2])) == []
