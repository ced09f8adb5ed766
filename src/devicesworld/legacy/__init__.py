"""What is left of version 1 of the task pipeline: frozen, documented, imported by nothing else.

The v1 composition engine (typed atomic tasks glued into a slot graph, and the nine pattern
builders over it) built ``full-v1``; version 2 builds every task from data files (scenario
families and the kinds' task sources). The engine is deleted; ``full-v1`` ships frozen as a data
file and loads like any suite. This package keeps only what documents that file. An
import-linter contract (``legacy`` in pyproject.toml) forbids every other package to import it,
so nothing in the v2 build path can come to depend on v1 again.
"""
