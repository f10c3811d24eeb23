"""`store.assistants`: saved setups in order, their files as attachments they refer to, and
conversations that start from a copy."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from privacy_scan import scan
from turnlog.core.assistants import AssistantNote, AssistantRefused, AssistantSetup
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.formats.file_reading import read_bytes
from turnlog.store import NotFound, TurnlogStore

GLOSSARY = "GLOSSARY-MARK-91c2 香山 = Fragrant Hills"


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def _setup(name: str = "Editor") -> AssistantSetup:
    return AssistantSetup(name, icon="📝", system_prompt="Be brief.", temperature=0.2,
                          pins=("Use metric units.",),
                          notes=(AssistantNote("The reader is busy.", 4),))


def _glossary():
    return read_bytes("glossary.txt", GLOSSARY.encode("utf-8"))


def test_added_in_order_moved_and_duplicated_with_their_files(store):
    first = store.assistants.add(_setup("A"), [_glossary()])
    store.assistants.add(_setup("B"))
    store.assistants.move(first.id, 1)
    assert [a.name for a in store.assistants.list()] == ["B", "A"]
    copy = store.assistants.duplicate(first.id)
    again = store.assistants.duplicate(first.id)
    assert (copy.name, again.name) == ("A (copy)", "A (copy 2)")
    assert [f.original for f in store.assistants.files(copy.id)] == [GLOSSARY.encode()]
    assert [a.name for a in store.assistants.list()] == ["B", "A", "A (copy)", "A (copy 2)"]
    with pytest.raises(AssistantRefused, match="already an assistant"):
        store.assistants.add(_setup("B"))
    with pytest.raises(AssistantRefused, match="needs a name"):
        store.assistants.add(_setup("  "))
    with pytest.raises(NotFound):
        store.assistants.find("nobody")


def test_a_conversation_copies_the_setup_and_keeps_it_after_an_edit(store):
    made = store.assistants.add(_setup())
    conversation = store.assistants.start(
        made, system_prompt="Be brief, filled.", model="m1",
        settings=ConversationSettings(temperature=0.2))
    store.assistants.update(made.id, replace(_setup(), system_prompt="Changed.",
                                             pins=("Other.",), temperature=1.0))
    kept = store.conversations.get(conversation.id)
    assert (kept.system_prompt, kept.model, kept.settings.temperature) == (
        "Be brief, filled.", "m1", 0.2)
    assert store.memory.pinned_facts(conversation.id) == ("Use metric units.",)
    assert [(n.text, n.priority) for n in store.memory.notes(conversation.id)] == [
        ("The reader is busy.", 4)]
    origin = store.assistants.origin(conversation.id)
    assert (origin.assistant_id, origin.name) == (made.id, "Editor")
    assert store.assistants.started_from(made.id) == [conversation.id]
    store.assistants.delete(made.id)
    assert store.assistants.origin(conversation.id).assistant_id is None
    assert store.conversations.get(conversation.id).system_prompt == "Be brief, filled."


def test_its_files_live_while_it_or_a_turn_has_them(store, turnlog_home):
    one = store.assistants.add(_setup("One"), [_glossary()])
    two = store.assistants.add(_setup("Two"), [_glossary()])
    store.assistants.delete(one.id)
    assert scan(turnlog_home, ["GLOSSARY-MARK-91c2"]), "Two still has the file"
    conversation = store.assistants.start(two, system_prompt="", model="",
                                          settings=ConversationSettings())
    store.turns.commit(conversation.id, PendingTurn(
        id="t1", question="q", answer="a", model="m", finish_reason="stop",
        usage=Usage(1, 1, 2), created_at=datetime.now(UTC),
        attachments=store.assistants.files(two.id)))
    store.assistants.update(two.id, _setup("Two"), files=[])
    assert scan(turnlog_home, ["GLOSSARY-MARK-91c2"]), "the turn still has the file"
    store.privacy.delete_all()
    assert [a.name for a in store.assistants.list()] == ["Two"]
    assert scan(turnlog_home, ["GLOSSARY-MARK-91c2"]) == []


def test_its_conversations_start_in_its_folder_which_follows_a_rename(store):
    work = store.folders.add("工作 Work")
    with pytest.raises(AssistantRefused, match="no folder “Nowhere”"):
        store.assistants.add(replace(_setup(), folder="Nowhere"))
    assert store.assistants.list() == []
    made = store.assistants.add(replace(_setup(), folder=" 工作 Work "))
    assert made.setup.folder == "工作 Work"
    started = store.assistants.start(made, system_prompt="", model="",
                                     settings=ConversationSettings())
    assert started.folder_id == work.id
    assert store.conversations.get(started.id).folder_id == work.id
    assert [c.id for c in store.conversations(folder=work.id)] == [started.id]
    store.folders.rename(work.id, "Job")
    assert store.assistants.get(made.id).setup.folder == "Job"
    # Made by an import: a folder it names is made when missing.
    imported = store.assistants.add(replace(_setup("Imported"), folder="新 New"),
                                    make_folder=True)
    assert imported.setup.folder == "新 New"
    assert "新 New" in [f.name for f in store.folders()]
    # The folder deleted (its conversations kept): the assistant has none any more.
    store.folders.delete(work.id)
    assert store.assistants.get(made.id).setup.folder == ""
    plain = store.assistants.start(store.assistants.get(made.id), system_prompt="",
                                   model="", settings=ConversationSettings())
    assert store.conversations.get(plain.id).folder_id is None
    # Edited to none.
    store.assistants.update(imported.id, replace(imported.setup, folder=""))
    assert store.assistants.get(imported.id).setup.folder == ""
