"""Helpers that write solution steps for the handwritten suites.

They sit below :mod:`devicesworld.tasks.suites` (the ``authoring`` import contract), so a
helper never reaches back into a suite.
"""
