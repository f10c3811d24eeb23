"""Python's cyclic garbage collector, run on the thread that owns the widgets only.

Left to itself the collector runs in whichever thread happens to allocate past its
threshold: a page reader, the formula typesetter's thread, the network worker. There it
may destroy Qt objects that belong to the GUI thread (Qt then says "Timers cannot be
stopped from another thread", and such a destruction can crash). So automatic collection
is turned off (`take_over`) and the owner thread asks for the same generational
collection itself (`collect_due`), from a timer: objects freed by their reference count
go at once as ever; only garbage in cycles waits for the next tick."""

from __future__ import annotations

import gc


def take_over() -> None:
    """Turn off automatic collection: from now on only `collect_due` collects."""
    gc.disable()


def collect_due() -> int | None:
    """Collect the generations past their thresholds, as Python itself would have (the
    oldest such generation, with the younger ones); the generation collected, or None."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    due = None
    for generation in range(3):
        if counts[generation] <= thresholds[generation]:
            break
        due = generation
    if due is not None:
        gc.collect(due)
    return due
