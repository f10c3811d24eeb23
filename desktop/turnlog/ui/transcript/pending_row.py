"""The question being answered, as the transcript's last row holds it while its answer
streams: the answer kept as the pieces that arrived, so adding one never copies the
text before it, and the row's painter reads only what came since it last looked."""

from __future__ import annotations

import bisect

from ...core.attachments import Attachment


class PendingRow:
    """The pending question, its answer and reasoning so far, and its files."""

    def __init__(self, question: str, attachments: tuple[Attachment, ...] = ()) -> None:
        self.question = question
        self.attachments = attachments  # the question's files, listed under it
        self.reasoning = ""
        self._pieces: list[str] = []  # the answer, as it arrived
        self._starts: list[int] = []  # where each piece starts in the answer
        self._length = 0

    def add_answer(self, text: str) -> None:
        """`text` arrived after the answer so far."""
        if text:
            self._pieces.append(text)
            self._starts.append(self._length)
            self._length += len(text)

    def add_reasoning(self, text: str) -> None:
        self.reasoning += text

    @property
    def answer_length(self) -> int:
        return self._length

    @property
    def answer(self) -> str:
        """The answer so far (its pieces joined once, then kept as one)."""
        if len(self._pieces) > 1:
            self._pieces, self._starts = ["".join(self._pieces)], [0]
        return self._pieces[0] if self._pieces else ""

    def answer_from(self, start: int) -> str:
        """The answer from character `start` on: only the pieces it spans are read."""
        if start >= self._length:
            return ""
        first = max(0, bisect.bisect_right(self._starts, start) - 1)
        head = self._pieces[first][start - self._starts[first]:]
        return head + "".join(self._pieces[first + 1:])
