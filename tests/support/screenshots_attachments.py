"""The README's attachments screenshot: a question with an image and a PDF in the history
(their lines under the question), a draft with both as chips, and the inspector listing
each file as a part of the body with its bytes, tokens and a thumbnail.

    .venv/bin/python tests/support/screenshots_attachments.py [OUT_DIR]

Seeds a data directory (a provider profile, a conversation whose turn carries the files,
the draft with them), then starts the app under a virtual X server and saves
`attachments-en-1280x720.png`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import places

HERE = Path(__file__).resolve().parent
SHOT = "attachments-en-1280x720.png"


def seed(home: Path) -> None:
    sys.path.insert(0, str(HERE))
    from attachfiles import pdf_bytes
    from turnlog.config.profiles import ProfileStore, new_profile
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import PendingTurn
    from turnlog.formats.file_reading import read_bytes
    from turnlog.providers import CUSTOM
    from turnlog.store import TurnlogStore, drafts

    ProfileStore(home).put(new_profile(CUSTOM, model="gpt-4o", name="Vision server",
                                       base_url="http://127.0.0.1:18099/v1"))
    chart = read_bytes("sales-chart.png", chart_png())
    report = read_bytes("q3-report.pdf", pdf_bytes([
        "Q3 report: revenue 4.2 M, up 12 percent on Q2.", None,
        "Outlook: hiring two engineers; the Lisbon office opens in March."]))
    with TurnlogStore.open(home) as store:
        conversation = store.conversations.create(
            "Quarterly review", model="gpt-4o",
            settings=ConversationSettings(max_bytes=600_000, context_window=128_000))
        store.turns.commit(conversation.id, PendingTurn(
            "shot-1", "Here is the chart and the report. What stands out?",
            "Revenue rose **12 %** to 4.2 M; the chart shows the jump in August. Page 2 of "
            "the report is a scan without a text layer, so I read pages 1 and 3 only.",
            "gpt-4o", "stop", Usage(1_310, 64, 1_374), datetime.now(UTC),
            attachments=(chart, report)))
        store.attachments.save_draft(conversation.id, [chart, report])
    drafts.save_draft(home, conversation.id, "Compare August with the Q3 numbers in the PDF.")


def chart_png() -> bytes:
    """A bar chart drawn with Pillow: four months, August the tallest."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (960, 540), (250, 250, 252))
    draw = ImageDraw.Draw(image)
    for i, (height, colour) in enumerate([(180, (90, 130, 200)), (220, (90, 130, 200)),
                                          (400, (230, 120, 60)), (260, (90, 130, 200))]):
        left = 140 + i * 190
        draw.rectangle([left, 470 - height, left + 120, 470], fill=colour)
    draw.line([100, 470, 900, 470], fill=(60, 60, 60), width=3)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        seed(home)
        env = {**os.environ, "TURNLOG_HOME": str(home), "LANG": "en_US.UTF-8"}
        tool = Path("/work/shared/tools/screenshot.sh")
        command = [str(tool), str(out / SHOT), "7", "1280x720", "--", sys.executable, "-m",
                   "turnlog"]
        return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else
                  places.ROOT / "resources" / "screenshots" / "attachments"))
