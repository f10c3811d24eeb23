"""Two and three data directories syncing through a folder: what each ends with, what the
storage holds (and never holds), what a delete everywhere rewrites, and what a storage
that lies (a gap, a rollback, a changed object) is told apart from what it only lags on.

Every test runs over each feed of `sync_lists.FEEDS` (the store's own joins there)."""

from __future__ import annotations

import sys

import pytest
import zstandard

from chat_text import ChatText
from sync_lists import FEEDS, DictsOnly
from sync_machines import PASSPHRASE, live_plaintexts, make_machine, storage_bytes
from turnlog.sync import engine
from turnlog.sync.crypto import COMPRESSION, WrongPassphrase, seal
from turnlog.sync.engine import PassphraseChanged, change_passphrase, set_up
from turnlog.sync.folder import SyncFolder
from turnlog.sync.state import SyncState, is_sync_set_up


@pytest.fixture(params=sorted(FEEDS))
def feed_factory(request):
    return FEEDS[request.param]


@pytest.fixture
def shared(tmp_path, feed_factory):
    """Machines sharing one storage folder (a sync program that never lags)."""
    made = []

    def machine(name: str):
        made.append(make_machine(tmp_path, name, tmp_path / "storage", feed_factory))
        return made[-1]

    yield machine
    for m in made:
        m.close()


def test_two_machines_end_with_the_same_log_and_nothing_twice(shared):
    a, b = shared("laptop"), shared("office-pc")
    conv = a.feed.new_conversation("Tulip beds")
    a.feed.add_turn(conv, "When to plant?", "In autumn.")
    report = a.sync()
    assert (report.published_objects, report.published_records) == (1, 2)
    # The feed keeps this machine's id on its forks, as other machines' records arrive
    # with theirs: every machine keeps the same "continued on".
    assert a.feed.machine == a.state.machine_id
    received = b.sync()
    assert received.received == {"laptop": 2}
    b.feed.add_turn(conv, "How deep?", "Three times the bulb.")
    b.feed.rename(conv, "Bulbs")
    b.sync()
    assert a.sync().received == {"office-pc": 2}
    assert a.feed.dump() == b.feed.dump()
    assert a.feed.dump()[conv]["title"] == "Bulbs" and len(a.feed.dump()[conv]["turns"]) == 2
    # Nothing new: nothing goes up or comes down, nothing is applied twice.
    again = [a.sync(), b.sync(), a.sync()]
    assert [(r.published_records, sum(r.received.values())) for r in again] == [(0, 0)] * 3
    assert a.feed.dump() == b.feed.dump()


def test_a_first_sync_of_several_objects_lands_each_in_order_and_whole(shared, monkeypatch):
    monkeypatch.setattr(engine, "OBJECT_BUCKET", 16 * 1024)  # many objects of few records
    a, b = shared("laptop"), shared("office-pc")
    conv = a.feed.new_conversation("Tulip beds")
    for index in range(1200):
        a.feed.add_turn(conv, f"question {index}", f"answer {index}")
    turns = sys.getswitchinterval()
    report = a.sync()
    assert sys.getswitchinterval() == turns  # the publish's shorter turns are over
    objects = report.published_objects
    assert report.published_records == 1201 and objects >= 4
    assert a.state.pending() == [] and a.state.live_objects() == list(range(1, objects + 1))
    assert b.sync().received == {"laptop": 1201}
    assert a.feed.dump() == b.feed.dump()
    assert a.sync().published_objects == 0


def _sealed_size(key_id: str, bucket: int) -> int:
    """The size of an object file sealed under `key_id`, padded to `bucket`."""
    return len(seal(bytes(32), key_id, "m", 1, b"")) - 4096 + bucket


def test_a_first_sync_fills_its_objects_to_just_under_their_size_class(shared, tmp_path,
                                                                        monkeypatch):
    """An object is padded to a power of two: chat text packed 500 records at a time landed
    just over a class, and the storage held about twice the bytes the records packed to.
    Each object's record count now follows from what the ones before packed to: none is
    padded to the class above the one aimed at, and the storage holds little more than the
    packed records."""
    bucket = 64 * 1024
    monkeypatch.setattr(engine, "OBJECT_BUCKET", bucket)  # many objects from a small log
    a, b = shared("laptop"), shared("office-pc")
    text = ChatText()
    for start in range(0, 1500, 500):
        conv = a.feed.new_conversation(f"Garden {start}")
        for _ in range(500):
            a.feed.add_turn(conv, text.message(300), text.message(700))
    report = a.sync()
    sizes = [len(data) for path, data in storage_bytes(tmp_path / "storage")
             if path.suffix == ".tlo"]
    packer = zstandard.ZstdCompressor(level=COMPRESSION)
    packed = sum(len(packer.compress(p)) for p in live_plaintexts(a.folder, a.keys))
    assert report.published_objects == len(sizes) > 10
    # the class aimed at, never the one above
    assert max(sizes) == _sealed_size(a.keys.current, bucket)
    assert sum(sizes) < 1.2 * packed
    assert b.sync().received == {"laptop": 1503}
    assert a.feed.dump() == b.feed.dump()


