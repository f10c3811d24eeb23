"""Screenshots of tools in the window under Xvfb, for the README's Tools section:

    .venv/bin/python tests/support/screenshots_tools.py [OUT_DIR]
    (OUT_DIR by default: resources/screenshots/tools)

    tools-approval-1280x720.png  the approval card: the tool, its server, its arguments,
                                 Run / Always allow this tool in this conversation / Deny
    tools-folded-1280x720.png    the committed turn: its tool call folded open between the
                                 question and the answer (who approved it, how long it took,
                                 arguments, result); the inspector lists the tool list
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import places

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_SCREENSHOT_CHILD"


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots import private_display

    out.mkdir(parents=True, exist_ok=True)
    with private_display() as number:
        if number is None:
            print("Xvfb did not start", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="turnlog-shots-") as home:
            env = {**os.environ, CHILD: "1", "DISPLAY": f":{number}",
                   "QT_QPA_PLATFORM": "xcb", "TURNLOG_HOME": home}
            return subprocess.run([sys.executable, __file__, str(out)], env=env,
                                  timeout=180).returncode


def child(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtWidgets import QApplication

    from loopback import Behaviour, LoopbackServer
    from mcp_peers import PEER_SCRIPT
    from screen_steps import close_down, settle, until
    from turnlog.app import application
    from turnlog.config.paths import data_dir
    from turnlog.config.tool_servers import ToolServerStore, new_server
    from turnlog.core.model import ConversationSettings
    from turnlog.providers import CUSTOM
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.shell.window import MainWindow

    app = application(["turnlog"])

    def shoot(window: MainWindow, name: str) -> None:
        settle(500)
        window.grab().save(str(out / name))
        print("saved", out / name)

    home = data_dir()
    notes = home / "笔记"
    notes.mkdir()
    (notes / "杭州.md").write_text("# 杭州\n\n- 西湖\n- 灵隐寺\n- 龙井村\n", encoding="utf-8")
    server = new_server("notes", command=sys.executable, args=[str(PEER_SCRIPT)])
    ToolServerStore(home).put(server)
    store = TurnlogStore.open(home)
    with LoopbackServer() as chat:
        config = ProviderConfig("loopback", "Local server", CUSTOM, chat.base_url,
                                "qwen2.5-7b-instruct")
        connector = ProviderConnector(lambda: config, lambda: None)
        store.conversations.create(
            "杭州旅行 · Hangzhou trip", model="qwen2.5-7b-instruct",
            settings=ConversationSettings(tool_servers=(server.id,)))
        window = MainWindow(store, TaskRunner(), connector)
        window.resize(1280, 720)
        window.show()
        settle(500)
        arguments = json.dumps({"path": str(notes / "行程.md"),
                                "text": "# 三天行程\n\n1. 西湖、断桥\n2. 灵隐寺、龙井村 🍵\n"
                                        "3. 西溪湿地\n"}, ensure_ascii=False)
        chat.script(Behaviour.calls(("write_file", arguments),
                                    text="我把行程写进你的笔记。"),
                    Behaviour.slow("行程已经写进 **笔记/行程.md** 了：三天，西湖、灵隐寺和"
                                   "西溪湿地。Have a great trip 🎉", delay_s=0.03, chunks=6))
        window.composer.set_draft("把三天的杭州行程写进我的笔记 📝")
        window.send()
        until(window.tool_card.isVisible)
        shoot(window, "tools-approval-1280x720.png")
        window.tool_card.run_button.click()
        until(lambda: not window.running)
        model, view = window.transcript, window.view
        index = model.index(model.rowCount() - 1)
        view.setCurrentIndex(index)
        view.toggle_reasoning()
        settle(200)
        view.scrollTo(index)
        shoot(window, "tools-folded-1280x720.png")
        close_down(window, store)
    QApplication.processEvents()
    del app
    return 0


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        places.ROOT / "resources" / "screenshots" / "tools"
    sys.exit(child(target) if os.environ.get(CHILD) else parent(target))
