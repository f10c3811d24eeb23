"""Start-up pieces: fonts, identity, Qt messages in logging, the crash report."""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import qWarning
from PySide6.QtGui import QFontDatabase, QGuiApplication

from turnlog import APP_ID
from turnlog.app import CJK_FAMILIES, application, configure_fonts
from turnlog.ui.faults.crash import CrashDialog, crash_report

KEY = "sk-secret-abcdef123456"


def test_identity_and_fonts_prefer_simplified_chinese(qapp):
    app = application(["turnlog"])
    assert QGuiApplication.desktopFileName() == APP_ID
    assert app.applicationName() == "Turnlog"
    families = configure_fonts(app)
    available = [f for f in CJK_FAMILIES if f in QFontDatabase.families()]
    cjk = [f for f in families if f in CJK_FAMILIES]
    assert cjk == available  # SC first whenever it is installed
    if "Noto Color Emoji" in QFontDatabase.families():
        assert "Noto Color Emoji" in QFontDatabase.applicationEmojiFontFamilies()


def test_qt_messages_reach_logging(qapp, caplog):
    application(["turnlog"])
    with caplog.at_level(logging.WARNING, logger="turnlog.qt"):
        qWarning("a warning from Qt itself")
    assert any("a warning from Qt itself" in r.getMessage() for r in caplog.records)


def test_crash_report_is_copyable_and_holds_no_key(qtbot):
    try:
        raise RuntimeError(f"server echoed Authorization: Bearer {KEY} and {KEY}")
    except RuntimeError:
        report = crash_report(*sys.exc_info(), secrets=[KEY])
    assert KEY not in report
    assert "RuntimeError" in report and "Turnlog" in report
    dialog = CrashDialog(report)
    qtbot.addWidget(dialog)
    assert dialog.text.toPlainText() == report
    assert dialog.text.isReadOnly()