def test_objects_of_text_that_packs_tightly_stay_bounded_in_memory(shared, monkeypatch):
    """Text that packs twenty times fills an object's class only with twenty times its
    bytes of records: an object's payload stays within OBJECT_PAYLOAD all the same."""
    monkeypatch.setattr(engine, "OBJECT_PAYLOAD", 96 * 1024)
    a, b = shared("laptop"), shared("office-pc")
    conv = a.feed.new_conversation("Tulip beds")
    for index in range(1000):
        a.feed.add_turn(conv, f"question {index}: " + "Plant the tulips deep. " * 40, "Yes.")
    assert a.sync().published_records == 1001
    payloads = live_plaintexts(a.folder, a.keys)
    assert len(payloads) > 5 and max(len(p) for p in payloads) <= 96 * 1024
    assert b.sync().received == {"laptop": 1001}
    assert a.feed.dump() == b.feed.dump()


def test_a_feed_handing_dicts_publishes_what_one_handing_json_does(tmp_path):
    """The engine writes the records of a feed without `outgoing_json` itself: another
    machine ends with the same log, a delete everywhere included."""
    a = make_machine(tmp_path, "laptop", tmp_path / "storage", DictsOnly)
    b = make_machine(tmp_path, "office-pc", tmp_path / "storage", FEEDS["lists"])
    try:
        kept, gone = a.feed.new_conversation("Tulip beds"), a.feed.new_conversation("Typo")
        for index in range(600):
            a.feed.add_turn(kept, f"question {index} 郁金香", f"answer {index}")
        a.feed.add_turn(gone, "PEONY secret", "answer")
        assert a.sync().published_objects == 2
        assert b.sync().received == {"laptop": 603}
        a.feed.delete_everywhere(gone)
        a.sync()
        b.sync()
        assert a.feed.dump() == b.feed.dump() and gone not in b.feed.dump()
        assert len(b.feed.dump()[kept]["turns"]) == 600
        # what a delete removed, read from its record: 1 conversation, 1 turn, 2 ids
        assert [d[2:] for d in a.state.deletes()] == [(1, 1, 2)]
    finally:
        a.close()
        b.close()


def test_the_storage_holds_no_title_text_model_or_machine_name(shared, tmp_path):
    a, b = shared("laptop-HEATHER"), shared("desk-MARIGOLD")
    conv = a.feed.new_conversation("Secret title ORCHID")
    a.feed.add_turn(conv, "question PEONY " * 30, "answer DAHLIA", model="model-LILAC")
    b.sync()
    a.sync()
    b.sync()
    assert b.feed.dump() == a.feed.dump()
    planted = [b"ORCHID", b"PEONY", b"DAHLIA", b"LILAC", b"HEATHER", b"MARIGOLD"]
    files = storage_bytes(tmp_path / "storage")
    assert len(files) == 3  # the key header, a's object, b's object saying it read it
    for path, data in files:
        for word in planted:
            assert word not in data, (path, word)
            assert word.lower() not in data.lower(), (path, word)
    # Only ids and numbers name anything.
    names = {p.relative_to(tmp_path / "storage").as_posix() for p, _ in files}
    assert all(n.startswith("turnlog-sync/") for n in names)


def test_object_sizes_fall_in_buckets_whatever_the_text_length(shared, tmp_path):
    a = shared("laptop")
    for length in (1, 100, 1500):
        conv = a.feed.new_conversation("t")
        a.feed.add_turn(conv, "q" * length, "a")
        a.sync()
    sizes = {len(data) for path, data in storage_bytes(tmp_path / "storage")
             if path.suffix == ".tlo"}
    assert len(sizes) == 1, sizes  # three texts of very different lengths: one size


