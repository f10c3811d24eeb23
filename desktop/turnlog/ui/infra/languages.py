"""The interface language: English, Simplified Chinese or Traditional Chinese.

The language follows the system locale unless View → Language names one; the choice is kept
in the data directory's window.ini (each user's own) and applies on the next start. The
translations are `.qm` files inside the package (built by `pyside6-lrelease` from the
`.ts` sources in resources/translations/), read through `importlib.resources`; Qt's own
translations (standard dialog buttons) come from the Qt installation where it has them.

Numbers, dates and byte sizes are written in the interface's locale by the helpers here.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QDate,
    QDateTime,
    QLibraryInfo,
    QLocale,
    QSettings,
    QTranslator,
)
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QWidget

from ...resources import resource
from .window_settings import window_settings

log = logging.getLogger(__name__)

SETTING = "ui/language"
SYSTEM = ""
ENGLISH = "en"
# (setting value, the name shown in the menu: each language names itself)
LANGUAGES = ((SYSTEM, ""), (ENGLISH, "English"), ("zh_CN", "简体中文"), ("zh_TW", "繁體中文"))
TRANSLATED = ("zh_CN", "zh_TW")
_INSTALLED: list[QTranslator] = []
_SHOWN: list[str] = [ENGLISH]  # the language installed last: the one on show
RESTART = "turnlogRestart"  # the application's property: start again once it quits


def language_settings(home: Path) -> QSettings:
    """Where the choice is kept: the window settings of the data directory."""
    return window_settings(home)


def chosen(settings: QSettings) -> str:
    """The language View → Language chose ("" for the system's)."""
    value = str(settings.value(SETTING, SYSTEM) or SYSTEM)
    return value if value in dict(LANGUAGES) else SYSTEM


def language_of(locale: QLocale) -> str:
    """The interface language for a locale: zh_TW for Traditional Chinese (Taiwan, Hong
    Kong, Macao or the Traditional script), zh_CN for other Chinese, else English."""
    if locale.language() != QLocale.Language.Chinese:
        return ENGLISH
    traditional = (locale.script() == QLocale.Script.TraditionalChineseScript
                   or locale.territory() in (QLocale.Country.Taiwan,
                                             QLocale.Country.HongKong,
                                             QLocale.Country.Macao))
    return "zh_TW" if traditional else "zh_CN"


def effective(choice: str, system: QLocale | None = None) -> str:
    """The language shown for a choice: the system's when none was made."""
    return choice if choice else language_of(system or QLocale.system())


def translation_data(language: str) -> bytes:
    """The packaged `.qm` of `language` (b"" for English or where it cannot be read)."""
    if language not in TRANSLATED:
        return b""
    try:
        return resource(f"translations/turnlog_{language}.qm").read_bytes()
    except OSError as err:
        log.warning("the %s translation could not be read: %s", language, err)
        return b""


def _translator(data: bytes) -> QTranslator | None:
    translator = QTranslator()
    if not data or not translator.load(data):
        return None
    translator.keep = data  # type: ignore[attr-defined]  # Qt reads the bytes in place
    return translator


def qt_translator(language: str) -> QTranslator | None:
    """Qt's own translation (standard buttons, dialogs) from the Qt installation, or from
    PySide6's folder where Qt's configured path has none (a bundle); None without one."""
    import PySide6

    folders = [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath),
               str(Path(PySide6.__file__).parent / "Qt" / "translations")]
    for folder in folders:
        translator = QTranslator()
        if translator.load(f"qtbase_{language}", folder):
            return translator
    return None


def install(language: str) -> list[QTranslator]:
    """Install the translators of `language` (replacing any installed before) and make its
    locale the default for numbers and dates. Returns what was installed."""
    app = QCoreApplication.instance()
    for old in _INSTALLED:
        if app is not None:
            app.removeTranslator(old)
    _INSTALLED.clear()
    _SHOWN[:] = [language]
    locale = QLocale.system() if language == effective(SYSTEM) else QLocale(language)
    if language == ENGLISH and locale.language() == QLocale.Language.Chinese:
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    elif language in TRANSLATED and _formats_of_c(locale):  # LANGUAGE=zh_CN, LANG=C.UTF-8
        locale = QLocale(language)  # the language's dates, not "12 02 2024"
    QLocale.setDefault(locale)
    if app is None or language not in TRANSLATED:
        return []
    own = _translator(translation_data(language))
    found = [t for t in (own, qt_translator(language)) if t is not None]
    for translator in found:
        app.installTranslator(translator)
        _INSTALLED.append(translator)
    if own is None:
        log.warning("no %s translation in this installation; the interface stays English",
                    language)
    return found


def _formats_of_c(locale: QLocale) -> bool:
    """Whether `locale` writes dates as the C locale does (a language named without a
    locale of dates)."""
    short = QLocale.FormatType.ShortFormat
    return locale.dateFormat(short) == QLocale.c().dateFormat(short)


def install_for(home: Path | None) -> str:
    """At start: the language chosen in `home` (the system's without one), installed."""
    language = effective(chosen(language_settings(home)) if home is not None else SYSTEM)
    install(language)
    return language


def shown_language() -> str:
    """The language the interface is in now (installed at start)."""
    return _SHOWN[0]


