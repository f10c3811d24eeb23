"""The text of a PDF, read by pypdf in a bounded child process of its own.

pypdf cannot be interrupted in the middle of a page, and a hostile PDF (a stream inflating
to 1 GiB, 40 pages sharing one 70 MiB stream, 100,000 pages in 16 MB) can take minutes
and gigabytes. So `read_pdf` hands the bytes to `python -m turnlog.formats.pdf_text`, started
through `turnlog.system.children` with an address-space limit, and reads its answer — one JSON
line a page, as each page is done — within a deadline. Past the page limit, the text
limit or the deadline, the pages read so far are kept and the result says why the rest
was left out; it is never silently partial.
"""

from __future__ import annotations

import json
import logging
import os
import select
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any

from ..system import children

log = logging.getLogger(__name__)

MAX_PAGES = 500
MAX_TEXT_CHARS = 2_000_000
DEADLINE_S = 20.0
ADDRESS_SPACE = 768 * 1024 * 1024
MAX_STREAM_BYTES = 16 * 1024 * 1024
_MAX_LINE_BYTES = 4 * MAX_TEXT_CHARS + 1024  # a page's JSON line (escapes included)


class PdfUnreadable(Exception):
    """The PDF could not be read at all; the message says why."""


@dataclass(frozen=True, slots=True)
class PdfText:
    """What could be read: the text of pages 1.. (in order), how many pages the PDF has,
    and, when not all of them were read, why (`partial`)."""

    pages: tuple[str, ...]
    total: int
    partial: str = ""
    unreadable: tuple[int, ...] = field(default=())  # pages pypdf failed on (1-based)


@dataclass(frozen=True, slots=True)
class PdfLimits:
    pages: int = MAX_PAGES
    text_chars: int = MAX_TEXT_CHARS
    deadline_s: float = DEADLINE_S
    address_space: int = ADDRESS_SPACE


def read_pdf(data: bytes, limits: PdfLimits = PdfLimits()) -> PdfText:  # noqa: B008
    """The text of the PDF `data`, read in a child process within `limits`. Raises
    `PdfUnreadable` when not even its first page could be read."""
    try:
        child = children.start(
            [sys.executable, "-m", "turnlog.formats.pdf_text", str(limits.pages),
             str(limits.text_chars)], stdin="pipe", stdout="pipe", stderr="tail",
            limits=children.Limits(limits.address_space))
    except children.ChildStartFailed as err:
        raise PdfUnreadable(f"the PDF reader could not be started ({err})") from err
    feeder = threading.Thread(target=_feed, args=(child.stdin, data), daemon=True,
                              name="turnlog-pdf-feed")
    feeder.start()
    try:
        return _collect(child, limits)
    finally:
        child.stop(0)
        feeder.join(2)


def _feed(stream: IO[bytes] | None, data: bytes) -> None:
    if stream is None:
        return
    try:
        view = memoryview(data)
        while view:
            view = view[stream.write(view[:1024 * 1024]) or 0:]
        stream.close()
    except (OSError, ValueError):
        pass  # the reader stopped (its limit, its deadline): `_collect` says why


def _collect(child: children.Child, limits: PdfLimits) -> PdfText:
    pages: list[str] = []
    unreadable: list[int] = []
    total = 0
    started = time.monotonic()
    for message in _messages(child, limits.deadline_s):
        if "error" in message:
            raise PdfUnreadable(str(message["error"]))
        if "total" in message:
            total = int(message["total"])
        elif "page" in message:
            pages.append(str(message["text"]))
            if message.get("failed"):
                unreadable.append(len(pages))
        elif "done" in message:
            return PdfText(tuple(pages), total, str(message["done"] or ""), tuple(unreadable))
        elif "stopped" in message:  # in the reader: out of memory, or pypdf gave up
            return _partial(pages, total, unreadable, str(message["stopped"]))
    # Past the deadline the reader is stopped for it, even if it would have ended now.
    if time.monotonic() - started >= limits.deadline_s or child.wait(1) is None:
        why = f"reading took longer than {limits.deadline_s:g} s"
    else:
        last = child.stderr_lines(1)
        why = "the PDF reader ran out of memory" if "MemoryError" in "".join(last) else \
            "the PDF reader stopped" + (f" ({last[0][:200]})" if last else "")
    return _partial(pages, total, unreadable, why)


def _partial(pages: list[str], total: int, unreadable: list[int], why: str) -> PdfText:
    if not pages:
        raise PdfUnreadable(f"not even its first page could be read: {why}")
    if total:
        why = f"pages 1–{len(pages):,} of {total:,}: the rest left out, {why}"
    return PdfText(tuple(pages), total, why, tuple(unreadable))


