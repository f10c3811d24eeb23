"""The application font's family list: a Latin family first, then the CJK family of the
interface language, then colour emoji.

Every CJK family also has Latin letters and punctuation, drawn in full-width shapes: with
a CJK family (or a generic name such as "Sans Serif", which fontconfig may resolve to
one) first, English curly quotes come out as wide CJK quotes ("Delete “New chat”?"). A
Latin family first draws English in Latin shapes, and Qt falls back to the CJK family for
Chinese only — in its Simplified shapes for zh_CN and by default, Traditional for zh_TW.
"""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QTextLayout

LATIN_FAMILIES = ("Noto Sans", "DejaVu Sans", "Liberation Sans", "Cantarell", "Ubuntu",
                  "Segoe UI", "Helvetica Neue", "Arial")
SIMPLIFIED = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC")
TRADITIONAL = ("Noto Sans CJK TC", "Source Han Sans TC", "Noto Sans TC",
               "Noto Sans CJK HK", "Source Han Sans HC")
OTHER_CJK = ("Noto Sans CJK JP", "Noto Sans CJK KR")
CJK_FAMILIES = SIMPLIFIED + TRADITIONAL + OTHER_CJK
EMOJI_FAMILIES = ("Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji")
_CJK_SYSTEMS = (QFontDatabase.WritingSystem.SimplifiedChinese,
                QFontDatabase.WritingSystem.TraditionalChinese,
                QFontDatabase.WritingSystem.Japanese, QFontDatabase.WritingSystem.Korean)


def cjk_order(language: str) -> tuple[str, ...]:
    """The CJK families in the order the interface language wants them."""
    if language == "zh_TW":
        return TRADITIONAL + SIMPLIFIED + OTHER_CJK
    return SIMPLIFIED + TRADITIONAL + OTHER_CJK


def _is_cjk(family: str) -> bool:
    """Whether `family` is a CJK family, or a name (such as "Sans Serif") that draws
    English punctuation from one."""
    systems = QFontDatabase.writingSystems(family)
    if family in CJK_FAMILIES or any(system in systems for system in _CJK_SYSTEMS):
        return True
    return any(_is_cjk_name(run) for run in drawn_by(QFont(family), "“Latin”"))


def _is_cjk_name(family: str) -> bool:
    return family in CJK_FAMILIES or "CJK" in family


def drawn_by(font: QFont, text: str) -> list[str]:
    """The families that draw `text` in `font`, run by run."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return [run.rawFont().familyName() for run in layout.glyphRuns()]


def family_list(platform: str, available: Collection[str], language: str = "") -> list[str]:
    """The families for the application font: the platform's UI family (what a generic
    name stands for) when it is a Latin family, else the first Latin family installed;
    then the CJK families of `language`; then colour emoji."""
    # A generic name ("Sans Serif") is no family of its own: in a list, Qt skips it for
    # the next real family, a CJK one. What it stands for alone takes its place.
    drawn = drawn_by(QFont(platform), "Latin") if platform else []
    resolved = drawn[0] if drawn else platform
    latin = [resolved] if resolved in available and not _is_cjk(resolved) else []
    if not latin:
        latin = [f for f in LATIN_FAMILIES if f in available][:1]
    cjk = [f for f in cjk_order(language) if f in available]
    emoji = [f for f in EMOJI_FAMILIES if f in available]
    families: list[str] = []
    for family in [*latin, *cjk, *emoji]:
        if family not in families:
            families.append(family)
    return families or [platform]


def configure_fonts(app: QGuiApplication, language: str = "") -> list[str]:
    """Give the application font its family list (`family_list`) for `language` (the
    interface language: "zh_TW" puts Traditional shapes first). Returns the list."""
    available = set(QFontDatabase.families())
    font = QFont(app.font())
    families = family_list(font.family(), available, language)
    font.setFamilies(families)
    app.setFont(font)
    emoji = [f for f in EMOJI_FAMILIES if f in available]
    if emoji:
        # Emoji presentation goes to a colour font even where the text font has a
        # monochrome glyph for the same code point.
        QFontDatabase.setApplicationEmojiFontFamilies(emoji)
    return families


def cjk_family(font: QFont) -> str | None:
    """The CJK family `font` falls back to for Chinese (None: it has none)."""
    for family in font.families() or [font.family()]:
        if family in CJK_FAMILIES:
            return family
    available = set(QFontDatabase.families())
    return next((f for f in CJK_FAMILIES if f in available), None)
