"""A turn's files travel with it: the turn record names each file by SHA-256, its bytes
travel apart as blobs (`missing_blobs`, `blob`, `add_blob`), and a delete everywhere
takes the files along on every machine (real SQLite files, two stores open)."""

from __future__ import annotations

import copy
import hashlib
import json
import zipfile
from dataclasses import replace

import pytest

import chatgpt_export as gpt
from attachfiles import png_bytes
from sync_stores import conversation_by_gid, gid_of, machines_open, pending, published, pull
from turnlog.core.attachments import Attachment, AttachmentKind
from turnlog.service.transfer import import_file
from turnlog.store.errors import SyncRecordInvalid

PHOTO = b"\x89PNG-kyoto-temple-photo-" + bytes(range(256)) * 40
TEMPLE = png_bytes(40, 30, marker="TEMPLE-PIXELS-7731")
NOTES = b"itinerary day 1: Fushimi Inari at dawn\n"


def _file(name: str, data: bytes, kind: AttachmentKind, mime: str) -> Attachment:
    return Attachment(name=name, kind=kind, mime=mime, size=len(data),
                      digest=hashlib.sha256(data).hexdigest(), sent=data, sent_mime=mime,
                      original=data, notes=("one note",))


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path) as opened:
        yield opened


def _with_files(a):
    conv = a.conversations.create("Photos")
    files = (_file("temple.png", PHOTO, AttachmentKind.IMAGE, "image/png"),
             _file("plan.txt", NOTES, AttachmentKind.TEXT, "text/plain"))
    turn = a.turns.commit(conv.id, replace(pending("What is in this photo?"),
                                           attachments=files))
    return conv, turn


def _carry_blobs(to, source) -> int:
    moved = 0
    for digest in to.sync_feed.missing_blobs():
        assert to.sync_feed.add_blob(source.sync_feed.blob(digest), digest)
        moved += 1
    return moved


def test_a_turns_files_come_through_with_their_bytes(machines):
    a, b = machines["A"], machines["B"]
    conv, turn = _with_files(a)
    applied = pull(b, a)
    assert applied.counts == {"conversation": 1, "turn": 1}
    assert sorted(b.sync_feed.missing_blobs()) == sorted(
        hashlib.sha256(d).hexdigest() for d in (PHOTO, NOTES))
    assert _carry_blobs(b, a) == 2
    assert b.sync_feed.missing_blobs() == []
    there = conversation_by_gid(b, gid_of(a, conv.id))
    [shown] = b.turns.active(there)
    assert [(f.name, f.kind, f.mime, f.size, f.sent, f.notes) for f in shown.attachments] == \
        [("temple.png", AttachmentKind.IMAGE, "image/png", len(PHOTO), PHOTO, ("one note",)),
         ("plan.txt", AttachmentKind.TEXT, "text/plain", len(NOTES), NOTES, ("one note",))]
    assert b.sync_feed.blob(shown.attachments[0].digest) == PHOTO
    # the files keep their global ids on both machines
    ids = 'SELECT "gid" FROM "turn_attachments" WHERE "turn_id" = ? ORDER BY "position"'
    assert b.db.execute_sql(ids, (turn.id,)).fetchall() == \
        a.db.execute_sql(ids, (turn.id,)).fetchall()


def test_applying_twice_is_a_no_op_and_wrong_bytes_are_refused(machines):
    a, b = machines["A"], machines["B"]
    _with_files(a)
    pull(b, a)
    _carry_blobs(b, a)
    again = pull(b, a)
    assert again.counts == {}
    count = 'SELECT count(*) FROM "turn_attachments"'
    assert b.db.execute_sql(count).fetchone()[0] == 2
    with pytest.raises(SyncRecordInvalid):
        b.sync_feed.add_blob(b"not the photo", hashlib.sha256(PHOTO).hexdigest())
    # bytes no turn names are not kept
    assert b.sync_feed.add_blob(b"nobody asked for this") is False


def test_malformed_files_are_refused_and_nothing_is_applied(machines):
    a, b = machines["A"], machines["B"]
    _with_files(a)
    records = [json.loads(json.dumps(r)) for r in published(a)]
    [turn] = [r for r in records if r["kind"] == "turn"]
    for spoil in (lambda f: f.update(original="not-a-digest"),
                  lambda f: f.update(size="big"),
                  lambda f: f.update(name="x" * 5000),
                  lambda f: f.update(secret="extra field")):
        bad = copy.deepcopy(records)
        spoil(next(r for r in bad if r["kind"] == "turn")["files"][0])
        with pytest.raises(SyncRecordInvalid):
            b.sync_feed.incoming(bad, "A")
        assert b.db.execute_sql('SELECT count(*) FROM "turns"').fetchone()[0] == 0
    assert len(turn["files"]) == 2


def test_a_delete_everywhere_takes_the_files_from_every_machine(machines, tmp_path):
    a, b = machines["A"], machines["B"]
    conv, _turn = _with_files(a)
    pull(b, a)
    _carry_blobs(b, a)
    there = conversation_by_gid(b, gid_of(a, conv.id))
    b.sync_feed.delete_conversations([there], everywhere=True)
    pull(a, b)
    for store in (a, b):
        assert store.db.execute_sql('SELECT count(*) FROM "blobs"').fetchone()[0] == 0
        assert store.db.execute_sql('SELECT count(*) FROM "turn_attachments"').fetchone()[0] == 0
        assert store.sync_feed.missing_blobs() == []
    for store in (a, b):
        store.close()
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"kyoto-temple-photo" not in data and b"Fushimi Inari" not in data, path


def test_files_a_later_import_adds_travel_dated_and_go_with_their_turn(machines, tmp_path):
    """A ChatGPT `.zip` imported on A after its `conversations.json` (both machines had
    synced the turns): the image it adds to a turn reaches B dated, with its bytes, and a
    delete everywhere of that turn takes it from both and from A's records to publish."""
    a, b = machines["A"], machines["B"]
    import_file(a, gpt.write_json(tmp_path / "conversations.json", gpt.conversations()))
    pull(b, a)
    with zipfile.ZipFile(tmp_path / "export.zip", "w") as archive:
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", TEMPLE)
    import_file(a, tmp_path / "export.zip")
    [(turn_id, added, on_a)] = a.db.execute_sql(
        'SELECT a."turn_id", a."added_at", t."conversation_id" FROM "turn_attachments" a '
        'JOIN "turns" t ON t."id" = a."turn_id"').fetchall()
    assert added
    assert pull(b, a).counts == {"files": 1}
    assert _carry_blobs(b, a) == 1
    there = conversation_by_gid(b, gid_of(a, on_a))
    [photo] = next(t for t in b.turns.all(there) if t.id == turn_id).attachments
    # dated as on A, so the window says "added by import" there too
    assert (photo.added_at, b.attachments.original(photo.digest)) == (added, TEMPLE)
    assert pull(b, a).counts == {}  # once
    assert import_file(a, tmp_path / "export.zip") and pull(b, a).counts == {}  # not again

    b.sync_feed.delete_turn(turn_id, everywhere=True)
    pull(a, b)
    for store in (a, b):
        assert store.db.execute_sql('SELECT count(*) FROM "turn_attachments"').fetchone()[0] == 0
        assert store.db.execute_sql('SELECT count(*) FROM "blobs"').fetchone()[0] == 0
    assert [r for r in published(a) if r["kind"] == "files"] == []
