"""Data directories syncing through real servers on 127.0.0.1 — a WebDAV server (wsgidav)
and an S3 API (moto) — and what the network adds: an upload cut off, a full storage, a
password changed on the server, a slow server, and how few requests a sync makes."""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sync_lists import FEEDS
from sync_machines import make_machine, real_feed
from sync_servers import (
    BUCKET,
    PASSWORD,
    S3_KEY,
    S3_SECRET,
    USER,
    s3_error,
    s3_server,
    webdav_server,
)
from sync_stores import conversation_by_gid, gid_of, pending
from sync_world import ACTS, World
from turnlog.core.attachments import Attachment, AttachmentKind
from turnlog.sync import engine
from turnlog.sync.crypto import is_incomplete
from turnlog.sync.errors import AuthenticationFailed, Offline, StorageFull
from turnlog.sync.remote import Network
from turnlog.sync.storage import StorageConfig, open_storage

FAST = Network(connect_s=2, read_s=5, tries=3, backoff_s=0.02)
PHOTO = b"GIF89a-ORCHID-greenhouse-photo-" + bytes(range(256)) * 64
PLACES = itertools.count()


@pytest.fixture(scope="module", params=["webdav", "s3"])
def server(request, tmp_path_factory):
    if request.param == "webdav":
        with webdav_server(tmp_path_factory.mktemp("dav")) as served:
            yield served
    else:
        with s3_server() as served:
            yield served


@pytest.fixture
def place(server):
    """A storage of its own for each test on the module's server: (config, secret)."""
    return _fresh_place(server)


def _fresh_place(server):
    name = f"t{next(PLACES)}"
    server.faults.seen.clear()
    server.faults.fail_next(0, 0)
    server.faults.delay_s = 0
    server.faults.finite_depth = False
    server.cutting.cut_next(0, 0)
    if server.kind == "webdav":
        (server.root / name).mkdir()
        server.set_password(PASSWORD)
        return StorageConfig("webdav", f"{server.url}/{name}", user=USER), PASSWORD
    return StorageConfig("s3", server.url, bucket=BUCKET, prefix=name, user=S3_KEY), S3_SECRET


@pytest.fixture
def machines(tmp_path, place):
    made = []
    config, secret = place

    def make(name: str, network: Network = FAST):
        made.append(make_machine(tmp_path, name, lambda: open_storage(config, secret, network),
                                 real_feed))
        return made[-1]

    yield make
    for m in made:
        m.close()


def _ask(store, title: str, question: str, *, photo: bool = False):
    conv = store.conversations.create(title)
    turn = pending(question)
    if photo:
        digest = hashlib.sha256(PHOTO).hexdigest()
        turn = replace(turn, attachments=(Attachment(
            name="orchid.gif", kind=AttachmentKind.IMAGE, mime="image/gif", size=len(PHOTO),
            digest=digest, sent=PHOTO, sent_mime="image/gif", original=PHOTO),))
    store.turns.commit(conv.id, turn)
    return conv


def _questions(store) -> list[str]:
    return sorted(t.question for c in store.conversations.listing()
                  for t in store.turns.active(c.id))


def _everything(storage) -> bytes:
    storage.refresh()
    names = [("o", m, s) for m in storage.machines() for s in storage.listing(m).objects]
    names += [("b", m, n) for m in storage.blob_machines() for n in storage.blob_names(m)]
    return b"".join((storage.read(m, s) if kind == "o" else storage.read_blob(m, s)) or b""
                    for kind, m, s in names)


def test_two_machines_share_turns_a_file_and_a_delete_everywhere(machines, server):
    a, b = machines("laptop"), machines("office-pc")
    store_a, store_b = a.feed.store, b.feed.store
    kept = _ask(store_a, "Greenhouse ORCHID", "What flower is this? PEONY", photo=True)
    gone = _ask(store_a, "Taxes MARIGOLD", "Which form? DAHLIA")
    assert a.sync().files_up == 1
    down = b.sync()
    assert (down.received, down.files_down, down.problems) == ({"laptop": 4}, 1, [])
    assert _questions(store_b) == ["What flower is this? PEONY", "Which form? DAHLIA"]
    here = conversation_by_gid(store_b, gid_of(store_a, kept.id))
    (turn,) = store_b.turns.active(here)
    assert [(f.name, f.sent) for f in turn.attachments] == [("orchid.gif", PHOTO)]
    # A delete everywhere on b reaches a; the storage no longer holds its text.
    b.feed.delete_conversations([conversation_by_gid(store_b, gid_of(store_a, gone.id))],
                                everywhere=True)
    b.sync()
    a.sync()
    assert _questions(store_a) == _questions(store_b) == ["What flower is this? PEONY"]
    held = _everything(a.folder)
    assert b"DAHLIA" not in held and b"MARIGOLD" not in held and b"ORCHID" not in held
    assert b"GIF89a" not in held  # the file travels sealed too


def test_an_incremental_sync_makes_a_few_requests(machines, server):
    a, b, c = machines("laptop"), machines("office-pc"), machines("tablet")
    for machine in (a, b, c):
        _ask(machine.feed.store, f"from {machine.name}", f"hello from {machine.name}")
        machine.sync()
    for machine in (a, b, c, a, b):
        machine.sync()
    _ask(a.feed.store, "one more", "one new turn")
    for machine, others in ((a, 2), (b, 2)):
        before = server.faults.count()
        report = machine.sync()
        made = server.faults.seen[before:]
        # The listing, the key header and its own new object; of each other machine, its
        # last object read (unchanged?) and its new one.
        assert len(made) <= 2 * others + 3, "\n".join(map(str, made))
        assert [m for m, _ in made].count("PUT") == 1
    assert report.received == {"laptop": 2}


