"""The README's summary screenshots are made under a real X server, at each promised size."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from places import SUPPORT

pytestmark = pytest.mark.xserver


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_summary_screenshots_are_written_in_both_languages_and_sizes(tmp_path):
    script = SUPPORT / "screenshots_summaries.py"
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, timeout=900)
    sys.path.insert(0, str(script.parent))
    from screenshots_summaries import LANGUAGES, NAMES, SIZES, shot_name

    for language in LANGUAGES:
        for size in SIZES:
            for name in NAMES:
                assert png_size(tmp_path / shot_name(language, size, name)) == size
