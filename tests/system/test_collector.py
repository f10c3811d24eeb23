"""Garbage in cycles is collected on the GUI thread only: a worker thread that allocates
(a page reader, the typesetter's thread) never destroys the widgets' Qt objects there."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

# A window-like object with a running timer, left in a cycle on the GUI thread; then a
# worker thread allocates enough cycles to trigger a collection; then the GUI thread runs
# its event loop for a while.
SCRIPT = textwrap.dedent("""
    import gc, sys, threading, time
    from PySide6.QtCore import QObject, QTimer, QCoreApplication
    from PySide6.QtWidgets import QApplication
    from turnlog.app import application

    app = application(["turnlog"])
    if sys.argv[1] == "automatic":
        gc.enable()

    class Holder(QObject):
        pass

    for _ in range(20):
        holder = Holder()
        timer = QTimer(holder)
        timer.start(10_000)
        holder.me = holder  # a cycle: only the collector frees it
        del holder, timer

    def allocate():
        for _ in range(200_000):
            a = []
            a.append(a)

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    end = time.monotonic() + 1.5
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    print("gc enabled:", gc.isenabled())
""")


def run(mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def test_objects_of_the_gui_thread_are_never_destroyed_on_a_worker():
    done = run("app")
    assert done.returncode == 0, done.stderr
    assert "gc enabled: False" in done.stdout
    assert "another thread" not in done.stderr, done.stderr


def test_the_hazard_is_real_with_automatic_collection():
    """The same program with Python's automatic collection: the worker destroys them."""
    done = run("automatic")
    assert "Timers cannot be stopped from another thread" in done.stderr, done.stderr
