"""What a conversation cost, in the window: the inspector's Cost row (before sending, the
next request's input; after, the request's cost at its profile's prices), the header's
line and a turn's hover, against the loopback server (which reports usage)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from loopback import Behaviour
from turnlog.config.profiles import NetworkSettings
from turnlog.core.cost import Prices, Pricing, Tokens, cost, shown
from turnlog.core.model import Usage
from turnlog.core.request_record import RequestRecord
from turnlog.providers import CUSTOM
from turnlog.store import TurnlogStore
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.model import Role
from uihelpers import numbered, seed
from window_sending import type_draft, wait_done

PRICES = Prices(Decimal("2"), Decimal("8"), Decimal("0.5"), "USD", "2026-12-01")


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def priced_window(qtbot, store, loopback, prices: Prices | None, *, answers: int = 2,
                  costed: bool = False) -> tuple[MainWindow, int]:
    conversation = seed(store, "chat", numbered(answers))
    for turn in store.turns(conversation.id) if costed else ():  # each answer's request
        store.records.add(RequestRecord(
            conversation.id, turn.created_at, "loopback-model", "committed", 500, 24_000,
            900, 10_000, False, (turn.ordinal,), (), (), turn_id=turn.id, pricing=Pricing(
                "Priced", prices), usage=Usage(1000 + turn.ordinal, 100)))
    config = ProviderConfig("loopback", "Priced", CUSTOM, loopback.base_url, "loopback-model",
                            network=NetworkSettings(retry=False), prices=prices)
    window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config, lambda: None))
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == answers, timeout=5000)
    return window, conversation.id


def cost_shown(window: MainWindow) -> str:
    return window.inspector.cost_value.text()


def test_the_cost_of_an_answer_shows_in_the_inspector_header_and_hover(qtbot, store, loopback):
    window, cid = priced_window(qtbot, store, loopback, PRICES)
    try:
        type_draft(window, "How much is this?")
        qtbot.waitUntil(lambda: "input of the next request" in cost_shown(window),
                        timeout=5000)
        tokens = window.shown.projection.input_tokens
        assert f"≈{shown(cost(Tokens(tokens), PRICES), 'USD')}" in cost_shown(window)
        assert "(estimated)" in cost_shown(window)
        loopback.script(Behaviour.answer("Cheap.", usage={
            "prompt_tokens": 1500, "completion_tokens": 250, "total_tokens": 1750,
            "prompt_tokens_details": {"cached_tokens": 1000}}))
        qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
        wait_done(qtbot, window)
        # 500 × 2 + 1,000 × 0.5 + 250 × 8 = 3,500 per million
        qtbot.waitUntil(lambda: "0.0035 USD" in cost_shown(window), timeout=5000)
        assert "1,500 in (1,000 cached) · 250 out" in cost_shown(window)
        assert "estimated" not in cost_shown(window)
        assert "set 2026-12-01" in cost_shown(window)
        spent = window.centre.header.spent
        qtbot.waitUntil(lambda: spent.isVisible() and "0.0035 USD" in spent.text(),
                        timeout=5000)
        last = window.transcript.index(window.transcript.rowCount() - 1)
        tip = last.data(Qt.ItemDataRole.ToolTipRole)
        assert "This answer: 1,500 in (1,000 cached) · 250 out · 0.0035 USD" in tip
    finally:
        window.shutdown()


def test_without_prices_tokens_show_and_no_cost(qtbot, store, loopback):
    window, _cid = priced_window(qtbot, store, loopback, None)
    try:
        type_draft(window, "And this?")
        qtbot.waitUntil(lambda: cost_shown(window) == "no prices set for this profile",
                        timeout=5000)
        loopback.script(Behaviour.answer("Free.", usage={"prompt_tokens": 40,
                                                         "completion_tokens": 2}))
        qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
        wait_done(qtbot, window)
        qtbot.waitUntil(lambda: "40 in · 2 out" in cost_shown(window), timeout=5000)
        assert "USD" not in cost_shown(window)
        spent = window.centre.header.spent
        qtbot.waitUntil(lambda: spent.text() == "Spent: 40 in · 2 out", timeout=5000)
    finally:
        window.shutdown()


def test_side_questions_show_their_cost_beside_their_tokens(qtbot, store, loopback):
    window, cid = priced_window(qtbot, store, loopback, PRICES)
    try:
        qtbot.waitUntil(lambda: window.side.shown_for == cid, timeout=5000)
        loopback.script(
            Behaviour.length(usage={"prompt_tokens": 1000, "completion_tokens": 100}),
            Behaviour.answer("Aside.", usage={"prompt_tokens": 1500, "completion_tokens": 250,
                                              "prompt_tokens_details": {"cached_tokens": 1000}}))
        panel = window.side.panel
        panel.edit.setPlainText("On the side: how much?")
        window.side.ask()  # cut off: 1,000 × 2 + 100 × 8 = 2,800 per million
        qtbot.waitUntil(lambda: not window.side.session.running, timeout=10_000)
        assert "0.0028 USD" in panel.usage.text()
        window.side.ask()  # answered: 500 × 2 + 1,000 × 0.5 + 250 × 8 = 3,500 per million
        qtbot.waitUntil(lambda: panel.list.count() == 1, timeout=10_000)
        qtbot.waitUntil(lambda: "0.0063 USD" in panel.usage.text(), timeout=5000)
        assert "estimated" not in panel.usage.text()
        panel.usage.setText("")  # read back from the store: the same cost
        window.side.reload(cid)
        qtbot.waitUntil(lambda: "0.0063 USD" in panel.usage.text(), timeout=5000)
        (total,) = store.usage.conversation_totals(cid)
        assert (total.requests, total.cost) == (2, Decimal("0.0063"))
    finally:
        window.shutdown()


def test_hovering_the_first_of_many_answers_shows_its_cost(qtbot, store, loopback):
    window, _cid = priced_window(qtbot, store, loopback, PRICES, answers=45, costed=True)
    try:
        model, view = window.transcript, window.view
        newest = model.index(model.rowCount() - 1)
        qtbot.waitUntil(lambda: "This answer:" in (newest.data(Qt.ItemDataRole.ToolTipRole)
                                                   or ""), timeout=5000)
        first = view.reveal_ordinal(1)  # the top of the list: turn 1 loaded and shown
        assert first is not None and first.data(Role.ORDINAL) == 1
        # 1,001 × 2 + 100 × 8 = 2,802 per million
        expected = "This answer: 1,001 in · 100 out · 0.0028 USD"
        assert expected not in (first.data(Qt.ItemDataRole.ToolTipRole) or "")
        qtbot.wait(50)  # scrolled again once its neighbours were painted
        at = view.visualRect(first).center()
        assert view.indexAt(at).data(Role.ORDINAL) == 1
        QApplication.sendEvent(view.viewport(), QHelpEvent(
            QEvent.Type.ToolTip, at, view.viewport().mapToGlobal(at)))
        qtbot.waitUntil(lambda: expected in (first.data(Qt.ItemDataRole.ToolTipRole) or ""),
                        timeout=5000)
        qtbot.waitUntil(lambda: expected in QToolTip.text(), timeout=5000)  # shown again
    finally:
        window.shutdown()
