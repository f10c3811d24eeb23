"""Screenshots of summaries in the window under Xvfb, for the README's rolling summary and
request records sections, in English and Chinese, on 1280×720 and 1024×600 screens:

    .venv/bin/python tests/support/screenshots_summaries.py [OUT_DIR]
    (OUT_DIR by default: resources/screenshots/summaries)

    summaries-<language>-<size>-history.png      the compaction history beside the
        inspector: the summary in use edited by you (your rewrite of the model's), the
        model's one before it, the turns each covers as links, what each replaced, the
        requests that carried it
    summaries-<language>-<size>-past-request.png  "Request that made this answer…" on the
        newest answer: verified, its marks (turns in the summary, turns sent verbatim) named
        by the numbers the window shows although an earlier turn has a newer version

The conversation is seeded with the model's summary of its oldest turns; the edit is made
in the panel as a person makes it, and the question is sent to a loopback server.
"""

from __future__ import annotations

import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_SUMMARY_SHOT"
LANGUAGES = ("en", "zh_CN")
SIZES = ((1280, 720), (1024, 600))
NAMES = ("history", "past-request")
MODEL = "qwen2.5-7b-instruct"
OLD = 20  # the oldest turns, in the model's summary
WORDS = {
    "en": {
        "title": "Garden plans 🌷",
        "old": ("Question {n} about the garden: which bed gets the tulips, and when do we "
                "water them? " + "We keep the backups of the plans. " * 4,
                "Answer {n}: the tulips go along the fence, watered twice a week. "
                + "Keep the plans backed up. " * 4),
        "new": [("Which fence side gets the morning sun?", "The east side, until noon."),
                ("And the roses?", "By the south wall, in full sun."),
                ("When do we plant them?", "In October, before the first frost."),
                ("How deep?", "About three times the bulb's height."),
                ("Mulch?", "A thin layer of bark after planting.")],
        "again": "Plant them in late October instead, after the heat.",
        "made": "The user plans the garden:\n\n- **tulips** along the fence\n"
                "- watered twice a week\n- the plans are kept `backed up`",
        "mine": "Tulips along the east fence (morning sun), watered twice a week. Never "
                "delete the backups of the plans. Ticket ORCHID-17 tracks the order.",
        "question": "What did we decide about the tulips? 🌷",
        "answer": "Along the east fence, watered twice a week — and the backups stay.",
    },
    "zh_CN": {
        "title": "花园计划 🌷",
        "old": ("关于花园的第 {n} 个问题：郁金香种在哪一块花坛，什么时候浇水？"
                + "计划的备份一直保留。" * 4,
                "第 {n} 个回答：郁金香沿着篱笆种，每周浇两次水。" + "计划要备份好。" * 4),
        "new": [("篱笆哪一边早上有阳光？", "东边，一直到中午。"),
                ("玫瑰呢？", "种在南墙边，全日照。"),
                ("什么时候种？", "十月，第一次霜冻之前。"),
                ("种多深？", "大约球茎高度的三倍。"),
                ("要覆盖物吗？", "种好后铺一薄层树皮。")],
        "again": "改到十月下旬再种，避开炎热。",
        "made": "用户在规划花园：\n\n- **郁金香**沿篱笆种\n- 每周浇两次水\n- 计划一直`备份`",
        "mine": "郁金香种在东侧篱笆（早上有阳光），每周浇两次水。计划的备份永远不删。"
                "订单由工单 ORCHID-17 跟踪。",
        "question": "我们对郁金香做了什么决定？🌷",
        "answer": "种在东侧篱笆，每周浇两次水——备份保留。",
    },
}


def shot_name(language: str, size: tuple[int, int], name: str) -> str:
    return f"summaries-{language}-{size[0]}x{size[1]}-{name}.png"


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots_everyday import each_size_and_language

    return each_size_and_language(__file__, out, SIZES, LANGUAGES, CHILD, "turnlog-summaries-")


