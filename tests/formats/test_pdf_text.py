"""PDFs that would take minutes or gigabytes are read in a bounded child process: each ends,
named, within 30 s and under 500 MB, and a partial text says it is partial."""

from __future__ import annotations

import time

import pytest

import pdf_bombs
from attachfiles import pdf_bytes
from peaks import ChildrenPeak, peak_memory_kib, reset_peak_memory
from turnlog.core.attachments import AttachmentRefused
from turnlog.formats.file_reading import read_file


def read_timed(path):
    children = ChildrenPeak()
    held = reset_peak_memory()
    started = time.monotonic()
    try:
        return read_file(path), time.monotonic() - started
    finally:
        assert not children.exceeded(500 * 1024), \
            f"a child peaked at {children.now() // 1024} MB"
        mine = peak_memory_kib() - held
        assert mine < 500 * 1024, f"the test process peaked at {mine // 1024} MB"


@pytest.mark.parametrize("make", [pdf_bombs.inflating, pdf_bombs.shared_stream],
                         ids=["stream-inflating-to-1-GiB", "40-pages-sharing-70-MiB"])
def test_a_decompression_bomb_is_refused_with_its_reason(tmp_path, make):
    path = tmp_path / "bomb.pdf"
    path.write_bytes(make())
    started = time.monotonic()
    with pytest.raises(AttachmentRefused) as refused:
        read_timed(path)
    assert time.monotonic() - started < 30
    assert "bomb.pdf" in str(refused.value)
    assert "no page of the PDF could be read" in str(refused.value)
    assert "LimitReachedError" in str(refused.value)


def test_100000_pages_give_the_first_500_marked_partial_in_the_chip_and_the_text(tmp_path):
    path = tmp_path / "many.pdf"
    path.write_bytes(pdf_bombs.many_pages())
    assert path.stat().st_size < 20_000_000
    attachment, took = read_timed(path)
    assert took < 30
    why = "pages 1–500 of 100,000: the rest left out, limit 500 pages"
    assert attachment.notes[0] == f"partial: {why}"
    text = attachment.text
    assert text.startswith(f"[many.pdf: only part of it is here — {why}]")
    assert "[page 500]\none of the many pages" in text and "[page 501]" not in text


def test_a_text_limit_keeps_the_first_pages_and_says_so():
    from turnlog.formats.pdf_text import PdfLimits, read_pdf

    read = read_pdf(pdf_bytes(["first page " * 10, "second page " * 10, "third"]),
                    PdfLimits(text_chars=150))
    assert read.pages[0].startswith("first page") and len("".join(read.pages)) == 150
    assert read.partial == ("pages 1–2 of 3: the rest left out, limit 150 characters of "
                            "text")


def test_a_reader_past_its_deadline_is_stopped_and_what_it_read_is_kept():
    from turnlog.formats.pdf_text import PdfLimits, PdfUnreadable, read_pdf

    started = time.monotonic()
    with pytest.raises(PdfUnreadable) as slow:
        read_pdf(pdf_bombs.many_pages(), PdfLimits(deadline_s=0.5))
    assert time.monotonic() - started < 5
    assert "reading took longer than 0.5 s" in str(slow.value)


def test_an_ordinary_pdf_is_read_whole(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes(["Revenue grew 12 percent", None]))
    attachment, _took = read_timed(path)
    assert attachment.text == "[page 1]\nRevenue grew 12 percent\n\n[page 2: no text layer]"
    assert attachment.notes == ("page 2 has no text layer",)
