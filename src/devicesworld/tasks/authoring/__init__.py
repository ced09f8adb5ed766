"""Helpers that write solution steps: shared by the handwritten suites and the composition library.

They sit below both, so :mod:`devicesworld.tasks.suites` and
:mod:`devicesworld.tasks.composition` never import each other.
"""
