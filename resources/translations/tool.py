"""Keep the interface translations in step with the code.

    python resources/translations/tool.py update     # lupdate: the .ts gain new strings, lose vanished ones
    python resources/translations/tool.py fill FILE  # put translations from FILE (JSON) into the .ts
    python resources/translations/tool.py release    # lrelease: build the .qm inside the package
    python resources/translations/tool.py todo       # list what is not translated yet

FILE maps "context\\x04source" (with "\\x04comment" when there is one) to
{"zh_CN": "…", "zh_TW": "…"}. The .ts files are the translations' source of truth; the .qm
files are built from them and committed (tests/resources/test_translations.py checks they match).
The tools are PySide6's own `pyside6-lupdate` and `pyside6-lrelease`, found beside Python.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TS_DIR = ROOT / "resources" / "translations"
QM_DIR = ROOT / "desktop" / "turnlog" / "resources" / "translations"
SOURCES = ROOT / "desktop" / "turnlog" / "ui"
LANGUAGES = ("zh_CN", "zh_TW")


def tool(name: str) -> str:
    """`pyside6-<name>` beside this Python (a virtual environment's bin/), else on PATH."""
    here = Path(sys.executable).parent / f"pyside6-{name}"
    found = str(here) if here.exists() else shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"pyside6-{name} not found (install PySide6)")
    return found


def ts_path(language: str, folder: Path = TS_DIR) -> Path:
    return folder / f"turnlog_{language}.ts"


def qm_path(language: str, folder: Path = QM_DIR) -> Path:
    return folder / f"turnlog_{language}.qm"


def sources() -> list[str]:
    return sorted(str(path) for path in SOURCES.rglob("*.py"))


def lupdate(targets: list[Path]) -> None:
    """Scan ui/ and every room below it into `targets` (existing translations are kept,
    vanished ones dropped)."""
    for target in targets:
        language = target.stem.removeprefix("turnlog_")
        subprocess.run([tool("lupdate"), "-silent", "-locations", "none", "-no-obsolete",
                        "-target-language", language, *sources(), "-ts", str(target)],
                       check=True, timeout=300)


def lrelease(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([tool("lrelease"), "-silent", str(source), "-qm", str(target)],
                   check=True, timeout=300)


def key(message: ET.Element, context: str) -> str:
    parts = [context, message.findtext("source") or ""]
    comment = message.findtext("comment")
    if comment:
        parts.append(comment)
    return "\x04".join(parts)


def messages(ts: Path) -> list[tuple[str, ET.Element]]:
    root = ET.parse(ts).getroot()
    return [(context.findtext("name") or "", message)
            for context in root.iter("context") for message in context.iter("message")]


def fill(table: dict[str, dict[str, str]]) -> None:
    """Write the translations of `table` into each language's .ts (finished)."""
    for language in LANGUAGES:
        path = ts_path(language)
        tree = ET.parse(path)
        for context in tree.getroot().iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                text = table.get(key(message, name), {}).get(language)
                if text is None:
                    continue
                translation = message.find("translation")
                assert translation is not None
                translation.attrib.pop("type", None)
                for child in list(translation):
                    translation.remove(child)
                if message.get("numerus") == "yes":
                    translation.text = None
                    form = ET.SubElement(translation, "numerusform")
                    form.text = text
                else:
                    translation.text = text
        ET.indent(tree, space="    ")
        with path.open("wb") as handle:
            handle.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
            tree.write(handle, encoding="utf-8", xml_declaration=False)
            handle.write(b"\n")


def unfinished(ts: Path) -> list[str]:
    return [key(message, context) for context, message in messages(ts)
            if (message.find("translation") is None
                or message.find("translation").get("type") in ("unfinished", "obsolete",
                                                               "vanished"))]


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "update":
        lupdate([ts_path(language) for language in LANGUAGES])
    elif command == "fill" and len(argv) == 3:
        fill(json.loads(Path(argv[2]).read_text(encoding="utf-8")))
    elif command == "release":
        for language in LANGUAGES:
            lrelease(ts_path(language), qm_path(language))
    elif command == "todo":
        todo = sorted({k for language in LANGUAGES for k in unfinished(ts_path(language))})
        print(json.dumps(todo, ensure_ascii=False, indent=1))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
