"""The interface in Simplified and Traditional Chinese: the .ts sources complete and in step
with the code, the .qm files inside the package built from them, every failure title and
hint of the layers below the window listed for translation, and the window itself in
Chinese when the remembered language says so."""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QDateTime, QLocale
from PySide6.QtWidgets import QDialogButtonBox

from loopback import Behaviour
from places import ROOT
from turnlog.core.failures import _TITLES, FailureKind
from turnlog.core.send import Stage
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.infra import failure_text, languages
from turnlog.ui.infra.window_settings import window_settings

pytest_plugins = ["uiwindow"]

TS_DIR = ROOT / "resources" / "translations"
QM_DIR = ROOT / "desktop" / "turnlog" / "resources" / "translations"
UI = ROOT / "desktop" / "turnlog" / "ui"
LANGUAGES = ("zh_CN", "zh_TW")
BIN = Path(sys.executable).parent
HAN = re.compile(r"[\u4e00-\u9fff]")


def pyside_tool(name: str) -> str:
    found = BIN / f"pyside6-{name}"
    if found.exists():
        return str(found)
    on_path = shutil.which(f"pyside6-{name}")
    if on_path is None:
        pytest.skip(f"pyside6-{name} is not installed")
    return on_path


def messages(ts: Path) -> dict[tuple[str, str, str], ET.Element]:
    root = ET.parse(ts).getroot()
    return {(context.findtext("name") or "", message.findtext("source") or "",
             message.findtext("comment") or ""): message
            for context in root.iter("context") for message in context.iter("message")}


def translation(message: ET.Element) -> str:
    element = message.find("translation")
    assert element is not None
    forms = [form.text or "" for form in element.iter("numerusform")]
    return " | ".join(forms) if forms else element.text or ""


@pytest.fixture(scope="module")
def fresh_ts(tmp_path_factory) -> Path:
    """What lupdate finds in ui/ now, in a scratch file."""
    out = tmp_path_factory.mktemp("lupdate") / "fresh.ts"
    subprocess.run([pyside_tool("lupdate"), "-silent", "-locations", "none",
                    *sorted(str(p) for p in UI.rglob("*.py")), "-ts", str(out)],
                   check=True, timeout=300)
    return out


