"""A long conversation opens at its newest turns without reading the whole log, and
older turns arrive a page at a time, with the right ordinals and marks."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from datetime import UTC, datetime

import pytest

from long_history import GAP_EVERY, newest_on_screen, seed_long
from loopback import Behaviour
from turnlog.core.compaction import CompactionSettings, SummaryDraft, ids_digest
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.service.chat import options_for
from turnlog.store import TurnlogStore
from turnlog.store.pages import LogPages
from turnlog.ui.transcript.marks import MarkMap, RowMark
from turnlog.ui.transcript.model import Role, TranscriptModel
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

LONG = 30_000


class RowsRead:
    """Counts the rows every query of `store` hands back, per thread: what the store read
    for the window, whichever method asked."""

    def __init__(self, store: TurnlogStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_thread: Counter[str] = Counter()
        self.turns = 0  # rows carrying a turn's text
        self._lock = threading.Lock()
        execute_sql = store.db.execute_sql

        def counted(sql, params=None, *args, **kwargs):  # noqa: ANN001, ANN202
            cursor = execute_sql(sql, params, *args, **kwargs)
            return _CountingCursor(cursor, self, '"question"' in sql)

        monkeypatch.setattr(store.db, "execute_sql", counted)

    def add(self, rows: int, turns: bool) -> None:
        with self._lock:
            self.by_thread[threading.current_thread().name] += rows
            if turns:
                self.turns += rows

    @property
    def total(self) -> int:
        with self._lock:
            return sum(self.by_thread.values())

    def reset(self) -> None:
        with self._lock:
            self.by_thread.clear()


class _CountingCursor:
    def __init__(self, cursor, rows: RowsRead, turns: bool) -> None:  # noqa: ANN001
        self._cursor = cursor
        self._rows = rows
        self._turns = turns

    def fetchone(self):  # noqa: ANN201
        row = self._cursor.fetchone()
        if row is not None:
            self._rows.add(1, self._turns)
        return row

    def fetchmany(self, *args):  # noqa: ANN002, ANN201
        rows = self._cursor.fetchmany(*args)
        self._rows.add(len(rows), self._turns)
        return rows

    def fetchall(self):  # noqa: ANN201
        rows = self._cursor.fetchall()
        self._rows.add(len(rows), self._turns)
        return rows

    def __iter__(self):  # noqa: ANN204
        for row in self._cursor:
            self._rows.add(1, self._turns)
            yield row

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._cursor, name)


def test_a_long_conversation_opens_at_its_newest_turns_reading_a_bounded_number_of_rows(
        qtbot, store, make_window, monkeypatch):
    cid, ordinals = seed_long(store, "long", LONG)
    seed(store, "short", numbered(3))  # newest: the window opens it first
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and len(window.transcript.turns) == 3)
    rows = RowsRead(store, monkeypatch)

    assert window.sidebar.select(cid)
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=10_000)
    qtbot.waitUntil(lambda: window.composer.counter.text() != "", timeout=5_000)

    model = window.transcript
    assert len(model.turns) == LONG  # the whole log is counted …
    assert model.rowCount() == TranscriptModel.PAGE  # … its newest page shown
    assert [model.index(r).data(Role.ORDINAL) for r in range(model.rowCount())] == \
        ordinals[-TranscriptModel.PAGE:]
    # The preview's marks: the newest turns are sent, older ones not.
    assert model.index(model.rowCount() - 1).data(Role.MARK) is RowMark.SENT
    assert model.index(0).data(Role.MARK) is RowMark.NOT_SENT
    # … read from a page or two of the log, not from its 30,000 turns.
    assert rows.total <= 2 * LogPages.PAGE, rows.by_thread
    assert rows.by_thread["MainThread"] <= LogPages.PAGE, rows.by_thread


def test_scrolling_up_fetches_older_pages_with_their_ordinals_and_marks(
        qtbot, store, make_window, monkeypatch):
    cid, ordinals = seed_long(store, "long", 5_000)
    window = make_window()
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=10_000)
    qtbot.waitUntil(lambda: window.composer.counter.text() != "", timeout=5_000)
    model = window.transcript
    bar = window.view.verticalScrollBar()
    rows = RowsRead(store, monkeypatch)
    for pages in range(2, 6):
        bar.setValue(bar.minimum())
        qtbot.waitUntil(lambda n=pages: model.rowCount() == n * TranscriptModel.PAGE)
        qtbot.waitUntil(lambda: bar.value() > bar.minimum())
    shown = [model.index(r).data(Role.ORDINAL) for r in range(model.rowCount())]
    assert shown == ordinals[-5 * TranscriptModel.PAGE:]
    marks = [model.index(r).data(Role.MARK) for r in range(model.rowCount())]
    assert marks[0] is RowMark.NOT_SENT and marks[-1] is RowMark.SENT
    assert marks == sorted(marks, key=lambda m: m is RowMark.SENT)  # one run of each
    # Five pages of rows came from at most the pages of the log that hold them.
    assert rows.total <= 5 * TranscriptModel.PAGE + 2 * LogPages.PAGE, rows.by_thread
    tip = model.index(0).data()
    assert f"Turn {shown[0]:,}, not sent." in tip


def test_the_paged_log_is_the_log(store):
    """Every way of reading the paged log agrees with reading the whole log at once, gaps
    in the ordinals included; reading it all holds only a few pages in memory."""
    cid, ordinals = seed_long(store, "long", 20 * LogPages.PAGE + 17)  # with gaps
    whole = store.turns(cid)
    log = store.turns.log(cid)
    assert len(log) == len(whole) == len(ordinals)
    middle = len(log) // 2
    assert log[-1] == whole[-1] and log[0] == whole[0] and log[middle] == whole[middle]
    assert list(reversed(log)) == list(reversed(whole))
    assert list(log) == list(whole)
    assert log[100:middle] == whole[100:middle] and log[-5:] == whole[-5:]
    assert log[::97] == whole[::97]
    assert log.ordinals(0, len(log)) == tuple(ordinals)
    assert log.ordinals(middle, middle + 10) == tuple(ordinals[middle:middle + 10])
    assert [log.position_of(o) for o in (1, ordinals[middle], ordinals[-1])] == [
        0, middle, len(log) - 1]
    assert log.position_of(GAP_EVERY) is None and log.position_of(ordinals[-1] + 1) is None
    with pytest.raises(IndexError):
        log[len(log)]

    small = LogPages(store.turns, cid, len(whole), ordinals[-1])
    small.KEEP = 2  # a walk over all of it, newest first, keeps two pages in memory
    assert [t.id for t in small] == [t.id for t in whole]
    for index in range(len(small) - 1, -1, -1):
        assert small[index].ordinal == ordinals[index]
    assert len(small._pages) <= 2  # noqa: SLF001
    assert small.pages_read == (len(whole) + LogPages.PAGE - 1) // LogPages.PAGE


def test_appending_and_deleting_keep_the_paged_log_in_step(store):
    cid, ordinals = seed_long(store, "long", LogPages.PAGE + 40)
    log = store.turns.log(cid).warm(LogPages.PAGE)
    model = TranscriptModel()
    model.set_turns(log)
    page = TranscriptModel.PAGE
    model.request_older()  # two pages of rows
    victim = model.turn_at(2 * page - 3)
    assert victim is not None
    store.privacy.delete_turn(victim.id)
    assert model.remove_turn(victim.id)
    assert model.rowCount() == 2 * page - 1  # the other rows stay where they were
    assert [t.id for t in model.turns] == [t.id for t in store.turns(cid)]
    assert model.row_of_ordinal(victim.ordinal) is None

    older = store.turns(cid)[5]
    store.privacy.delete_turn(older.id)
    # Not a row, its page not in memory: the log is shown again from its newest.
    assert model.remove_turn(older.id)
    assert model.rowCount() == TranscriptModel.PAGE
    assert [t.id for t in model.turns] == [t.id for t in store.turns(cid)]

    assert model.turn_at(model.rowCount() - 1) == store.turns(cid)[-1]  # on show
    model.start_pending("next question")
    turn = store.turns.commit(cid, PendingTurn(uuid.uuid4().hex, "next question", "an answer",
                                               "loopback-model", "stop", Usage(),
                                               datetime.now(UTC)))
    longer = model.with_turn(turn)
    assert longer is not None
    model.commit_pending(longer)
    assert model.pending is None
    assert model.index(model.rowCount() - 1).data(Role.ORDINAL) == turn.ordinal
    assert model.turns.pages_read == 0  # the newest page moved up by one, read from nothing
    assert [t.id for t in model.turns] == [t.id for t in store.turns(cid)]


def test_marks_of_a_paged_log_are_looked_up_not_searched_for(store):
    cid, ordinals = seed_long(store, "long", 4 * LogPages.PAGE)
    log = store.turns.log(cid).warm(LogPages.PAGE)
    marks = MarkMap(log, None)
    assert marks[ordinals[-1]] is RowMark.NOT_SENT
    assert marks[ordinals[3]] is RowMark.NOT_SENT  # one counting query, no page read
    assert GAP_EVERY not in marks
    assert log.pages_read == 1


def test_spans_of_a_long_log_are_named_from_their_ends_and_gaps_are_not_lost(
        store, monkeypatch):
    from turnlog.core.model import ordinal_runs, ordinal_runs_of
    cid, ordinals = seed_long(store, "gapless", 20_000, gaps=False)
    log = store.turns.log(cid).warm(LogPages.PAGE)
    assert log._source is store.turns
    listed = []
    read = store.turns.turn_ordinals

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        found = read(*args, **kwargs)
        listed.append(len(found))
        return found

    monkeypatch.setattr(store.turns, "turn_ordinals", counted)
    assert ordinal_runs_of(log, 0, 19_000) == [(1, 19_000)]
    assert max(listed) == 1  # the two ends, one ordinal each: nothing listed
    assert ordinal_runs_of(log, 0, 19_000) == [(1, 19_000)]
    assert len(listed) <= 2  # asked again: remembered
    gappy, with_gaps = seed_long(store, "gaps", 3_000)
    runs = ordinal_runs_of(store.turns.log(gappy).warm(LogPages.PAGE), 10, 2_500)
    assert runs == ordinal_runs(with_gaps[10:2_500])
    assert runs[0] == (11, GAP_EVERY - 1) and len(runs) == 3
    marks = MarkMap(log, None, to_summarize=[(5, 9), (20, 20)])
    assert [marks[o] for o in (4, 5, 9, 10, 20, 21)] == [
        RowMark.NOT_SENT, RowMark.TO_SUMMARIZE, RowMark.TO_SUMMARIZE, RowMark.NOT_SENT,
        RowMark.TO_SUMMARIZE, RowMark.NOT_SENT]


def test_a_long_conversation_with_a_rolling_summary_opens_without_reading_what_it_covers(
        qtbot, store, make_window, monkeypatch):
    cid, ordinals = seed_long(store, "long", 5_000, compaction=True)
    other = seed(store, "short", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == other.id)
    assert window.sidebar.select(cid)
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=10_000)
    qtbot.waitUntil(lambda: window.shown.projection is not None, timeout=5_000)
    model = window.transcript
    # No summary yet, and at 1,200 bytes no summary call fits: a send goes without one,
    # everything but the recent turns left out (not a send that fails every time).
    assert model.index(0).data(Role.MARK) is RowMark.NOT_SENT

    # A rolling summary of the oldest 4,900 turns, made for the settings the preview uses.
    projection = window.shown.projection
    options = options_for(window.conversation, route=window.shown.endpoint.route)
    covered = store.turns(cid)[:4_900]
    stored = store.records.save_summary(cid, SummaryDraft(
        tuple(t.id for t in covered), covered[0].ordinal, covered[-1].ordinal,
        ids_digest(covered), "Items 1 to 4,900 were discussed.", projection.model,
        CompactionSettings(projection.model, projection.budget, options).key, 12, (), (),
        store.conversations.generation(cid)))
    assert window.sidebar.select(other.id)
    qtbot.waitUntil(lambda: len(model.turns) == 1)

    rows = RowsRead(store, monkeypatch)
    assert window.sidebar.select(cid)
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=10_000)
    qtbot.waitUntil(lambda: window.shown.projection is not None
                    and window.shown.projection.summary is not None, timeout=5_000)
    # The preview carries the stored summary: checked against the covered turns' ids …
    assert window.shown.projection.summary.summary_id == stored.id
    assert model.mark_of(ordinals[0]) is RowMark.SUMMARY
    assert model.mark_of(ordinals[4_899]) is RowMark.SUMMARY
    # The stored summary goes as it is (it cannot be extended at this byte limit); the turns
    # between it and the newest ones are left out.
    assert model.index(0).data(Role.MARK) is RowMark.NOT_SENT
    assert f"turns 1–{GAP_EVERY - 1}, {GAP_EVERY + 1}–" in \
        window.inspector.summary_value.text()
    # … read (ids and ordinals only) on the storage worker, not the GUI thread (there: the
    # ordinals of the turns to be summarized, and a count or two); the turns themselves
    # only for the newest page.
    assert rows.by_thread["MainThread"] <= 2 * LogPages.PAGE, rows.by_thread
    assert rows.total <= 4_900 + 3 * LogPages.PAGE, rows.by_thread


@pytest.mark.parametrize("gaps", [False, True], ids=["whole", "with-deletes"])
def test_a_send_in_a_long_conversation_reads_only_its_newest_turns(
        qtbot, store, make_window, loopback, monkeypatch, gaps):
    cid, ordinals = seed_long(store, "long", LONG, gaps=gaps)
    window = make_window()
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=10_000)
    rows = RowsRead(store, monkeypatch)
    loopback.script(Behaviour.answer("Noted."))
    window.composer.set_draft("One more?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)

    # Saved, shown as the newest row, and the record names every turn left out …
    saved = store.turns.log(cid)[-1]
    assert (saved.question, saved.answer) == ("One more?", "Noted.")
    qtbot.waitUntil(lambda: newest_on_screen(window, saved.ordinal), timeout=5_000)
    record = store.records.of(cid)[-1]
    assert record.sent == tuple(ordinals[-len(record.sent):])
    assert record.left_out == tuple(ordinals[: LONG - len(record.sent)])
    # … from the newest page of the log, not its 30,000 turns; and, where no turn was ever
    # deleted, not even their ordinals (those the record names are a plain run).
    assert rows.turns <= 2 * LogPages.PAGE, rows.by_thread
    if not gaps:
        assert rows.total <= 3 * LogPages.PAGE, rows.by_thread


def test_a_summary_that_grew_is_checked_by_reading_only_the_turns_it_added(
        store, monkeypatch):
    cid, ordinals = seed_long(store, "long", 3_000)
    whole = store.turns(cid)
    log = store.turns.log(cid)
    assert log.ids(0, 2_000) == tuple(t.id for t in whole[:2_000])
    rows = RowsRead(store, monkeypatch)
    assert log.ids(0, 2_040) == tuple(t.id for t in whole[:2_040])  # 40 more folded in
    assert log.ordinals(0, 2_040) == tuple(ordinals[:2_040])
    assert log.ids(0, 1_500) == tuple(t.id for t in whole[:1_500])  # within what is known
    assert rows.total == 40
