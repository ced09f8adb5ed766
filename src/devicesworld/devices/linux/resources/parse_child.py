"""The document-parsing subprocess of :mod:`.isolate`: limit itself, parse, answer in JSON.

Kept apart from :mod:`.isolate` (and free of pydantic) so that its start-up is the
interpreter plus the one reader library it needs. Input on stdin: one JSON header
line (kind, file name, sheet, memory MiB, seconds), then the file's bytes. Output on
stdout: ``{"ok": true, "value": ...}`` or ``{"ok": false, "code": ..., "message": ...}``.
"""

from __future__ import annotations

import json
import resource
import sys
from collections.abc import Callable
from typing import Any

from devicesworld.devices.linux.resources import readers
from devicesworld.devices.linux.resources.readers import Blob, FormatError
from devicesworld.devices.safefs import FsError

PARSERS: dict[str, Callable[[Blob, str | None], Any]] = {
    "text": lambda b, _: readers.read_text(b),
    "json": lambda b, _: readers.read_json(b),
    "csv": lambda b, _: readers.read_csv(b),
    "xlsx": readers.read_xlsx,
    "workbook": lambda b, _: readers.read_workbook(b),
    "sheets": lambda b, _: readers.xlsx_sheets(b),
    "docx": lambda b, _: readers.read_docx(b),
    "docx_runs": lambda b, _: readers.read_docx_runs(b),
    "xlsx_formulas": readers.read_xlsx_formulas,
    "pdf": lambda b, _: readers.read_pdf(b),
    "image": lambda b, _: readers.image_info(b),
    "wav": lambda b, _: readers.wav_info(b),
    "archive": lambda b, _: readers.archive_names(b),
    "eml": lambda b, _: readers.read_eml(b),
}


def main() -> int:
    raw = sys.stdin.buffer.read()
    line, _, data = raw.partition(b"\n")
    head = json.loads(line)
    memory = int(head["memory"]) * 1024 * 1024
    cpu = int(float(head["cpu"])) + 1
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    name = str(head["name"])
    try:
        value = PARSERS[str(head["kind"])](Blob(name, data), head.get("sheet"))
        answer: dict[str, Any] = {"ok": True, "value": value}
    except FormatError as exc:
        answer = {"ok": False, "code": "FORMAT", "message": str(exc)}
    except FsError as exc:
        answer = {"ok": False, "code": exc.code, "message": exc.message}
    except MemoryError:
        answer = {
            "ok": False,
            "code": "RESOURCE_LIMIT",
            "message": f"{name}: opening it needs more than {head['memory']} MiB of memory",
        }
    except RecursionError:
        answer = {"ok": False, "code": "FORMAT", "message": f"{name}: nested too deeply to open"}
    except Exception as exc:  # a library's own error on a hostile file is still "does not open"
        answer = {"ok": False, "code": "FORMAT", "message": f"{name} cannot be opened ({type(exc).__name__})"}
    sys.stdout.write(json.dumps(answer, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
