"""Measures how Settings and the profile editor fit small screens (run as a child process
by ui/dialogs/test_providers_page.py: the offscreen platform is given three screens — 1280×720,
1024×600 and 480×844 — side by side, with window frames).

For each screen, the Settings dialog (each page) and the profile editor of each preset
are opened on it (and the Custom one with nothing typed, saying what to fix); printed
as JSON lines: the screen's available area, the dialog's frame,
Save's place and whether a click on it lands, and every label that is clipped (its
height less than its heightForWidth at its width, or its width less than its sizeHint).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

LANGUAGE = "TURNLOG_FIT_LANGUAGE"  # the interface language to measure in (English unless set)
SCREENS = [("1280x720", 0, 1280, 720), ("1024x600", 1280, 1024, 600),
           ("480x844", 2304, 480, 844)]


def platform_config(folder: Path) -> str:
    """The QT_QPA_PLATFORM value that gives the offscreen platform the three screens."""
    screens = [{"name": name, "x": x, "y": 0, "width": w, "height": h, "logicalDpi": 96,
                "logicalBaseDpi": 96, "dpr": 1} for name, x, w, h in SCREENS]
    path = folder / "screens.json"
    path.write_text(json.dumps({"windowFrameMargins": True, "screens": screens}),
                    encoding="utf-8")
    return f"offscreen:configfile={path}"


def clipped(dialog) -> list[str]:  # noqa: ANN001 - a QDialog
    from PySide6.QtWidgets import QLabel

    found = []
    for label in dialog.findChildren(QLabel):
        if not label.isVisibleTo(dialog) or not label.text():
            continue
        size = label.size()
        if label.wordWrap():
            wanted_height = label.heightForWidth(size.width())
            if wanted_height > size.height():
                found.append(f"{label.text()[:60]!r}: {size.height()} < {wanted_height}")
        elif label.sizeHint().width() > size.width() + 1:
            found.append(f"{label.text()[:60]!r}: {size.width()} < {label.sizeHint().width()}")
    return found


def scrolls(dialog) -> list[dict]:  # noqa: ANN001 - a QDialog
    """Each shown scroll area: how far it scrolls across (0: the content fits its width)
    and down, and its content's height beside the viewport's."""
    from PySide6.QtWidgets import QScrollArea

    return [{"across": area.horizontalScrollBar().maximum(),
             "down": area.verticalScrollBar().maximum(),
             "content": area.widget().height(), "viewport": area.viewport().height()}
            for area in dialog.findChildren(QScrollArea) if area.isVisibleTo(dialog)]


def measure(app, dialog, screen_name: str, what: str) -> dict:  # noqa: ANN001
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialogButtonBox

    dialog.show()
    for _ in range(5):
        app.processEvents()
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    frame = dialog.frameGeometry()
    save_global = save.mapToGlobal(QPoint(0, 0))
    area = dialog.screen().availableGeometry()
    row = {"screen": screen_name, "what": what, "screen_seen": dialog.screen().name(),
           "area": [area.x(), area.y(), area.width(), area.height()],
           "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
           "save": [save_global.x(), save_global.y(), save.width(), save.height()],
           "save_visible": save.isVisible() and not save.visibleRegion().isEmpty(),
           "save_on_top": dialog.childAt(save.mapTo(dialog, save.rect().center())) is save,
           "save_enabled": save.isEnabled(), "clipped": clipped(dialog),
           "scrolls": scrolls(dialog),
           "problem_visible": dialog.problem.isVisible()
           and not dialog.problem.visibleRegion().isEmpty()}
    clicks: list[int] = []
    save.clicked.connect(lambda: clicks.append(1))
    # A person's click where Save is drawn (it saves: the dialog closes).
    QTest.mouseClick(save, Qt.MouseButton.LeftButton, pos=save.rect().center())
    row["clicked"] = bool(clicks)
    dialog.hide()
    return row


def main() -> int:
    from PySide6.QtWidgets import QApplication, QWidget

    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.core.model import Conversation
    from turnlog.providers import PRESETS
    from turnlog.ui.dialogs.settings import SettingsDialog
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import window_settings

    app = QApplication(sys.argv[:1])
    language = os.environ.get(LANGUAGE, "")
    if language:  # the Chinese words are wider and wrap otherwise
        from turnlog.ui.infra.languages import install

        install(language)
    home = Path(os.environ["TURNLOG_HOME"])
    setup = ProviderSetup(ProfileStore(home), window_settings(home), keyring=SessionKeys())
    runner = TaskRunner()
    conversation = Conversation(1, "chat")
    screens = {screen.name(): screen for screen in app.screens()}
    for name, x, _width, _height in SCREENS:
        parent = QWidget()
        parent.setScreen(screens[name])
        parent.move(x + 10, 10)
        parent.resize(300, 200)
        parent.show()
        app.processEvents()
        dialog = SettingsDialog(setup, runner, conversation, parent)
        print(json.dumps(measure(app, dialog, name, "settings: providers")), flush=True)
        dialog.show_conversation_page()
        dialog._fitted = False  # opened again on its other page
        print(json.dumps(measure(app, dialog, name, "settings: conversation")), flush=True)
        for preset in PRESETS:
            editor = dialog.providers.add_profile(preset.id)
            editor.hide()
            if not preset.builtin:
                editor.model.setEditText("a-model")
                if not preset.base_url:
                    editor.base_url.setText("http://localhost:8080/v1")
            print(json.dumps(measure(app, editor, name, f"editor: {preset.id}")), flush=True)
            if preset.builtin:
                print(json.dumps({"screen": name, "builtin_note": editor.local_status.text()}),
                      flush=True)
            editor.reject()
        editor = dialog.providers.add_profile("custom")
        editor.base_url.setText("localhost:8080")  # a wrong address: what to fix shows
        editor.model.setEditText("a-model")
        editor.model.setEditText("")
        editor.hide()
        print(json.dumps(measure(app, editor, name, "editor: custom (problem)")), flush=True)
        editor.reject()
        dialog.reject()
        parent.close()
    runner.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
