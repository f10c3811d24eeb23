"""Memory in the store: pins with sources, notes, preferences; what deletes and forks do."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from turnlog.core.memory import ItemKind
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.store import NotFound, TurnlogStore


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def conversation_with(store: TurnlogStore, tag: str, n: int = 3) -> tuple[int, list[str]]:
    conv = store.conversations.create(tag)
    ids = []
    for i in range(n):
        turn = store.turns.commit(conv.id, PendingTurn(f"{tag}{i}", f"q {tag}{i}", f"a {tag}{i}",
                                                       "m", "stop", Usage(), datetime.now(UTC)))
        ids.append(turn.id)
    return conv.id, ids


def test_a_fork_copies_the_pins_whose_sources_it_copies_with_sources_remapped(store):
    source, ids = conversation_with(store, "S")
    store.memory.add_pin(source, "from turn 1", sources=[ids[0]])
    store.memory.add_pin(source, "from turn 3", sources=[ids[2]])
    store.memory.add_pin(source, "typed")
    fork, copies = conversation_with(store, "F", 2)
    assert store.memory.copy_pins(source, fork, {ids[0]: copies[0], ids[1]: copies[1]}) == 2
    assert [(p.text, p.sources) for p in store.memory.pins(fork)] == [
        ("from turn 1", (copies[0],)), ("typed", ())]
    assert len(store.memory.pins(source)) == 3


def test_the_memory_of_a_conversation_is_its_own(store):
    one, _ = conversation_with(store, "A")
    two, _ = conversation_with(store, "B")
    store.memory.add_pin(one, "pin A")
    store.memory.add_note(one, "note A", priority=5)
    store.memory.add_note(two, "note B")
    store.memory.add_preference("pref", priority=2)
    memory = store.memory(one)
    assert [p.text for p in memory.pins] == ["pin A"]
    # Optional items oldest first (the age the tie rule goes by), notes and preferences mixed.
    assert [(i.kind, i.text, i.priority) for i in memory.optional] == [
        (ItemKind.NOTE, "note A", 5), (ItemKind.PREFERENCE, "pref", 2)]
    store.conversations.update(two, settings=ConversationSettings(preferences=False,
                                                                  memory_share=25))
    other = store.memory(two)
    assert [i.text for i in other.optional] == ["note B"] and other.share_percent == 25


def test_checks_name_what_is_wrong(store):
    cid, _ = conversation_with(store, "C", 1)
    with pytest.raises(ValueError, match="1–5"):
        store.memory.add_note(cid, "x", priority=0)
    with pytest.raises(ValueError, match="empty"):
        store.memory.add_pin(cid, "   ")
    with pytest.raises(NotFound):
        store.memory.add_pin(cid, "x", sources=["no-such-turn"])
    with pytest.raises(NotFound):
        store.memory.remove_preference(99)


def test_fork_from_here_takes_the_pins_of_the_turns_it_copies(store):
    source, ids = conversation_with(store, "K")
    store.memory.add_pin(source, "PIN-FROM-1", sources=[ids[0]])
    store.memory.add_pin(source, "PIN-FROM-3", sources=[ids[2]])
    store.memory.add_note(source, "NOTE-OF-SOURCE")
    fork, _ = store.forks.at(source, 3)
    copied = store.turns(fork.id)
    assert [(p.text, p.sources) for p in store.memory.pins(fork.id)] == [
        ("PIN-FROM-1", (copied[0].id,))]
    memory = store.memory(fork.id)
    assert [p.text for p in memory.pins] == ["PIN-FROM-1"]
    assert "NOTE-OF-SOURCE" not in [i.text for i in memory.optional]
    assert [p.text for p in store.memory.pins(source)] == ["PIN-FROM-1", "PIN-FROM-3"]
