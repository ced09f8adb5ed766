"""Optional LLM stages for users with an endpoint, off by default (JarvisGUI §4.2).

- :mod:`.rewrite`: rewrite a built task's instruction into a natural request, kept
  only when the mechanical guards of :mod:`.guards` pass;
- :mod:`.judge`: score realism, coherence and evaluability on 1-5 and drop tasks
  below a threshold;
- :mod:`.run`: both over a task list, with a report (``devicesworld tasks refine``).

Nothing here runs unless asked; the ``openai`` SDK is needed only by :mod:`.endpoint`.
"""

from __future__ import annotations

from devicesworld.tasks.refine.endpoint import Answer, Chat, EndpointError, open_endpoint
from devicesworld.tasks.refine.run import RefineOptions, RefineReport, refine_tasks

__all__ = [
    "Answer",
    "Chat",
    "EndpointError",
    "RefineOptions",
    "RefineReport",
    "open_endpoint",
    "refine_tasks",
]
