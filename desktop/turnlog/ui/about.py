"""Help → About: the application, and the built-in local model with its license."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from .. import APP_ID, APP_NAME, __version__
from ..localmodel import BUILTIN, Availability, available


def about_html(availability: Availability) -> str:
    """The dialog's text: name, version and id, then the built-in model."""
    model = BUILTIN
    state = ("Installed: Turnlog can chat offline with it." if availability.ok
             else f"Not installed here. {availability.reason}")
    return (
        f"<h2>{escape(APP_NAME)} {escape(__version__)}</h2>"
        "<p>A chat client for OpenAI-compatible endpoints that keeps every turn and shows "
        "what each request carried.</p>"
        f"<p>Application id: <code>{escape(APP_ID)}</code></p>"
        "<h3>Built-in local model</h3>"
        f"<p><b>{escape(model.name)}</b><br>"
        f"License: {escape(model.license)}<br>"
        f"Source: {escape(model.source)}<br>"
        "Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 only.</p>"
        f"<p><i>{escape(model.caveat)}</i></p>"
        f"<p>{escape(state)}</p>"
    )


class AboutDialog(QDialog):
    """Names the app and the built-in model (name, license, source, caveat)."""

    def __init__(self, parent: QWidget | None = None,
                 availability: Availability | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"About {APP_NAME}")
        self.setAccessibleName(f"About {APP_NAME}")
        layout = QVBoxLayout(self)
        self.text = QLabel(about_html(availability if availability is not None else available()),
                           self)
        self.text.setObjectName("aboutText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(460, 360)
