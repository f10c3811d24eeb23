"""The built-in local model as a provider profile: offered once, remembered when removed,
absent (without breaking anything) where the `local` extra is missing."""

from __future__ import annotations

import json

from turnlog.config.profiles import Profile, ProfileStore, builtin_profile, new_profile
from turnlog.localmodel import BUILTIN, Availability
from turnlog.providers import BUILTIN_LOCAL, OLLAMA, PRESETS, preset_by_id

INSTALLED = Availability(True, "", None)
MISSING = Availability(False, "The local model server is not installed (missing: llama_cpp).")


def test_the_builtin_preset_is_local_keyless_and_counts_exactly():
    assert preset_by_id("builtin") is BUILTIN_LOCAL and BUILTIN_LOCAL in PRESETS
    assert BUILTIN_LOCAL.name == "Built-in (SmolLM2-135M, offline)" == BUILTIN.profile_name
    assert BUILTIN_LOCAL.builtin and BUILTIN_LOCAL.local and not BUILTIN_LOCAL.needs_key
    assert not BUILTIN_LOCAL.include_usage  # llama-cpp-python ignores it in streams
    assert BUILTIN_LOCAL.tokenize_url("http://127.0.0.1:4321/v1") == \
        "http://127.0.0.1:4321/extras/tokenize"
    assert not any(p.builtin for p in PRESETS if p is not BUILTIN_LOCAL)


def test_first_start_adds_it_once_and_a_removal_is_remembered(turnlog_home):
    store = ProfileStore()
    added = store.offer_builtin(lambda: INSTALLED)
    assert added is not None and added.builtin
    assert (added.name, added.preset, added.model, added.model_path) == (
        BUILTIN.profile_name, "builtin", BUILTIN.alias, None)
    assert store.list() == [added]
    assert store.offer_builtin(lambda: INSTALLED) is None  # not twice
    assert store.remove(added.id)
    assert store.offer_builtin(lambda: INSTALLED) is None  # the user removed it: stays gone
    assert store.list() == []
    # Saving other profiles keeps the memory of the removal.
    store.put(new_profile(OLLAMA, model="llama3"))
    assert store.offer_builtin(lambda: INSTALLED) is None
    assert json.loads(store.path.read_text())["builtin_offered"] is True


def test_existing_profiles_stay_first_when_it_is_added(turnlog_home):
    store = ProfileStore()
    mine = new_profile(OLLAMA, model="llama3")
    store.put(mine)
    added = store.offer_builtin(lambda: INSTALLED)
    assert store.list() == [mine, added]


def test_without_the_extra_nothing_is_added_and_it_is_offered_later(turnlog_home):
    store = ProfileStore()
    assert store.offer_builtin(lambda: MISSING) is None
    assert store.list() == [] and not store.path.exists()
    assert store.offer_builtin(lambda: INSTALLED) is not None  # installed since


def test_a_chosen_model_file_round_trips(turnlog_home, tmp_path):
    store = ProfileStore()
    profile = builtin_profile(str(tmp_path / "other.gguf"), name="Local (other)", model="other")
    store.put(profile)
    assert store.get(profile.id) == profile
    assert Profile.from_json({**profile.to_json(), "model_path": None}).model_path is None
