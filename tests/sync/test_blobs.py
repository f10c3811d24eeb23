"""A turn's files travel between real data directories through a sync folder: each file's
bytes once per machine as an object of its own, named so that the storage cannot tell which
file it is, read by the machines whose records name it, and removed from the storage when a
delete everywhere took every record that named it."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from sync_machines import make_machine, real_feed, storage_bytes
from sync_stores import conversation_by_gid, gid_of, pending
from turnlog.core.attachments import Attachment, AttachmentKind

PHOTO = b"GIF89a-ORCHID-greenhouse-photo-" + bytes(range(256)) * 64
SHA = hashlib.sha256(PHOTO).hexdigest()


@pytest.fixture
def machine(tmp_path):
    made = []

    def make(name: str):
        made.append(make_machine(tmp_path, name, tmp_path / "storage", real_feed))
        return made[-1]

    yield make
    for m in made:
        m.close()


def _ask_with_photo(store, title: str = "Greenhouse"):
    conv = store.conversations.create(title)
    photo = Attachment(name="orchid.gif", kind=AttachmentKind.IMAGE, mime="image/gif",
                       size=len(PHOTO), digest=SHA, sent=PHOTO, sent_mime="image/gif",
                       original=PHOTO)
    store.turns.commit(conv.id, replace(pending("What flower is this?"), attachments=(photo,)))
    return conv


def _file_objects(tmp_path):
    return [p for p, _ in storage_bytes(tmp_path / "storage") if p.suffix == ".tlb"]


def test_a_file_travels_once_and_the_storage_cannot_tell_which_it_is(machine, tmp_path):
    a, b = machine("laptop"), machine("office-pc")
    conv = _ask_with_photo(a.feed.store)
    up = a.sync()
    assert up.files_up == 1
    down = b.sync()
    assert (down.files_down, down.files_waiting) == (1, 0)
    there = conversation_by_gid(b.feed.store, gid_of(a.feed.store, conv.id))
    [turn] = b.feed.store.turns.active(there)
    assert [(f.name, f.sent) for f in turn.attachments] == [("orchid.gif", PHOTO)]
    # once: nothing goes up or comes down again
    assert (a.sync().files_up, b.sync().files_down) == (0, 0)
    [obj] = _file_objects(tmp_path)
    assert SHA not in obj.as_posix()
    for path, data in storage_bytes(tmp_path / "storage"):
        assert b"ORCHID" not in data and SHA.encode() not in data, path
        assert bytes.fromhex(SHA) not in data, path
    # padded to a size bucket (a power of two from 4 KiB), like every object
    sealed = obj.read_bytes()
    padded = len(sealed) - (6 + sealed[5] + 8 + 12 + 16)
    assert padded >= 4096 and padded & (padded - 1) == 0


def test_the_same_file_on_two_machines_has_unrelated_names(machine, tmp_path):
    a, b = machine("laptop"), machine("office-pc")
    _ask_with_photo(a.feed.store, "One")
    _ask_with_photo(b.feed.store, "Two")
    a.sync()
    b.sync()
    a.sync()
    names = sorted(p.stem for p in _file_objects(tmp_path))
    assert len(names) == 2 and names[0] != names[1]
    assert a.feed.missing_blobs() == [] and b.feed.missing_blobs() == []


def test_a_delete_everywhere_removes_the_file_from_every_machine_and_the_storage(
        machine, tmp_path):
    a, b = machine("laptop"), machine("office-pc")
    conv = _ask_with_photo(a.feed.store)
    a.sync()
    b.sync()
    assert len(_file_objects(tmp_path)) == 1
    there = conversation_by_gid(b.feed.store, gid_of(a.feed.store, conv.id))
    b.feed.delete_conversations([there], everywhere=True)
    b.sync()
    a.sync()
    assert _file_objects(tmp_path) == []
    for m in (a, b):
        assert m.feed.store.db.execute_sql('SELECT count(*) FROM "blobs"').fetchone()[0] == 0
    a.close()
    b.close()
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"ORCHID" not in path.read_bytes(), path


def test_a_file_not_in_the_storage_yet_is_waited_for(machine, tmp_path):
    a, b = machine("laptop"), machine("office-pc")
    _ask_with_photo(a.feed.store)
    a.sync()
    [obj] = _file_objects(tmp_path)
    held = obj.read_bytes()
    obj.unlink()  # the sync program has not copied it yet
    first = b.sync()
    assert (first.files_down, first.files_waiting) == (0, 1)
    obj.write_bytes(held[:100])  # half-copied
    assert b.sync().files_waiting == 1
    obj.write_bytes(held)
    assert b.sync().files_down == 1
    assert b.feed.missing_blobs() == []


def test_an_assistants_file_travels_and_goes_with_it(machine, tmp_path):
    from turnlog.core.assistants import AssistantSetup

    a, b = machine("laptop"), machine("office-pc")
    rules = Attachment(name="rules.gif", kind=AttachmentKind.IMAGE, mime="image/gif",
                       size=len(PHOTO), digest=SHA, sent=PHOTO, sent_mime="image/gif",
                       original=PHOTO)
    made = a.feed.store.assistants.add(AssistantSetup(name="Botanist", tools=("search",)),
                                       [rules])
    assert a.sync().files_up == 1
    assert b.sync().files_down == 1
    [there] = b.feed.store.assistants.list()
    assert [f.original for f in b.feed.store.assistants.files(there.id)] == [PHOTO]
    assert len(_file_objects(tmp_path)) == 1
    assert made.name == there.name == "Botanist"
