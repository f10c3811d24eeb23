"""Under a window manager the first window fits the screen with its frame: title bar and
borders included, nothing (Send, Stop, the inspector's tabs) is cut off at the bottom of
a 1280×720 screen. Runs Xvfb with openbox; skipped where either is missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from places import SUPPORT

pytestmark = pytest.mark.xserver

DISPLAY = ":87"


@pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("openbox") is None,
                    reason="needs Xvfb and openbox")
def test_the_first_window_and_its_frame_fit_a_1280x720_screen(tmp_path):
    server = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1280x720x24", "-nolisten",
                               "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {**os.environ, "DISPLAY": DISPLAY, "QT_QPA_PLATFORM": "xcb",
           "TURNLOG_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    manager = None
    try:
        time.sleep(0.5)
        manager = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(0.8)
        script = SUPPORT / "framed_window.py"
        done = subprocess.run([sys.executable, str(script), str(tmp_path / "home")], env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        found = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        for process in (manager, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    fx, fy, fw, fh = found["frame"]
    ax, ay, aw, ah = found["area"]
    ix, iy, iw, ih = found["inner"]
    assert fh > ih, found  # the window manager did put a frame round it
    assert ax <= fx and ay <= fy and fx + fw <= ax + aw and fy + fh <= ay + ah, found
    assert found["send_bottom"] < found["window_height"], found  # Send is not cut off
    assert iw >= 1200 and ih >= 600, found  # fitted, not shrunk more than the frame needs
