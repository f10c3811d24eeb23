"""A failure's message reads in one language: in Chinese the next step follows what
happened after a full-width "。", never an English ". " between two Chinese sentences (the
inspector's Outcome and the copied report)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from loopback import Behaviour
from turnlog.ui.infra import languages
from window_sending import open_window, wait_done

pytest_plugins = ["uiwindow"]


@pytest.fixture
def language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


@pytest.mark.parametrize(("code", "joined"), [
    ("zh_CN", "回复在输出上限处被截断。请提高输出上限"), ("en", "output limit. Raise the output")])
def test_the_outcome_of_a_cut_off_reply_joins_its_sentences_in_the_interface_language(
        qtbot, make_window, store, loopback, language, code, joined):
    if code != "en":
        language(code)
    window, _cid = open_window(qtbot, make_window, store, [("花园", "好的")])
    loopback.script(Behaviour.length("第一部分，"))
    window.composer.set_draft("请写一封说明信。")
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    outcome = window.inspector.outcome_value.text()
    assert joined in outcome, outcome
