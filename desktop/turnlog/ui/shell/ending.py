"""The app ended by a signal (SIGTERM from a logout or `kill`, SIGHUP when its terminal
goes) closes as if its window were closed: size and panels remembered, the built-in
model's server and the tool servers stopped, the log closed."""

from __future__ import annotations

import signal
import socket

from PySide6.QtCore import QObject, QSocketNotifier
from PySide6.QtWidgets import QApplication, QWidget

ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class EndOnSignals(QObject):
    """Turns the signals into a close of `window` and the end of the event loop. The
    signal's byte comes through a socket the event loop watches: a Python handler alone
    would run only once Qt next calls into Python."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._previous = {number: signal.signal(number, self._noted)
                          for number in ENDING_SIGNALS}
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read,
                                         self)
        self._notifier.activated.connect(self._end)

    @staticmethod
    def _noted(_number: int, _frame: object) -> None:
        """The byte on the socket does the work."""

    def _end(self) -> None:
        try:
            self._reader.recv(64)
        except BlockingIOError:
            return
        self._window.close()  # its closeEvent remembers the size and panels
        app = QApplication.instance()
        if app is not None:
            app.quit()

    def release(self) -> None:
        """Give the signals back to what handled them before."""
        self._notifier.setEnabled(False)
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()
