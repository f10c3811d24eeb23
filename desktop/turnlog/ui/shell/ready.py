"""The moment the window first shows what a person opened it for: the open conversation's
newest turn painted in the history (or no conversation at all), the composer taking keys.

Work that screen does not need (the HTTP stack, the keyring, the formula typesetter)
starts then, so it does not compete with the start for the processor. When
`$TURNLOG_READY_FILE` names a file, `time.time()` of that moment is written there, then
the processor time the process used until then (`time.process_time()`, every thread):
the start-up bench reads both.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QAbstractItemView, QWidget

from ..transcript.maths import the_typesetter
from ..transcript.model import Role

READY_ENV = "TURNLOG_READY_FILE"


class FirstScreen(QObject):
    """Emits `shown` once, at the first paint of the history `view` that shows the newest
    turn (or any paint while `opened()` says no conversation is open) with `edit` focused."""

    shown = Signal()

    def __init__(self, view: QAbstractItemView, edit: QWidget, opened: Callable[[], bool]) -> None:
        super().__init__(view)
        self.view, self.edit, self.opened = view, edit, opened
        self.ready_at: float | None = None
        view.viewport().installEventFilter(self)

    def _ready(self) -> bool:
        if not self.edit.hasFocus():
            return False
        if not self.opened():
            return True
        view = self.view
        model = view.model()
        rows = model.rowCount()
        if not rows:
            return False
        newest = model.index(rows - 1, 0)
        return bool(newest.data(Role.LAST)) and view.viewport().rect().intersects(
            view.visualRect(newest))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if self.ready_at is None and event.type() == QEvent.Type.Paint and self._ready():
            self.ready_at = time.time()
            watched.removeEventFilter(self)
            named = os.environ.get(READY_ENV)
            if named:
                _write_time(Path(named), self.ready_at)
            self.shown.emit()
        return False


def _write_time(path: Path, at: float) -> None:
    """`at` and the processor time used so far in `path`, whole or not at all (the bench
    polls for the file)."""
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(f"{at!r} {time.process_time()!r}", encoding="utf-8")
    temporary.replace(path)


class Preparing(Protocol):
    def prepare(self) -> None: ...


class KeyringOpening(Protocol):
    def open_keyring_in_background(self) -> None: ...


class WarmUp:
    """Once the first screen is up: start, off the GUI thread, what the first send and the
    first formula would otherwise wait for — the HTTP stack and TLS context, the keyring,
    the formula typesetter's process — and then `then` (the window's syncs). Only the first
    call does anything.

    While a start `hold`s it, `after` keeps the window's work that the first screen does
    not show (the preview of the draft, with the turns' marks and the inspector) until that
    call; otherwise, and after it, `after` runs the work at once."""

    def __init__(self, session: Preparing, setup: KeyringOpening | None,
                 then: Callable[[], None] | None = None) -> None:
        self._session, self._setup, self._done = session, setup, False
        self._then = then
        self._held: list[Callable[[], None]] | None = None

    def hold(self) -> None:
        if not self._done and self._held is None:
            self._held = []

    def after(self, work: Callable[[], None]) -> None:
        if self._held is None:
            work()
        elif work not in self._held:  # asked twice before the screen was up: done once
            self._held.append(work)

    def __call__(self) -> None:
        if self._done:
            return
        self._done = True
        held, self._held = self._held or [], None
        for work in held:
            work()
        self._session.prepare()
        if self._setup is not None:
            self._setup.open_keyring_in_background()
        the_typesetter()  # its process loads ziamath
        if self._then is not None:
            self._then()
