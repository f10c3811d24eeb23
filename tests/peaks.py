"""Peak memory of what one test does, not of the whole test run: pytest runs every test
in one process, so its lifetime peaks (`ru_maxrss`) belong to whichever test was largest."""

from __future__ import annotations

import resource


def reset_peak_memory() -> None:
    """Start this process's peak RSS afresh (Linux: VmHWM, reset through clear_refs)."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")


def peak_memory_kib() -> int:
    """This process's peak RSS since `reset_peak_memory`, in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/self/status")


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
        after = self.now()
        return after > self.before and after >= limit_kib
