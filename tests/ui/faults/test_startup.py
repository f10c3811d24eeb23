"""Start-up when the data cannot be opened: `turnlog.app.main` shows a dialog naming the
fault with its hint (Quit, Open the folder, Export what can be read for a damage), never
a traceback. Runs `main` in this process with real widgets and real files."""

from __future__ import annotations

import importlib.readers  # noqa: F401 - imported while the interpreter's files may be read
import os
import sqlite3
from collections.abc import Callable

import pytest
from PySide6.QtCore import QTimer, QUrl
from PySide6.QtWidgets import QApplication

import turnlog.app
import turnlog.ui.infra.folders
from startup_modes import (  # noqa: F401 - fixtures: `_restore_process` is autouse
    _restore_process,
    modes_apply,
    shared_home,
)
from turnlog.store import TurnlogStore
from turnlog.ui.faults.startup import StartupDialog
from turnlog.ui.infra.export_file import ExportTarget


class Opened:
    """Stands in for the desktop: records the URLs the dialog asks it to open."""

    def __init__(self) -> None:
        self.urls: list[QUrl] = []

    def openUrl(self, url: QUrl) -> bool:  # noqa: N802 - QDesktopServices' name
        self.urls.append(url)
        return True


@pytest.fixture
def opened(monkeypatch) -> Opened:
    desktop = Opened()
    monkeypatch.setattr(turnlog.ui.infra.folders, "QDesktopServices", desktop)
    return desktop


def run_main(answer: Callable[[StartupDialog], None]) -> tuple[int, list[StartupDialog]]:
    """`turnlog.app.main` with `answer` working the start-up dialog once it shows."""
    seen: list[StartupDialog] = []

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, StartupDialog):
            QTimer.singleShot(20, poll)
            return
        seen.append(dialog)
        try:
            answer(dialog)
        finally:
            dialog.quit_button.click()

    QTimer.singleShot(0, poll)
    return turnlog.app.main(["turnlog"]), seen


def test_a_read_only_data_directory_gets_a_dialog_not_a_traceback(qtbot, shared_home, opened):  # noqa: F811 - the fixture
    home = shared_home
    os.chmod(home, 0o755)  # root's: read-only for `nobody`
    texts: list[tuple[str, str, str]] = []

    def answer(dialog: StartupDialog) -> None:
        texts.append((dialog.title.text(), dialog.message.text(), dialog.hint.text()))
        assert not dialog.export_button.isVisibleTo(dialog)
        dialog.folder_button.click()

    with modes_apply():
        status, seen = run_main(answer)
    assert status == 1 and len(seen) == 1
    title, message, hint = texts[0]
    assert title == "Turnlog cannot write to its data"
    assert str(home) in message
    assert hint.startswith("Check the permissions of the file and its folder")
    assert [u.toLocalFile() for u in opened.urls] == [str(home)]
    assert not (home / "logs").exists()


def test_a_database_from_a_newer_turnlog_is_named_with_what_to_do(qtbot, turnlog_home, opened):
    TurnlogStore.open(turnlog_home).close()
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute("PRAGMA user_version = 999")
    con.close()
    texts: list[tuple[str, str, str]] = []
    status, _ = run_main(lambda d: texts.append(
        (d.title.text(), d.message.text(), d.hint.text())))
    assert status == 1
    title, message, hint = texts[0]
    assert title == "The database is from a newer Turnlog"
    assert "schema 999" in message
    assert hint.startswith("Install the newer Turnlog")


def test_a_database_held_by_another_turnlog_is_named(qtbot, turnlog_home, opened):
    texts: list[str] = []
    with TurnlogStore.open(turnlog_home):
        status, _ = run_main(lambda d: texts.append(d.title.text() + " | " + d.hint.text()))
    assert status == 1
    assert texts == ["Turnlog is already open | Switch to the Turnlog window that is already "
                     "open, or close it and start Turnlog again."]


def test_a_damaged_database_offers_to_export_what_can_be_read(qtbot, turnlog_home, tmp_path,
                                                              opened):
    path = turnlog_home / "turnlog.sqlite3"
    with TurnlogStore.open(turnlog_home) as store:
        store.conversations.create("kept", model="m")
    with open(path, "r+b") as f:
        f.write(b"\xff" * 100)  # the header, as a failing disk would leave it
    before = path.read_bytes()
    target = tmp_path / "readable.md"
    outcome: list[str] = []

    def answer(dialog: StartupDialog) -> None:
        assert dialog.title.text() == "Turnlog's database is damaged"
        assert dialog.hint.text().startswith("Restore it from a backup")
        assert dialog.export_button.isVisibleTo(dialog)
        dialog.choose_export = lambda: ExportTarget(target, "markdown")
        dialog.export_button.click()
        outcome.append(dialog.outcome.text())

    status, _ = run_main(answer)
    assert status == 1
    assert outcome[0].startswith("Nothing could be read")
    assert path.read_bytes() == before  # never written into
