"""Parallel backends behind one interface (:class:`~devicesworld.runner.backends.base.WorkerPool`).

``local``: in this process for one worker without a timeout, else worker processes on
this machine. ``ray``: Ray actors on a cluster. Both run the same
:class:`~devicesworld.runner.worker.EpisodeWorker`, fed by the same scheduler.
"""

from __future__ import annotations

from devicesworld.runner.backends.base import BackendError, Completion, WorkerPool

BACKENDS = ("local", "ray")

__all__ = ["BACKENDS", "BackendError", "Completion", "WorkerPool", "open_pool"]


def open_pool(
    backend: str,
    workers: int,
    *,
    prewarm: bool = True,
    prewarm_min_setup_s: float = 0.001,
    episode_timeout: float | None = None,
    ray_address: str | None = None,
) -> WorkerPool:
    """Start ``workers`` workers on ``backend``; raises :class:`BackendError` when it cannot."""
    if backend == "local":
        from devicesworld.runner.backends.local import InProcessPool, ProcessPool

        if workers == 1 and episode_timeout is None:
            return InProcessPool(prewarm=prewarm, min_setup_s=prewarm_min_setup_s)
        return ProcessPool(
            workers, prewarm=prewarm, min_setup_s=prewarm_min_setup_s
        )  # only a process can be stopped on a timeout
    if backend == "ray":
        from devicesworld.runner.backends.ray_backend import RayPool

        return RayPool(workers, prewarm=prewarm, min_setup_s=prewarm_min_setup_s, address=ray_address)
    raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
