"""What the next request would carry, worked out before anything is sent.

The preview is `core.compaction_plan.preview`: the same plan (`plan_compaction`) a send
carries out. When the cached summary will be reused it is the request body itself
("final"); when a compaction runs first it names the turns that will be folded in.
"""

from __future__ import annotations

from ...core.compaction_plan import Preview, preview

__all__ = ["Preview", "preview"]
