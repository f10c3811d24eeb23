"""Open Turnlog's first window as the app does, under the X server and window manager the
environment names, and print how it sits on the screen (JSON): run by test_ui_frame.

Usage: framed_window.py DATA_DIR"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from turnlog.app import open_window
from turnlog.store import TurnlogStore
from turnlog.ui.shell.geometry import fit_first_window


def main() -> int:
    home = Path(sys.argv[1])
    app = QApplication(sys.argv[:1])
    store = TurnlogStore.open(home)
    window = open_window(store, home)
    fit_first_window(window)
    window.show()
    found: dict[str, object] = {}

    def measure() -> None:
        frame, inner = window.frameGeometry(), window.geometry()
        area = window.screen().availableGeometry()
        send = window.composer.send_button
        bottom = send.mapTo(window, send.rect().bottomRight()).y()
        found.update(frame=[frame.x(), frame.y(), frame.width(), frame.height()],
                     inner=[inner.x(), inner.y(), inner.width(), inner.height()],
                     area=[area.x(), area.y(), area.width(), area.height()],
                     send_bottom=bottom, window_height=window.height())
        app.quit()

    QTimer.singleShot(2500, measure)  # after the window manager framed it, and the refits
    app.exec()
    window.shutdown()
    store.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