def seeded(store, words):
    """The conversation: OLD long turns, a few short ones (one regenerated), and the
    model's summary of the long ones, as a send would have stored it."""
    from turnlog.core.compaction import (
        PROMPT_VERSION,
        SUMMARY_OUTPUT_TOKENS,
        SummaryDraft,
        ids_digest,
    )
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import PendingTurn

    settings = ConversationSettings(max_bytes=9_000, context_window=32_768,
                                    output_reserve=1024)
    conversation = store.conversations.create(words["title"], model=MODEL, settings=settings)

    def turn(question: str, answer: str, replaces: str | None = None) -> PendingTurn:
        return PendingTurn(uuid.uuid4().hex, question, answer, MODEL, "stop", Usage(),
                           datetime.now(UTC), replaces=replaces)

    question, answer = words["old"]
    store.turns.commit_many(conversation.id, [
        turn(question.format(n=n), answer.format(n=n)) for n in range(1, OLD + 1)])
    # The third short turn was regenerated before the next ones were asked.
    store.turns.commit_many(conversation.id, [turn(q, a) for q, a in words["new"][:3]])
    regenerated = store.turns(conversation.id)[-1]
    store.turns.commit(conversation.id, turn(regenerated.question, words["again"],
                                             replaces=regenerated.id))
    store.turns.commit_many(conversation.id, [turn(q, a) for q, a in words["new"][3:]])
    covered = store.turns(conversation.id)[:OLD]
    store.records.save_summary(conversation.id, SummaryDraft(
        covered_turn_ids=tuple(t.id for t in covered), first_ordinal=1, last_ordinal=OLD,
        covered_digest=ids_digest(covered), content=words["made"], model=MODEL,
        settings_key=f"v{PROMPT_VERSION}|{MODEL}|{SUMMARY_OUTPUT_TOKENS}",
        content_tokens=60, usages=(Usage(3_900, 60, 3_960),), warnings=(),
        generation=store.conversations.generation(conversation.id)))
    return conversation


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtGui import QGuiApplication

    from loopback import Behaviour, LoopbackServer
    from screen_steps import close_down, settle, start_in, until
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.request.past_request import PastRequestDialog
    from turnlog.ui.shell.window import MainWindow

    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = (screen.geometry().width(), screen.geometry().height())
    words = WORDS[language]

    def shoot_screen(name: str) -> None:
        settle(500)
        path = out / shot_name(language, size, name)
        screen.grabWindow(0).toImage().save(str(path))
        print("saved", path)

    store = TurnlogStore.open(home)
    from turnlog.providers import CUSTOM

    with LoopbackServer() as server:
        server.default = Behaviour.answer(words["answer"])
        config = ProviderConfig("loopback", "Local server", CUSTOM, server.base_url, MODEL)
        conversation = seeded(store, words)
        window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config,
                                                                   lambda: None))
        window.setGeometry(screen.availableGeometry())
        window.show()
        until(lambda: window.conversation is not None
              and window.conversation.id == conversation.id
              and len(window.transcript.turns) == OLD + len(words["new"]))
        history, panel = window.compaction_history, window.compaction_history.panel
        window.compaction_history.dock.show()
        window.compaction_history.dock.raise_()
        history.reload()
        until(lambda: history.state is not None and history.state.current is not None)
        panel.edit_button.click()
        panel.editor.setPlainText(words["mine"])
        panel.save_button.click()
        until(lambda: history.state.current.summary.edited)
        window.composer.set_draft(words["question"])
        window.send()
        until(lambda: not window.running
              and len(window.transcript.turns) == OLD + len(words["new"]) + 1)
        until(lambda: history.state is not None and history.state.current.record_ids)
        panel.browser.verticalScrollBar().setValue(0)
        shoot_screen("history")

        window.inspector_dock.raise_()
        index = window.transcript.index(window.transcript.rowCount() - 1, 0)
        window.view.setCurrentIndex(index)
        window.view.scrollToBottom()
        window.past_requests.action.trigger()
        until(lambda: any(d.isVisible() for d in window.findChildren(PastRequestDialog)))
        dialog = next(d for d in window.findChildren(PastRequestDialog) if d.isVisible())
        until(lambda: dialog.verdict.text() != "")
        shoot_screen("past-request")
        dialog.close()
        close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "resources" / "screenshots" / "summaries", CHILD)
