"""Help → About (and `turnlog --version`): the application, the versions it runs on, where
it keeps its data and log, and the built-in local model with its license."""

from __future__ import annotations

import platform
from html import escape
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .. import APP_ID, APP_NAME, __version__
from ..localmodel import BUILTIN, Availability, available
from ..paths import data_dir_path, log_file
from .startup import open_folder


def build_facts(home: Path) -> list[tuple[str, str]]:
    """What a bug report needs: versions, the data directory and the log file."""
    return [
        ("Version", __version__),
        ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("Data directory", str(home)),
        ("Log file", str(log_file(home))),
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
    state = ("Installed: Turnlog can chat offline with it." if availability.ok
             else f"Not installed here. {availability.reason}")
    rows = "".join(f"<tr><td>{escape(label)}:&nbsp;</td><td>{escape(value)}</td></tr>"
                   for label, value in build_facts(home or data_dir_path()))
    return (
        f"<h2>{escape(APP_NAME)} {escape(__version__)}</h2>"
        "<p>A chat client for OpenAI-compatible endpoints that keeps every turn and shows "
        "what each request carried.</p>"
        f"<p>Application id: <code>{escape(APP_ID)}</code></p>"
        f"<table>{rows}</table>"
        "<h3>Built-in local model</h3>"
        f"<p><b>{escape(model.name)}</b><br>"
        f"License: {escape(model.license)}<br>"
        f"Source: {escape(model.source)}<br>"
        "Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 only.</p>"
        f"<p><i>{escape(model.caveat)}</i></p>"
        f"<p>{escape(state)}</p>"
    )


class AboutDialog(QDialog):
    """Names the app, its versions and places (with buttons that open the data and the log
    folder), and the built-in model (name, license, source, caveat)."""

    def __init__(self, parent: QWidget | None = None,
                 availability: Availability | None = None, *, home: Path | None = None) -> None:
        super().__init__(parent)
        self.home = home or data_dir_path()
        self.setWindowTitle(f"About {APP_NAME}")
        self.setAccessibleName(f"About {APP_NAME}")
        layout = QVBoxLayout(self)
        self.text = QLabel(about_html(availability if availability is not None else available(),
                                      self.home), self)
        self.text.setObjectName("aboutText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        folders = QHBoxLayout()
        self.data_button = QPushButton("Open data folder", self)
        self.data_button.setToolTip(f"Open the data directory, {self.home}")
        self.data_button.setAccessibleName("Open the data folder")
        self.data_button.clicked.connect(lambda: open_folder(self.home))
        self.log_button = QPushButton("Open log folder", self)
        self.log_button.setToolTip(f"Open the folder of the log file, {log_file(self.home).parent}")
        self.log_button.clicked.connect(lambda: open_folder(log_file(self.home).parent))
        folders.addWidget(self.data_button)
        folders.addWidget(self.log_button)
        folders.addStretch(1)
        layout.addLayout(folders)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, 560)
