"""Folders and stars in the store: made, renamed, filled, emptied and removed in a real
SQLite file, kept across a restart; a folder removed with its conversations leaves no
byte of them on the disk."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from privacy_scan import scan, secrets_for
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.store.errors import FolderNameRefused, FolderNotFound


def answered(store: TurnlogStore, title: str, question: str = "q", answer: str = "a") -> int:
    cid = store.conversations.create(title).id
    store.turns.commit(cid, PendingTurn(f"{title}-1", question, answer, "m", "stop", Usage(),
                                        datetime.now(UTC)))
    return cid


def test_folders_hold_conversations_across_a_restart(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        work = store.folders.add("  工作 Work 📁 ")
        store.folders.add("Reading")
        first, second, third = (answered(store, t) for t in ("one", "two", "three"))
        assert store.folders.move([first, third], work.id) == 2
    with TurnlogStore.open(turnlog_home) as store:
        assert [(f.name, f.conversations) for f in store.folders()] == [
            ("Reading", 0), ("工作 Work 📁", 2)]
        inside = store.conversations(folder=work.id)
        assert {c.id for c in inside} == {first, third}
        assert store.conversations.get(second).folder_id is None
        assert store.folders.folder_id_by_name("工作 work 📁") == work.id
        assert store.folders.folder_id_by_name("nothing") is None
        store.folders.move([third], None)
        assert [c.id for c in store.conversations(folder=work.id)] == [first]


def test_starred_conversations_are_listed_first_and_the_star_survives_a_restart(
        turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        old, middle, new = (answered(store, t) for t in ("old", "middle", "new"))
        assert [c.id for c in store.conversations()] == [new, middle, old]
        store.folders.star([old])
    with TurnlogStore.open(turnlog_home) as store:
        assert [c.id for c in store.conversations()] == [old, new, middle]
        assert store.conversations.get(old).starred
        store.folders.star([old], False)
        assert [c.id for c in store.conversations()] == [new, middle, old]


def test_names_are_checked_and_a_taken_name_is_refused_in_any_case(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        store.folders.add("Work")
        for bad in ("", "   ", "a\nb", "tab\there", "x" * 101):
            with pytest.raises(FolderNameRefused):
                store.folders.add(bad)
        with pytest.raises(FolderNameRefused, match="already"):
            store.folders.add("WORK")
        other = store.folders.add("Home")
        with pytest.raises(FolderNameRefused, match="already"):
            store.folders.rename(other.id, "work")
        assert store.folders.rename(other.id, "Home & garden").name == "Home & garden"
        with pytest.raises(FolderNotFound):
            store.folders.named("Garden")
        assert sorted(f.name for f in store.folders()) == ["Home & garden", "Work"]


def test_removing_a_folder_moves_its_conversations_out(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        folder = store.folders.add("Trip")
        cid = answered(store, "packing list")
        store.folders.move([cid], folder.id)
        assert store.folders.delete(folder.id) is None
        assert store.folders() == []
        assert store.conversations.get(cid).folder_id is None
        assert [t.question for t in store.turns(cid)] == ["q"]


def test_removing_a_folder_with_its_conversations_leaves_no_byte_of_them(turnlog_home):
    secrets = [secrets_for("F", n) for n in range(3)]
    kept_q, kept_a = secrets_for("K", 0)
    folder_name = "ORCHID-17-FOLDER-NAME"
    with TurnlogStore.open(turnlog_home) as store:
        folder = store.folders.add(folder_name)
        inside = [answered(store, f"secret {n}", q, a) for n, (q, a) in enumerate(secrets)]
        outside = answered(store, "kept", kept_q, kept_a)
        store.folders.move(inside, folder.id)
        deleted = store.folders.delete(folder.id, with_conversations=True)
        assert deleted is not None and sorted(deleted.conversation_ids) == sorted(inside)
        assert deleted.counts.turns == 3
        assert [c.id for c in store.conversations()] == [outside]
    needles = [text for pair in secrets for text in pair] + [folder_name]
    assert scan(turnlog_home, needles) == []
    assert scan(turnlog_home, [kept_q]) != []  # the scan does find what stays


def test_deleting_all_history_removes_the_folders_too(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        store.folders.add("ORCHID-17-ALL")
        store.privacy.delete_all()
        assert store.folders() == []
    assert scan(turnlog_home, ["ORCHID-17-ALL"]) == []


def test_search_can_be_limited_to_a_folder(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        folder = store.folders.add("Garden")
        inside = answered(store, "orchid care", "how to water an orchid", "rarely")
        outside = answered(store, "orchid prices", "what does an orchid cost", "a lot")
        store.folders.move([inside], folder.id)
        everywhere = store.search("orchid")
        assert {h.conversation_id for h in everywhere} == {inside, outside}
        limited = store.search("orchid", folder=folder.id)
        assert {h.conversation_id for h in limited} == {inside}
        assert {h.turn_id for h in limited} == {None, "orchid care-1"}
        assert store.search.count("orchid", folder=folder.id).total == 2
        assert store.search.count("orchid").total == 4
        assert store.conversations("orchid", folder=folder.id) == \
            [store.conversations.get(inside)]
