"""The elements of a JSON array read one at a time from a text stream.

A ChatGPT export's `conversations.json` is one array that may be hundreds of megabytes:
`json.load` would hold the text and every object at once. Here the text is read in
chunks and each element is decoded by `json.JSONDecoder.raw_decode` as soon as it is
whole, so what is held is one element and the chunk around it. An element may be walked
instead of decoded (`positions`, then `members` of an object, `value` of each member):
one ChatGPT conversation of 80,000 turns is itself a 100 MB object, whose messages are
then read one at a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import IO, Any

from ...core.imports import ImportProblem

CHUNK_CHARS = 1 << 20
MAX_ELEMENT_CHARS = 256 * 1024 * 1024
"""One element (one conversation) may be at most this long: memory stays bounded."""
_NOT_WHITESPACE = re.compile(r"[^ \t\n\r]")  # found in C: a file of blanks is no slower
_CUT_MARGIN = 12  # longer than any token cut at a chunk's end: `false`, `\\udc00`
TOO_LARGE = object()
"""What `ArrayReader.small_value` gives for a value longer than it was asked to decode."""


class ArrayReader:
    """Iterate over the elements of the JSON array in `stream`; `name` names the file in
    messages. Raises `ImportProblem` for anything that is not one well-formed array."""

    def __init__(self, stream: IO[str], name: str, *, chunk: int = CHUNK_CHARS,
                 max_element: int = MAX_ELEMENT_CHARS) -> None:
        self._stream, self._name = stream, name
        self._chunk, self._max = chunk, max_element
        self._buf = ""
        self._pos = 0
        self._consumed = 0  # characters dropped from the front of the buffer
        self._eof = False
        self._decoder = json.JSONDecoder()
        self.raw = ""  # the text of the last value read by `value(raw=True)`

    def _more(self, at_least: int) -> bool:
        """Read at least `at_least` more characters (fewer at the end); False at the end."""
        if self._eof:
            return False
        if self._pos:
            self._consumed += self._pos
            self._buf, self._pos = self._buf[self._pos:], 0
        got = self._stream.read(max(at_least, self._chunk))
        if not got:
            self._eof = True
            return False
        self._buf += got
        return True

    def _next_char(self) -> str:
        """The next character that is not whitespace ('' at the end), not consumed."""
        while True:
            found = _NOT_WHITESPACE.search(self._buf, self._pos)
            if found is not None:
                self._pos = found.start()
                return self._buf[self._pos]
            self._pos = len(self._buf)
            if not self._more(self._chunk):
                return ""

    def _where(self) -> str:
        return f"character {self._consumed + self._pos + 1:,}"

    def __iter__(self) -> Iterator[Any]:
        for _start in self.positions():
            yield self.value()

    def peek(self) -> str:
        """The next character that is not whitespace ('' at the end)."""
        return self._next_char()

    def positions(self) -> Iterator[None]:
        """Stops at the start of each element of the array, which the caller reads (by
        `value` or `members`) before asking for the next."""
        first = self._next_char()
        if first == "\ufeff":
            self._pos += 1
            first = self._next_char()
        if first == "":
            raise ImportProblem(f"{self._name} is empty")
        if first != "[":
            raise ImportProblem(f"{self._name} does not hold a JSON array (it starts with "
                                f"{first!r}); a ChatGPT export's conversations.json does")
        self._pos += 1
        if self._next_char() == "]":
            self._pos += 1
            self._check_end()
            return
        while True:
            if self._next_char() == "":
                raise ImportProblem(f"{self._name} ends early (at {self._where()}): the file "
                                    "is cut off; download or unpack the export again")
            yield None
            separator = self._next_char()
            if separator == ",":
                self._pos += 1
                continue
            if separator == "]":
                self._pos += 1
                self._check_end()
                return
            if separator == "":
                raise ImportProblem(f"{self._name} ends early (at {self._where()}): the file "
                                    "is cut off; download or unpack the export again")
            raise ImportProblem(f"{self._name} is not valid JSON at {self._where()}: "
                                "expected ',' or ']' between conversations")

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here, one at a time; after each the caller
        reads its value (`value` or `members`) before asking for the next key."""
        if self._next_char() != "{":
            raise ImportProblem(f"{self._name} is not valid JSON at {self._where()}: "
                                "expected an object")
        self._pos += 1
        if self._next_char() == "}":
            self._pos += 1
            return
        while True:
            if self._next_char() != '"':
                self._bad_object("expected a key in double quotes")
            key = self.value()
            if self._next_char() != ":":
                self._bad_object("expected ':' after a key")
            self._pos += 1
            yield key
            separator = self._next_char()
            if separator == ",":
                self._pos += 1
                continue
            if separator == "}":
                self._pos += 1
                return
            self._bad_object("expected ',' or '}' after a value")

    def elements(self) -> Iterator[None]:
        """Stops at the start of each element of the array that starts here (inside an
        element of the top array), which the caller reads before asking for the next."""
        if self._next_char() != "[":
            raise ImportProblem(f"{self._name} is not valid JSON at {self._where()}: "
                                "expected an array")
        self._pos += 1
        if self._next_char() == "]":
            self._pos += 1
            return
        while True:
            yield None
            separator = self._next_char()
            if separator == ",":
                self._pos += 1
                continue
            if separator == "]":
                self._pos += 1
                return
            self._bad_object("expected ',' or ']' after an element")

    def _bad_object(self, what: str) -> None:
        if self._next_char() == "":
            raise ImportProblem(f"{self._name} ends early (at {self._where()}): the file is "
                                "cut off; download or unpack the export again")
        raise ImportProblem(f"{self._name} is not valid JSON at {self._where()}: {what}")

    def value(self, *, raw: bool = False) -> Any:
        """The value that starts here, decoded; with `raw`, its text is kept in `raw`."""
        if self._next_char() == "":
            raise ImportProblem(f"{self._name} ends early (at {self._where()}): the file is "
                                "cut off; download or unpack the export again")
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as err:
                at = self._consumed + err.pos + 1  # before reading more moves the buffer
                cut = err.pos >= len(self._buf) - 1 or err.msg.startswith("Unterminated string")
                if self._needs_more(err) and self._grow():
                    continue
                if cut:
                    raise ImportProblem(
                        f"{self._name} ends early (at {self._where()}): the file is cut "
                        "off; download or unpack the export again") from None
                raise ImportProblem(f"{self._name} is not valid JSON at character "
                                    f"{at:,}: {err.msg}") from None
            except RecursionError:
                raise ImportProblem(f"{self._name} is nested too deeply at "
                                    f"{self._where()}") from None
            except ValueError as err:  # an integer of thousands of digits
                raise ImportProblem(f"{self._name} holds a value that cannot be read at "
                                    f"{self._where()} ({err})") from None
            if end >= len(self._buf) and self._grow():
                continue  # a number may go on in the next chunk
            if raw:
                self.raw = self._buf[self._pos:end]
            self._pos = end
            return value

    def small_value(self, limit: int) -> Any:
        """The value that starts here decoded whole, if its text is at most about `limit`
        characters; else `TOO_LARGE`, nothing consumed (the caller walks it with
        `members`), as also when it does not decode: walking it names the error."""
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as err:
                if self._needs_more(err) and len(self._buf) - self._pos <= limit \
                        and self._more(max(1, min(len(self._buf) - self._pos, limit))):
                    continue
                return TOO_LARGE
            except (RecursionError, ValueError):
                return TOO_LARGE
            if end >= len(self._buf) and len(self._buf) - self._pos <= limit and \
                    self._more(self._chunk):
                continue
            if end - self._pos > limit:
                return TOO_LARGE
            self._pos = end
            return value

    def _needs_more(self, err: json.JSONDecodeError) -> bool:
        """A decode error that more text could cure: near the end of what is read so far
        (a cut `null` fails where it starts, a cut `\\u` escape a few characters back) or
        in a string that has not ended yet. A real error there shows again, further from
        the end, once more is read."""
        return err.pos >= len(self._buf) - _CUT_MARGIN \
            or err.msg.startswith("Unterminated string")

    def _grow(self) -> bool:
        """Read as much again as the element so far (so the retries cost O(n) in all), but
        never past the element's bound: what is held stays within it."""
        held = len(self._buf) - self._pos
        if held > self._max:
            raise ImportProblem(f"{self._name}: one conversation is larger than "
                                f"{self._max / (1024 * 1024):,.0f} MiB; it cannot be imported")
        return self._more(max(1, min(held, self._max + 1 - held)))

    def _check_end(self) -> None:
        if self._next_char() != "":
            raise ImportProblem(f"{self._name} has more after its closing ']' at "
                                f"{self._where()}")
