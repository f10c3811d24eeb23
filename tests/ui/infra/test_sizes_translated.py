"""A file's size reads in the interface language everywhere the window shows it: the
attachment chip and the file line of a saved question say "81 字节" / "81 位元組" in
Chinese, never "81 bytes" beside a Chinese "155 字节"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt

from attachfiles import write
from attachment_chips import chips, opened
from turnlog.ui.infra import languages
from turnlog.ui.transcript.files import file_line

pytest_plugins = ["uiwindow"]

NOTES = "Quarterly notes: budget due Wednesday.\n" * 2  # 78 bytes of UTF-8


@pytest.fixture
def language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


@pytest.mark.parametrize(("code", "unit", "not_shown"), [
    ("zh_CN", "78 字节", "bytes"), ("zh_TW", "78 位元組", "byte"), ("en", "78 bytes", "字")])
def test_a_chip_and_a_file_line_give_the_size_in_the_interface_language(
        qtbot, make_window, store, tmp_path, language, code, unit, not_shown):
    if code != "en":
        language(code)
    window, _ = opened(qtbot, make_window, store)
    notes = write(tmp_path, "notes-utf8.txt", NOTES.encode())
    window.composer.choose_files = lambda: [str(notes)]
    qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
    (chip,) = chips(window)
    assert f" · {unit} · " in chip and not_shown not in chip, chip
    line = file_line(window.composer.attachments[0])
    assert line.endswith(unit) and not_shown not in line, line
