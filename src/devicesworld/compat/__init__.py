"""Facades that let clients written for other benchmarks and protocols drive our devices.

Each facade drives a :class:`~devicesworld.compat.session.RecordedSession`, so its
steps count and are recorded exactly like the runner's.
"""
