"""The bottom layer: task documents, run records and value matching.

Everything may import this package and it imports nothing of the project above it
(only the small utility modules ``clip``, ``numbers`` and ``jsonl``); the import-linter
contract in pyproject.toml holds it to that. The loader, which needs the device
registry, is :mod:`devicesworld.tasks.loading`. Public names of the task document are
re-exported here.
"""

from devicesworld.spec.models import (
    GLOBAL_DEVICE,
    PROFILES_SCHEMA_VERSION,
    SCHEMA_VERSION,
    Condition,
    DeviceOp,
    DeviceSpec,
    Evaluation,
    Limits,
    Metadata,
    Step,
    Task,
    task_json_schema,
)

__all__ = [
    "GLOBAL_DEVICE",
    "PROFILES_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "Condition",
    "DeviceOp",
    "DeviceSpec",
    "Evaluation",
    "Limits",
    "Metadata",
    "Step",
    "Task",
    "task_json_schema",
]
