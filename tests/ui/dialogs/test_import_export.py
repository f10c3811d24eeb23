"""File → Import… and File → Export all… in the window, with real widgets: the progress
bar, Cancel (nothing half-imported), the report at the end, the sidebar refreshed."""

from __future__ import annotations

import json
import sqlite3
import zipfile

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QProgressDialog, QPushButton

import chatgpt_export as gpt
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def action(window, text: str) -> QAction:
    [found] = [a for a in window.findChildren(QAction) if a.text() == text]
    return found


def titles(window) -> list[str]:
    model = window.sidebar.model
    return [model.data(model.index(r)) for r in range(model.rowCount())]


def test_import_a_chatgpt_zip_shows_progress_and_a_report(qtbot, make_window, tmp_path):
    window = make_window()
    export = gpt.write_zip(tmp_path / "chatgpt.zip", gpt.conversations())
    window.transfer.choose_import = lambda: export
    action(window, "&Import…").trigger()
    progress = window.transfer.progress
    assert isinstance(progress, QProgressDialog) and progress.isVisible()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    report = window.transfer.report
    assert report.windowTitle() == "Import finished" and report.isVisible()
    assert report.summary.text() == ("chatgpt.zip: 3 conversations read; 4 turns imported "
                                     "into 2 conversations.")
    lines = report.details.toPlainText().splitlines()
    assert lines[0].startswith("conversation 1: Trip to Kyoto — 3 turns imported; skipped: "
                               "messages on other branches (regenerated answers, edits): 5;")
    assert lines[2] == ("not imported: Never answered — 0 turns imported; skipped: "
                        "questions without an answer: 1")
    # The closed progress dialog may already be deleted (deleteLater) by now.
    assert window.transfer.progress is None
    assert not shiboken6.isValid(progress) or not progress.isVisible()
    assert sorted(titles(window)) == ["Trip to Kyoto", "你好，帮我写一首诗"]


def test_cancel_leaves_nothing_imported(qtbot, make_window, store, tmp_path, turnlog_home):
    window = make_window()
    big = tmp_path / "big.jsonl"
    with big.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"turnlog": 1, "title": "Big"}) + "\n")
        for i in range(20_000):
            out.write(json.dumps({"question": f"q{i}", "answer": f"a{i}"}) + "\n")
    window.transfer.choose_import = lambda: big
    # Another writer holds the database, so the import waits to begin writing (up to the
    # busy timeout) once the file is checked: Cancel lands while it waits, every time.
    other = sqlite3.connect(turnlog_home / "turnlog.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        action(window, "&Import…").trigger()
        progress = window.transfer.progress
        qtbot.waitUntil(lambda: progress.value() == 1000, timeout=60_000)
        assert progress.labelText().startswith("Checking the file… ")
        [cancel] = progress.findChildren(QPushButton)
        assert cancel.text() == "Cancel"
        qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
        assert window.transfer.handle.cancelled
    finally:
        other.execute("ROLLBACK")
        other.close()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    assert window.transfer.report.summary.text() == "Import cancelled: nothing was imported."
    assert store.conversations() == [] and titles(window) == []


def test_a_bad_file_is_named_in_the_report(qtbot, make_window, store, tmp_path):
    window = make_window()
    bad = gpt.write_zip(tmp_path / "photos.zip", [], with_conversations=False)
    window.transfer.choose_import = lambda: bad
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    assert window.transfer.report.windowTitle() == "Import failed"
    assert "Could not import photos.zip: the zip archive holds no conversations.json" in \
        window.transfer.report.summary.text()
    assert store.conversations() == []


def test_export_all_writes_a_zip_with_two_files_per_conversation(qtbot, make_window, store,
                                                                 tmp_path):
    seed(store, "First", [("q1", "a1"), ("q2", "a2")])
    seed(store, "第二", [("你好", "你好 😀")])
    window = make_window()
    target = tmp_path / "all.zip"
    window.transfer.choose_export = lambda: target
    action(window, "Export a&ll…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    assert window.transfer.report.summary.text().startswith(
        f"Exported 2 conversations (3 turns) to {target}")
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == ["00001-First.jsonl", "00001-First.md",
                                              "00002-第二.jsonl", "00002-第二.md"]
        assert "你好 😀" in archive.read("00002-第二.md").decode()


def test_an_import_announces_the_conversations_it_added_on_the_change_bus(
        qtbot, make_window, store, tmp_path):
    """Every view hears of imported conversations the way it hears of any other change:
    on the window's change bus, with the import as its origin."""
    window = make_window()
    heard = []
    window.changes.changed.connect(lambda changes, origin: heard.append((changes, origin)))
    export = gpt.write_zip(tmp_path / "chatgpt.zip", gpt.conversations())
    window.transfer.choose_import = lambda: export
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    imported = [(changes, origin) for changes, origin in heard if changes.imported]
    assert len(imported) == 1
    changes, origin = imported[0]
    assert origin is window.transfer
    assert changes.imported == {c.id for c in store.conversations()}
    assert len(changes.imported) == 2 and changes.listing


def test_an_export_imported_again_adds_nothing_unless_imported_as_copies(
        qtbot, make_window, store, tmp_path):
    seed(store, "First", [("q1", "a1"), ("q2", "a2")])
    window = make_window()
    target = tmp_path / "all.zip"
    window.transfer.choose_export = lambda: target
    action(window, "Export a&ll…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    window.transfer.report = None
    window.transfer.choose_import = lambda: target
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    report = window.transfer.report
    assert report.summary.text() == "all.zip: 1 conversation read; 0 turns imported into 0 " \
                                    "conversations."
    assert "already imported: 2" in report.details.toPlainText()
    assert len(store.conversations()) == 1
    assert isinstance(report.as_copies, QPushButton) and report.as_copies.isVisible()
    window.transfer.report = None
    qtbot.mouseClick(report.as_copies, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    assert window.transfer.report.summary.text() == "all.zip: 1 conversation read; 2 turns " \
                                                    "imported into 1 conversations."
    assert window.transfer.report.as_copies is None
    assert sorted(titles(window)) == ["First", "First"]


def test_the_report_names_what_a_claude_export_held_that_was_not_imported(
        qtbot, make_window, tmp_path):
    import claude_export as claude

    window = make_window()
    export = claude.write_zip(tmp_path / "claude.zip", claude.conversations())
    window.transfer.choose_import = lambda: export
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    lines = window.transfer.report.details.toPlainText().splitlines()
    assert "Claude project “Travel”: folder Travel, assistant Travel added, files: rules.md; " \
        "its system prompt, as written:" in lines and "    Answer in EUR." in lines
    assert "not imported: account data (users.json), never stored: 1" in lines
    assert window.transfer.report.as_copies is None


def test_the_report_says_what_a_zip_after_its_json_attached(qtbot, make_window, tmp_path):
    window = make_window()
    first = gpt.write_json(tmp_path / "conversations.json", gpt.conversations())
    window.transfer.choose_import = lambda: first
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    window.transfer.report.close()
    window.transfer.report = None
    later = tmp_path / "export.zip"
    with zipfile.ZipFile(later, "w") as archive:
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", _png())
    window.transfer.choose_import = lambda: later
    action(window, "&Import…").trigger()
    qtbot.waitUntil(lambda: window.transfer.report is not None, timeout=60_000)
    details = window.transfer.report.details.toPlainText()
    assert "attached 1 file to 1 earlier imported turn (marked as added by import)" \
        in details.splitlines()
    assert "not attached" not in details


def _png() -> bytes:
    from attachfiles import png_bytes

    return png_bytes(20, 10)
