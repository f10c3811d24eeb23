"""Screenshots of assistants, in English and Simplified Chinese, on 1280×720 and 1024×600
screens, for the README's Assistants section:

    .venv/bin/python tests/support/screenshots_assistants.py [OUT_DIR]
    (OUT_DIR by default: resources/screenshots/assistants)

    assistants-LANG-SIZE-settings.png      the whole screen: Settings → Assistants over the
                                           window, an assistant chosen (prompt with
                                           variables, model, sampling, pins, a file)
    assistants-LANG-SIZE-conversation.png  a conversation started from it (New from
                                           assistant): the first request sent, the inspector
                                           showing the system prompt as filled and sent
"""

from __future__ import annotations

import sys
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_SCREENSHOT_CHILD"
SIZES = ((1280, 720), (1024, 600))
LANGUAGES = ("en", "zh_CN")
WORDS = {
    "en": {"name": "Editor", "icon": "📝", "audience": "engineers",
           "prompt": "You are a careful editor. Today is {{date}}. Improve the text for "
                     "{{audience}}: keep its meaning, make it short, list your changes.",
           "pin": "Keep the author's voice.", "note": "The reader is busy.",
           "file": ("style-guide.md", "# Style\n\n- Short sentences.\n- Active voice.\n"),
           "question": "Please edit: “The report was written by the team in a hurry.”",
           "answer": "**The team wrote the report in a hurry.**\n\nChanges: active voice."},
    "zh_CN": {"name": "写作助手", "icon": "✍️", "audience": "工程师",
              "prompt": "你是一位细心的中文编辑。今天是 {{date}}。请为{{audience}}改写用户给出的"
                        "文字：保留原意，表达简洁，并列出所做的修改。",
              "pin": "保持作者的语气。", "note": "读者很忙。",
              "file": ("写作规范.md", "# 规范\n\n- 句子要短。\n- 少用被动语态。\n"),
              "question": "请修改：“报告被团队匆忙地写完了。”",
              "answer": "**团队匆忙写完了报告。**\n\n修改：改为主动语态。"},
}


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots_everyday import each_size_and_language

    return each_size_and_language(__file__, out, SIZES, LANGUAGES, CHILD, "turnlog-assistants-")


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtGui import QGuiApplication

    from loopback import Behaviour, LoopbackServer
    from screen_steps import close_down, settle, start_in, until
    from screenshots_everyday import profiles_for
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.core.assistants import AssistantNote, AssistantSetup
    from turnlog.formats.file_reading import read_bytes
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import MainWindow

    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = f"{screen.geometry().width()}x{screen.geometry().height()}"
    words = WORDS[language]

    def shoot(name: str) -> None:
        settle(500)
        path = out / f"assistants-{language}-{size}-{name}.png"
        screen.grabWindow(0).toImage().save(str(path))
        print("saved", path)

    store = TurnlogStore.open(home)
    name, text = words["file"]
    store.assistants.add(AssistantSetup(
        words["name"], icon=words["icon"], system_prompt=words["prompt"],
        temperature=0.3, pins=(words["pin"],), notes=(AssistantNote(words["note"], 4),)),
        [read_bytes(name, text.encode("utf-8"))])
    with LoopbackServer() as server:
        profiles = ProfileStore(home)
        profiles.save(profiles_for(server.base_url), builtin_offered=True)
        setup = ProviderSetup(profiles, remembered, keyring=SessionKeys())
        window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                            setup=setup)
        window.setGeometry(screen.availableGeometry())
        window.show()
        settle(500)
        dialog = window.open_settings()
        until(dialog.isVisible)
        dialog.pages.setCurrentWidget(dialog.assistants_tab)
        until(lambda: dialog.assistants_page.list.count() == 1
              and bool(dialog.assistants_page.files))
        shoot("settings")
        dialog.reject()

        window.from_assistant.ask_value = lambda _assistant, _name: words["audience"]
        window.from_assistant.start(store.assistants.list()[0])
        until(lambda: window.conversation is not None and len(window.composer.attachments) == 1)
        server.script(Behaviour.answer(words["answer"], chunks=3))
        window.composer.set_draft(words["question"])
        window.send()
        until(lambda: not window.running and len(window.transcript.turns) == 1)
        shoot("conversation")
        close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "resources" / "screenshots" / "assistants", CHILD)
