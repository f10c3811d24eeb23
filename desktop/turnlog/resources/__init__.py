"""Files the application loads at run time (icons), read through `importlib.resources` so
an installed wheel finds them as well as a source checkout."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from .. import APP_ID

# The sizes the application icon is shipped at, as the PNG files `app_icon_png` reads
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)


def resource(name: str) -> Traversable:
    """The packaged file `name` (it may live in a wheel, a zip or a source tree)."""
    return files(__name__).joinpath(name)


def app_icon_png(size: int) -> bytes:
    """The application icon at `size`×`size` pixels (one of `ICON_SIZES`), as PNG bytes
    (b"" if the installation cannot be read: a missing icon never stops the app).

    Rendered from `APP_ID.svg` by packaging/render_icons.py, pixel for pixel what Qt's
    SVG reader makes of it, so a start needs no SVG reader for its icon:
    `python packaging/render_icons.py desktop/turnlog/resources/APP_ID.svg
    desktop/turnlog/resources/icons 16 24 32 48 64 128 256` after a change of the SVG."""
    try:
        return resource(f"icons/{size}x{size}/apps/{APP_ID}.png").read_bytes()
    except OSError:
        return b""