def test_an_upload_cut_off_is_tried_again_or_finished_by_the_next_sync(machines, server):
    a, b = machines("laptop"), machines("office-pc")
    _ask(a.feed.store, "Bulbs", "How deep? " + "soil " * 3000)
    server.cutting.cut_next(1, 3000)  # once: the next try of the request succeeds
    assert a.sync().published_records == 2
    assert b.sync().received == {"laptop": 2}
    _ask(a.feed.store, "Roses", "When to prune? " + "rose " * 3000)
    server.cutting.cut_next(FAST.tries, 3000)  # every try of this sync
    with pytest.raises(Offline, match="cut"):
        a.sync()
    if server.kind == "webdav":  # the server kept what it received: a part of the object
        left = [p.read_bytes() for p in server.root.rglob("*.tlo")]
        assert any(is_incomplete(data) for data in left)
    # Whatever the cut left is never read as an object: b waits for it, names no problem.
    report = b.sync()
    assert report.received == {} and report.problems == []
    assert a.sync().published_records == 2
    assert b.sync().received == {"laptop": 2}
    assert _questions(b.feed.store) == _questions(a.feed.store)


def test_an_upload_refused_mid_publish_stops_the_uploads_queued_behind_it(
        machines, server, monkeypatch):
    """A first sync queues each object's upload behind the one before: when the storage
    refuses one, none after it is written (the storage never holds an object while one
    before it is missing), the ones before are live, and the next sync finishes."""
    monkeypatch.setattr(engine, "BATCH", 2)  # one object per conversation's two records
    a, b = machines("laptop"), machines("office-pc")
    for index in range(5):
        _ask(a.feed.store, f"Bed {index}", f"Which bulbs for bed {index}?")
    write, written = a.folder.write, []

    def refuse_after_the_first(machine, seq, data):
        written.append(seq)
        write(machine, seq, data)
        if len(written) == 1:
            server.faults.fail_next(507, times=100, methods=("PUT",))

    monkeypatch.setattr(a.folder, "write", refuse_after_the_first)
    with pytest.raises(StorageFull):
        a.sync()
    a.folder.refresh()
    assert written == [1, 2] and sorted(a.folder.listing(a.state.machine_id).objects) == [1]
    assert a.state.live_objects() == [1]
    server.faults.fail_next(0, 0)
    assert a.sync().published_records == 8
    assert b.sync().received == {"laptop": 10}
    assert _questions(b.feed.store) == _questions(a.feed.store)


def test_a_full_storage_is_named_and_the_next_sync_finishes(machines, server):
    a, b = machines("laptop"), machines("office-pc")
    _ask(a.feed.store, "Bulbs", "How deep?")
    server.faults.fail_next(507, methods=("PUT",), body=s3_error(
        "XMinioStorageFull", "Storage backend has reached its minimum free drive threshold."))
    with pytest.raises(StorageFull, match="no room"):
        a.sync()
    assert a.sync().published_records == 2
    assert b.sync().received == {"laptop": 2}


def test_a_password_changed_on_the_server_is_named_until_the_new_one_is_given(
        machines, server, place, tmp_path):
    a = machines("laptop")
    _ask(a.feed.store, "Bulbs", "How deep?")
    a.sync()
    if server.kind == "webdav":
        server.set_password("a new password")
    else:  # moto takes any key: the server's answer to a changed secret, given
        server.faults.fail_next(403, times=100, body=s3_error(
            "SignatureDoesNotMatch", "The request signature we calculated does not match"))
    _ask(a.feed.store, "Roses", "When?")
    with pytest.raises(AuthenticationFailed, match="refused"):
        a.sync()
    config, _ = place
    server.faults.fail_next(0, 0)
    a.folder.close()
    a.folder = open_storage(config, "a new password" if server.kind == "webdav" else
                            S3_SECRET, FAST)
    assert a.sync().published_records == 2


def test_a_slow_server_times_out_and_the_next_sync_finishes(machines, server):
    a = machines("laptop", Network(connect_s=1, read_s=0.3, tries=2, backoff_s=0.01))
    b = machines("office-pc")
    _ask(a.feed.store, "Bulbs", "How deep?")
    server.faults.delay_s = 0.6
    with pytest.raises(Offline, match="in time"):
        a.sync()
    server.faults.delay_s = 0
    assert a.sync().published_records == 2
    assert b.sync().received == {"laptop": 2}


def test_a_webdav_server_that_lists_one_folder_at_a_time_is_walked(machines, server):
    if server.kind != "webdav":
        pytest.skip("depth of a listing is WebDAV's")
    server.faults.finite_depth = True
    a, b = machines("laptop"), machines("office-pc")
    _ask(a.feed.store, "Bulbs", "How deep?", photo=True)
    a.sync()
    assert b.sync().received == {"laptop": 2}
    depths = [m for m, _ in server.faults.seen if m == "PROPFIND"]
    assert len(depths) > 4  # the refused one, then folder by folder
    assert _questions(b.feed.store) == ["How deep?"]
    server.faults.finite_depth = False


@pytest.mark.parametrize("feed", sorted(FEEDS))
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(acts=ACTS, seed=st.integers(0, 2**16))
def test_machines_converge_through_the_server(tmp_path_factory, server, feed, acts, seed):
    """Part one's property test, through each server: random appends, versions, renames,
    deletes (everywhere and here) and syncs of two machines end with the same log, and no
    text deleted everywhere in any live object."""
    config, secret = _fresh_place(server)
    world = World(tmp_path_factory.mktemp("world"), 2, FEEDS[feed], seed,
                  lambda: open_storage(config, secret, FAST))
    try:
        for act in acts:
            world.act(*act)
        world.settle()
        world.check_converged()
    finally:
        world.close()
