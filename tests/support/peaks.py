"""Peak memory of what one test does, not of the whole test run: pytest runs every test
in one process, so its lifetime peaks (`ru_maxrss`) belong to whichever test was largest."""

from __future__ import annotations

import resource


def reset_peak_memory() -> int:
    """Start this process's peak RSS afresh (Linux: VmHWM, reset through clear_refs) and
    return its RSS now, in KiB: what the run holds already, not the test's."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")
    return _status_kib("VmRSS:")


def peak_memory_kib() -> int:
    """This process's peak RSS since `reset_peak_memory`, in KiB."""
    return _status_kib("VmHWM:")


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/self/status")


class ChildrenPeak:
    """The largest peak RSS of the children ended (and waited for) since it was made, in
    KiB: the kernel keeps one high-water mark over all of them, so a child of this test
    shows only when it went higher than every earlier one — `exceeded(limit)` is true
    only when a child of this test did go past `limit`."""

    def __init__(self) -> None:
        self.before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    def now(self) -> int:
        return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    def exceeded(self, limit_kib: int) -> bool:
        # A child forked from this process counts this process's pages as its own until it
        # execs (the kernel keeps that high-water mark): what the child took is above them.
        after = self.now()
        return after > self.before and after - _status_kib("VmRSS:") >= limit_kib
