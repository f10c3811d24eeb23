"""Parts the conversation's features are handed, each a few objects that go together."""

from __future__ import annotations

from dataclasses import dataclass

from ..request.live_preview import LivePreview
from ..request.send_session import SendSession
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .banner import FailureBanner
from .composer import Composer


@dataclass(frozen=True, slots=True)
class SendParts:
    """What a send is made with and shown by: the send session, its live preview, the
    composer a question is taken from (and given back to), the banner that says how it
    failed."""

    session: SendSession
    preview: LivePreview
    composer: Composer
    banner: FailureBanner


@dataclass(frozen=True, slots=True)
class HistoryParts:
    """The history on show: its model over the log and the view that shows it."""

    transcript: TranscriptModel
    view: TranscriptView
