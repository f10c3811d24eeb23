"""Screenshots of what answers cost, in English, Simplified and Traditional Chinese, on
1280×720 and 1024×600 screens.

    .venv/bin/python tests/support/screenshots_usage.py [OUT_DIR]
    (tests/support/screenshots.py runs it)

A virtual X server per screen size; on each, a process per language starts as the app does
(the language remembered in its data directory) with a priced profile, sends a question to
the loopback server (which reports usage) and saves the whole screen:

    usage-LANG-SIZE-turn.png  the answer's cost on its hover, the conversation's under its
                              header and the request's in the inspector (Cost)
    usage-LANG-SIZE-view.png  View → Usage…: three weeks of daily totals of two profiles, a
                              deleted conversation's included, as a chart and a table

LANG is en, zh_CN or zh_TW, SIZE 1280x720 or 1024x600.
"""

from __future__ import annotations

import sys
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_USAGE_SHOT"
LANGUAGES = ("en", "zh_CN", "zh_TW")
SIZES = ((1280, 720), (1024, 600))
NAMES = ("turn", "view")
WORDS = {
    "en": ("Trip budget", "What will three nights in Hangzhou cost?",
           "About **¥2,400** for three nights: ¥500 a night for a hotel by the lake, ¥200 a "
           "day for food and ¥300 for tickets and the metro."),
    "zh_CN": ("旅行预算", "在杭州住三晚大概要花多少钱？",
              "三晚大约 **¥2,400**：西湖边的酒店每晚 ¥500，每天吃饭 ¥200，门票和地铁约 ¥300。"),
    "zh_TW": ("旅行預算", "在杭州住三晚大概要花多少錢？",
              "三晚大約 **¥2,400**：西湖邊的飯店每晚 ¥500，每天吃飯 ¥200，門票和捷運約 ¥300。"),
}


def shot_name(language: str, size: tuple[int, int], name: str) -> str:
    return f"usage-{language}-{size[0]}x{size[1]}-{name}.png"


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots_everyday import each_size_and_language

    return each_size_and_language(__file__, out, SIZES, LANGUAGES, CHILD, "turnlog-usage-")


def seed_days(store, days: int = 21) -> None:
    """Three weeks of requests through two profiles, one conversation deleted since."""
    from turnlog.core.cost import Prices, Pricing
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import RequestRecord

    gone = store.conversations.create("deleted", system_prompt="", model="gpt-4o-mini",
                                      settings=ConversationSettings()).id
    cheap = Pricing("OpenAI", Prices(Decimal("0.15"), Decimal("0.6"), Decimal("0.075"), "USD",
                                     "2026-11-01"))
    local = Pricing("Home server", None)
    today = datetime.now(UTC).replace(hour=10, minute=0, second=0, microsecond=0)
    for back in range(days, 0, -1):
        when = today - timedelta(days=back)
        for n in range(1 + (back * 7) % 4):
            size = 800 + (back * 131 + n * 977) % 2600
            store.records.add(RequestRecord(
                gone, when, "gpt-4o-mini", "committed", 4 * size, 24_000, size, 100_000,
                False, (1,), (), (), usage=Usage.from_json({
                    "prompt_tokens": size, "completion_tokens": size // 5,
                    "prompt_tokens_details": {"cached_tokens": size // 3}}), pricing=cheap))
        if back % 3 == 0:
            store.records.add(RequestRecord(
                gone, when, "qwen2.5-7b-instruct", "committed", 1000, 24_000, 300, 8_000,
                True, (1,), (), (), usage=Usage(1200, 240), pricing=local))
    store.privacy.delete_conversation(gone)


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QToolTip

    from loopback import Behaviour, LoopbackServer
    from screen_steps import close_down, settle, start_in, until
    from turnlog.core.cost import Prices
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.providers import CUSTOM
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.shell.menus import show_usage
    from turnlog.ui.shell.window import MainWindow

    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = (screen.geometry().width(), screen.geometry().height())

    def shoot_screen(name: str) -> None:
        settle(500)
        path = out / shot_name(language, size, name)
        screen.grabWindow(0).toImage().save(str(path))
        print("saved", path)

    store = TurnlogStore.open(home)
    seed_days(store)
    title, question, answer = WORDS[language]
    with LoopbackServer() as server:
        config = ProviderConfig("openai", "OpenAI", CUSTOM, server.base_url, "gpt-4o-mini",
                                prices=Prices(Decimal("0.15"), Decimal("0.6"),
                                              Decimal("0.075"), "USD", "2026-11-01"))
        conversation = store.conversations.create(title, model="gpt-4o-mini")
        store.turns.commit_many(conversation.id, [
            PendingTurn(uuid.uuid4().hex, "👋", "👋 Hi!", "gpt-4o-mini", "stop", Usage(),
                        datetime.now(UTC))])
        window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config,
                                                                   lambda: None))
        window.setGeometry(screen.availableGeometry())
        window.show()
        until(lambda: len(window.transcript.turns) == 1)
        server.script(Behaviour.answer(answer, usage={
            "prompt_tokens": 1840, "completion_tokens": 212, "total_tokens": 2052,
            "prompt_tokens_details": {"cached_tokens": 1024}}))
        window.composer.set_draft(question)
        window.send()
        until(lambda: not window.running and len(window.transcript.turns) == 2)
        until(lambda: window.centre.header.spent.isVisible())
        view = window.view
        view.scrollToBottom()
        settle(400)
        last = window.transcript.index(window.transcript.rowCount() - 1)
        rect = view.visualRect(last)
        tip = last.data(0x0003)  # Qt.ToolTipRole
        QToolTip.showText(view.viewport().mapToGlobal(rect.center()), tip, view.viewport())
        shoot_screen("turn")
        QToolTip.hideText()
        dialog = show_usage(window, window)  # View → Usage…
        geometry = screen.availableGeometry()
        dialog.resize(min(760, geometry.width() - 40), min(560, geometry.height() - 40))
        dialog.move(geometry.center() - dialog.rect().center())
        until(lambda: dialog.table.rowCount() > 0)
        shoot_screen("view")
        dialog.close()
        close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "screenshots", CHILD)
