"""Assistants travel: their setup with tool servers by name only, their files by SHA-256
(bytes apart, as blobs), changes (the later clock wins) and removals; applied once,
checked within bounds; nothing of tools.json or profiles.json goes along."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from sync_stores import machines_open, published, pull
from turnlog.core.assistants import AssistantSetup
from turnlog.core.attachments import Attachment, AttachmentKind
from turnlog.store.errors import SyncRecordInvalid

RULES = b"Always answer with the Latin name of the plant.\n"


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path) as opened:
        yield opened


def _gardener(a):
    rules = Attachment(name="rules.md", kind=AttachmentKind.TEXT, mime="text/markdown",
                       size=len(RULES), digest=hashlib.sha256(RULES).hexdigest(), sent=RULES,
                       original=RULES)
    a.folders.add("Garden")
    return a.assistants.add(AssistantSetup(
        name="Gardener", icon="🌷", system_prompt="You know bulbs.", profile="Work",
        model="m-garden", temperature=0.4, pins=("zone 7",), tools=("filesystem", "search"),
        folder="Garden"), [rules])


def _carry_blobs(to, source) -> None:
    for digest in to.sync_feed.missing_blobs():
        assert to.sync_feed.add_blob(source.sync_feed.blob(digest), digest)


def test_an_assistant_comes_through_with_its_files_and_tool_names(machines):
    a, b = machines["A"], machines["B"]
    made = _gardener(a)
    applied = pull(b, a)
    assert applied.counts.get("assistant") == 1
    _carry_blobs(b, a)
    [there] = b.assistants.list()
    assert (there.name, there.setup.icon, there.setup.system_prompt, there.setup.profile,
            there.setup.model, there.setup.temperature, there.setup.tools,
            there.setup.folder) == ("Gardener", "🌷", "You know bulbs.", "Work", "m-garden",
                                    0.4, ("filesystem", "search"), "Garden")
    assert [(f.name, f.original) for f in b.assistants.files(there.id)] == \
        [("rules.md", RULES)]
    record = next(r for r in published(a) if r["kind"] == "assistant")
    assert json.loads(record["tools"]) == ["filesystem", "search"]  # names, nothing else
    # B does not publish it back as its own, and nothing comes twice
    assert [r for r in published(b) if r["kind"] == "assistant"] == []
    assert pull(b, a).counts == {}
    assert made.name == "Gardener"


def test_a_change_and_a_removal_come_through(machines):
    a, b = machines["A"], machines["B"]
    made = _gardener(a)
    pull(b, a)
    a.assistants.update(made.id, AssistantSetup(name="Gardener", system_prompt="Be brief.",
                                                tools=("search",)), [])
    assert pull(b, a).counts == {"assistant": 1}
    [there] = b.assistants.list()
    assert (there.setup.system_prompt, there.setup.tools) == ("Be brief.", ("search",))
    assert b.sync_feed.missing_blobs() == []  # its file was dropped with the change
    a.assistants.delete(made.id)
    assert pull(b, a).counts == {"assistant": 1}
    assert b.assistants.list() == []


def test_a_name_taken_on_the_other_machine_keeps_both_alike_on_both(machines):
    a, b = machines["A"], machines["B"]
    _gardener(a)
    published(a)  # A's is journaled (made) first
    b.assistants.add(AssistantSetup(name="Gardener", system_prompt="B's own"))
    pull(b, a)
    pull(a, b)
    pull(b, a)
    shown = [sorted((x.name, x.setup.system_prompt) for x in store.assistants.list())
             for store in (a, b)]
    assert shown[0] == shown[1]
    assert shown[0][0] == ("Gardener", "You know bulbs.")  # the first made keeps its name
    assert shown[0][1][0].startswith("Gardener (")


def test_malformed_assistant_records_are_refused_whole(machines):
    a, b = machines["A"], machines["B"]
    _gardener(a)
    records = [json.loads(json.dumps(r)) for r in published(a)]
    for spoil in (lambda r: r.update(tools=["filesystem"]), lambda r: r.pop("name"),
                  lambda r: r["files"][0].update(sent="0" * 63),
                  lambda r: r.update(position="first")):
        bad = copy.deepcopy(records)
        spoil(next(r for r in bad if r["kind"] == "assistant"))
        with pytest.raises(SyncRecordInvalid):
            b.sync_feed.incoming(bad, "A")
        assert b.assistants.list() == []


def test_which_assistant_a_conversation_came_from_comes_through(machines):
    from sync_stores import conversation_by_gid, gid_of, pending
    from turnlog.core.model import ConversationSettings

    a, b = machines["A"], machines["B"]
    made = _gardener(a)
    conv = a.assistants.start(made, system_prompt="You know bulbs.", model="m-garden",
                              settings=ConversationSettings())
    a.turns.commit(conv.id, pending("Tulips or daffodils?"))
    applied = pull(b, a)
    assert applied.counts.get("conversation_assistant") == 1
    there = conversation_by_gid(b, gid_of(a, conv.id))
    [gardener] = b.assistants.list()
    assert b.assistants.started_from(gardener.id) == [there]
    assert b.assistants.origin(there).name == "Gardener"
    assert pull(b, a).counts == {}
    bad = [json.loads(json.dumps(r)) for r in published(a)]
    next(r for r in bad if r["kind"] == "conversation_assistant")["id"] = "0" * 32
    with pytest.raises(SyncRecordInvalid):
        machines["B"].sync_feed.incoming(bad, "A2")
