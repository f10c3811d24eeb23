"""turnlog-cli usage, and a profile's prices (`profile add --price-…`, `profile edit`),
against the loopback server, which reports usage as a server would."""

from __future__ import annotations

import json
from decimal import Decimal

from cli_runs import add_profile, cli
from loopback import Behaviour

PRICES = ("--price-input", "0.5", "--price-output", "2", "--price-cached", "0.1")


def ask(loopback, usage: dict | None, *where: str) -> int:
    loopback.script(Behaviour.answer("An answer of a few words.", usage=usage))
    result = cli("ask", *(where or ("--new",)), "A question?")
    assert result.returncode == 0, result.stderr
    return int(result.stderr.split("conversation ")[1].split()[0]) if not where else 0


def usage(*args: str) -> dict:
    result = cli("usage", "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def reported(prompt: int, completion: int, cached: int = 0) -> dict:
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached}}


def test_totals_are_the_usage_the_server_reported_at_the_prices_set(loopback):
    add_profile(loopback, "loop", *PRICES, "--currency", "eur")
    sent = [reported(1200, 300, 1000), reported(2000, 50), reported(777, 333, 7)]
    cid = ask(loopback, sent[0])
    ask(loopback, sent[1], "--conversation", str(cid))
    other = ask(loopback, sent[2])
    (total,) = usage()["totals"]
    assert total["input_tokens"] == sum(u["prompt_tokens"] for u in sent)
    assert total["cached_tokens"] == sum(u["prompt_tokens_details"]["cached_tokens"]
                                         for u in sent)
    assert total["output_tokens"] == sum(u["completion_tokens"] for u in sent)
    expected = sum((Decimal(u["prompt_tokens"] - u["prompt_tokens_details"]["cached_tokens"])
                    * Decimal("0.5") + u["prompt_tokens_details"]["cached_tokens"]
                    * Decimal("0.1") + u["completion_tokens"] * Decimal(2)) / 1_000_000
                   for u in sent)
    assert Decimal(total["cost"]) == expected
    assert (total["currency"], total["requests"], total["estimated"]) == ("EUR", 3, 0)
    (day,) = usage()["days"]
    assert (day["profile"], day["model"]) == ("loop", "loopback-model")
    mine = usage("--conversation", str(cid))
    assert mine["source"] == "conversation"
    assert mine["totals"][0]["input_tokens"] == 3200
    assert usage("--conversation", str(other))["totals"][0]["output_tokens"] == 333


def test_a_price_change_costs_later_requests_only(loopback):
    add_profile(loopback, "loop", "--price-input", "1", "--price-output", "1")
    cid = ask(loopback, reported(1000, 0))
    changed = cli("profile", "edit", "loop", "--price-input", "3")
    assert changed.returncode == 0, changed.stderr
    assert "input 3, output 1 USD" in changed.stdout
    ask(loopback, reported(1000, 0), "--conversation", str(cid))
    costs = [Decimal(d["cost"]) for d in usage("--conversation", str(cid))["days"]]
    assert costs == [Decimal("0.004")]  # 1000 × 1 + 1000 × 3 per million
    cli("profile", "edit", "loop", "--no-prices")
    ask(loopback, reported(1000, 0), "--conversation", str(cid))
    unpriced, priced = usage()["totals"]  # the unpriced one adds tokens, never a cost
    assert (Decimal(priced["cost"]), priced["input_tokens"], priced["currency"]) == \
        (Decimal("0.004"), 2000, "USD")
    assert (unpriced["cost"], unpriced["input_tokens"], unpriced["unpriced"]) == \
        (None, 1000, 1)


def test_a_request_without_usage_is_costed_from_the_count_and_labelled_estimated(loopback):
    add_profile(loopback, "loop", *PRICES)
    ask(loopback, None)
    (total,) = usage()["totals"]
    assert total["estimated"] == 1
    assert total["input_tokens"] > 0 and total["output_tokens"] > 0
    assert Decimal(total["cost"]) == (Decimal(total["input_tokens"]) * Decimal("0.5")
                                      + total["output_tokens"] * 2) / 1_000_000
    shown = cli("usage")
    assert "estimated" in shown.stdout, shown.stdout


def test_a_deleted_conversation_s_spend_stays_until_the_totals_are_cleared(loopback):
    add_profile(loopback, "loop", *PRICES)
    cid = ask(loopback, reported(1000, 100))
    assert cli("delete", "--conversation", str(cid), "--yes").returncode == 0
    (total,) = usage()["totals"]
    assert (total["input_tokens"], total["cost"]) == (1000, "0.0007")
    assert usage()["includes_deleted_conversations"] is True
    ask(loopback, reported(10, 10))
    assert cli("delete", "--all", "--yes").returncode == 0
    assert usage()["totals"][0]["input_tokens"] == 1010  # delete-all keeps the numbers too
    assert cli("delete", "--all", "--yes", "--usage-totals").returncode == 0
    assert usage()["totals"] == []
    ask(loopback, reported(10, 10))
    assert cli("usage", "--clear", input="n\n").returncode == 1
    assert cli("usage", "--clear", "--yes").returncode == 0
    assert usage()["totals"] == [] and "no usage yet" in cli("usage").stdout