def test_the_translation_tool_and_these_tests_read_every_room_of_the_window():
    """The window's modules sit in rooms (ui/shell/, ui/panels/side/, …): a scan of ui/
    alone would lose their strings on the next update."""
    spec = importlib.util.spec_from_file_location("translation_tool", TS_DIR / "tool.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    everything = sorted(str(path) for path in UI.rglob("*.py"))
    assert tool.sources() == everything
    assert any(Path(path).parent.parent.parent == UI for path in everything)  # two deep


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_and_none_is_obsolete(language):
    found = messages(TS_DIR / f"turnlog_{language}.ts")
    assert len(found) > 500
    left = [key for key, message in found.items()
            if message.find("translation").get("type") in ("unfinished", "obsolete", "vanished")
            or not translation(message).strip()]
    assert left == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ts_holds_exactly_what_the_code_marks_for_translation(language, fresh_ts):
    """New strings in ui/ must be translated; strings the code no longer has must go."""
    committed = set(messages(TS_DIR / f"turnlog_{language}.ts"))
    now = set(messages(fresh_ts))
    assert sorted(now - committed) == []  # in the code, not in the translations
    assert sorted(committed - now) == []  # in the translations, gone from the code


def literal_translations() -> set[tuple[str, str, str]]:
    """Every translate("Context", "text") and QT_TRANSLATE_NOOP in ui/, read from the code
    itself (lupdate silently skips a call it cannot parse)."""
    found = set()
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            context, text = node.args[0], node.args[1]
            if name in ("translate", "QT_TRANSLATE_NOOP") and isinstance(context, ast.Constant) \
                    and isinstance(text, ast.Constant) and isinstance(text.value, str):
                comment = node.args[2] if len(node.args) > 2 else None
                found.add((context.value, text.value,
                           comment.value if isinstance(comment, ast.Constant)
                           and isinstance(comment.value, str) else ""))
    return found


def test_every_translate_call_in_the_code_reaches_the_translations(fresh_ts):
    assert len(literal_translations()) > 500
    assert sorted(literal_translations() - set(messages(fresh_ts))) == []


def test_no_text_goes_through_a_helper_lupdate_reads_with_another_context():
    """lupdate takes a bare `tr("…")` for QObject.tr and files it under the enclosing class
    (or no context): a module's own `tr`/`_tr` helper with a fixed context would never find
    its translations. Strings go through translate("Context", "…")."""
    offenders = []
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("tr", "_tr", "_") and node.args \
                    and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_no_translated_text_is_an_f_string():
    """An f-string (or a formatted string) as the source text can never match a
    translation: numbers go in with %1 after translating."""
    offenders = []
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and len(node.args) >= 2 and getattr(
                    node.func, "attr", getattr(node.func, "id", "")) == "translate" \
                    and isinstance(node.args[1], ast.JoinedStr | ast.BinOp):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_placeholders_and_shortcut_letters(language):
    wrong = []
    for (context, source, _), message in messages(TS_DIR / f"turnlog_{language}.ts").items():
        text = translation(message)
        if sorted(set(re.findall(r"%(?:\d|n)", source))) != \
                sorted(set(re.findall(r"%(?:\d|n)", text))):
            wrong.append((context, source, text))
        if re.search(r"&\w", source) and "<a " not in source and not re.search(r"&\w", text):
            wrong.append((context, source, text))
    assert wrong == []


def test_traditional_chinese_uses_taiwan_words_not_converted_mainland_ones():
    """zh_TW is written for Taiwan: its own words for settings, files, folders, search,
    servers, networks, copying, import and export, not zh_CN turned into Traditional
    characters."""
    taiwan = " ".join(translation(m) for m in messages(TS_DIR / "turnlog_zh_TW.ts").values())
    mainland = " ".join(translation(m) for m in messages(TS_DIR / "turnlog_zh_CN.ts").values())
    for word in ("設定", "檔案", "資料夾", "預設", "伺服器", "網路", "程式", "複製", "貼上",
                 "視窗", "搜尋", "匯入", "匯出", "訊息", "位元組"):
        assert word in taiwan, word
    # Mainland words in Traditional characters would read as a character conversion.
    for word in ("設置", "文件夾", "默認", "服務器", "網絡", "搜索", "導入", "導出", "窗口",
                 "字節", "粘貼", "消息"):
        assert word not in taiwan, word
    for word in ("设置", "文件夹", "默认", "服务器", "网络", "搜索", "导入", "导出", "字节"):
        assert word in mainland, word


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_packaged_qm_is_what_lrelease_builds_from_the_ts(language, tmp_path):
    """Compared by content, not by file times (a fresh clone sets any times)."""
    built = tmp_path / f"turnlog_{language}.qm"
    subprocess.run([pyside_tool("lrelease"), "-silent", str(TS_DIR / f"turnlog_{language}.ts"),
                    "-qm", str(built)], check=True, timeout=300)
    packaged = QM_DIR / f"turnlog_{language}.qm"
    assert packaged.read_bytes() == built.read_bytes(), \
        "run: python resources/translations/tool.py release"


# ------------------------------------------------------------------ core's words
def hints_below_the_window() -> set[str]:
    """Hint sentences written in core, providers, store, localmodel and the shared send
    wiring: `hint=` arguments, `hint = ` attributes and constants named *_HINT."""
    found: set[str] = set()
    package = ROOT / "desktop" / "turnlog"
    for path in package.rglob("*.py"):
        if path.relative_to(package).parts[0] in ("ui", "cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keyword = isinstance(node, ast.keyword) and node.arg == "hint"
            assigned = isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and (t.id == "hint" or t.id.endswith("_HINT"))
                for t in node.targets)
            value = node.value if keyword or assigned else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
                found.add(value.value)
    return found


def test_every_failure_title_hint_and_stage_from_below_the_window_is_listed():
    assert set(_TITLES.values()) <= set(failure_text.TITLES)
    assert len(_TITLES) == len(FailureKind)
    hints = hints_below_the_window()
    assert len(hints) > 25
    assert sorted(hints - set(failure_text.HINTS)) == []
    assert {stage.value for stage in Stage} <= set(failure_text.STAGES)


@pytest.fixture
def chinese(qapp):
    """Install the zh_CN translations (as a start with that language remembered does);
    English again afterwards."""
    yield lambda language="zh_CN": languages.install(language)
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


def test_failure_words_and_templates_are_translated(chinese):
    from turnlog.core.failures import Failure, rate_limit_hint

    assert failure_text.hint(rate_limit_hint(7.2)) == "Retry after 7 s"  # English: unchanged
    chinese("zh_CN")
    failure = Failure(FailureKind.RATE_LIMITED, detail="slow down", hint=rate_limit_hint(7.2),
                      stage="compacting")
    assert failure_text.title(failure) == "请求过于频繁，已被限流"
    assert failure_text.hint(failure.hint) == "请在 7 秒后重试"
    assert failure_text.stage("chunk 2 of 5") == "第 2/5 块"
    assert failure_text.explanation(failure) == "在压缩时：slow down。请在 7 秒后重试。"
    assert failure_text.detail("no answer began within 30 s") == "30 秒内回答没有开始"
    # What a server said stays as it came.
    assert failure_text.hint("Something only the server knows") == \
        "Something only the server knows"
    chinese("zh_TW")
    assert failure_text.title(failure) == "請求太頻繁，已被限制速率"
    assert failure_text.hint(failure.hint) == "請在 7 秒後重試"


# ------------------------------------------------------------------ the window
def remember(home: Path, language: str) -> None:
    settings = window_settings(home)
    settings.setValue(languages.SETTING, language)
    settings.sync()


def chinese_texts(widget) -> list[str]:
    return [text for text in widget if HAN.search(text)]


def menu_texts(window) -> list[str]:
    texts = []
    for action in window.menuBar().actions():
        texts.append(action.text())
        menu = action.menu()
        for item in menu.actions() if menu is not None else []:
            if not item.isSeparator() and item.text():
                texts.append(item.text())
    return texts


@pytest.mark.parametrize(("language", "banner_title", "settings_word", "language_menu"), [
    ("zh_CN", "请求过于频繁，已被限流", "设置", "语言(&L)"),
    ("zh_TW", "請求太頻繁，已被限制速率", "設定", "語言(&L)"),
])
def test_the_window_speaks_the_remembered_language(qtbot, make_window, store, loopback,
                                                  turnlog_home, chinese, language,
                                                  banner_title, settings_word, language_menu):
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.ui.dialogs.settings import SettingsDialog
    from turnlog.ui.request.provider_setup import ProviderSetup
    from uihelpers import seed

    remember(turnlog_home, language)
    assert languages.install_for(turnlog_home) == language  # what the start does
    seed(store, "chat", [("Hi", "Hello")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)

    texts = menu_texts(window)
    untranslated = [t for t in texts if not HAN.search(t) and t not in (
        "English", "简体中文", "繁體中文")]
    assert untranslated == []
    assert language_menu in texts
    assert HAN.search(window.composer.send_button.text())
    assert HAN.search(window.sidebar_dock.windowTitle())
    assert HAN.search(window.inspector.heading.text())

    loopback.script(Behaviour.rate_limited("7"))
    window.composer.set_draft("你好")
    window.refresh_preview()
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert window.banner.isVisible()
    assert window.banner.title.text() == banner_title
    assert HAN.search(window.banner.message.text())
    assert HAN.search(window.banner.retry_button.text())

    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=SessionKeys())
    dialog = SettingsDialog(setup, window.runner, window.conversation, window)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == settings_word
    editor = dialog.providers.add_profile("custom")
    labels = [editor.base_url.accessibleName(), editor.key.accessibleName(),
              dialog.compaction.text(), editor.fetch.text()]
    assert all(HAN.search(label) for label in labels), labels
    # Qt's own words: the standard buttons come from Qt's translations.
    cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel is not None and cancel.text() == "取消"
    editor.reject()


def test_view_language_lists_the_choices_and_remembers_one_for_the_next_start(
        qtbot, make_window, turnlog_home):
    window = make_window()
    menu = next(action.menu() for action in window.view_menu.actions()
                if action.menu() is not None and action.menu().objectName() == "languageMenu")
    note, *rest = [a for a in menu.actions() if not a.isSeparator()]
    assert not note.isEnabled() and "starts again" in note.text()
    assert [a.text() for a in rest] == ["System language", "English", "简体中文", "繁體中文"]
    assert [a.isChecked() for a in rest] == [True, False, False, False]
    window.confirm = lambda confirmation: Decision(False)  # Restart now? Later
    rest[3].trigger()
    assert [a.isChecked() for a in rest] == [False, False, False, True]
    assert languages.chosen(window_settings(turnlog_home)) == "zh_TW"
    assert window.menuBar().actions()[0].text() == "&File"  # applied on the next start


@pytest.mark.parametrize(("name", "expected"), [
    ("zh_CN", "zh_CN"), ("zh_SG", "zh_CN"), ("zh_TW", "zh_TW"), ("zh_HK", "zh_TW"),
    ("zh_Hant_MO", "zh_TW"), ("en_GB", "en"), ("de_DE", "en"), ("C", "en"),
])
def test_the_system_locale_picks_the_language(name, expected):
    assert languages.language_of(QLocale(name)) == expected
    assert languages.effective(languages.SYSTEM, QLocale(name)) == expected
    assert languages.effective("zh_CN", QLocale(name)) == "zh_CN"


# ------------------------------------------------------------------ locale formats
def test_numbers_dates_and_sizes_follow_the_locale(chinese):
    from datetime import UTC, datetime

    when = datetime(2026, 3, 4, 5, 6, tzinfo=UTC)
    assert languages.number(1234567) == "1,234,567"  # the C locale writes as English does
    assert languages.date_time(when) == when.astimezone().strftime("%Y-%m-%d %H:%M")
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    assert languages.number(1234567) == "1.234.567"
    assert languages.number(0.25, 2) == "0,25"
    assert languages.byte_size(1_500_000) == "1,5 MB"
    assert languages.arg("%1 of %2 bytes", 1234, 5678) == "1.234 of 5.678 bytes"
    from turnlog.service.transfer import Progress
    from turnlog.ui.dialogs.import_export import progress_text

    # An import's progress says how much of the file was read in the locale's sizes.
    assert progress_text(Progress("reading", 1_500_000, 3_000_000)) == \
        "Checking the file… 1,5 MB of 3,0 MB"
    german = languages.date_time(when)
    chinese("zh_CN")
    shown = languages.date_time(when)
    assert shown != german
    assert shown == QLocale("zh_CN").toString(
        QDateTime.fromSecsSinceEpoch(int(when.timestamp())), QLocale.FormatType.ShortFormat)
    assert languages.byte_size(1_500_000) == "1.5 MB"


def test_the_inspector_writes_sizes_in_the_locale_s_digits(qtbot, make_window, store, chinese):
    from uihelpers import seed

    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    seed(store, "chat", [("Frage " * 300, "Antwort " * 300)])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    window.composer.set_draft("Noch eine Frage")
    window.refresh_preview()
    qtbot.waitUntil(lambda: window.inspector.bytes_label.text().startswith("Body: "),
                    timeout=5000)
    label = window.inspector.bytes_label.text()
    assert re.fullmatch(r"Body: \d{1,3}(\.\d{3})+ of \d{1,3}(\.\d{3})+ bytes", label), label
    assert QCoreApplication.translate("Inspector", "Bytes") == "Bytes"


def test_a_narrow_chinese_window_shows_the_model_name_from_its_start(
        qtbot, make_window, store, turnlog_home, chinese):
    from turnlog.ui.conversation.header import sampling_summary
    from uihelpers import seed

    remember(turnlog_home, "zh_CN")
    languages.install_for(turnlog_home)
    conversation = seed(store, "chat", [("你好", "你好！")], model="qwen2.5-7b-instruct")
    window = make_window(size=(480, 844))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    model = window.centre.header.model
    assert model.currentText() == "qwen2.5-7b-instruct"
    assert model.lineEdit().cursorPosition() == 0
    sampling = window.centre.header.sampling
    assert sampling.toolTip() == sampling.full_text() == sampling_summary(conversation.settings)
    assert sampling.text().startswith("采样")  # whole, or cut at its end (a narrow window)


def test_names_turnlog_gives_profiles_are_listed_and_shown_translated(chinese):
    from turnlog.core.builtin_model import BUILTIN as BUILTIN_MODEL
    from turnlog.providers.presets import CUSTOM, LLAMA_CPP
    from turnlog.ui.dialogs.about import CAVEATS
    from turnlog.ui.request.connection import GIVEN_NAMES, shown_name

    assert {BUILTIN_MODEL.profile_name, CUSTOM.name, LLAMA_CPP.name} <= set(GIVEN_NAMES)
    assert BUILTIN_MODEL.caveat in CAVEATS
    chinese("zh_TW")
    assert shown_name(BUILTIN_MODEL.profile_name) == "內建（SmolLM2-135M，離線）"
    assert shown_name(LLAMA_CPP.name) == "llama.cpp 伺服器"
    assert shown_name("My server") == "My server"  # a name the person typed stays


def details_below_the_window() -> set[str]:
    """Turnlog's own sentences for what happened, written below the window: `detail=`
    arguments, `detail = ` assignments and the detail argument of a provider's
    `_failure(kind, detail, …)`; a server's words never appear as literals."""
    found: set[str] = set()
    package = ROOT / "desktop" / "turnlog"
    for path in package.rglob("*.py"):
        if path.relative_to(package).parts[0] in ("ui", "cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values: list[ast.expr] = []
            keyword = isinstance(node, ast.keyword) and node.arg == "detail"
            assigned = isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "detail" for t in node.targets)
            if keyword or assigned:
                values.append(node.value)  # type: ignore[union-attr]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "_failure" and len(node.args) >= 2):
                values.append(node.args[1])
            found |= {v.value for v in values
                      if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value}
    return found


def test_every_detail_turnlog_writes_below_the_window_is_listed():
    """Before: the zh_TW banner read "The stream ended before the reply said it was
    finished。請重新傳送。" — a detail written in providers but never listed."""
    details = details_below_the_window()
    assert len(details) > 8
    assert sorted(details - set(failure_text.DETAILS)) == []
