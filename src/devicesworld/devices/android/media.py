"""Deterministic media files: silent WAV audio and generated pictures, small but real.

Songs, recordings and photos are produced from their description (title, length,
label), so a task reproduces byte-for-byte and verifiers can open what the phone
stored. Audio is kept to at most one second of samples; the intended length is
stored in the media store's ``duration`` column, as a real file's header would say.
"""

from __future__ import annotations

import io
import wave
from pathlib import Path

from PIL import Image, ImageDraw

RATE = 8000


def write_wav(path: Path, seconds: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    frames = int(min(max(seconds, 0.0), 1.0) * RATE)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(b"\x80" * frames)


def picture(label: str, color: tuple[int, int, int], size: tuple[int, int] = (320, 240)) -> Image.Image:
    img = Image.new("RGB", size, color)
    draw = ImageDraw.Draw(img)
    w, h = size
    for i in range(0, h, 8):
        shade = tuple(min(255, c + i // 6) for c in color)
        draw.rectangle((0, i, w, i + 8), fill=shade)
    draw.text((12, h - 28), label, fill=(255, 255, 255))
    return img


def write_picture(path: Path, label: str, color: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    fmt = "JPEG" if path.suffix.lower() in (".jpg", ".jpeg") else "PNG"
    picture(label, color).save(buf, format=fmt)
    path.write_bytes(buf.getvalue())
