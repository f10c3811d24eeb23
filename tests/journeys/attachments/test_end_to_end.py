"""Attachments end to end with real files made here: what is read, what the body the
loopback server receives carries (exactly the parts predicted, at the predicted size),
refusals before anything is sent, and a turn that leaves the request with its files."""

from __future__ import annotations

import base64
import json
import sqlite3
import zipfile
from datetime import UTC, datetime

import pytest

import chatgpt_export
from attachfiles import jpeg_bytes, pdf_bytes, png_bytes, write
from cli_runs import add_profile, cli
from loopback import Behaviour
from turnlog.core.attachments import AttachmentRefused, image_tokens
from turnlog.core.imports import ImportProblem
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.formats.file_reading import AttachmentLimits, read_bytes, read_file
from turnlog.service.transfer import export_all, import_file
from turnlog.store import TurnlogStore

GBK_TEXT = "会议纪要：下周三前提交预算，负责人是王经理。"


@pytest.fixture
def files(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    return {
        "utf8": write(folder, "notes.md", "# Notes ✓\nKeep the ORCHID-17 key.\n".encode()),
        "gbk": write(folder, "纪要.txt", GBK_TEXT.encode("gbk")),
        "pdf": write(folder, "report.pdf", pdf_bytes(["Revenue grew 12 percent", None])),
        "scan": write(folder, "scan.pdf", pdf_bytes([None, None])),
        "png": write(folder, "chart.png", png_bytes(64, 32)),
        "jpeg": write(folder, "photo.jpg", jpeg_bytes(3000, 1500)),
        "liar": write(folder, "looks-like.png", b"plain text, not an image at all\n"),
    }


# -------------------------------------------------------------------- reading
def test_text_files_are_read_by_content_and_their_encoding_named(files):
    utf8 = read_file(files["utf8"])
    assert (utf8.kind.value, utf8.encoding, utf8.text) == (
        "text", "", "# Notes ✓\nKeep the ORCHID-17 key.\n")
    gbk = read_file(files["gbk"])
    assert (gbk.kind.value, gbk.encoding, gbk.text) == ("text", "GBK", GBK_TEXT)
    assert gbk.original == GBK_TEXT.encode("gbk")  # the original is kept as it was
    liar = read_file(files["liar"])  # named .png, but text
    assert (liar.kind.value, liar.text) == ("text", "plain text, not an image at all\n")


@pytest.mark.parametrize(("text", "codec", "label"), [
    ("繁體中文的文件，這是用大五碼編碼的內容。", "big5", "Big5"),
    ("これはシフトJISでエンコードされた日本語のテキストです。", "shift_jis", "Shift-JIS"),
    ("\ufeffUTF-16 文本，有字节顺序标记。", "utf-16-le", "UTF-16"),
])
def test_other_encodings_are_named(text, codec, label):
    read = read_bytes("f.txt", text.encode(codec))
    assert (read.text, read.encoding) == (text.removeprefix("\ufeff"), label)


def test_what_is_not_text_pdf_or_image_is_refused_with_its_reason():
    with pytest.raises(AttachmentRefused, match=r"archive.zip cannot be attached: it is a ZIP"):
        read_bytes("archive.zip", b"PK\x03\x04" + bytes(range(256)))
    with pytest.raises(AttachmentRefused, match="binary data"):
        read_bytes("blob.bin", bytes(range(256)) * 4)
    with pytest.raises(AttachmentRefused, match="broken.png cannot be attached: the image"):
        read_bytes("broken.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)


def test_pdf_text_page_by_page_and_a_scan_says_so(files):
    report = read_file(files["pdf"])
    assert report.text == "[page 1]\nRevenue grew 12 percent\n\n[page 2: no text layer]"
    assert report.notes == ("page 2 has no text layer",)
    scan = read_file(files["scan"])
    assert "scan.pdf is a scanned PDF of 2 pages: it has no text layer" in scan.text
    assert scan.notes == ("scanned: no text layer",)


def test_large_images_are_downscaled_and_the_original_kept(files):
    photo = read_file(files["jpeg"])
    assert (photo.width, photo.height, photo.sent_mime) == (2048, 1024, "image/jpeg")
    assert photo.notes == ("downscaled from 3000×1500",)
    assert photo.original == files["jpeg"].read_bytes() != photo.sent
    chart = read_file(files["png"])
    assert chart.sent == chart.original and (chart.width, chart.height) == (64, 32)


def test_limits_are_named_errors_and_a_30_mb_file_is_not_read(tmp_path):
    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        handle.truncate(30_000_000)
    with pytest.raises(AttachmentRefused, match=r"big.log cannot be attached: it is 30.0 MB, "
                       r"and a file may be at most 20.0 MB"):
        read_file(big)
    limits = AttachmentLimits(per_question=100, count=2)
    first = read_bytes("a.txt", b"a" * 60, limits=limits)
    with pytest.raises(AttachmentRefused, match="would take 120 bytes"):
        read_bytes("b.txt", b"b" * 60, limits=limits, attached=[first])
    small = read_bytes("b.txt", b"b", limits=limits, attached=[first])
    with pytest.raises(AttachmentRefused, match="at most 2 files"):
        read_bytes("c.txt", b"c", limits=limits, attached=[first, small])


def test_an_image_of_too_many_pixels_is_refused_before_it_is_decoded():
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("1", (8_000, 7_000)).save(out, "PNG")  # 56 million pixels, a small file
    with pytest.raises(AttachmentRefused, match=r"huge.png cannot be attached: it is "
                       r"8,000×7,000 pixels, more than Turnlog reads \(50 million\)"):
        read_bytes("huge.png", out.getvalue())


def test_openai_tile_rule():
    assert image_tokens(64, 32) == 85 + 170  # one tile
    assert image_tokens(1024, 1024) == 85 + 170 * 4  # 768×768: 2×2 tiles
    assert image_tokens(4096, 2048) == 85 + 170 * 6  # 2048×1024 → 1536×768: 3×2


# --------------------------------------------------------------- on the wire
def _ask(*args):
    return cli("ask", *args)


def _roomy_conversation(home) -> int:
    """A conversation whose byte limit has room for images (the default 16,000 has not)."""
    with TurnlogStore.open(home) as store:
        return store.conversations.create(
            "Files", settings=ConversationSettings(max_bytes=2_000_000)).id


def test_the_body_carries_exactly_the_parts_at_the_predicted_size(loopback, files,
                                                                   turnlog_home):
    add_profile(loopback)
    cid = str(_roomy_conversation(turnlog_home))
    loopback.script(Behaviour.answer("Started."))
    assert _ask("--conversation", cid, "Hello").returncode == 0
    attach = ["--attach", str(files["gbk"]), "--attach", str(files["pdf"]),
              "--attach", str(files["png"]), "--attach", str(files["jpeg"])]
    projected = cli("project", "--conversation", cid, "--question", "What do these say?",
                    "--json", *attach)
    assert projected.returncode == 0, projected.stderr
    predicted = json.loads(projected.stdout)
    loopback.script(Behaviour.answer("They say: budget, revenue, a chart and a photo."))
    result = _ask("--conversation", cid, "What do these say?", *attach)
    assert result.returncode == 0, result.stderr
    sent = loopback.requests[-1].body
    assert sent == predicted["body"].encode("utf-8")
    assert len(sent) == predicted["body_bytes"]
    question = json.loads(sent)["messages"][-1]
    text, png, jpeg = question["content"]
    assert text == {"type": "text", "text": (
        "What do these say?\n\n"
        f"--- file: 纪要.txt ---\n{GBK_TEXT}\n--- end of file: 纪要.txt ---\n\n"
        "--- file: report.pdf ---\n[page 1]\nRevenue grew 12 percent\n\n"
        "[page 2: no text layer]\n--- end of file: report.pdf ---")}
    assert png == {"type": "image_url", "image_url": {
        "url": "data:image/png;base64," + base64.b64encode(files["png"].read_bytes()).decode()}}
    prefix = "data:image/jpeg;base64,"
    assert jpeg["type"] == "image_url" and jpeg["image_url"]["url"].startswith(prefix)
    sent_jpeg = base64.b64decode(jpeg["image_url"]["url"].removeprefix(prefix))
    assert sent_jpeg == read_file(files["jpeg"]).sent  # the downscaled one
    assert predicted["tokens_exact"] is False  # images: the tile rule's estimate
    # Stored with the turn: the original and the bytes sent, each once, in the database.
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    names = con.execute("SELECT name, kind, encoding FROM turn_attachments ORDER BY position"
                        ).fetchall()
    assert names == [("纪要.txt", "text", "GBK"), ("report.pdf", "pdf", ""),
                     ("chart.png", "image", ""), ("photo.jpg", "image", "")]
    (blobs,) = con.execute("SELECT COUNT(*) FROM blobs").fetchone()
    assert blobs == 2 + 2 + 1 + 2  # GBK/UTF-8, PDF/text, PNG as is, JPEG/downscaled
    shown = cli("show", cid)
    gbk_size = len(GBK_TEXT.encode("gbk"))
    assert f"> attached: 纪要.txt — text, GBK, {gbk_size} bytes" in shown.stdout
    assert "> attached: photo.jpg — image, 2,048×1,024" in shown.stdout


def test_a_model_that_takes_no_images_refuses_before_sending(loopback, files, turnlog_home):
    add_profile(loopback, "loop", "--accepts-images", "no")
    before = len(loopback.requests)
    result = _ask("--new", "What is this?", "--attach", str(files["png"]))
    assert result.returncode != 0
    assert "failure: images_not_accepted" in result.stderr
    assert "does not take images" in result.stderr and "What is this?" in result.stderr
    assert len(loopback.requests) == before  # nothing went out
    # Text files are fine for it.
    loopback.script(Behaviour.answer("Read it."))
    assert _ask("--new", "Read this", "--attach", str(files["utf8"])).returncode == 0


def test_a_refused_file_is_named_and_nothing_is_sent(loopback, tmp_path):
    add_profile(loopback)
    bad = write(tmp_path, "tool.exe", b"MZ\x90\x00" + bytes(300))
    result = _ask("--new", "Run this?", "--attach", str(bad))
    assert result.returncode != 0
    assert "tool.exe cannot be attached: it is a Windows program" in result.stderr
    assert "Run this?" in result.stderr and not loopback.requests


def test_a_failed_send_stores_no_attachment(loopback, files, turnlog_home):
    add_profile(loopback)
    loopback.script(Behaviour.answer("Started."))
    assert _ask("--new", "Hello").returncode == 0
    loopback.script(Behaviour.server_error())
    result = _ask("--conversation", "1", "And this?", "--attach", str(files["pdf"]))
    assert result.returncode != 0
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert con.execute("SELECT COUNT(*) FROM blobs").fetchone() == (0,)
    assert con.execute("SELECT COUNT(*) FROM turn_attachments").fetchone() == (0,)


# ---------------------------------------------------------------- export, import
def _stored_files(home):
    with TurnlogStore.open(home, readonly=True) as store:
        out = []
        for conversation in store.conversations():
            for t in store.turns.all(conversation.id):
                for a in t.attachments:
                    out.append((t.question, a.name, a.kind.value, a.encoding, a.sent,
                                store.attachments.original(a.digest), a.width, a.notes))
        return sorted(out)


def _two_turns_with_files(home, files):
    """Two turns holding files, one of them (the PNG) in both: stored once."""
    items = {k: read_file(files[k]) for k in ("gbk", "pdf", "png", "jpeg")}
    with TurnlogStore.open(home) as store:
        cid = store.conversations.create("With files 附件").id
        for turn_id, question, kinds in (("x1", "read these", ("gbk", "pdf", "png")),
                                         ("x2", "and this photo", ("jpeg", "png"))):
            store.turns.commit(cid, PendingTurn(
                turn_id, question, f"answer to {question}", "m", "stop", Usage(),
                datetime.now(UTC), attachments=tuple(items[k] for k in kinds)))
    return cid


@pytest.mark.parametrize("name", ["everything", "everything.zip"])
def test_export_all_then_import_restores_the_files(files, tmp_path, turnlog_home, name):
    _two_turns_with_files(turnlog_home, files)
    before = _stored_files(turnlog_home)
    with TurnlogStore.open(turnlog_home) as store:
        exported = export_all(store, tmp_path / name)
    assert exported.turns == 2
    other = tmp_path / "other-home"
    other.mkdir()
    with TurnlogStore.open(other) as store:
        import_file(store, exported.path)
    assert _stored_files(other) == before
    con = sqlite3.connect(other / "turnlog.sqlite3")
    (blobs,) = con.execute("SELECT COUNT(*) FROM blobs").fetchone()
    assert blobs == 2 + 2 + 1 + 2  # the PNG of both turns once


def test_one_conversation_export_carries_its_files_and_imports_back(files, tmp_path,
                                                                    turnlog_home):
    cid = _two_turns_with_files(turnlog_home, files)
    before = _stored_files(turnlog_home)
    exported = cli("export", str(cid))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    gbk = lines[1]["attachments"][0]
    assert (gbk["name"], gbk["encoding"]) == ("纪要.txt", "GBK")
    assert base64.b64decode(gbk["original"]["base64"]) == GBK_TEXT.encode("gbk")
    path = tmp_path / "one.jsonl"
    path.write_text(exported.stdout, encoding="utf-8")
    other = tmp_path / "other-home"
    other.mkdir()
    with TurnlogStore.open(other) as store:
        import_file(store, path)
    assert _stored_files(other) == before


def test_an_export_whose_file_was_changed_is_refused_by_name(files, tmp_path, turnlog_home):
    _two_turns_with_files(turnlog_home, files)
    with TurnlogStore.open(turnlog_home) as store:
        exported = export_all(store, tmp_path / "folder")
    victim = next((exported.path / "attachments").iterdir())
    victim.write_bytes(victim.read_bytes() + b"tampered")
    with TurnlogStore.open(tmp_path) as store, pytest.raises(ImportProblem,
                                                             match="does not match its SHA"):
        import_file(store, exported.path)


def test_a_chatgpt_export_s_images_are_imported_when_its_zip_carries_them(tmp_path):
    photo = jpeg_bytes(800, 600)
    items = chatgpt_export.conversations(chatgpt_export.kyoto())
    carried = tmp_path / "carried.zip"
    with zipfile.ZipFile(carried, "w") as archive:
        archive.writestr("conversations.json", json.dumps(items, ensure_ascii=False))
        archive.writestr("file-abc-temple.jpg", photo)
    bare = chatgpt_export.write_json(tmp_path / "conversations.json", items)
    for source, expected in ((carried, [("temple.jpg", photo)]), (bare, [])):
        home = tmp_path / source.stem
        home.mkdir()
        with TurnlogStore.open(home) as store:
            import_file(store, source)
            (conversation,) = [c for c in store.conversations() if c.title == "Trip to Kyoto"]
            turn = store.turns(conversation.id)[1]
            assert turn.question == "[image: temple.jpg]\n\nWhich temple is this?"
            assert [(a.name, store.attachments.original(a.digest))
                    for a in turn.attachments] == expected
