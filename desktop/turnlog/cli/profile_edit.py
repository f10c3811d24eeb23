"""profile edit, and a profile's prices: the options `profile add` and `profile edit`
share for what a model costs, and finding a profile by name or id."""

from __future__ import annotations

import argparse
import getpass
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path

from ..config.paths import data_dir
from ..config.profiles import Profile, ProfileStore, check_base_url
from ..config.secrets import KeyringUnavailable, check_key, open_key_store
from ..core.cost import PRICED_BY_YOU, PriceInvalid, Prices, parse_currency, parse_price
from ..providers import preset_by_id
from ..providers.security import CaFileUnusable, insecure_key_detail, key_in_clear, tls_context
from .terminal import safe_for


def find_profile(profiles: list[Profile], wanted: str | None) -> Profile | None:
    if wanted is None:
        return profiles[0] if profiles else None
    for profile in profiles:
        if wanted in (profile.id, profile.name):
            return profile
    return None


def read_key(args: argparse.Namespace) -> str | None:
    if args.key_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if sys.stdin.isatty():
        return getpass.getpass("API key (not shown; empty for none): ")
    return None


def add_price_options(p: argparse.ArgumentParser, *, editing: bool) -> None:
    p.add_argument("--price-input", metavar="X",
                   help="what a million input tokens cost (for example 0.15)")
    p.add_argument("--price-output", metavar="Y", help="what a million output tokens cost")
    p.add_argument("--price-cached", metavar="Z",
                   help="what a million cached input tokens cost (default: as input)")
    p.add_argument("--currency", metavar="CODE",
                   help="the prices' currency, a three-letter code (default USD)")
    if editing:
        p.add_argument("--no-prices", action="store_true",
                       help="forget the profile's prices (its requests show tokens only)")


def prices_from(args: argparse.Namespace, old: Prices | None,
                today: date | None = None) -> Prices | None:
    """The prices `args` set (`old` where they set none; set today when any changed).
    ValueError in plain words: a price that is not a number, input without output."""
    if getattr(args, "no_prices", False):
        return None
    given = {"input": args.price_input, "output": args.price_output,
             "cached": args.price_cached, "currency": args.currency}
    if all(value is None for value in given.values()):
        return old
    try:
        input_ = parse_price(given["input"], "input price") if given["input"] is not None \
            else (old.input if old else None)
        output = parse_price(given["output"], "output price") if given["output"] is not None \
            else (old.output if old else None)
        cached = parse_price(given["cached"], "cached input price") \
            if given["cached"] is not None else (old.cached if old else None)
        currency = parse_currency(given["currency"]) if given["currency"] is not None \
            else (old.currency if old else "USD")
    except PriceInvalid as err:
        raise ValueError(str(err)) from None
    if input_ is None or output is None:
        raise ValueError("a profile's prices need both --price-input and --price-output")
    return Prices(input_, output, cached, currency, (today or date.today()).isoformat(),
                  PRICED_BY_YOU)


def edited(profile: Profile, args: argparse.Namespace) -> Profile:
    """`profile` with what `args` changed; ValueError in plain words."""
    changes: dict[str, object] = {}
    if args.preset is not None:
        if preset_by_id(args.preset).builtin != profile.builtin:
            raise ValueError("a profile cannot change to or from the built-in model; add a "
                             "new profile instead")
        changes["preset"] = args.preset
    if args.base_url is not None:
        changes["base_url"] = check_base_url(args.base_url)
    if args.model is not None:
        changes["model"] = args.model.strip()
    if args.context_window is not None:
        if args.context_window <= 0:
            raise ValueError("--context-window must be a positive number of tokens")
        changes["context_window"] = args.context_window
    if args.model_file is not None:
        if not profile.builtin:
            raise ValueError("--model-file is only for the built-in model's profile")
        changes["model_path"] = str(Path(args.model_file).expanduser().resolve())
    changes.update(_network_changes(args))
    if args.accepts_images is not None:
        changes["accepts_images"] = args.accepts_images == "yes"
    changes["prices"] = prices_from(args, profile.prices)
    return replace(profile, **changes)  # type: ignore[arg-type]


def _network_changes(args: argparse.Namespace) -> dict[str, object]:
    changes: dict[str, object] = {}
    timeout = args.first_token_timeout
    if timeout is not None:
        if not 0 < timeout <= 86400:
            raise ValueError("--first-token-timeout must be between 0 and 86400 seconds")
        changes["first_token_timeout_s"] = timeout
    if args.no_retry:
        changes["retry"] = False
    if args.allow_insecure_key:
        changes["allow_insecure_key"] = True
    if args.ca_file:
        ca_file = str(Path(args.ca_file).expanduser().resolve())
        try:
            tls_context(ca_file)
        except CaFileUnusable as err:
            raise ValueError(str(err)) from err
        changes["ca_file"] = ca_file
    return changes


def run_profile_edit(args: argparse.Namespace) -> int:
    store = ProfileStore(data_dir())
    profile = find_profile(store.list(), args.name)
    safe = safe_for(sys.stderr)
    if profile is None:
        print(safe(f"error: there is no profile “{args.name}”"), file=sys.stderr)
        return 1
    try:
        changed = edited(profile, args)
    except ValueError as err:
        print(safe(f"error: {err}"), file=sys.stderr)
        return 2
    key = read_key(args) if args.key_stdin else None
    if key:
        if key_in_clear(changed.base_url) and not changed.allow_insecure_key:
            print(f"error: the key was not stored: {insecure_key_detail(changed.base_url)}. "
                  "Use an https:// address, or add --allow-insecure-key if the network in "
                  "between is your own.", file=sys.stderr)
            return 2
        try:
            open_key_store().set(changed.id, check_key(key))
        except (KeyringUnavailable, ValueError) as err:
            print(f"error: the key was not stored: {err}", file=sys.stderr)
            return 1
    store.put(changed)
    print(safe_for(sys.stdout)(f"updated profile {changed.name} ({changed.id})"
                               + _prices_note(changed)))
    return 0


def _prices_note(profile: Profile) -> str:
    prices = profile.prices
    if prices is None:
        return "; no prices"
    cached = f", cached {prices.cached}" if prices.cached is not None else ""
    return (f"; per million tokens: input {prices.input}{cached}, output {prices.output} "
            f"{prices.currency} (set {prices.set_on})")
