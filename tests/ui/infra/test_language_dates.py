"""Dates in Chinese when only the language is Chinese: with LANGUAGE=zh_CN and no locale
of dates (LANG=C.UTF-8, as on a fresh server or container), the window writes 2024/2/12 as
Chinese does, not the C locale's "12 02 2024"."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
from datetime import datetime, timezone
from PySide6.QtWidgets import QApplication
from turnlog.ui.infra import languages
app = QApplication([])
shown = languages.effective(languages.SYSTEM)
languages.install(shown)
when = datetime(2024, 2, 12, 12, 0, tzinfo=timezone.utc)
print(shown, languages.short_date(when), languages.date_time(when), languages.number(2001),
      sep="|")
"""


def shown_in(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_TIME", "LC_NUMERIC")}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60, env={**clean, "QT_QPA_PLATFORM": "offscreen", **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1].split("|")


def test_chinese_language_without_a_locale_of_dates_writes_chinese_dates():
    language, day, moment, count = shown_in(LANGUAGE="zh_CN", LANG="C.UTF-8")
    assert language == "zh_CN"
    assert day == "2024/2/12"
    assert moment.startswith("2024/2/12 ")
    assert count == "2,001"


def test_a_full_chinese_locale_keeps_its_own_formats():
    language, day, _moment, _count = shown_in(LANG="zh_TW.UTF-8")
    assert language == "zh_TW" and day == "2024/2/12"