def language_name(value: str) -> str:
    """A View → Language choice as the menu names it (each language in its own words)."""
    return dict(LANGUAGES).get(value) or QCoreApplication.translate(
        "LanguageMenu", "System language")


def request_restart() -> None:
    """Have Turnlog start again once its window has closed (`app.main` does it)."""
    app = QCoreApplication.instance()
    if app is not None:
        app.setProperty(RESTART, True)


def restart_requested() -> bool:
    app = QCoreApplication.instance()
    return bool(app is not None and app.property(RESTART))


def add_language_menu(view: QMenu, settings: QSettings, parent: QWidget,
                      on_chosen: Callable[[str], None] | None = None) -> QMenu:
    """View → Language: System, English, 简体中文, 繁體中文, remembered in `settings`;
    the menu says the choice applies on the next start, and `on_chosen` (given the
    choice) may offer to start again now."""
    menu = QMenu(QCoreApplication.translate("LanguageMenu", "&Language"), view)
    menu.setObjectName("languageMenu")
    # Beside Theme where the View menu keeps an appearance section; else at its end.
    getattr(view, "add_appearance", view.addMenu)(menu)
    note = menu.addAction(QCoreApplication.translate(
        "LanguageMenu", "Applied when Turnlog starts again"))
    note.setEnabled(False)
    menu.addSeparator()
    group = QActionGroup(parent)
    current = chosen(settings)
    for value, name in LANGUAGES:
        shown = name or QCoreApplication.translate("LanguageMenu", "System language")
        action = QAction(shown, parent, checkable=True)
        action.setData(value)
        action.setChecked(value == current)
        action.triggered.connect(
            lambda _checked=False, v=value: _choose(settings, v, on_chosen))
        group.addAction(action)
        menu.addAction(action)
    return menu


def _choose(settings: QSettings, value: str,
            on_chosen: Callable[[str], None] | None) -> None:
    settings.setValue(SETTING, value)
    settings.sync()  # on disk before any restart
    if on_chosen is not None:
        on_chosen(value)


def arg(text: str, *values: object) -> str:
    """Qt's `QString.arg`: `%1`, `%2`… in a translated sentence replaced by `values`
    (numbers in the interface locale's format), in one pass."""
    shown = [number(v) if isinstance(v, int | float) and not isinstance(v, bool) else str(v)
             for v in values]

    def put(found: re.Match[str]) -> str:
        index = int(found.group(1)) - 1
        return shown[index] if index < len(shown) else found.group(0)

    return re.sub(r"%(\d)", put, text)


def plural(text: str, count: int) -> str:
    """An English `%n … (s)` sentence with the right ending where no translation is
    installed ("1 turn", "2 turns", "3 replies"); a translated sentence as it is; the count
    written as every other number is (`number`: 28,217, where Qt's `%n` wrote 28217). Use
    as `plural(QCoreApplication.translate(context, "%n turn(s)", None, n), n)`."""
    if abs(count) >= 1000:  # below, no grouping: the digits Qt wrote are the ones we would
        text = re.sub(rf"(?<![\d,.]){count}(?![\d,.]\d)", number(count), text, count=1)
    many = count != 1
    text = re.sub(r"y\(s\)", "ies" if many else "y", text)
    return text.replace("(es)", "es" if many else "").replace("(s)", "s" if many else "")


def capitalized(text: str) -> str:
    """`text` with its first letter a capital (Chinese has none: unchanged)."""
    return text[:1].upper() + text[1:]


# ------------------------------------------------------------ locale formats
def number(value: int | float, decimals: int = -1) -> str:
    """`value` with the interface locale's digit grouping and decimal sign (1,234 or
    1.234); the C locale writes as English does."""
    locale = _locale()
    if isinstance(value, int):
        return locale.toString(value)
    if decimals < 0:
        return locale.toString(value, "g", 6)
    return locale.toString(value, "f", decimals)


def byte_size(size: int) -> str:
    """A size for people (81 bytes, 12.3 kB), in the interface locale's digits and units
    (a size under a kilobyte in the interface language's word for bytes: Qt's own is
    English for Traditional Chinese)."""
    if abs(size) < 1_000:
        return arg(QCoreApplication.translate("Sizes", "%1 bytes"), size)
    return _locale().formattedDataSize(size, 1, QLocale.DataSizeFormat.DataSizeSIFormat)


def date_time(when: datetime) -> str:
    """A local date and time, short, in the interface locale's order (ISO order where the
    locale is C)."""
    local = when.astimezone()
    if QLocale().language() == QLocale.Language.C:
        return local.strftime("%Y-%m-%d %H:%M")
    shown = QDateTime.fromSecsSinceEpoch(int(local.timestamp()))
    return QLocale().toString(shown, QLocale.FormatType.ShortFormat)


def short_date(when: datetime) -> str:
    """A local date, in the interface locale's short format (ISO where the locale is C)."""
    local = when.astimezone()
    if QLocale().language() == QLocale.Language.C:
        return local.strftime("%Y-%m-%d")
    return QLocale().toString(QDate(local.year, local.month, local.day),
                              QLocale.FormatType.ShortFormat)


def _locale() -> QLocale:
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale
