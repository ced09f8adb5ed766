"""Task specification: the document models, their JSON Schema and the loader.

Public names are re-exported here; the modules behind them are private detail.
"""

from devicesworld.spec.loading import (
    SpecIssue,
    TaskLoadError,
    dump_tasks_jsonl,
    load_tasks,
    validate_document,
)
from devicesworld.spec.models import (
    GLOBAL_DEVICE,
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
    "SCHEMA_VERSION",
    "Condition",
    "DeviceOp",
    "DeviceSpec",
    "Evaluation",
    "Limits",
    "Metadata",
    "SpecIssue",
    "Step",
    "Task",
    "TaskLoadError",
    "dump_tasks_jsonl",
    "load_tasks",
    "task_json_schema",
    "validate_document",
]
