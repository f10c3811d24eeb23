"""The screenshot script runs under a real X server and writes the three pictures."""

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
def test_screenshots_are_written_at_the_promised_sizes(tmp_path):
    script = SUPPORT / "screenshots.py"
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, timeout=900)
    assert png_size(tmp_path / "main-1280x720.png") == (1280, 720)
    assert png_size(tmp_path / "narrow-480x844.png") == (480, 844)
    assert png_size(tmp_path / "failure-banner.png") == (1280, 720)
    assert png_size(tmp_path / "picker-1280x720.png") == (1280, 720)
    for language in ("en", "zh"):
        assert png_size(tmp_path / f"answers-{language}-1280x720.png") == (1280, 720)
    for language in ("zh", "en"):
        assert png_size(tmp_path / f"memory-{language}-1280x720.png") == (1280, 720)
        assert png_size(tmp_path / f"versions-{language}-1280x720.png") == (1280, 720)
    assert png_size(tmp_path / "side-question-1280x720.png") == (1280, 720)
    for language in ("zh_CN", "zh_TW"):
        assert png_size(tmp_path / f"{language}-main-1280x720.png") == (1280, 720)
        assert png_size(tmp_path / f"{language}-failure-1280x720.png") == (1280, 720)
        for name in ("main", "failure"):
            assert png_size(tmp_path / f"{language}-{name}-480x844.png") == (480, 844)
        assert png_size(tmp_path / f"{language}-inspector-1280x720.png")[1] > 600
        assert png_size(tmp_path / f"{language}-settings.png")[0] > 300
        assert png_size(tmp_path / f"{language}-settings-480.png")[0] == 480
    sys.path.insert(0, str(script.parent))
    from screenshots_everyday import LANGUAGES, NAMES, SIZES, shot_name

    # A task list under long profile and model names, the shortcuts filtered for Enter and
    # both delete questions: the whole screen each, as a person meets them.
    assert {"tasks", "shortcuts", "delete-conversation", "delete-history"} <= set(NAMES)
    for language in LANGUAGES:
        for size in SIZES:
            for name in NAMES:
                found = png_size(tmp_path / shot_name(language, size, name))
                if name == "presets":  # the nine editors side by side, in rows
                    assert found[0] > size[0] and found[1] > size[1] // 2
                else:
                    assert found == size