def test_a_delete_everywhere_leaves_no_live_object_that_decrypts_to_the_text(shared, tmp_path):
    a, b, c = shared("a"), shared("b"), shared("c")
    gone = a.feed.new_conversation("Title GONE-TITLE")
    a.feed.add_turn(gone, "question GONE-Q", "answer GONE-A")
    kept = a.feed.new_conversation("Title KEPT")
    a.feed.add_turn(kept, "question KEPT-Q", "answer KEPT-A")
    a.sync()
    b.sync()
    b.feed.add_turn(gone, "follow-up GONE-B", "answer GONE-B2")  # b's own object holds it too
    b.sync()
    c.sync()
    c.feed.delete_everywhere(gone)
    report = c.sync()
    assert report.published_records == 1
    assert b.sync().rewritten == 1  # b rewrites its object that held the deleted turn
    assert a.sync().rewritten == 1
    c.sync()
    for m in (a, b, c):
        assert gone not in m.feed.dump()
        assert m.feed.dump() == a.feed.dump()
    texts = b"".join(live_plaintexts(a.folder, a.keys))
    assert b"KEPT-Q" in texts
    assert b"GONE" not in texts
    # The delete record stays (ids only) and is not rewritten again and again.
    assert [m.sync().rewritten for m in (a, b, c)] == [0, 0, 0]
    # A fourth machine set up after the delete gets the kept text only, with no gap.
    d = shared("d")
    report = d.sync()
    assert report.waiting == [] and report.problems == []
    assert d.feed.dump() == a.feed.dump()


def test_a_delete_on_this_machine_only_keeps_the_text_elsewhere(shared):
    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.feed.add_turn(conv, "HERE-Q", "HERE-A")
    a.sync()
    b.sync()
    b.feed.delete_here(conv)
    b.sync()
    a.sync()
    b.sync()
    assert conv in a.feed.dump() and conv not in b.feed.dump()
    assert b"HERE-Q" in b"".join(live_plaintexts(a.folder, a.keys))


def test_a_wrong_passphrase_is_refused_before_anything_is_written(tmp_path, feed_factory):
    a = make_machine(tmp_path, "a", tmp_path / "storage", feed_factory)
    a.feed.new_conversation("t")
    a.sync()
    before = storage_bytes(tmp_path / "storage")
    home = tmp_path / "home-b"
    home.mkdir()
    state = SyncState.create(home)
    saved = []
    with pytest.raises(WrongPassphrase):
        set_up(SyncFolder(tmp_path / "storage"), state, b"not the passphrase", "b",
               lambda user, keys: saved.append(keys))
    assert storage_bytes(tmp_path / "storage") == before
    assert saved == [] and not is_sync_set_up(home)
    state.close()
    a.close()


def test_a_tampered_object_is_named_and_not_applied(shared, tmp_path):
    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.feed.add_turn(conv, "q", "a")
    a.sync()
    (seq,) = a.folder.listing(a.state.machine_id).objects
    path = a.folder.path(a.state.machine_id, seq)
    data = bytearray(path.read_bytes())
    data[-20] ^= 1
    path.write_bytes(bytes(data))
    report = b.sync()
    assert b.feed.dump() == {}
    assert any("does not authenticate" in p for p in report.problems), report.problems
    # Moved under another number: it does not open either.
    path.rename(path.with_name("0000000002.tlo"))
    assert any("does not authenticate" in p for p in b.sync().problems)
    assert b.feed.dump() == {}


def test_a_gap_is_waited_for_and_named_then_filled(shared):
    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.sync()
    a.feed.add_turn(conv, "q2", "a2")
    a.sync()
    first = a.folder.path(a.state.machine_id, 1)
    hidden = first.read_bytes()
    first.unlink()
    report = b.sync()
    assert b.feed.dump() == {}
    assert any("waiting for its object 1" in w for w in report.waiting), report.waiting
    first.write_bytes(hidden)
    assert b.sync().waiting == []
    assert b.feed.dump() == a.feed.dump()


def test_a_rollback_is_named_never_applied_silently(shared):
    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.sync()
    b.sync()
    saved = a.folder.path(a.state.machine_id, 1).read_bytes()
    a.feed.add_turn(conv, "q", "a")
    a.sync()
    b.sync()
    # The storage goes back: the newest object vanishes, an old one comes back changed.
    a.folder.path(a.state.machine_id, 2).unlink()
    report = b.sync()
    assert any("only up to 1, but 2 were read" in p for p in report.problems)
    a.folder.path(a.state.machine_id, 2).write_bytes(saved)
    report = b.sync()
    assert any("changed after it was read" in p for p in report.problems), report.problems


