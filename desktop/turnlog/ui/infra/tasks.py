"""Background work for the window: one typed helper, four single-worker executors.

`TaskRunner.run` takes a function to run off the GUI thread and callbacks that
land on the GUI thread (success, failure, progress). The returned `TaskHandle`
carries the cancel token the function is given. Network work (a send, listing
models) goes through one executor and storage writes through another, a sync
through a third and the check of the whole database file through a fourth, so at most
one of each runs at a time and the GUI thread never waits on any.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from ...core.provider import CancelToken

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class TaskContext:
    """What a background function may use: the cancel token and a progress channel."""

    cancel: CancelToken
    report: Callable[[object], None]


@dataclass(eq=False)
class TaskHandle(Generic[T]):
    """A running task: cancel it, ask whether it finished."""

    name: str
    cancel_token: CancelToken = field(default_factory=CancelToken)
    future: Future[None] | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self.cancel_token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.cancel_token.cancelled

    @property
    def done(self) -> bool:
        return self.finished.is_set()


class _Relay(QObject):
    """Lives on the GUI thread; signals emitted from a worker arrive here queued."""

    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(object)

    def __init__(
        self,
        on_success: Callable[[Any], None],
        on_failure: Callable[[BaseException], None],
        on_progress: Callable[[object], None] | None,
        on_done: Callable[[_Relay], None],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._on_success = on_success
        self._on_failure = on_failure
        self._on_progress = on_progress
        self._on_done = on_done
        self.succeeded.connect(self._deliver_success)
        self.failed.connect(self._deliver_failure)
        self.progressed.connect(self._deliver_progress)

    @Slot(object)
    def _deliver_success(self, value: object) -> None:
        try:
            self._on_success(value)
        finally:
            self._on_done(self)

    @Slot(object)
    def _deliver_failure(self, error: object) -> None:
        try:
            assert isinstance(error, BaseException)
            self._on_failure(error)
        finally:
            self._on_done(self)

    @Slot(object)
    def _deliver_progress(self, value: object) -> None:
        if self._on_progress is not None:
            self._on_progress(value)


class TaskRunner(QObject):
    """Owns the executors; everything the window runs in the background goes through `run`."""

    NETWORK = "network"
    STORAGE = "storage"
    SYNC = "sync"  # a sync holds its own store connection and may take minutes
    # The whole database file read on a connection of its own (seconds for a large log
    # read from disk), so the storage lane's reads do not wait behind it.
    CHECK = "check"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executors = {
            self.NETWORK: ThreadPoolExecutor(1, thread_name_prefix="turnlog-network"),
            self.STORAGE: ThreadPoolExecutor(1, thread_name_prefix="turnlog-storage"),
            self.SYNC: ThreadPoolExecutor(1, thread_name_prefix="turnlog-sync"),
            self.CHECK: ThreadPoolExecutor(1, thread_name_prefix="turnlog-check"),
        }
        self._relays: set[_Relay] = set()
        self._handles: set[TaskHandle[Any]] = set()
        self._closed = False

    def run(
        self,
        lane: str,
        name: str,
        fn: Callable[[TaskContext], T],
        *,
        on_success: Callable[[T], None],
        on_failure: Callable[[BaseException], None],
        on_progress: Callable[[object], None] | None = None,
    ) -> TaskHandle[T]:
        """Run `fn` on `lane`'s worker; callbacks run on the GUI thread, exactly one of
        `on_success` / `on_failure`, after any `on_progress` calls."""
        if self._closed:
            raise RuntimeError("the task runner is shut down")
        handle: TaskHandle[T] = TaskHandle(name)
        relay = _Relay(on_success, on_failure, on_progress, self._forget, self)
        self._relays.add(relay)
        self._handles.add(handle)

        def emit(signal: Any, value: object) -> None:
            try:
                signal.emit(value)
            except RuntimeError:  # the window went away while the task ran
                log.debug("task %s finished after its receiver was deleted", name)

        def body() -> None:
            context = TaskContext(handle.cancel_token, lambda v: emit(relay.progressed, v))
            try:
                result = fn(context)
            except BaseException as err:  # noqa: BLE001 - handed to on_failure on the GUI thread
                handle.finished.set()
                emit(relay.failed, err)
                return
            handle.finished.set()
            emit(relay.succeeded, result)

        handle.future = self._executors[lane].submit(body)
        return handle

    def _forget(self, relay: _Relay) -> None:
        self._relays.discard(relay)
        relay.deleteLater()
        self._handles = {h for h in self._handles if not h.done}

    @property
    def closed(self) -> bool:
        return self._closed

    def call_on_each_worker(self, fn: Callable[[], None]) -> None:
        """Run `fn` once on every worker thread (closing per-thread database connections)."""
        for executor in self._executors.values():
            executor.submit(fn)

    def shutdown(self, *, timeout: float = 10.0) -> bool:
        """Cancel everything running and wait for the workers; False if one did not stop."""
        self._closed = True
        for handle in list(self._handles):
            handle.cancel()
        stopped = True
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=False)
        for handle in list(self._handles):
            if not handle.finished.wait(timeout):
                log.warning("background task %s did not stop within %.0f s", handle.name, timeout)
                stopped = False
        for executor in self._executors.values():
            executor.shutdown(wait=stopped)
        return stopped
