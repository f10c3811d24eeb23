"""Which failures offer to send the same draft again: a property of the failure's kind."""

from __future__ import annotations

import pytest

from turnlog.core.failures import Failure, FailureKind

# Sending the same draft again cannot help: the draft itself is the problem, or a setting
# has to change first.
NO_RETRY = {
    FailureKind.BLANK_QUESTION,
    FailureKind.INVALID_TEXT,
    FailureKind.REFUSED,
    FailureKind.NO_KEY,
    FailureKind.AUTH,
    FailureKind.MODEL_NOT_FOUND,
    FailureKind.INSECURE_KEY,  # the address or the profile's choice must change first
    FailureKind.NO_IMAGES,  # the images must go, or the profile must say it takes them
}


@pytest.mark.parametrize("kind", list(FailureKind), ids=lambda kind: kind.value)
def test_try_again_is_offered_unless_the_draft_or_a_setting_must_change(kind: FailureKind):
    assert kind.offers_retry is (kind not in NO_RETRY)


def test_passing_failures_offer_to_try_again():
    # The ones a person meets most: a hiccup of the server or the network, or their own Stop.
    for kind in (FailureKind.RATE_LIMITED, FailureKind.TIMEOUT, FailureKind.NETWORK,
                 FailureKind.CANCELLED, FailureKind.TRUNCATED, FailureKind.STORAGE):
        assert Failure(kind).kind.offers_retry, kind
