"""The history shows a file a later import added to a turn imported before under that
turn, marked as added by import on its day (a ChatGPT `.zip` after its JSON)."""

from __future__ import annotations

import json
import zipfile
from datetime import datetime

import chatgpt_export as gpt
from attachfiles import png_bytes
from turnlog.service.transfer import import_file
from turnlog.ui.transcript.files import question_shown

pytest_plugins = ["uiwindow"]


def test_a_file_added_by_a_later_import_shows_under_its_turn_with_its_day(
        qtbot, make_window, store, tmp_path):
    import_file(store, gpt.write_json(tmp_path / "conversations.json", gpt.conversations()))
    with zipfile.ZipFile(tmp_path / "export.zip", "w") as archive:
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", png_bytes(40, 30))
    import_file(store, tmp_path / "export.zip")
    [conv] = [c for c in store.conversations() if c.title == "Trip to Kyoto"]
    [added] = [a for t in store.turns(conv.id) for a in t.attachments]
    day = datetime.fromisoformat(added.added_at).astimezone().strftime("%Y-%m-%d")
    window = make_window()
    window.refresh_conversations(select_id=conv.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
    shown = [question_shown(window.transcript.index(row)) for row in range(3)]
    [temple] = [text for text in shown if "Which temple is this?" in text]
    assert temple.endswith(f"📎 temple.jpg · image, 40×30 · {added.size} bytes · added by "
                           f"import on {day}")
    assert all("added by import" not in text for text in shown if text != temple)
