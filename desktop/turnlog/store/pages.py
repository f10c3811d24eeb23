"""`LogPages`: a conversation's log read a page at a time, newest pages first.

Opening a long conversation must not read every turn: the window shows the newest
few, and a projection walks back from the newest only as far as the budget allows.
`LogPages` knows how many turns the log had when it was made (one COUNT over the
index) and reads the turns a caller touches in pages of `PAGE`, keeping at most
`KEEP` pages in memory, so its cost follows what is looked at, not the log's length.
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Protocol, TypeVar, overload

from ..core.model import FrozenTurns, Turn, ordinal_runs

T = TypeVar("T")
log = logging.getLogger(__name__)


class PageSource(Protocol):
    """The turns part's side (`store.turns`): pages of one conversation's turns, by ordinal."""

    def turn_page(self, conversation_id: int, *, newest: int, limit: int,
                  before: int | None = None, after: int | None = None, skip: int = 0,
                  from_oldest: bool = False, hidden: frozenset[str] = frozenset()
                  ) -> list[Turn]: ...

    def newer_count(self, conversation_id: int, ordinal: int, *, newest: int,
                    hidden: frozenset[str] = frozenset()) -> int | None: ...

    def turn_ordinals(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                      hidden: frozenset[str] = frozenset()) -> list[int]: ...

    def turn_keys(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                  after: int | None = None, hidden: frozenset[str] = frozenset()
                  ) -> list[tuple[str, int]]: ...

    def log(self, conversation_id: int) -> LogPages: ...


class LogPages(FrozenTurns):
    """The turns of one conversation up to ordinal `newest` (`count` of them), oldest first.

    A snapshot: turns appended later are not part of it (they have larger ordinals);
    after a delete the window makes a new one (`without`). `hidden` turns (superseded
    versions) are not part of it: it is the active line. Page k holds the turns k·PAGE
    to (k+1)·PAGE − 1 counted back from the newest. Safe to read from several threads.
    """

    PAGE = 64
    KEEP = 64

    def __init__(self, source: PageSource, conversation_id: int, count: int,
                 newest: int, *, hidden: frozenset[str] = frozenset()) -> None:
        self._source = source
        self.hidden = hidden
        self.conversation_id = conversation_id
        self._count = count
        self.newest_ordinal = newest
        self._pages: OrderedDict[int, list[Turn]] = OrderedDict()  # oldest first inside
        self._last: tuple[int, list[Turn]] = (-1, [])  # the page read last, and its number
        self._lock = threading.RLock()
        # A run of ids and ordinals read last: (first index, ids, ordinals).
        self._keys: tuple[int, tuple[str, ...], tuple[int, ...]] | None = None
        self._oldest: int | None = None  # the oldest ordinal, once asked (0: none)
        self._runs: OrderedDict[tuple[int, int], list[tuple[int, int]]] = OrderedDict()
        self.pages_read = 0  # how many pages came from the store when asked for (for tests)
        self.pages_read_ahead = 0  # and how many a `PageReader` read before they were

    def __repr__(self) -> str:
        return (f"LogPages(conversation {self.conversation_id}: {self._count} turns up to "
                f"ordinal {self.newest_ordinal})")

    def __len__(self) -> int:
        return self._count

    @property
    def source(self) -> PageSource:
        """Where the pages are read from (the store's turns part)."""
        return self._source

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Turn, ...]: ...

    def __getitem__(self, index: int | slice) -> Turn | tuple[Turn, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step == 1:
                return tuple(self._run(start, stop))
            return tuple(self[i] for i in range(start, stop, step))
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("log index out of range")
        back = self._count - 1 - index
        page = self._page(back // self.PAGE)
        offset = len(page) - 1 - back % self.PAGE
        if offset < 0:
            raise IndexError("the log changed since this view of it was made")
        return page[offset]

    def __iter__(self) -> Iterator[Turn]:
        return self._run(0, self._count)

    def __reversed__(self) -> Iterator[Turn]:
        for index in range(self._count - 1, -1, -1):
            yield self[index]

    def _run(self, start: int, stop: int) -> Iterator[Turn]:
        """Turns start..stop-1, oldest first: from pages in memory where they are, the rest
        read in ordinal order without filling the cache (a walk over the whole log stays
        small in memory)."""
        index = start
        last: int | None = None  # ordinal of the turn before `index`, once known
        while index < stop:
            turn = self.loaded(index)
            if turn is not None:
                yield turn
                last = turn.ordinal
                index += 1
                continue
            rows = self._source.turn_page(
                self.conversation_id, newest=self.newest_ordinal,
                hidden=self.hidden, from_oldest=True,
                after=last, skip=index if last is None else 0,
                limit=min(self.PAGE, stop - index))
            if not rows:
                return
            yield from rows
            last = rows[-1].ordinal
            index += len(rows)

    def _page(self, number: int) -> list[Turn]:
        last = self._last  # one read of a pair: safe without the lock
        if last[0] == number:  # a row laid out asks for its turn many times in a row
            return last[1]
        with self._lock:
            page = self._pages.get(number)
            if page is not None:
                self._pages.move_to_end(number)
                self._last = (number, page)
                return page
        page = self._keep(number, self._read(number))
        self._last = (number, page)
        return page

    def _read(self, number: int) -> list[Turn]:
        """Page `number` from the store, read without holding the lock (a page read ahead
        on another thread never holds up one that is needed now)."""
        with self._lock:
            newer = self._pages.get(number - 1) if number > 0 else None
        top = newer[0].ordinal - 1 if newer else self._dense_top(number)
        if top is not None:  # its newest ordinal is known: read from there, in the index
            return self._source.turn_page(self.conversation_id, newest=self.newest_ordinal,
                                          hidden=self.hidden, before=top + 1, limit=self.PAGE)
        # Counted from the newest (a gap lies somewhere in between).
        return self._source.turn_page(self.conversation_id, newest=self.newest_ordinal,
                                      hidden=self.hidden, skip=number * self.PAGE,
                                      limit=self.PAGE)

    def _keep(self, number: int, rows: list[Turn], *, ahead: bool = False) -> list[Turn]:
        """Page `number` kept in memory: `rows`, unless another thread kept it first."""
        with self._lock:
            page = self._pages.get(number)
            if page is not None:
                self._pages.move_to_end(number)
                return page
            if ahead:
                self.pages_read_ahead += 1
            else:
                self.pages_read += 1
            self._pages[number] = rows
            while len(self._pages) > self.KEEP:
                self._pages.popitem(last=False)
            return rows

    def read_ahead(self, start: int, stop: int) -> int:
        """Read the pages holding indexes start..stop-1 that are not in memory, on the
        thread calling it (a `PageReader`'s); how many it read."""
        start, stop = max(0, start), min(self._count, stop)
        if start >= stop:
            return 0
        read = 0
        for number in range((self._count - stop) // self.PAGE,
                            (self._count - 1 - start) // self.PAGE + 1):
            with self._lock:
                if number in self._pages:
                    continue
            self._keep(number, self._read(number), ahead=True)
            read += 1
        return read

    def _dense_top(self, number: int) -> int | None:
        """The newest ordinal of page `number` when the log has no gap (every ordinal from
        the oldest to `newest_ordinal` is one of its turns: nothing deleted or superseded),
        so a page far back is read from its place in the index rather than by counting
        past every newer turn; None when there is a gap."""
        if number == 0:
            return self.newest_ordinal
        oldest = self._ordinal_at(0)
        if oldest is None or self.newest_ordinal - oldest + 1 != self._count:
            return None
        return self.newest_ordinal - number * self.PAGE

    def warm(self, turns: int, *, ids: int = 0) -> LogPages:
        """Read the newest `turns` now, and the ids of the oldest `ids` (what a preview
        checks a rolling summary against), on the thread calling it (a worker)."""
        for number in range((min(turns, self._count) + self.PAGE - 1) // self.PAGE):
            self._page(number)
        if 0 < ids <= self._count:
            self.ids(0, ids)
        return self

    def still_holds(self, ordinal: int) -> bool:
        """Whether the store still holds turn `ordinal` of this log: a delete made elsewhere
        (another window, `turnlog-cli delete`) is not in this snapshot. One indexed count."""
        return self._source.newer_count(self.conversation_id, ordinal, newest=self.newest_ordinal,
                                        hidden=self.hidden) is not None

    def position_of(self, ordinal: int) -> int | None:
        """The index of the turn numbered `ordinal`, None if this log has no such turn.
        From the pages in memory when one holds it, else one counting query."""
        if ordinal > self.newest_ordinal or ordinal < 1:
            return None
        with self._lock:
            for number, page in self._pages.items():
                if page and page[0].ordinal <= ordinal <= page[-1].ordinal:
                    at = bisect.bisect_left(page, ordinal, key=_ordinal)
                    if page[at].ordinal != ordinal:
                        return None
                    return self._count - 1 - (number * self.PAGE + len(page) - 1 - at)
        newer = self._source.newer_count(self.conversation_id, ordinal,
                                         newest=self.newest_ordinal, hidden=self.hidden)
        return None if newer is None else self._count - 1 - newer

    def ordinals(self, start: int, stop: int) -> tuple[int, ...]:
        """The ordinals at indexes start..stop-1, no turn read: a plain run when the two
        ends are known (pages in memory, the oldest ordinal) and nothing was deleted between
        them, else one query over the index."""
        if start >= stop:
            return ()
        with self._lock:
            known = self._keys
        if known is not None and known[0] <= start <= stop <= known[0] + len(known[2]):
            return known[2][start - known[0]: stop - known[0]]
        first, last = self._ordinal_at(start), self._ordinal_at(stop - 1)
        if first is not None and last is not None and last - first == stop - 1 - start:
            return tuple(range(first, last + 1))  # no gap between the ends
        return tuple(self._source.turn_ordinals(self.conversation_id, newest=self.newest_ordinal,
                                                hidden=self.hidden, skip=start, limit=stop - start))

    def ordinal_runs(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ordinals at indexes start..stop-1 as inclusive runs: from the two ends alone
        when nothing was deleted between them (the usual case), else from every ordinal
        of the span. Kept for the last few spans asked (a preview names the same ones on
        every key press)."""
        if start >= stop:
            return []
        with self._lock:
            known = self._runs.get((start, stop))
        if known is not None:
            return list(known)
        first, last = self._end_ordinal(start), self._end_ordinal(stop - 1)
        if first is not None and last is not None and last - first == stop - 1 - start:
            runs = [(first, last)]
        else:
            runs = ordinal_runs(self.ordinals(start, stop))
        with self._lock:
            self._runs[(start, stop)] = runs
            while len(self._runs) > 8:
                self._runs.popitem(last=False)
        return list(runs)

    def _end_ordinal(self, index: int) -> int | None:
        """The ordinal at `index`: known, else one query over the index."""
        known = self._ordinal_at(index)
        if known is not None:
            return known
        found = self._source.turn_ordinals(self.conversation_id, newest=self.newest_ordinal,
                                           hidden=self.hidden, skip=index, limit=1)
        return found[0] if found else None

    def _ordinal_at(self, index: int) -> int | None:
        """The ordinal at `index` if known without reading a turn (None otherwise)."""
        turn = self.loaded(index)
        if turn is not None:
            return turn.ordinal
        if index != 0:
            return None
        with self._lock:
            if self._oldest is None:
                found = self._source.turn_ordinals(self.conversation_id,
                                                   newest=self.newest_ordinal,
                                                   hidden=self.hidden, skip=0, limit=1)
                self._oldest = found[0] if found else 0
            return self._oldest or None

    def ids(self, start: int, stop: int) -> tuple[str, ...]:
        """The ids at indexes start..stop-1, read with their ordinals and nothing else of
        the turns. The last run read is kept: a preview checks the same summarized prefix
        again and again, and the inspector names its ordinals; a longer run from the same
        start (a summary that grew) reads only what it adds."""
        if start >= stop:
            return ()
        with self._lock:
            known = self._keys
            if known is None or not known[0] <= start <= stop <= known[0] + len(known[1]):
                if known is not None and known[0] == start and known[1] and \
                        stop > start + len(known[1]):
                    more = self._source.turn_keys(
                        self.conversation_id, newest=self.newest_ordinal,
                        hidden=self.hidden, skip=0,
                        after=known[2][-1], limit=stop - start - len(known[1]))
                    known = (start, known[1] + tuple(k[0] for k in more),
                             known[2] + tuple(k[1] for k in more))
                else:
                    keys = self._source.turn_keys(self.conversation_id,
                                                  newest=self.newest_ordinal,
                                                  hidden=self.hidden, skip=start,
                                                  limit=stop - start)
                    known = (start, tuple(k[0] for k in keys), tuple(k[1] for k in keys))
                self._keys = known
            return known[1][start - known[0]: stop - known[0]]

    def loaded(self, index: int) -> Turn | None:
        """The turn at `index` if its page is in memory, else None (reads nothing)."""
        if not 0 <= index < self._count:
            return None
        back = self._count - 1 - index
        with self._lock:
            page = self._pages.get(back // self.PAGE)
        if page is None:
            return None
        offset = len(page) - 1 - back % self.PAGE
        return page[offset] if offset >= 0 else None

    def index_in_memory(self, turn_id: str) -> int | None:
        """The index of turn `turn_id` if a page in memory holds it (reads nothing)."""
        with self._lock:
            for number, page in self._pages.items():
                for at, turn in enumerate(page):
                    if turn.id == turn_id:
                        return self._count - 1 - (number * self.PAGE + len(page) - 1 - at)
        return None

    def reread(self) -> LogPages:
        """The log as the store has it now (a new count; nothing read from this one)."""
        return self._source.log(self.conversation_id)

    def without(self, index: int) -> LogPages:
        """This log after the turn at `index` was deleted from the store. The newer pages
        are kept (their positions counted from the newest do not move)."""
        if not 0 <= index < self._count:
            raise IndexError("log index out of range")
        smaller = LogPages(self._source, self.conversation_id, self._count - 1,
                           self.newest_ordinal, hidden=self.hidden)
        back = self._count - 1 - index
        with self._lock:
            if self._keys is not None and self._keys[0] + len(self._keys[1]) <= index:
                smaller._keys = self._keys  # all older than the deleted turn
            for number, page in self._pages.items():
                if (number + 1) * self.PAGE <= back:
                    smaller._pages[number] = page
        return smaller

    def without_last(self) -> LogPages:
        """This log less its newest turn, as if it were superseded (nothing re-read)."""
        if not self._count:
            raise IndexError("an empty log has no last turn")
        last = self[self._count - 1]
        smaller = LogPages(self._source, self.conversation_id, self._count - 1,
                           self.newest_ordinal, hidden=self.hidden | {last.id})
        with self._lock:
            if self._keys is not None and self._keys[0] + len(self._keys[1]) < self._count:
                smaller._keys = self._keys
            smaller._oldest = self._oldest if self._count > 1 else None
        return smaller

    def appended(self, turn: Turn) -> LogPages:
        """This log with `turn` (just committed, newer than every turn here) at its end."""
        if turn.ordinal <= self.newest_ordinal:
            raise ValueError(f"turn {turn.ordinal} is not newer than turn "
                             f"{self.newest_ordinal}")
        longer = LogPages(self._source, self.conversation_id, self._count + 1, turn.ordinal,
                          hidden=self.hidden)
        with self._lock:
            newest = self._pages.get(0)
            longer._keys = self._keys  # the older turns keep their places
            longer._oldest = self._oldest if self._count else None
        if newest is not None and (len(newest) == self.PAGE or len(newest) == self._count):
            # The newest page moves up by one: the rows on show need no reading.
            longer._pages[0] = [*newest, turn][-self.PAGE :]
        return longer


def _ordinal(turn: Turn) -> int:
    return turn.ordinal


class PageReader:
    """Reads pages of a log ahead of need on a thread of its own, so a view moving far
    through a long log (a scroll bar dragged) finds them in memory rather than waiting for
    SQLite. Only the latest request counts. The thread reads through the store's database,
    where every thread has its own connection; it ends after `IDLE` seconds without a
    request, closing its connection, and starts again with the next."""

    IDLE = 2.0

    def __init__(self) -> None:
        self._wanted: tuple[LogPages, int, int] | None = None
        self._busy = False
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()

    def want(self, pages: LogPages, start: int, stop: int) -> None:
        """Have the turns at indexes start..stop-1 of `pages` in memory soon."""
        with self._cond:
            self._wanted = (pages, start, stop)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="turnlog-pages",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()

    @property
    def running(self) -> bool:
        """Whether its thread is there (it ends when nothing was asked for a while)."""
        with self._cond:
            return self._thread is not None

    @property
    def idle(self) -> bool:
        """Nothing asked for is left to read."""
        with self._cond:
            return self._wanted is None and not self._busy

    def _run(self) -> None:
        source: Any = None
        try:
            while True:
                with self._cond:
                    self._busy = False
                    if self._wanted is None:
                        self._cond.wait(self.IDLE)
                    wanted, self._wanted = self._wanted, None
                    if wanted is None:
                        self._thread = None
                        return
                    self._busy = True
                pages, start, stop = wanted
                source = pages.source
                try:
                    pages.read_ahead(start, stop)
                except Exception:  # noqa: BLE001 - read ahead: the page is read when needed
                    log.debug("Reading pages ahead failed", exc_info=True)
        finally:
            with self._cond:
                self._busy = False
            db = getattr(getattr(source, "database", None), "db", None)
            if db is not None and not db.is_closed():
                db.close()  # this thread's connection


class PagedTurns:
    """The turns part (`store.turns`) as it is, except that calling it gives its paged log
    (`turns.log`): what a send needs (the newest turns that fit, their count) without
    reading the whole log."""

    def __init__(self, turns: Any) -> None:
        self.part = turns
        self._known: dict[int, LogPages] = {}

    def __call__(self, conversation_id: int) -> LogPages:
        """The paged log as it is now: the one given before while the line is unchanged
        (same length, newest ordinal and hidden versions), so the pages one send reads
        are read once however often it asks."""
        pages: LogPages = self.part.log(conversation_id)
        known = self._known.get(conversation_id)
        if known is not None and (len(known), known.newest_ordinal, known.hidden) == (
                len(pages), pages.newest_ordinal, pages.hidden):
            return known
        self._known[conversation_id] = pages
        return pages

    def __getattr__(self, name: str) -> Any:
        return getattr(self.part, name)


class PagedLogStore:
    """`store` as it is, except that its `turns` part gives the paged log (`PagedTurns`)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.turns = PagedTurns(store.turns)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def paged(store: T) -> T:
    """`store` with its turns read a page at a time when it can be (a `TurnlogStore`)."""
    turns = getattr(store, "turns", None)
    if callable(getattr(turns, "log", None)) and not isinstance(store, PagedLogStore):
        return PagedLogStore(store)  # type: ignore[return-value]
    return store
