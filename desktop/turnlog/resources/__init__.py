"""Files the application loads at run time (icons), read through `importlib.resources` so
an installed wheel finds them as well as a source checkout."""

from __future__ import annotations

import functools
from importlib.resources import files
from importlib.resources.abc import Traversable

from .. import APP_ID


def resource(name: str) -> Traversable:
    """The packaged file `name` (it may live in a wheel, a zip or a source tree)."""
    return files(__name__).joinpath(name)


@functools.cache
def app_icon_svg() -> bytes:
    """The application icon, scalable, as `APP_ID.svg` bytes (read once; b"" if the
    installation cannot be read: a missing icon never stops the app)."""
    try:
        return resource(f"{APP_ID}.svg").read_bytes()
    except OSError:
        return b""
