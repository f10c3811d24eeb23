"""A ChatGPT `.zip` imported after its `conversations.json`: the images the JSON lacked are
attached to the turns it brought in, as an appended, dated record — the turn itself
unchanged, a request made before still rebuilding to the body it sent, a request made
after carrying the image, the history and `turnlog-cli show` marking the file as added by
import on its day, a second import adding nothing and a privacy delete removing it."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zipfile
from datetime import datetime

import chatgpt_export as gpt
from attachfiles import png_bytes
from privacy_scan import scan
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import rebuild, record_of_turn
from turnlog.service.transfer import import_file
from turnlog.store import TurnlogStore

ROUTE = Route("loopback-model")
MARK = "TEMPLE-PIXELS-7731"
PHOTO = png_bytes(40, 30, marker=MARK)


def zip_with_image(path):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", PHOTO)
    return path


def send(store, loopback, conv_id, question):
    request = request_for(store.conversations.get(conv_id), question, ROUTE)
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                         CostIndex()).send(request)
    assert isinstance(outcome, Committed), outcome
    return outcome


def turn_rows(store, conv_id):
    return store.db.execute_sql(
        "SELECT id, ordinal, question, answer, created_at FROM turns WHERE conversation_id = ? "
        "ORDER BY ordinal", (conv_id,)).fetchall()


def show(conv_id):
    return subprocess.run([sys.executable, "-m", "turnlog.cli", "show", str(conv_id)],
                          capture_output=True, text=True, timeout=120, env=os.environ.copy())


def test_the_zip_after_its_json_adds_its_images_as_a_dated_record(turnlog_home, loopback,
                                                                   tmp_path):
    with TurnlogStore.open(turnlog_home) as store:
        import_file(store, gpt.write_json(tmp_path / "conversations.json", gpt.conversations()))
        [conv] = [c for c in store.conversations() if c.title == "Trip to Kyoto"]
        before_turns = turn_rows(store, conv.id)
        earlier = send(store, loopback, conv.id, "Tell me more about that temple.")
        record = record_of_turn(store, conv.id, earlier.turn.id)
        sent_then = rebuild(store.records.sources(record))
        assert sent_then.verified

        report = import_file(store, zip_with_image(tmp_path / "export.zip"))
        assert "attached 1 image to 1 earlier imported turn" in report.summary()
        assert "not attached" not in report.summary()
        assert turn_rows(store, conv.id)[:len(before_turns)] == before_turns  # not rewritten
        [temple] = [t for t in store.turns(conv.id) if t.question.endswith("Which temple is this?")]
        [photo] = temple.attachments
        assert photo.added_at and store.attachments.original(photo.digest) == PHOTO

        # The request made before rebuilds to the very bytes it sent, still proven.
        again = rebuild(store.records.sources(record))
        assert again.verified and again.body == sent_then.body
        # One made now carries the image with its turn.
        since = len(loopback.requests)
        send(store, loopback, conv.id, "And the pond?")
        wire = b"".join(r.body for r in loopback.requests[since:])
        assert base64.b64encode(PHOTO)[:60] in wire

        # The same zip again adds nothing.
        second = import_file(store, tmp_path / "export.zip")
        assert "attached" not in second.summary().split("files attached", 1)[1]
        count = store.db.execute_sql("SELECT count(*) FROM turn_attachments").fetchone()[0]
        assert count == 1
        conv_id = conv.id

    shown = show(conv_id)
    assert shown.returncode == 0, shown.stderr
    today = datetime.fromisoformat(photo.added_at).astimezone().strftime("%Y-%m-%d")
    assert f"added by import on {today}" in shown.stdout

    assert scan(turnlog_home, [MARK])  # the file's bytes are stored …
    with TurnlogStore.open(turnlog_home) as store:
        store.privacy.delete_conversation(conv_id)
    assert scan(turnlog_home, [MARK]) == []  # … and gone with its conversation
