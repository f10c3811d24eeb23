"""Deleting a turn, a conversation or everything deletes the files only they named, from
disk: a marker inside an image's metadata and inside a PDF's text, and the raw bytes of
every original and of every copy sent, are nowhere in the data directory afterwards.
A file another turn (or a draft) still names stays, stored once."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from attachfiles import jpeg_bytes, pdf_bytes, png_bytes
from privacy_scan import encodings
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.formats.file_reading import read_bytes
from turnlog.store import TurnlogStore
from turnlog.ui.infra.deletion_text import counts_text


def marked_files(tag: str):
    """A PNG with the marker in its metadata, a JPEG large enough to be downscaled with the
    marker in its comment, a PDF whose text holds the marker (its stream compressed, so
    only the text sent shows it plainly)."""
    return [
        read_bytes(f"chart-{tag}.png", png_bytes(80, 40, marker=f"PNGMARK-{tag}-7f3a",
                                                 color=((ord(tag) - 60) * 30, 90, 10))),
        read_bytes(f"photo-{tag}.jpg", jpeg_bytes(2600, 1300, marker=f"JPEGMARK-{tag}-9c1e",
                                                  color=((ord(tag) - 60) * 40, 30, 160))),
        read_bytes(f"report-{tag}.pdf", pdf_bytes([f"PDFMARK-{tag}-41d2 revenue", None])),
    ]


ALL: list = []  # every file seeded: a stretch looked for must be one file's alone


def own_stretch(data: bytes) -> bytes:
    """48 bytes of `data` found in no other seeded file (A's and B's images share most of
    their bytes: the same sizes and colours)."""
    others = [d for f in ALL for d in (f.original, f.sent) if d != data]
    for start in range(0, max(1, len(data) - 48), 97):
        piece = data[start:start + 48]
        if not any(piece in other for other in others):
            return piece
    raise AssertionError("no stretch of this file is its own")


def leaks(home: Path, files, markers: list[str]) -> list[tuple[str, str]]:
    """Where in the data directory a marker, or a stretch of a file's bytes (original or
    as sent), is still found."""
    pieces = [(m, e) for m in markers for e in encodings(m)]
    for f in files:
        for label, data in (("original", f.original), ("sent", f.sent)):
            pieces.append((f"{f.name} {label}", own_stretch(data)))
    hits = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [(path.name, what) for what, piece in pieces if piece in data]
    return hits


def commit(store, cid: int, turn_id: str, files) -> None:
    store.turns.commit(cid, PendingTurn(turn_id, f"look {turn_id}", f"seen {turn_id}", "m",
                                        "stop", Usage(), datetime.now(UTC),
                                        attachments=tuple(files)))


def seeded(home: Path):
    a, b = marked_files("A"), marked_files("B")
    ALL[:] = a + b
    with TurnlogStore.open(home) as store:
        ca = store.conversations.create("A").id
        cb = store.conversations.create("B").id
        commit(store, ca, "a1", a)
        commit(store, ca, "a2", a[:1])  # the same PNG again: stored once
        commit(store, cb, "b1", b)
    return ca, cb, a, b


def markers(tag: str) -> list[str]:
    return [f"PNGMARK-{tag}-7f3a", f"JPEGMARK-{tag}-9c1e", f"PDFMARK-{tag}-41d2"]


def test_the_markers_are_on_disk_before_a_delete(turnlog_home):
    _, _, a, b = seeded(turnlog_home)
    found = {what for _, what in leaks(turnlog_home, a + b, markers("A") + markers("B"))}
    # The PDF's marker is in its text as sent; the JPEG's in its original (the downscaled
    # copy sent has no comment).
    assert set(markers("A")) <= found and set(markers("B")) <= found
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        (_, first), (_, again) = (store.turns.get("a1"), store.turns.get("a2"))
        assert first.attachments[0].digest == again.attachments[0].digest
        assert store.attachments.original(first.attachments[1].digest) == a[1].original


def test_a_file_goes_with_the_last_turn_that_names_it(turnlog_home):
    _, _, a, b = seeded(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        store.privacy.delete_turn("a1")
    gone = leaks(turnlog_home, a[1:], markers("A")[1:])
    assert gone == []  # the JPEG and the PDF went with a1
    assert leaks(turnlog_home, a[:1], markers("A")[:1])  # the PNG: a2 still has it
    with TurnlogStore.open(turnlog_home) as store:
        store.privacy.delete_turn("a2")
    assert leaks(turnlog_home, a, markers("A")) == []
    assert len({what for _, what in leaks(turnlog_home, b, markers("B"))}) == 9


def test_deleting_a_conversation_deletes_its_files_and_its_draft_s(turnlog_home):
    ca, cb, a, b = seeded(turnlog_home)
    extra = read_bytes("draft-only.txt", b"DRAFTMARK-A-55e0 only in the draft")
    ALL.append(extra)
    with TurnlogStore.open(turnlog_home) as store:
        store.attachments.save_draft(ca, [extra, a[2]])
        store.attachments.save_draft(cb, [b[0]])
    with TurnlogStore.open(turnlog_home) as store:  # a restart keeps the draft's files
        assert [f.name for f in store.attachments.of_draft(ca)] == ["draft-only.txt",
                                                                    "report-A.pdf"]
        assert store.attachments.of_draft(ca)[0].original == extra.original
        store.privacy.delete_conversation(ca)
        assert store.attachments.of_draft(ca) == ()
    assert leaks(turnlog_home, [*a, extra], [*markers("A"), "DRAFTMARK-A-55e0"]) == []
    assert len({what for _, what in leaks(turnlog_home, b, markers("B"))}) == 9


def test_a_file_a_draft_still_holds_stays_until_the_draft_lets_it_go(turnlog_home):
    ca, _, a, _ = seeded(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        store.attachments.save_draft(0, [a[2]])  # the PDF, on the draft of no conversation
        store.privacy.delete_conversation(ca)
    assert leaks(turnlog_home, a[2:], markers("A")[2:])
    with TurnlogStore.open(turnlog_home) as store:
        store.attachments.save_draft(0, [])  # removed from the draft
    assert leaks(turnlog_home, a, markers("A")) == []


def test_delete_everything_leaves_no_file_behind(turnlog_home):
    ca, _, a, b = seeded(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        store.attachments.save_draft(ca, [b[1]])
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", "delete", "--all"],
                            input="yes\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert leaks(turnlog_home, a + b, markers("A") + markers("B")) == []


def test_a_delete_names_the_files_it_takes_and_reports_them_taken(turnlog_home):
    ca, _cb, _a, _b = seeded(turnlog_home)  # a1 carries 3 files, a2 one (the PNG again)
    with TurnlogStore.open(turnlog_home) as store:
        asked = store.privacy.preview_conversation(ca)
        assert asked.files == 4 and asked.describe().endswith("4 attached files")
        assert "4 attached files" in counts_text(asked)
        assert store.privacy.preview_turn("a2").files == 1
        assert store.privacy.delete_turn("a2").counts.files == 1
        assert store.privacy.delete_conversation(ca).counts.files == 3
