"""Render the application icon to the PNG sizes of the hicolor theme.

Usage: python render_icons.py ICON.svg OUT_DIR 48 128 256
Writes OUT_DIR/<size>x<size>/apps/<name>.png with Qt's SVG renderer (headless).

The package keeps its own renders in desktop/turnlog/resources/icons (the window's icon,
read without loading Qt's SVG reader): made the same way, at the sizes of
`turnlog.resources.ICON_SIZES`, and checked against the SVG by tests/resources/test_icons.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402


def render(svg: Path, out: Path, sizes: list[int]) -> list[Path]:
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: {svg} is not a valid SVG")
    written = []
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = out / f"{size}x{size}" / "apps" / f"{svg.stem}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise SystemExit(f"render_icons: could not write {target}")
        written.append(target)
    return written


if __name__ == "__main__":
    app = QGuiApplication(sys.argv[:1])
    for path in render(Path(sys.argv[1]), Path(sys.argv[2]), [int(s) for s in sys.argv[3:]]):
        print(path)
