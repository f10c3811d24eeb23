"""Help → About (and `turnlog --version`): the application, the versions it runs on, where
it keeps its data and log, and the built-in local model with its license."""

from __future__ import annotations

import platform
from html import escape
from pathlib import Path

import PySide6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, qVersion
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ... import APP_ID, APP_NAME, __version__
from ...config.paths import data_dir_path, log_file
from ...localmodel import BUILTIN, Availability, LlamaBuild, available, installed_build
from ..infra.folders import open_folder
from ..infra.languages import arg

# The built-in model's caveat (core.builtin_model.BUILTIN), for the translations.
CAVEATS = (QT_TRANSLATE_NOOP(
    "AboutDialog", "A very small model: good for trying Turnlog offline, not for real work."),)


def caveat_text(caveat: str) -> str:
    """A model's caveat in the interface language (a listed one; else as written)."""
    return QCoreApplication.translate("AboutDialog", caveat) if caveat in CAVEATS else caveat


def llama_text(build: LlamaBuild) -> str:
    """Which llama.cpp build the built-in model runs on, in the interface language."""
    if build.library_dir is None:
        return QCoreApplication.translate("AboutDialog", "not installed")
    version = f"llama-cpp-python {build.version}" if build.version else "llama-cpp-python"
    if build.portable:
        needs = ", ".join(name.upper() for name in build.features) or "x86-64"
        return arg(QCoreApplication.translate(
            "AboutDialog", "%1, portable build (runs on any x86-64 CPU with %2)"),
            version, needs)
    return arg(QCoreApplication.translate(
        "AboutDialog", "%1, not the portable build: %2"), version, build.problem)


def build_facts(home: Path, build: LlamaBuild | None = None) -> list[tuple[str, str]]:
    """What a bug report needs: versions, the data directory and the log file, and the
    llama.cpp build of the built-in model."""
    return [
        (QT_TRANSLATE_NOOP("AboutDialog", "Version"), __version__),
        ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        (QT_TRANSLATE_NOOP("AboutDialog", "Data directory"), str(home)),
        (QT_TRANSLATE_NOOP("AboutDialog", "Log file"), str(log_file(home))),
        ("llama.cpp", llama_text(build if build is not None else installed_build())),
    ]


def version_text(home: Path | None = None) -> str:
    """`turnlog --version`: one fact a line."""
    facts = build_facts(home or data_dir_path())
    return "\n".join([f"{APP_NAME} {__version__}",
                      *(f"{label}: {value}" for label, value in facts[1:])])


def about_html(availability: Availability, home: Path | None = None) -> str:
    """The dialog's text: name, version and id, versions and places, then the built-in
    model."""
    model = BUILTIN
    state = (QCoreApplication.translate(
        "AboutDialog", "Installed: Turnlog can chat offline with it.")
             if availability.ok else
             arg(QCoreApplication.translate(
                 "AboutDialog", "Not installed here. %1"), availability.reason))
    rows = "".join(f"<tr><td>{escape(QCoreApplication.translate('AboutDialog', label))}:&nbsp;"
                   f"</td><td>{escape(value)}</td></tr>"
                   for label, value in build_facts(home or data_dir_path()))
    return (
        f"<h2>{escape(APP_NAME)} {escape(__version__)}</h2>"
        "<p>" + escape(QCoreApplication.translate(
            "AboutDialog", "A chat client for OpenAI-compatible endpoints that keeps every turn "
            "and shows what each request carried.")) + "</p>"
        + arg(QCoreApplication.translate(
            "AboutDialog", "<p>Application id: %1</p>"), f"<code>{escape(APP_ID)}</code>")
        + f"<table>{rows}</table>"
        "<h3>" + escape(QCoreApplication.translate("AboutDialog", "Built-in local model")) + "</h3>"
        f"<p><b>{escape(model.name)}</b><br>"
        + arg(QCoreApplication.translate(
            "AboutDialog", "License: %1"), escape(model.license)) + "<br>"
        + arg(QCoreApplication.translate(
            "AboutDialog", "Source: %1"), escape(model.source)) + "<br>"
        + escape(QCoreApplication.translate(
            "AboutDialog", "Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 "
            "only.")) + "</p>"
        f"<p><i>{escape(caveat_text(model.caveat))}</i></p>"
        f"<p>{escape(state)}</p>"
    )


class AboutDialog(QDialog):
    """Names the app, its versions and places (with buttons that open the data and the log
    folder), and the built-in model (name, license, source, caveat)."""

    def __init__(self, parent: QWidget | None = None,
                 availability: Availability | None = None, *, home: Path | None = None) -> None:
        super().__init__(parent)
        self.home = home or data_dir_path()
        self.setWindowTitle(arg(QCoreApplication.translate("AboutDialog", "About %1"), APP_NAME))
        self.setAccessibleName(arg(QCoreApplication.translate("AboutDialog", "About %1"), APP_NAME))
        layout = QVBoxLayout(self)
        self.text = QLabel(about_html(availability if availability is not None else available(),
                                      self.home), self)
        self.text.setObjectName("aboutText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # From the top: a label centres its text in spare height, a band of blank above.
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.text, 1)
        folders = QHBoxLayout()
        self.data_button = QPushButton(QCoreApplication.translate(
            "AboutDialog", "Open data folder"), self)
        self.data_button.setToolTip(arg(QCoreApplication.translate(
            "AboutDialog", "Open the data directory, %1"), self.home))
        self.data_button.setAccessibleName(QCoreApplication.translate(
            "AboutDialog", "Open the data folder"))
        self.data_button.clicked.connect(lambda: open_folder(self.home))
        self.log_button = QPushButton(QCoreApplication.translate(
            "AboutDialog", "Open log folder"), self)
        self.log_button.setToolTip(arg(QCoreApplication.translate(
            "AboutDialog", "Open the folder of the log file, %1"),
                                       log_file(self.home).parent))
        self.log_button.clicked.connect(lambda: open_folder(log_file(self.home).parent))
        folders.addWidget(self.data_button)
        folders.addWidget(self.log_button)
        folders.addStretch(1)
        layout.addLayout(folders)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, max(layout.totalHeightForWidth(520), 200))  # as tall as its text
