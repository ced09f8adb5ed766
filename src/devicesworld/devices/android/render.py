"""Screenshots: a PNG drawn with Pillow from the very view tree the element list comes from.

Each visible node is drawn by its class and style hint (buttons, fields with hint
text, switches, sliders, chat bubbles, day cells), in the device's language and
direction: right-to-left text is shaped and aligned right (Pillow's raqm layout does
the Arabic shaping and bidi). Colours follow the dark-mode setting; the launcher
shows the profile's wallpaper. Fonts are looked up once per language among common
system fonts (DejaVu Sans for Latin and Arabic, Nanum/Noto CJK for Korean); when none
is installed Pillow's built-in font is used and non-Latin text may show as boxes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from devicesworld.devices.android.png import encode_png
from devicesworld.devices.android.profiles import WALLPAPERS
from devicesworld.devices.android.system.phone import Phone
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont

_FONT_CANDIDATES = {
    "ko": [
        "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    ],
    "default": [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ],
}

RGB = tuple[int, int, int]
_ROLES: dict[str, tuple[RGB, RGB]] = {
    # role: (light theme, dark theme)
    "bg": ((250, 250, 252), (18, 18, 20)),
    "fg": ((28, 28, 32), (232, 232, 236)),
    "dim": ((110, 110, 120), (150, 150, 160)),
    "bar": ((235, 235, 240), (32, 32, 36)),
    "primary": ((26, 115, 232), (138, 180, 248)),
    "on_primary": ((255, 255, 255), (16, 16, 20)),
    "field": ((240, 240, 245), (40, 40, 46)),
    "bubble_in": ((232, 234, 237), (48, 50, 56)),
    "bubble_out": ((210, 227, 252), (40, 68, 110)),
    "line": ((200, 200, 210), (70, 70, 80)),
    "dialog": ((255, 255, 255), (40, 40, 44)),
    "keyboard": ((220, 222, 228), (44, 46, 52)),
    "danger": ((217, 48, 37), (242, 139, 130)),
}
"""Every colour role side by side in both themes, so neither theme can miss one."""
LIGHT = {role: light for role, (light, _) in _ROLES.items()}
DARK = {role: dark for role, (_, dark) in _ROLES.items()}


@cache
def font_path(lang: str) -> str | None:
    for path in _FONT_CANDIDATES.get(lang, []) + _FONT_CANDIDATES["default"]:
        if Path(path).is_file():
            return path
    return None


@cache
def font(lang: str, size: int) -> FontT:
    path = font_path(lang)
    if path is None:
        return ImageFont.load_default()
    raqm = features.check("raqm")
    return ImageFont.truetype(
        path, size, layout_engine=ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
    )


class _Painter:
    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.c = DARK if phone.dark else LIGHT
        self.d = phone.density
        scale = float(phone.storage.setting("system", "font_scale", "1.0") or 1.0)
        self.text_px = max(int(15 * self.d * scale), 8)
        self.img = Image.new("RGB", (phone.width, phone.height), self.c["bg"])
        self.draw = ImageDraw.Draw(self.img)

    def font(self, size: int, symbol: bool = False) -> FontT:
        return font("symbols" if symbol else self.phone.lang, size)

    def text(
        self,
        box: tuple[int, int, int, int],
        value: str,
        color: tuple[int, int, int],
        *,
        size: int | None = None,
        center: bool = False,
        symbol: bool = False,
    ) -> None:
        if not value:
            return
        x0, y0, x1, y1 = box
        pad = int(8 * self.d)
        f = self.font(size or self.text_px, symbol)
        line = value.replace("\n", " ⏎ ")
        direction = None  # raqm finds each run's direction itself (mixed Arabic/Latin text stays readable)
        width = self.draw.textlength(line, font=f)
        avail = max(x1 - x0 - 2 * pad, 1)
        while width > avail and len(line) > 2:
            line = line[: max(int(len(line) * avail / width) - 2, 1)] + "…"
            width = self.draw.textlength(line, font=f, direction=direction)
        if center:
            x = x0 + (x1 - x0 - width) / 2
        elif self.phone.rtl:
            x = x1 - pad - width
        else:
            x = x0 + pad
        y = y0 + (y1 - y0) / 2
        self.draw.text((x, y), line, fill=color, font=f, anchor="lm", direction=direction)

    def node(self, n: View) -> None:
        if not n.visible:
            return
        c, d, draw = self.c, self.d, self.draw
        x0, y0, x1, y1 = n.rect
        r = int(8 * d)
        inset = int(4 * d)
        box = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        style = n.style
        if style == "wallpaper":
            top, bottom = WALLPAPERS[self.phone.profile.wallpaper]
            h = max(y1 - y0, 1)
            for i in range(0, h, 4):
                t = i / h
                color = tuple(int(top[k] + (bottom[k] - top[k]) * t) for k in range(3))
                draw.rectangle((x0, y0 + i, x1, y0 + i + 4), fill=color)
        elif style in ("status_bar", "nav_bar"):
            draw.rectangle(n.rect, fill=c["bar"])
        elif style == "keyboard":
            draw.rectangle(n.rect, fill=c["keyboard"])
            rows, cols = 4, 10
            kw, kh = (x1 - x0) / cols, (y1 - y0) / rows
            for ry in range(rows):
                for cx in range(cols):
                    draw.rounded_rectangle(
                        (
                            x0 + cx * kw + 3 * d,
                            y0 + ry * kh + 4 * d,
                            x0 + (cx + 1) * kw - 3 * d,
                            y0 + (ry + 1) * kh - 4 * d,
                        ),
                        radius=int(4 * d),
                        fill=c["bg"],
                    )
            return
        elif style == "toast":
            draw.rounded_rectangle(
                (x0 + 40 * d, y0 + 4 * d, x1 - 40 * d, y1 - 4 * d), radius=int(20 * d), fill=c["fg"]
            )
            self.text(n.rect, n.text, c["bg"], center=True)
            return
        elif style == "dialog":
            draw.rounded_rectangle(n.rect, radius=int(16 * d), fill=c["dialog"])
        elif style == "app_icon":
            size = int(min(x1 - x0, y1 - y0) * 0.5)
            cx = (x0 + x1) // 2
            hue = sum(map(ord, n.text)) % 6
            palette = [
                (66, 133, 244),
                (52, 168, 83),
                (251, 188, 5),
                (234, 67, 53),
                (123, 31, 162),
                (0, 150, 136),
            ]
            draw.ellipse((cx - size // 2, y0 + 6 * d, cx + size // 2, y0 + 6 * d + size), fill=palette[hue])
            glyph = n.text.removeprefix("ال")[:1].upper()
            self.text(
                (cx - size // 2, int(y0 + 6 * d), cx + size // 2, int(y0 + 6 * d + size)),
                glyph,
                (255, 255, 255),
                size=int(size * 0.5),
                center=True,
            )
            self.text(
                (x0, int(y0 + 8 * d + size), x1, y1),
                n.text,
                (255, 255, 255),
                size=int(self.text_px * 0.8),
                center=True,
            )
            return
        if n.class_name == v.BUTTON and style == "wheel":  # a NumberPicker's neighbouring value
            self.text(box, n.text, c["dim"], center=True, size=int(self.text_px * 1.2))
            return
        if n.class_name == v.BUTTON:
            fill = c["primary"] if style in ("primary", "headline") or n.selected else c["field"]
            if style == "danger":
                fill = c["danger"]
            if not n.enabled:
                fill = c["line"]
            draw.rounded_rectangle(box, radius=r, fill=fill)
            fg = c["on_primary"] if fill in (c["primary"], c["danger"]) else c["fg"]
            self.text(
                box, n.text, fg, center=True, size=int(self.text_px * (1.6 if style == "headline" else 1))
            )
        elif n.class_name == v.IMAGE_BUTTON:
            glyphs = {"back": "◁", "home": "○", "recent_apps": "□"}
            icon_glyphs = {
                "toolbar_up": "→" if self.phone.rtl else "←",
                "thread_send_message": "➤",
                "call_button": "✆",
                "sms_button": "✉",
                "menu_edit": "✎",
                "menu_delete": "🗑",
                "deleteButton": "⌫",
                "agenda_view": "☰",
                "search": "⚲",
                "toggle_mode": "◷",
            }
            key = n.resource_id.rsplit("/", 1)[-1]
            glyph = (
                glyphs.get(key)
                or icon_glyphs.get(key)
                or _rid_glyph(key)
                or _desc_glyph(n.content_description)
            )
            fill = c["line"] if not n.enabled else c["field"]
            if key not in glyphs:
                draw.ellipse(
                    (
                        box[0] + (box[2] - box[0]) / 2 - 18 * d,
                        box[1],
                        box[0] + (box[2] - box[0]) / 2 + 18 * d,
                        box[3],
                    ),
                    fill=fill,
                )
            self.text(
                box,
                glyph,
                c["fg"],
                center=True,
                symbol=bool(_rid_glyph(key) or key in glyphs or key in icon_glyphs),
            )
        elif n.editable:
            draw.rounded_rectangle(box, radius=r, fill=c["field"])
            focused = self.phone.is_focused(n)
            draw.line(
                (box[0], box[3], box[2], box[3]),
                fill=c["primary"] if focused else c["line"],
                width=max(int(2 * d), 1),
            )
            if n.text:
                self.text(box, n.text + ("|" if focused else ""), c["fg"])
            else:
                self.text(box, (n.hint_text or "") + (" |" if focused else ""), c["dim"])
        elif n.class_name in (v.SWITCH, v.CHECKBOX):
            tw = int(40 * d)
            tx = box[0] + int(8 * d) if self.phone.rtl else box[2] - tw - int(8 * d)
            ty = (y0 + y1) // 2
            on = n.checked
            if n.class_name == v.SWITCH:
                draw.rounded_rectangle(
                    (tx, ty - 10 * d, tx + tw, ty + 10 * d),
                    radius=int(10 * d),
                    fill=c["primary"] if on else c["line"],
                )
                knob = tx + tw - 10 * d if on else tx + 10 * d
                draw.ellipse((knob - 8 * d, ty - 8 * d, knob + 8 * d, ty + 8 * d), fill=(255, 255, 255))
                self.text(
                    (box[0] + tw + int(16 * d), box[1], box[2], box[3])
                    if self.phone.rtl
                    else (box[0], box[1], box[2] - tw - int(16 * d), box[3]),
                    n.text,
                    c["fg"],
                )
            else:
                draw.rounded_rectangle(box, radius=r, fill=c["primary"] if on else c["field"])
                self.text(box, n.text, c["on_primary"] if on else c["fg"], center=style != "radio")
        elif n.class_name == v.SEEKBAR:
            ty = (y0 + y1) // 2
            draw.line((box[0], ty, box[2], ty), fill=c["line"], width=int(4 * d))
            frac = n.value or 0.0
            kx = box[2] - (box[2] - box[0]) * frac if self.phone.rtl else box[0] + (box[2] - box[0]) * frac
            draw.line(
                (box[0] if not self.phone.rtl else kx, ty, kx if not self.phone.rtl else box[2], ty),
                fill=c["primary"],
                width=int(4 * d),
            )
            draw.ellipse((kx - 10 * d, ty - 10 * d, kx + 10 * d, ty + 10 * d), fill=c["primary"])
        elif n.class_name == v.TEXT:
            if style in ("bubble_in", "bubble_out"):
                w = (x1 - x0) * 0.75
                out = style == "bubble_out"
                left = (x1 - w - inset) if out != self.phone.rtl else x0 + inset
                b = (int(left), box[1], int(left + w), box[3])
                draw.rounded_rectangle(b, radius=int(12 * d), fill=c[style])
                self.text(b, n.text, c["fg"])
            elif style in ("day", "day_selected"):
                if style == "day_selected":
                    mx, my, rr = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2 - 2
                    draw.ellipse((mx - rr, my - rr, mx + rr, my + rr), fill=c["primary"])
                self.text(
                    n.rect, n.text, c["on_primary"] if style == "day_selected" else c["fg"], center=True
                )
            elif style == "wrap":
                self.paragraph(n.rect, n.text, c["fg"])
            elif style == "tab":
                if n.selected:
                    draw.line((x0, y1 - 2 * d, x1, y1 - 2 * d), fill=c["primary"], width=int(3 * d))
                self.text(n.rect, n.text, c["primary"] if n.selected else c["dim"], center=True)
            else:
                factor = {"title": 1.25, "headline": 2.0, "status": 0.85, "dim": 0.9, "label": 0.9}.get(
                    style, 1.0
                )
                color = c["dim"] if style in ("dim", "label") else c["fg"]
                self.text(n.rect, n.text, color, size=int(self.text_px * factor), center=style == "headline")
        elif n.class_name == v.IMAGE and style == "status_icon":
            self.text(
                n.rect,
                _status_glyph(n.content_description),
                c["fg"],
                size=int(self.text_px * 0.8),
                center=True,
                symbol=True,
            )
        if n.selected and n.class_name == v.LINEAR:
            draw.rectangle(n.rect, outline=c["primary"], width=int(2 * d))
        for child in n.children:
            self.node(child)

    def paragraph(self, box: tuple[int, int, int, int], value: str, color: tuple[int, int, int]) -> None:
        """Text wrapped on word boundaries over as many lines as the box holds (a prompt's question)."""
        x0, y0, x1, y1 = box
        pad = int(8 * self.d)
        f = self.font(self.text_px)
        line_h = int(self.text_px * 1.35)
        lines: list[str] = []
        for word in value.split():
            if lines and self.draw.textlength(f"{lines[-1]} {word}", font=f) <= x1 - x0 - 2 * pad:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        fit = max((y1 - y0) // line_h, 1)
        for i, line in enumerate(lines[:fit]):
            top = y0 + i * line_h
            self.text(
                (x0, top, x1, top + line_h), line + ("…" if i == fit - 1 < len(lines) - 1 else ""), color
            )

    def dim(self, rect: tuple[int, int, int, int]) -> None:
        overlay = Image.new("RGBA", self.img.size, (0, 0, 0, 0))
        ImageDraw.Draw(overlay).rectangle(rect, fill=(0, 0, 0, 110))
        self.img = Image.alpha_composite(self.img.convert("RGBA"), overlay).convert("RGB")
        self.draw = ImageDraw.Draw(self.img)


_RID_GLYPHS = (
    ("_increment", "▲"),
    ("_decrement", "▼"),
    ("prev", "◀"),
    ("left_arrow", "◀"),
    ("next", "▶"),
    ("right_arrow", "▶"),
)
"""An icon's glyph by the end of its resource id."""
_DESC_GLYPHS = (
    ("increase", "▲"),
    ("decrease", "▼"),
    ("previous", "◀"),
    ("next", "▶"),
    ("search", "⚲"),
    ("more", "⋮"),
)
"""An icon's glyph by a word of its description (the first that matches)."""


def _rid_glyph(key: str) -> str:
    return next((glyph for suffix, glyph in _RID_GLYPHS if key.endswith(suffix)), "")


def _desc_glyph(desc: str) -> str:
    low = desc.casefold()
    return next((glyph for word, glyph in _DESC_GLYPHS if word in low), desc[:1] or "?")


def _status_glyph(desc: str) -> str:
    low = desc.casefold()
    if "%" in desc:
        return "▮" + "".join(ch for ch in desc if ch.isdigit()) + "%"
    if "wi-fi" in low:
        return "◠"
    if ":" in desc:
        return "●"
    return "✈" if desc else ""


def render(phone: Phone) -> Image.Image:
    painter = _Painter(phone)
    painter.node(phone.root)
    if phone.dialog_view is not None:
        content = phone.root.children[1]
        painter.dim(content.rect)
        painter.node(phone.dialog_view)
    return painter.img


def render_png(phone: Phone) -> bytes:
    return encode_png(render(phone))
