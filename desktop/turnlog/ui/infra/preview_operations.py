"""The live preview's storage work, on the storage lane (`operations.StorageOp`): a
preview's bodies built from the log there, where its pages are read, so the GUI thread
only shows them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .operations import StorageOp

T = TypeVar("T")


def build_preview(build: Callable[[], T]) -> StorageOp[T]:
    """`build`: the preview's bodies from the one body builder (pure; reads the log)."""
    return StorageOp("preview the draft", build)
