"""Attachments in the real window: the paperclip, a drop onto the window (QMimeData drop
events), a paste through the real clipboard (an image; a file manager's files), chips
that say what each file adds, the request carrying them, and a refusal before sending."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication

from attachfiles import pdf_bytes, png_bytes, write
from attachment_chips import ROOMY, chips, opened
from loopback import Behaviour
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def drop(widget, mime: QMimeData) -> QDropEvent:
    """A drag entering `widget` (it must take it) and the drop, as Qt's drag and drop
    delivers them to the widget under the pointer that accepts drops."""
    enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)
    return event


def files_mime(*paths) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def test_the_paperclip_attaches_and_the_chip_says_what_it_adds(qtbot, make_window, store,
                                                               tmp_path):
    window, _ = opened(qtbot, make_window, store)
    text = write(tmp_path, "纪要.txt", "下周三前提交预算。".encode("gbk"))
    window.composer.choose_files = lambda: [str(text)]
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    (chip,) = chips(window)
    assert chip.startswith("纪要.txt · text, GBK · 18 bytes · ")
    assert "bytes, " in chip and "tokens" in chip
    assert window.composer.tray.isVisible()
    qtbot.mouseClick(window.composer.tray.chips[0].remove, Qt.MouseButton.LeftButton)
    assert window.composer.attachments == () and not window.composer.tray.isVisible()


def test_a_drop_on_the_window_and_a_paste_attach_then_the_request_carries_them(
        qtbot, make_window, store, loopback, tmp_path):
    window, cid = opened(qtbot, make_window, store)
    report = write(tmp_path, "report.pdf", pdf_bytes(["Quarterly revenue rose"]))
    assert window.acceptDrops()
    event = drop(window, files_mime(report))  # onto the window, not the box
    assert event.isAccepted()
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(0x3366CC)
    QGuiApplication.clipboard().setImage(image)
    window.composer.edit.setFocus()
    window.composer.edit.paste()  # through the real clipboard
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 2, timeout=5000)
    assert [a.name for a in window.composer.attachments] == ["report.pdf",
                                                             "pasted image 1.png"]
    assert "40×30" in chips(window)[1]
    window.composer.set_draft("What is in these?")
    window.refresh_preview()
    predicted = window.shown.projection.body  # the preview: exactly what Send puts out
    loopback.script(Behaviour.answer("Revenue, and a blue square."))
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    sent = json.loads(loopback.requests[-1].body)
    text, picture = sent["messages"][-1]["content"]
    assert "--- file: report.pdf ---\n[page 1]\nQuarterly revenue rose" in text["text"]
    assert picture["image_url"]["url"].startswith("data:image/png;base64,")
    assert predicted == loopback.requests[-1].body
    assert window.composer.attachments == ()  # committed with the turn
    turn = store.turns(cid)[-1]
    assert [a.name for a in turn.attachments] == ["report.pdf", "pasted image 1.png"]


def test_files_pasted_from_a_file_manager_attach_and_text_still_pastes(qtbot, make_window,
                                                                       store, tmp_path):
    window, _ = opened(qtbot, make_window, store)
    chart = write(tmp_path, "chart.png", png_bytes(64, 32))
    QGuiApplication.clipboard().setMimeData(files_mime(chart))
    window.composer.edit.setFocus()
    window.composer.edit.paste()
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    assert window.composer.text() == ""  # not a file:// line
    QGuiApplication.clipboard().setText("plain words")
    window.composer.edit.paste()
    assert window.composer.text() == "plain words"


def test_a_refused_file_is_named_under_the_chips_and_nothing_changes(qtbot, make_window,
                                                                     store, tmp_path):
    window, _ = opened(qtbot, make_window, store)
    program = write(tmp_path, "setup.exe", b"MZ\x90\x00" + bytes(200))
    drop(window.composer.edit, files_mime(program))
    qtbot.waitUntil(lambda: window.composer.tray.problem.isVisible(), timeout=5000)
    assert window.composer.tray.problem.text() == (
        "setup.exe cannot be attached: it is a Windows program, not text, a PDF or an image "
        "Turnlog reads (PNG, JPEG, WebP, GIF).")
    assert window.composer.attachments == ()


def test_a_model_without_images_keeps_send_off_and_says_why(qtbot, store, loopback,
                                                            tmp_path):
    from turnlog.config.profiles import NetworkSettings
    from turnlog.providers import CUSTOM
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.shell.window import MainWindow

    seed(store, "files", [("first", "ok")], settings=ROOMY)
    config = ProviderConfig("loopback", "Loopback", CUSTOM, loopback.base_url,
                            "loopback-model", network=NetworkSettings(retry=False),
                            images=False)
    window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config, lambda: None))
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        chart = write(tmp_path, "chart.png", png_bytes(64, 32))
        window.composer.offer_files([str(chart)])
        qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
        window.composer.set_draft("What is this?")
        window.refresh_preview()
        assert not window.composer.send_button.isEnabled()
        assert "does not take images" in window.composer.reason.text()
        window.send()  # Ctrl+Enter all the same: refused before anything goes out
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        assert loopback.requests == []
        assert "This model does not take images" in window.banner.title.text()
        assert window.composer.text() == "What is this?"  # the draft and its file are back
        assert len(window.composer.attachments) == 1
        window.composer.remove_attachment(0)
        window.refresh_preview()
        assert window.composer.send_button.isEnabled()
    finally:
        window.shutdown()


def test_a_draft_s_files_survive_a_restart_and_go_once_it_is_sent(qtbot, make_window, store,
                                                                   loopback, tmp_path):
    window, cid = opened(qtbot, make_window, store)
    report = write(tmp_path, "report.pdf", pdf_bytes(["Kept across a restart"]))
    window.composer.offer_files([str(report)])
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    window.composer.set_draft("Summarize this")
    window.drafts.flush()
    qtbot.waitUntil(lambda: len(store.attachments.of_draft(cid)) == 1, timeout=5000)
    window.shutdown()
    report.unlink()  # the file itself is gone: the draft's copy is in the database
    again = make_window()
    qtbot.waitUntil(lambda: len(again.composer.attachments) == 1, timeout=5000)
    assert again.composer.text() == "Summarize this"
    assert "report.pdf" in [chip.label.text().split(" · ")[0] for chip in again.composer.tray.chips]
    loopback.script(Behaviour.answer("It says it was kept."))
    again.refresh_preview()
    qtbot.mouseClick(again.composer.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not again.running, timeout=10_000)
    assert "Kept across a restart" in json.loads(loopback.requests[-1].body)[
        "messages"][-1]["content"]
    qtbot.waitUntil(lambda: store.attachments.of_draft(cid) == (), timeout=5000)
    assert [a.name for a in store.turns(cid)[-1].attachments] == ["report.pdf"]


def test_the_inspector_shows_each_file_as_a_part_and_elides_base64_but_copies_it_whole(
        qtbot, make_window, store, tmp_path):
    window, _ = opened(qtbot, make_window, store)
    chart = write(tmp_path, "chart.png", png_bytes(300, 200))
    notes = write(tmp_path, "notes.txt", b"alpha beta\n")
    window.composer.offer_files([str(chart), str(notes)])
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 2, timeout=5000)
    window.composer.set_draft("Compare")
    window.refresh_preview()
    inspector = window.inspector
    parts = inspector.parts
    names = [parts.item(r, 0).text() for r in range(parts.rowCount())]
    image_row = names.index("  ↳ chart.png (image, 300×200)")
    assert names[image_row - 1] == "current question" and "  ↳ notes.txt (text)" in names
    assert not parts.item(image_row, 0).icon().isNull()  # a thumbnail
    body = window.shown.projection.body
    data = base64_of(chart.read_bytes())
    assert int(parts.item(image_row, 1).text().replace(",", "")) > len(data)
    shown = inspector.body.toPlainText()
    assert f"data:image/png;base64,…({len(data):,} bytes)…" in shown and data not in shown
    qtbot.mouseClick(inspector.copy_body, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text().encode("utf-8") == body  # exact, base64 whole


def base64_of(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


def test_a_turn_s_files_show_in_the_history_and_open_or_save_from_its_menu(
        qtbot, make_window, store, tmp_path):
    from turnlog.formats.file_reading import read_bytes
    from turnlog.ui.transcript.files import question_shown

    original = "下周三前提交预算。".encode("gbk")
    with_file = read_bytes("纪要.txt", original)
    conversation = seed(store, "files", [], settings=ROOMY)
    store.turns.commit(conversation.id, PendingTurn(
        "t-files", "What does it say?", "A budget is due.", "m", "stop", Usage(),
        datetime.now(UTC), attachments=(with_file,)))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    index = window.transcript.index(0)
    assert question_shown(index) == "What does it say?\n\n📎 纪要.txt · text, GBK · 18 bytes"
    view = window.view
    view.setCurrentIndex(index)
    view._prepare_menu(view.visualRect(index).center())
    assert view.files_action.isVisible()
    labels = [a.text() for a in view.files_menu.actions()]
    assert labels == ["Open 纪要.txt", "Save 纪要.txt as…"]
    saved = tmp_path / "saved.txt"
    window.file_actions.choose_save = lambda name: str(saved)
    view.files_menu.actions()[1].trigger()
    qtbot.waitUntil(saved.exists, timeout=5000)
    assert saved.read_bytes() == original  # the original, not the UTF-8 text sent
    opened_urls = []
    window.file_actions.open_url = opened_urls.append
    view.files_menu.actions()[0].trigger()
    qtbot.waitUntil(lambda: bool(opened_urls), timeout=5000)
    copy = opened_urls[0].toLocalFile()
    assert copy.endswith("纪要.txt")
    with open(copy, "rb") as handle:
        assert handle.read() == original
    window.file_actions.cleanup()
    assert not os.path.exists(copy)


def painted_question(window, row: int) -> str:
    """The question as the history paints it in row `row` (its laid-out document)."""
    from PySide6.QtWidgets import QStyleOptionViewItem
    view, index = window.view, window.transcript.index(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    _geometry, question, _answer = view.delegate.geometry(option, index)
    return question.toPlainText()


def test_a_sent_question_s_files_are_listed_under_it_at_once(qtbot, make_window, store,
                                                             loopback, tmp_path):
    window, cid = opened(qtbot, make_window, store)
    notes = write(tmp_path, "纪要.txt", "下周三前提交预算。".encode("gbk"))
    window.composer.choose_files = lambda: [str(notes)]
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    window.composer.set_draft("What does it say?")
    window.refresh_preview()
    loopback.script(Behaviour.slow("A budget is due.", delay_s=0.1, chunks=4))
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    listed = "What does it say?\n\n📎 纪要.txt · text, GBK · 18 bytes"
    qtbot.waitUntil(lambda: window.transcript.pending is not None, timeout=5000)
    qtbot.wait(50)  # painted while it is answered
    assert painted_question(window, 1) == listed
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert [t.ordinal for t in window.transcript.turns] == [1, 2]
    assert painted_question(window, 1) == listed  # saved, and not reopened
    assert [a.name for a in store.turns(cid)[-1].attachments] == ["纪要.txt"]
