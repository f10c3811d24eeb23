"""Hold a store's check of the whole file in progress, as a large log read from disk keeps
it going for seconds: at SQLite's progress handler, through `Database.on_check_step`."""

from __future__ import annotations

import threading
import time

from turnlog.store import TurnlogStore


class HeldCheck:
    """The check's first step waits until `release`; each step then takes `pace` seconds."""

    def __init__(self, store: TurnlogStore) -> None:
        self.reading = threading.Event()
        self.released = threading.Event()
        self.pace = 0.0
        store.database.on_check_step = self._step

    def _step(self) -> None:
        self.reading.set()
        self.released.wait(10)
        time.sleep(self.pace)

    def release(self) -> None:
        self.released.set()