def _messages(child: children.Child, deadline_s: float) -> Any:
    """The reader's JSON lines until it ends or the deadline passes."""
    assert child.stdout is not None
    fd = child.stdout.fileno()
    ends = time.monotonic() + deadline_s
    buffer = bytearray()
    while True:
        while (end := buffer.find(b"\n")) >= 0:
            line, buffer = bytes(buffer[:end]), buffer[end + 1:]
            try:
                yield json.loads(line)
            except ValueError:
                return
        left = ends - time.monotonic()
        if left <= 0 or len(buffer) > _MAX_LINE_BYTES:
            return
        readable, _w, _x = select.select([fd], [], [], left)
        if readable:
            chunk = os.read(fd, 1024 * 1024)
            if not chunk:
                return
            buffer += chunk


# ---------------------------------------------------------------- in the reader process
def _serve(max_pages: int, max_chars: int) -> None:
    """Read the PDF on standard input; write {"total": n}, then one line a page, then
    {"done": why-partial} (or {"error": …} / {"stopped": …})."""
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # what a library prints goes to standard error, not into the answer

    def say(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    import io

    from pypdf import PdfReader, overwrite_configuration
    from pypdf.errors import PyPdfError

    # A page's stream inflating past this is that page's failure, not minutes of work.
    overwrite_configuration(zlib_maximum_output_length=MAX_STREAM_BYTES,
                            maximum_declared_stream_length=MAX_STREAM_BYTES)
    data = sys.stdin.buffer.read()
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            say({"error": "the PDF is protected by a password"})
            return
        root = reader.trailer["/Root"]["/Pages"]
        total = int(root.get("/Count", 0))
    except (PyPdfError, MemoryError, *_PAGE_FAULTS) as err:
        say({"error": f"it is not a PDF Turnlog can read ({_named(err)})"})
        return
    say({"total": total})
    _pages(_first_pages(reader, root, max_pages), total, max_pages, max_chars, say)


def _first_pages(reader: Any, root: Any, count: int) -> Any:
    """The first `count` pages, walking the page tree as far as they go: pypdf's own list
    reads all of it first (39 s for 100,000 pages). Inherited attributes are passed down;
    a node seen twice (a loop) is skipped."""
    from pypdf import PageObject
    from pypdf.generic import IndirectObject, NameObject

    inheritable = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
    seen: set[int] = set()
    stack: list[tuple[Any, dict[str, Any]]] = [(root, {})]
    while stack and count > 0:
        node, inherited = stack.pop()
        reference = node if isinstance(node, IndirectObject) else \
            getattr(node, "indirect_reference", None)
        if reference is not None:
            if reference.idnum in seen:
                continue
            seen.add(reference.idnum)
        node = node.get_object()  # a kid is read only when its turn comes
        if node.get("/Type") == "/Pages" or "/Kids" in node:
            passed = inherited | {key: node[key] for key in inheritable if key in node}
            kids = list(node.get("/Kids", []))
            stack.extend((kid, passed) for kid in reversed(kids))
            continue
        page = PageObject(reader, reference)
        page.update(node)
        for key, value in inherited.items():
            if key not in page:
                page[NameObject(key)] = value
        count -= 1
        yield page


_PAGE_FAULTS = (ValueError, KeyError, TypeError, OSError, RecursionError, AttributeError,
                IndexError, ZeroDivisionError)


def _pages(pages: Any, total: int, max_pages: int, max_chars: int, say: Any) -> None:
    from pypdf.errors import PyPdfError

    used = read = 0
    while read < max_pages:
        try:
            page = next(pages, None)
        except (PyPdfError, *_PAGE_FAULTS) as err:
            say({"stopped": f"its page tree could not be read further ({_named(err)})"})
            return
        if page is None:
            total = read  # the whole tree was walked: its count was wrong, if it differs
            break
        read += 1
        failed = False
        try:
            text = page.extract_text() or ""
        except MemoryError:
            say({"stopped": "the PDF reader ran out of memory"})
            return
        except (PyPdfError, *_PAGE_FAULTS) as err:
            text, failed = f"could not be read ({_named(err)})", True
        if used + len(text) > max_chars:
            say({"page": read, "text": text[:max_chars - used], "failed": failed})
            say({"done": f"pages 1–{read:,} of {max(total, read):,}: the rest left out, "
                         f"limit {max_chars:,} characters of text"})
            return
        used += len(text)
        say({"page": read, "text": text, "failed": failed})
    total = max(total, read)
    say({"total": total})
    say({"done": "" if total <= read else
         f"pages 1–{read:,} of {total:,}: the rest left out, limit {max_pages:,} pages"})


def _named(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"[:300]


if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]))