def test_a_machine_restored_from_an_old_backup_takes_a_new_id(shared, tmp_path):
    import shutil

    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.sync()
    backup = tmp_path / "backup"
    a.state.close()
    shutil.copytree(a.home, backup)
    a.state = SyncState.open(a.home)
    a.feed.add_turn(conv, "after the backup", "x")
    a.sync()
    old_id = a.state.machine_id
    a.state.close()
    a.feed.close()
    shutil.rmtree(a.home)
    shutil.copytree(backup, a.home)
    a.state = SyncState.open(a.home)
    a.feed = type(a.feed)(a.home)
    report = a.sync()
    assert report.new_machine_id and report.new_machine_id != old_id
    assert a.state.machine_id == report.new_machine_id
    if hasattr(a.feed, "store"):  # the store's clock readings end with the new id from now
        a.feed.add_turn(conv, "after the restore", "y")
        db = a.feed.store.db
        assert db.execute_sql('SELECT "node" FROM "sync_state"').fetchone()[0] == \
            report.new_machine_id
        newest = db.execute_sql('SELECT "hlc" FROM "sync_journal" ORDER BY "seq" DESC '
                                'LIMIT 1').fetchone()[0]
        assert newest.endswith(report.new_machine_id) and old_id not in newest
    # Its old self's numbers are never reused, and what it lost comes back from them.
    a.sync()
    assert len(a.feed.dump()[conv]["turns"]) == (2 if hasattr(a.feed, "store") else 1)
    b.sync()
    assert b.feed.dump() == a.feed.dump()
    assert sorted(a.folder.listing(old_id).objects) == [1, 2]


def test_forgetting_a_machine_republishes_its_live_content(shared):
    a, b = shared("a"), shared("b")
    conv = b.feed.new_conversation("from b")
    b.feed.add_turn(conv, "b's question", "b's answer")
    b.sync()
    a.sync()
    assert a.forget(b) == 2
    assert b.state.machine_id not in a.folder.machines()
    c = shared("c")
    c.sync()
    assert c.feed.dump() == a.feed.dump() and conv in c.feed.dump()


def test_a_changed_passphrase_reseals_and_the_others_are_asked_for_it(shared, tmp_path):
    a, b = shared("a"), shared("b")
    conv = a.feed.new_conversation("t")
    a.sync()
    b.sync()
    assert change_passphrase(a.folder, a.state, a.keys, b"a new passphrase",
                             lambda keys: None) == "changed"
    a.feed.add_turn(conv, "after the change", "x")
    a.sync()
    with pytest.raises(PassphraseChanged):
        b.sync()
    with pytest.raises(WrongPassphrase):
        change_passphrase(b.folder, b.state, b.keys, PASSPHRASE, lambda keys: None)
    assert change_passphrase(b.folder, b.state, b.keys, b"a new passphrase",
                             lambda keys: None) == "joined"
    b.sync()
    assert b.feed.dump() == a.feed.dump()
    # Every live object of both is sealed with the new key alone now.
    new_key = a.keys.current
    for machine in (a, b):
        me = machine.state.machine_id
        for seq in machine.folder.listing(me).objects:
            assert new_key.encode() in machine.folder.read(me, seq)[:80]


def test_what_a_sync_program_leaves_is_ignored_and_looked_at_again(shared):
    a, b = shared("a"), shared("b")
    assert is_sync_set_up(a.home) and is_sync_set_up(b.home)
    conv = a.feed.new_conversation("t")
    a.feed.add_turn(conv, "q", "a")
    a.sync()
    mine = a.folder.path(a.state.machine_id, 1)
    whole = mine.read_bytes()
    # A conflict copy, a partial temporary file, and the object itself only half there.
    mine.with_name("0000000001.sync-conflict-20260506-101010-ABCDEF.tlo").write_bytes(whole)
    mine.with_name(".syncthing.0000000002.tlo.tmp").write_bytes(whole[:100])
    mine.write_bytes(whole[: len(whole) // 2])
    report = b.sync()
    assert report.problems == [] and b.feed.dump() == {}
    assert any("waiting for its object 1" in w for w in report.waiting)
    mine.write_bytes(whole)
    report = b.sync()
    assert (report.problems, report.waiting) == ([], [])
    assert b.feed.dump() == a.feed.dump()
