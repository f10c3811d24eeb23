"""A privacy delete says what it removed and how things stand now (ids, titles, the
summary that now stands), and the window's delete operations use that report: one call
into the store, nothing read again to rebuild what the store already knew.

Real parts: a real store in a temporary data directory; the window's own operations
(`ui/infra/operations.py`) run through a recorder that logs every call into the store
and its parts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from turnlog.core.compaction import SummaryDraft
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.core.titles import QUESTION
from turnlog.store import TurnlogStore
from turnlog.ui.infra import operations


def pending(turn_id: str, question: str, *, replaces: str | None = None) -> PendingTurn:
    return PendingTurn(turn_id, question, f"answer to {question}", "m", "stop", Usage(),
                       datetime.now(UTC), replaces=replaces)


class Recorder:
    """`target` as it is, except that every call into it, or into one of its parts, is
    written down as (part, method)."""

    def __init__(self, target: Any, calls: list[tuple[str, str]], part: str = "") -> None:
        self._target, self._calls, self._part = target, calls, part

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._target, name)
        if name in {"conversations", "turns", "records", "memory", "side", "search",
                    "forks", "imports", "privacy", "attachments", "database"} and not self._part:
            return Recorder(found, self._calls, name)
        if callable(found):
            def called(*args: Any, **kwargs: Any) -> Any:
                self._calls.append((self._part, name))
                return found(*args, **kwargs)
            return called
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._calls.append((self._part, "__call__"))
        return self._target(*args, **kwargs)


def summarised(store: TurnlogStore, cid: int, turns: list[str], first: int, last: int
               ) -> None:
    store.records.save_summary(cid, SummaryDraft(
        first_ordinal=first, last_ordinal=last, covered_turn_ids=tuple(turns),
        covered_digest="d", content="summary of " + ", ".join(turns), model="m",
        settings_key="k", content_tokens=3, usages=(), warnings=(),
        generation=store.conversations.generation(cid)))


def test_deleting_a_turn_reports_what_went_and_what_stands_and_the_window_reads_nothing_again(
        tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        conv = store.conversations.create("", title_source=QUESTION)
        for index, question in enumerate(["First question", "Second", "Third"]):
            store.turns.commit(conv.id, pending(f"t{index}", question))
        store.turns.commit(conv.id, pending("t2b", "Third again", replaces="t2"))
        summarised(store, conv.id, ["t1"], 2, 2)  # stays: it does not cover the first turn
        assert store.conversations.get(conv.id).title == "First question"

        calls: list[tuple[str, str]] = []
        changes = operations.delete_turn(Recorder(store, calls), "t0").work()
        assert calls == [("privacy", "delete_turn")]  # one operation, no re-reads
        assert changes.turns_deleted == ("t0",) and changes.turns_of == conv.id
        assert changes.renamed and changes.conversation is not None
        assert changes.conversation.title == "Second"  # the title followed the first turn
        assert changes.summary is not None and changes.summary.content == "summary of t1"
        assert changes.counts is not None and changes.counts.turns == 1

        calls.clear()
        changes = operations.delete_turn(Recorder(store, calls), "t2b").work()
        assert calls == [("privacy", "delete_turn")]
        assert set(changes.turns_deleted) == {"t2", "t2b"}  # with its other version
        assert not changes.renamed and changes.conversation is None
        assert [t.id for t in store.turns(conv.id)] == ["t1"]


def test_deleting_a_conversation_or_everything_reports_it(tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        source = store.conversations.create("Source")
        for index in range(3):
            store.turns.commit(source.id, pending(f"s{index}", f"q{index}"))
        fork, _ = store.forks.at(source.id, 3, title="Fork")
        fork_of_fork, _ = store.forks.at(fork.id, 2, title="Fork of fork")
        other = store.conversations.create("Other")
        store.turns.commit(other.id, pending("o0", "other"))
        store.memory.add_preference("Answer briefly")

        report = store.privacy.delete_conversation(fork.id)
        assert report.conversation_ids == (fork.id,) and report.titles == ("Fork",)
        assert report.sources_forgotten == (fork_of_fork.id,)  # stays, forgets its source
        assert store.forks.origin(fork_of_fork.id).source_id is None

        calls: list[tuple[str, str]] = []
        changes = operations.delete_conversation(Recorder(store, calls), source.id,
                                                 with_forks=True).work()
        assert calls == [("privacy", "delete_conversation")]
        assert changes.deleted == frozenset({source.id})  # the fork of a fork no longer is one

        calls.clear()
        changes = operations.delete_all_history(Recorder(store, calls), None, [],
                                                preferences=True).work()
        assert calls == [("privacy", "delete_all")]
        assert changes.everything and changes.counts is not None
        assert changes.counts.conversations == 2
        report = store.privacy.delete_all(preferences=True)
        assert report.conversation_ids == () and report.preferences == 0
        assert store.conversations() == [] and store.memory.preferences() == []
