"""A fast PNG writer for screenshots: unfiltered RGB rows, deflated by ISA-L when available.

A phone screenshot is 2 to 4 megapixels of mostly flat colour. Pillow's PNG encoder
(adaptive row filters + zlib) spends 25 to 35 ms on a Pixel 3 frame; the same data
deflated by Intel's ISA-L (the ``isal`` package, zlib-compatible streams) takes about
5 ms and stays a few dozen kilobytes. Without ``isal`` the standard ``zlib`` is used,
so the output is always a valid PNG any reader opens.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType

import numpy as np
from PIL import Image

_deflate: ModuleType
try:
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - isal is a dependency; this keeps odd platforms working
    _deflate = zlib
LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(image: Image.Image) -> bytes:
    """The image (converted to RGB) as PNG bytes, rows unfiltered (filter type 0)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    w, h = rgb.size
    rows = np.zeros((h, w * 3 + 1), dtype=np.uint8)
    rows[:, 1:] = np.asarray(rgb).reshape(h, w * 3)
    data = _deflate.compress(rows.tobytes(), LEVEL)
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