def test_a_server_without_prices_shows_tokens_and_no_cost(loopback):
    add_profile(loopback, "loop")
    ask(loopback, reported(50, 5))
    (total,) = usage()["totals"]
    assert (total["cost"], total["currency"], total["input_tokens"]) == (None, None, 50)
    assert "no prices" in cli("usage").stdout


def test_bad_prices_and_edits_are_named_and_change_nothing(loopback):
    add_profile(loopback, "loop")
    for args, words in ((("--price-input", "abc", "--price-output", "1"), "not a number"),
                        (("--price-input", "-1", "--price-output", "1"), "between 0"),
                        (("--price-input", "1"), "both --price-input and --price-output"),
                        (("--price-input", "1", "--price-output", "1", "--currency", "dollar"),
                         "three-letter code")):
        result = cli("profile", "edit", "loop", *args)
        assert result.returncode == 2 and words in result.stderr, result.stderr
    missing = cli("profile", "edit", "nobody", "--model", "x")
    assert missing.returncode == 1 and "no profile “nobody”" in missing.stderr
    renamed = cli("profile", "edit", "loop", "--model", "other-model",
                  "--context-window", "8192")
    assert renamed.returncode == 0, renamed.stderr
    profiles = json.loads((cli_home() / "profiles.json").read_text())["profiles"]
    assert [(p["model"], p["context_window"], p["prices"]) for p in profiles] == \
        [("other-model", 8192, None)]
    bad = cli("profile", "add", "x", "--preset", "custom", "--base-url", loopback.base_url,
              "--price-input", "1", "--price-output", "0.0000001", input="")
    assert bad.returncode == 2 and "decimal places" in bad.stderr


def test_usage_since_a_day_and_a_bad_date(loopback):
    add_profile(loopback, "loop", *PRICES)
    ask(loopback, reported(10, 1))
    assert usage("--since", "2999-01-01")["days"] == []
    assert usage("--since", "2000-01-01")["totals"][0]["input_tokens"] == 10
    bad = cli("usage", "--since", "yesterday")
    assert bad.returncode == 2 and "not a date" in bad.stderr


def cli_home():
    import os
    from pathlib import Path

    return Path(os.environ["TURNLOG_HOME"])


def btw(loopback, behaviour: Behaviour, cid: int, *, ok: bool = True) -> None:
    loopback.script(behaviour)
    result = cli("btw", "--conversation", str(cid), "And on the side?")
    assert (result.returncode == 0) is ok, result.stderr


def test_side_questions_and_their_failed_attempts_count_at_the_profile_s_prices(loopback):
    add_profile(loopback, "loop", *PRICES)
    answers = [reported(1200, 300, 1000), reported(2000, 50)]
    sides = [reported(900, 40, 100), reported(400, 7)]  # an answer, a failed attempt
    cid = ask(loopback, answers[0])
    ask(loopback, answers[1], "--conversation", str(cid))
    btw(loopback, Behaviour.answer("Aside.", usage=sides[0]), cid)
    btw(loopback, Behaviour.length(usage=sides[1]), cid, ok=False)
    btw(loopback, Behaviour.answer("No usage reported."), cid)  # Turnlog's count
    every = [*answers, *sides]

    def expected_cost(used: list[dict]) -> Decimal:
        return sum((Decimal(u["prompt_tokens"] - u["prompt_tokens_details"]["cached_tokens"])
                    * Decimal("0.5") + u["prompt_tokens_details"]["cached_tokens"]
                    * Decimal("0.1") + u["completion_tokens"] * Decimal(2)) / 1_000_000
                   for u in used)

    for report in (usage(), usage("--conversation", str(cid))):
        (total,) = report["totals"]
        assert (total["requests"], total["estimated"]) == (5, 1)
        counted = total["input_tokens"] - sum(u["prompt_tokens"] for u in every)
        assert counted > 0  # the side question without usage, by Turnlog's count
        assert total["cached_tokens"] == 1100
        out = total["output_tokens"] - sum(u["completion_tokens"] for u in every)
        assert out > 0
        assert Decimal(total["cost"]) == expected_cost(every) + \
            (counted * Decimal("0.5") + out * 2) / Decimal(1_000_000)
