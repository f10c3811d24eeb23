"""Privacy of what records keep to rebuild a request: any removal of text — a turn
deleted, a pin or note removed, a preference or system prompt edited to take something
out — deletes the versions that held it and the body hashes of every request that
carried it (a hash of deleted text is a fingerprint of it); those requests then show the
part deleted. An edit that only adds keeps every version: old requests still verify.
Each checked with a byte scan of the data directory."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from turnlog.core.model import ConversationSettings
from turnlog.core.projection import CostIndex
from turnlog.core.proof import PART_DELETED, PartState
from turnlog.core.send import Committed
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import rebuild, record_of_turn
from turnlog.store import TurnlogStore

ROUTE = Route("loopback-model")
ROOMY = ConversationSettings(max_bytes=64_000, context_window=32_768)


def leaks(home: Path, needles: list[str]) -> list[tuple[str, str]]:
    """Every file of the data directory that holds one of `needles` (as UTF-8 or UTF-16)."""
    hits = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [(path.name, n) for n in needles
                     if any(n.encode(e) in data for e in ("utf-8", "utf-16-le", "utf-16-be"))]
    return hits


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def send(store, loopback, cid, question):
    conv = store.conversations.get(cid)
    request = request_for(conv, question, ROUTE, memory=store.memory(cid))
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                         CostIndex()).send(request)
    assert isinstance(outcome, Committed), outcome
    return outcome.turn.id, hashlib.sha256(loopback.requests[-1].body).hexdigest()


def shown(store, cid, turn_id):
    return rebuild(store.records.sources(record_of_turn(store, cid, turn_id)))


def test_deleting_a_turn_deletes_the_hashes_of_every_request_that_carried_it(
        store, loopback, turnlog_home):
    cid = store.conversations.create("p", model="loopback-model", settings=ROOMY).id
    first, first_hash = send(store, loopback, cid, "SECRET-TURN-ALPHA question")
    second, second_hash = send(store, loopback, cid, "second question")
    third, third_hash = send(store, loopback, cid, "third question")
    assert all(shown(store, cid, t).verified for t in (first, second, third))
    store.privacy.delete_turn(first)
    assert leaks(turnlog_home, ["SECRET-TURN-ALPHA", first_hash, second_hash, third_hash]) == []
    for later in (second, third):
        rebuilt = shown(store, cid, later)
        assert rebuilt.why == PART_DELETED and rebuilt.body is None
        assert rebuilt.stored_sha256 is None
        turns = [p.state for p in rebuilt.parts if p.kind == "turn"]
        assert turns.count(PartState.DELETED) == 1
        assert all(p.text is None for p in rebuilt.parts if p.state is PartState.DELETED)


def test_a_turn_left_out_of_a_request_leaves_its_hash(store, loopback, turnlog_home):
    cid = store.conversations.create("p", model="loopback-model", settings=ROOMY).id
    first, _ = send(store, loopback, cid, "question one")
    second, second_hash = send(store, loopback, cid, "question two")
    store.privacy.delete_turn(second)  # the first request never carried it
    assert shown(store, cid, first).verified


def test_removing_a_pin_or_note_deletes_its_versions_and_the_hashes(
        store, loopback, turnlog_home):
    cid = store.conversations.create("p", model="loopback-model", settings=ROOMY).id
    pin = store.memory.add_pin(cid, "SECRET-PIN-BRAVO is the door code")
    note = store.memory.add_note(cid, "SECRET-NOTE-CHARLIE background")
    turn, body_hash = send(store, loopback, cid, "what is the code?")
    assert shown(store, cid, turn).verified
    store.memory.remove_pin(pin.id)
    rebuilt = shown(store, cid, turn)
    assert not rebuilt.verified and rebuilt.why == PART_DELETED
    assert [(p.kind, p.state, p.text) for p in rebuilt.parts if p.kind == "pin"] == [
        ("pin", PartState.DELETED, None)]
    store.memory.remove_note(note.id)
    assert leaks(turnlog_home, ["SECRET-PIN-BRAVO", "SECRET-NOTE-CHARLIE", body_hash]) == []


def test_an_edit_that_adds_keeps_old_requests_verifiable_and_one_that_takes_out_does_not(
        store, loopback, turnlog_home):
    cid = store.conversations.create("p", model="loopback-model", settings=ROOMY,
                                     system_prompt="Be brief. SECRET-SYSTEM-DELTA").id
    preference = store.memory.add_preference("Use metric. SECRET-PREF-ECHO", priority=5)
    before, before_hash = send(store, loopback, cid, "first")
    # Only added to: the old request still shows and proves what it sent.
    store.memory.edit_preference(preference.id, "Use metric. SECRET-PREF-ECHO Always.", 5)
    store.conversations.update(cid, system_prompt="Be brief. SECRET-SYSTEM-DELTA Cite.")
    after, after_hash = send(store, loopback, cid, "second")
    old = shown(store, cid, before)
    assert old.verified
    assert ("preference", "Use metric. SECRET-PREF-ECHO") in [(p.kind, p.text)
                                                             for p in old.parts]
    # Taking something out deletes every version that held it, and those requests' hashes.
    store.memory.edit_preference(preference.id, "Use metric. Always.", 5)
    store.conversations.update(cid, system_prompt="Be brief. Cite.")
    for turn in (before, after):
        rebuilt = shown(store, cid, turn)
        assert rebuilt.why == PART_DELETED and rebuilt.body is None
        deleted = {p.kind for p in rebuilt.parts if p.state is PartState.DELETED}
        assert deleted == {"system", "preference"}
    assert leaks(turnlog_home, ["SECRET-PREF-ECHO", "SECRET-SYSTEM-DELTA", before_hash,
                                after_hash]) == []


def test_delete_all_history_removes_every_kept_version(store, loopback, turnlog_home):
    cid = store.conversations.create("p", model="loopback-model", settings=ROOMY,
                                     system_prompt="SECRET-SYSTEM-FOXTROT").id
    store.memory.add_preference("SECRET-PREF-GOLF", priority=5)
    send(store, loopback, cid, "hello")
    store.privacy.delete_all()  # the preference itself stays, unless asked
    assert store.db.execute_sql("SELECT count(*) FROM kept_texts").fetchone()[0] == 0
    assert store.db.execute_sql("SELECT count(*) FROM tool_sets").fetchone()[0] == 0
    assert leaks(turnlog_home, ["SECRET-SYSTEM-FOXTROT"]) == []
    assert [p.text for p in store.memory.preferences()] == ["SECRET-PREF-GOLF"]
