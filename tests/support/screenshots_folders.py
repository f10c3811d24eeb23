"""Folders in the sidebar, in English and Simplified Chinese, on 1280×720 and 1024×600.

    .venv/bin/python tests/support/screenshots_folders.py [OUT_DIR]
    (default: resources/screenshots/folders)

A virtual X server per screen size; on each, a process per language starts the window over
a data directory with three folders, a dozen conversations and two of them starred, and
saves

    folders-LANG-SIZE-folder.png  a folder chosen: its conversations, starred first, two of
                                  them chosen (Ctrl+click) to move or delete together
    folders-LANG-SIZE-menu.png    the conversation list's context menu for those two: Star,
                                  Move to folder, Take out of its folder, Delete 2
                                  conversations…

LANG is en or zh_CN, SIZE 1280x720 or 1024x600.
"""

from __future__ import annotations

import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_FOLDERS_SHOT"
LANGUAGES = ("en", "zh_CN")
SIZES = ((1280, 720), (1024, 600))
CONTENT = {
    "en": {"folders": ("Garden 🌷", "Taxes 2026", "Trips"),
           "conversations": [
               ("Tulips along the fence", 0, True), ("Clay soil, what to plant", 0, False),
               ("Watering schedule", 0, False), ("Lavender or rosemary?", 0, False),
               ("Receipts to keep", 1, False), ("Home office deduction", 1, True),
               ("Hangzhou in three days", 2, False), ("Packing list 📦", 2, False),
               ("Router keeps dropping", None, False), ("Piano practice plan", None, False),
               ("Loan summary for the bank", None, False), ("Birthday menu", None, False)],
           "question": "What should go in the bed by the fence?",
           "answer": "Tulips along the fence, lavender in front; water weekly. 🌷"},
    "zh_CN": {"folders": ("花园 🌷", "2026 报税", "旅行"),
              "conversations": [
                  ("篱笆边种郁金香", 0, True), ("黏土适合种什么", 0, False),
                  ("浇水时间表", 0, False), ("薰衣草还是迷迭香？", 0, False),
                  ("要保留的收据", 1, False), ("居家办公扣除", 1, True),
                  ("杭州三日游", 2, False), ("行李清单 📦", 2, False),
                  ("路由器总掉线", None, False), ("钢琴练习计划", None, False),
                  ("给银行的贷款说明", None, False), ("生日菜单", None, False)],
              "question": "篱笆边的花坛种什么好？",
              "answer": "篱笆边种郁金香，前面种薰衣草；每周浇一次水。🌷"},
}


def shot_name(language: str, size: tuple[int, int], name: str) -> str:
    return f"folders-{language}-{size[0]}x{size[1]}-{name}.png"


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots_everyday import each_size_and_language

    return each_size_and_language(__file__, out, SIZES, LANGUAGES, CHILD, "turnlog-folders-")


def fill(store, words: dict) -> list[int]:
    """The folders and conversations, the first listed the newest."""
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    folders = [store.folders.add(name).id for name in words["folders"]]
    start = datetime.now(UTC) - timedelta(days=1)
    ids = []
    for n, (title, folder, starred) in enumerate(reversed(words["conversations"])):
        cid = store.conversations.create(title, model="qwen2.5-7b-instruct").id
        store.turns.commit_many(cid, [PendingTurn(
            uuid.uuid4().hex, words["question"], words["answer"], "qwen2.5-7b-instruct",
            "stop", Usage(), start + timedelta(minutes=n))])
        if folder is not None:
            store.folders.move([cid], folders[folder])
        if starred:
            store.folders.star([cid])
        ids.append(cid)
    return ids


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtCore import QItemSelectionModel, QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QMenu

    from loopback import LoopbackServer
    from screen_steps import close_down, settle, start_in, until
    from screenshots_everyday import profiles_for
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.keyboard import open_context_menu
    from turnlog.ui.shell.window import MainWindow

    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = (screen.geometry().width(), screen.geometry().height())

    def shoot(name: str) -> None:
        settle(400)
        path = out / shot_name(language, size, name)
        screen.grabWindow(0).toImage().save(str(path))
        print("saved", path)

    store = TurnlogStore.open(home)
    fill(store, CONTENT[language])
    with LoopbackServer() as server:
        profiles = ProfileStore(home)
        kept = profiles_for(server.base_url)
        profiles.save(kept, builtin_offered=True)
        setup = ProviderSetup(profiles, remembered, keyring=SessionKeys())
        window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                            setup=setup)
        window.setGeometry(screen.availableGeometry())
        window.show()
        sidebar = window.sidebar
        until(lambda: sidebar.model.rowCount() == len(CONTENT[language]["conversations"]))
        folders = sidebar.folder_list
        garden = store.folders.folder_id_by_name(CONTENT[language]["folders"][0])
        folders.setCurrentIndex(folders.folders.index(folders.folders.row_of(garden)))
        until(lambda: sidebar.model.rowCount() == 4)
        view = sidebar.list
        view.setCurrentIndex(sidebar.model.index(1))
        view.selectionModel().select(sidebar.model.index(2),
                                     QItemSelectionModel.SelectionFlag.Select)
        until(lambda: window.conversation is not None and len(window.transcript.turns) == 1)
        view.setFocus()
        shoot("folder")

        def snap_menu() -> None:
            menu = QApplication.activePopupWidget()
            if not isinstance(menu, QMenu):
                QTimer.singleShot(50, snap_menu)
                return
            shoot("menu")
            menu.close()

        QTimer.singleShot(100, snap_menu)
        open_context_menu(view)
        settle(200)
        close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "resources" / "screenshots" / "folders", CHILD)
