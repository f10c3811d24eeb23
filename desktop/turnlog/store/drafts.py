"""Drafts: what is typed in the composer, kept per conversation so a quit or a crash
loses nothing. One private file per conversation (`drafts/<id>.txt`, 0600 in a 0700
folder) in the data directory, never in the turn log; removed when the question is sent
and with the conversation (and all of them with delete-all). What is typed with no
conversation open is kept under `NO_CONVERSATION` (conversation ids start at 1) until it
was sent and saved in the conversation its first send started."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .files import PRIVATE_DIR, PRIVATE_FILE

log = logging.getLogger(__name__)
DRAFTS = "drafts"
NO_CONVERSATION = 0  # the draft typed with no conversation open


def draft_path(home: Path, conversation_id: int) -> Path:
    return home / DRAFTS / f"{int(conversation_id)}.txt"


def save_draft(home: Path, conversation_id: int, text: str) -> None:
    """Keep `text` as the conversation's draft (a blank one removes it), written next to
    the file and moved into place, so a crash leaves the old draft or the new one."""
    if not text.strip():
        remove_draft(home, conversation_id)
        return
    path = draft_path(home, conversation_id)
    path.parent.mkdir(mode=PRIVATE_DIR, exist_ok=True)
    partial = path.with_name(f".{path.name}.part")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), PRIVATE_FILE)
            handle.write(text.encode("utf-8", "surrogatepass"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def load_draft(home: Path, conversation_id: int) -> str:
    """The conversation's kept draft ("" when there is none or it cannot be read)."""
    try:
        return draft_path(home, conversation_id).read_bytes().decode("utf-8", "surrogatepass")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as err:
        log.warning("Could not read the draft of conversation %s: %s", conversation_id, err)
        return ""


def remove_draft(home: Path, conversation_id: int) -> None:
    draft_path(home, conversation_id).unlink(missing_ok=True)


def remove_all_drafts(home: Path) -> None:
    import shutil  # a privacy delete's

    shutil.rmtree(home / DRAFTS, ignore_errors=True)
