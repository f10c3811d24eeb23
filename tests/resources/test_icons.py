"""The application icon inside the package: a PNG at each size the window offers, each
what Qt's SVG reader makes of the SVG at that size (so they cannot drift from it), and a
start builds the window's icon from them without loading Qt's SVG reader."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QSize
from PySide6.QtGui import QImage, QImageReader

from turnlog import APP_ID
from turnlog.app import packaged_icon
from turnlog.resources import ICON_SIZES, app_icon_png, resource


def from_svg(size: int) -> QImage:
    """The SVG icon at `size` as Qt's SVG reader renders it (as the window showed it)."""
    data = QByteArray(resource(f"{APP_ID}.svg").read_bytes())
    buffer = QBuffer(data)
    reader = QImageReader(buffer, QByteArray(b"svg"))
    reader.setScaledSize(QSize(size, size))
    image = reader.read()
    assert not image.isNull(), reader.errorString()
    return image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)


def largest_difference(one: QImage, other: QImage) -> int:
    """The largest difference of one colour channel (0–255) at one pixel."""
    assert one.size() == other.size()
    converted = [image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
                 for image in (one, other)]  # kept while their bits are read
    first, second = (bytes(image.constBits()) for image in converted)
    return max(abs(a - b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("size", ICON_SIZES)
def test_each_packaged_png_is_the_svg_rendered_at_its_size(qapp, size: int) -> None:
    png = QImage.fromData(app_icon_png(size), "PNG")
    assert png.size() == QSize(size, size)
    rendered = from_svg(size)
    # a premultiplied colour stored straight in the PNG and read back: ±1 at most
    assert largest_difference(png, rendered) <= 1
    assert png.pixelColor(size // 2, size // 2).alpha() > 0  # painted, not empty


def test_the_window_icon_offers_each_size_as_the_svg_drew_it(qapp) -> None:
    icon = packaged_icon()
    assert sorted(s.width() for s in icon.availableSizes()) == list(ICON_SIZES)
    for size in ICON_SIZES:
        shown = icon.pixmap(size, size).toImage()
        assert largest_difference(shown, from_svg(size)) <= 1, size


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/self/maps")
def test_a_start_sets_the_window_icon_without_loading_qts_svg_reader() -> None:
    script = textwrap.dedent("""
        from turnlog.app import application
        app = application(["turnlog"])
        print(sorted(s.width() for s in app.windowIcon().availableSizes()))
        maps = open("/proc/self/maps").read()
        print("svg reader loaded" if "imageformats/libqsvg" in maps else "no svg reader")
    """)
    env = {key: value for key, value in os.environ.items() if not key.startswith("QT_")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**env, "QT_QPA_PLATFORM": "offscreen"}, timeout=120,
                          check=True)
    assert done.stdout.splitlines() == [str(list(ICON_SIZES)), "no svg reader"]
