"""View → Usage…: the daily totals per day and month, per profile and model, with their
cost and a chart; a deleted conversation's spend still shows, and Forget totals (or Delete
all history, when the person says so) clears them."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from privacy_answers import Answers
from turnlog.core.cost import Prices, Pricing
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import RequestRecord
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.dialogs.usage import UsageDialog
from turnlog.ui.shell.menus import show_usage
from uihelpers import numbered
from window_sending import open_window

pytest_plugins = ["uiwindow"]

PRICES = Prices(Decimal("1"), Decimal("4"), None, "USD", "2026-11-01")


def spend(store, cid: int, when: datetime, usage: Usage, prices: Prices | None = PRICES,
          model: str = "gpt-x") -> None:
    store.records.add(RequestRecord(cid, when, model, "committed", 100, 24_000, 90, 9_000,
                                    False, (1,), (), (), usage=usage,
                                    pricing=Pricing("Work", prices)))


def seeded(store) -> int:
    gone = store.conversations.create("gone", system_prompt="", model="gpt-x",
                                      settings=ConversationSettings()).id
    kept = store.conversations.create("kept", system_prompt="", model="gpt-x",
                                      settings=ConversationSettings()).id
    spend(store, gone, datetime(2026, 11, 30, 12, tzinfo=UTC), Usage(1000, 100))
    spend(store, kept, datetime(2026, 12, 1, 12, tzinfo=UTC), Usage(2000, 200))
    spend(store, kept, datetime(2026, 12, 2, 12, tzinfo=UTC), Usage(50, 5), None, "local")
    store.privacy.delete_conversation(gone)
    return kept


def rows(dialog: UsageDialog) -> list[list[str]]:
    table = dialog.table
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_the_view_lists_days_and_months_with_their_cost_deleted_spend_included(
        qtbot, make_window, store):
    seeded(store)
    window = make_window()
    dialog = show_usage(window, window)  # View → Usage…
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 3, timeout=5000)
    assert rows(dialog) == [
        ["2026-12-02", "Work", "local", "50", "0", "5", "no prices set"],
        ["2026-12-01", "Work", "gpt-x", "2,000", "0", "200", "0.0028 USD"],
        ["2026-11-30", "Work", "gpt-x", "1,000", "0", "100", "0.0014 USD"]]
    assert "0.0042 USD" in dialog.totals.text()
    assert "keep counting conversations you deleted" in dialog.note.text()
    assert dialog.chart.shown_periods() == ["2026-11-30", "2026-12-01", "2026-12-02"]
    dialog.period.setCurrentIndex(1)
    assert rows(dialog) == [
        ["2026-12", "Work", "gpt-x", "2,000", "0", "200", "0.0028 USD"],
        ["2026-12", "Work", "local", "50", "0", "5", "no prices set"],
        ["2026-11", "Work", "gpt-x", "1,000", "0", "100", "0.0014 USD"]]
    assert dialog.chart.shown_periods() == ["2026-11", "2026-12"]
    dialog.chart.grab()  # paints without a fault


def test_forget_totals_asks_and_clears_them(qtbot, make_window, store):
    seeded(store)
    window = make_window()
    answers = Answers(Decision(False))
    dialog = UsageDialog(store, window.runner, answers, window)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 3, timeout=5000)
    dialog.forget.click()
    assert [a.title for a in answers.asked] == ["Forget the usage totals"]
    assert len(store.usage.days()) == 3
    answers.decision = Decision(True)
    dialog.forget.click()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 0, timeout=5000)
    assert store.usage.days() == [] and dialog.totals.text() == "No usage yet"
    assert not dialog.forget.isEnabled()
    dialog.chart.grab()


def test_delete_all_history_asks_whether_to_clear_the_totals_too(qtbot, make_window, store,
                                                                 loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    spend(store, cid, datetime(2026, 12, 1, tzinfo=UTC), Usage(10, 1))
    answers = Answers(Decision(True))
    window.confirm = lambda c: answers(c) if c.title != "Clear the usage totals too?" \
        else (answers.asked.append(c), Decision(False))[1]
    window.delete_all_history()
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert [a.title for a in answers.asked] == ["Delete all history",
                                                "Clear the usage totals too?"]
    assert len(store.usage.days()) == 1  # kept: the person said no


def test_delete_all_history_clears_the_totals_when_told(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    spend(store, cid, datetime(2026, 12, 1, tzinfo=UTC), Usage(10, 1))
    window.confirm = answers = Answers(Decision(True))
    window.delete_all_history()
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert answers.asked[-1].title == "Clear the usage totals too?"
    assert store.usage.days() == []
