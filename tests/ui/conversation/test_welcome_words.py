"""The welcome names every mark the legend beside it shows, in the legend's own words, and
says that the built-in model is small and English-first and how to connect a stronger one:
in English, Simplified and Traditional Chinese, whole at 1280×720 and 1024×600."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from turnlog.ui.infra import languages
from welcome_window import make_setup_window

pytest_plugins = ["uiwindow"]

STRONGER = {"en": ("English", "Settings", "Ollama"), "zh_CN": ("英语", "设置", "Ollama"),
            "zh_TW": ("英文", "設定", "Ollama")}


@pytest.fixture
def language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600)])
@pytest.mark.parametrize("code", ["en", "zh_CN", "zh_TW"])
def test_the_welcome_names_every_mark_of_the_legend_and_the_model_s_limits(
        qtbot, store, loopback, turnlog_home, language, code, size):
    if code != "en":
        language(code)
    window = make_setup_window(qtbot, store, loopback, turnlog_home)
    try:
        window.resize(*size)
        qtbot.wait(50)
        welcome = window.centre.welcome
        assert welcome.isVisible()
        legend = [label.text() for label in window.legend.findChildren(type(welcome.marks))
                  if label is not window.legend.source and label.text()]
        assert len(legend) == 7
        words = welcome.marks.text()
        assert all(label in words for label in legend), (legend, words)
        limits = welcome.builtin_words
        assert limits.isVisible()
        assert all(word in limits.text() for word in STRONGER[code]), limits.text()
        for label in (welcome.marks, limits):  # whole: as tall as their wrapped text
            assert label.height() >= label.heightForWidth(label.width())
            assert label.mapTo(window, label.rect().bottomLeft()).y() <= window.height()
    finally:
        window.shutdown()
