"""Real bugs: a global excepthook that logs the traceback and shows a copyable report."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable, Iterable
from types import TracebackType

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, QtMsgType, qInstallMessageHandler, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ...core.redaction import redact

log = logging.getLogger("turnlog")
qt_log = logging.getLogger("turnlog.qt")

_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def route_qt_messages() -> None:
    """Send Qt's own messages (qWarning and kin) into `logging` under `turnlog.qt`."""

    def handler(kind: QtMsgType, context: object, message: str) -> None:
        category = getattr(context, "category", None) or "qt"
        qt_log.log(_QT_LEVELS.get(kind, logging.WARNING), "[%s] %s", category, message)

    qInstallMessageHandler(handler)


def crash_report(
    kind: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    secrets: Iterable[str] = (),
) -> str:
    import platform  # only a report needs it

    from ... import __version__  # read from the metadata: only a report needs it

    lines = traceback.format_exception(kind, value, tb)
    header = (
        f"Turnlog {__version__} · Python {platform.python_version()} · Qt {qVersion()} · "
        f"PySide6 {pyside_version} · {platform.platform()}"
    )
    return redact(header + "\n\n" + "".join(lines), secrets)


class CrashDialog(QDialog):
    """Says a bug happened, shows the report in a selectable box, copies it in one click."""

    def __init__(self, report: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("CrashDialog", "Turnlog hit a bug"))
        self.setAccessibleName(QCoreApplication.translate("CrashDialog", "Bug report"))
        layout = QVBoxLayout(self)
        intro = QLabel(
            QCoreApplication.translate(
                "CrashDialog",
                "Something went wrong inside Turnlog. Your conversations are safe: the log only "
                "changes when an answer is complete. Copy the report below when you tell the "
                "developers about it; it holds no API key.",
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.text = QPlainTextEdit(report, self)
        self.text.setReadOnly(True)
        self.text.setAccessibleName(QCoreApplication.translate("CrashDialog", "Bug report text"))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = buttons.addButton(
            QCoreApplication.translate("CrashDialog", "Copy report"),
            QDialogButtonBox.ButtonRole.ActionRole,
        )
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(report))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(720, 420)


class ExceptHook:
    """Installed as `sys.excepthook`: log, then show one dialog at a time."""

    def __init__(self, secrets: Callable[[], Iterable[str]] = tuple) -> None:
        self.secrets = secrets
        self._showing = False
        self.reports: list[str] = []

    def __call__(
        self, kind: type[BaseException], value: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(kind, KeyboardInterrupt):
            QApplication.quit()
            return
        report = crash_report(kind, value, tb, self.secrets())
        self.reports.append(report)
        log.error("unhandled exception\n%s", report)
        if self._showing or QApplication.instance() is None:
            return
        self._showing = True
        try:
            CrashDialog(report, QApplication.activeWindow()).exec()
        finally:
            self._showing = False

    def install(self) -> None:
        sys.excepthook = self
