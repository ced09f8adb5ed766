"""AndroidWorld's app names, mapped onto the apps our phone has.

AndroidWorld's ``open_app`` looks the name up in a table of name patterns
(``adb_utils``): "simple sms messenger|simple sms" launches Simple SMS Messenger,
"dialer|phone" the dialer, and so on, matching the start of the lower-cased name.
Our apps are the same apps (same packages) under their launcher labels
("Messages", "Phone", "Music"), so an agent that says "Simple SMS Messenger" gets
our Messages. The aliases below are the AndroidWorld names of the apps we have;
any other name falls through to our own lookup (launcher label in English or the
phone's language, or package name).
"""

from __future__ import annotations

ALIASES: tuple[tuple[str, str], ...] = (
    ("simple sms messenger", "com.simplemobiletools.smsmessenger"),
    ("simple sms", "com.simplemobiletools.smsmessenger"),
    ("sms messenger", "com.simplemobiletools.smsmessenger"),
    ("simple calendar pro", "com.simplemobiletools.calendar.pro"),
    ("simple calendar", "com.simplemobiletools.calendar.pro"),
    ("retro music", "code.name.monkey.retromusic"),
    ("retro player", "code.name.monkey.retromusic"),
    ("retro", "code.name.monkey.retromusic"),
    ("osmand", "net.osmand"),
    ("google chrome", "com.android.chrome"),
    ("chrome", "com.android.chrome"),
    ("dialer", "com.google.android.dialer"),
    ("phone", "com.google.android.dialer"),
    ("contacts", "com.google.android.contacts"),
    ("clock", "com.google.android.deskclock"),
    ("system settings", "com.android.settings"),
    ("settings", "com.android.settings"),
    ("files", "com.google.android.documentsui"),
    ("markor", "net.gsantner.markor"),
    ("audio recorder", "com.dimowner.audiorecorder"),
    ("camera", "com.android.camera2"),
)
"""(AndroidWorld name, our package), longest names first where one starts another."""


def package_for(app_name: str) -> str | None:
    """Our package for an AndroidWorld app name: exact name first, then AndroidWorld's prefix match."""
    wanted = " ".join(app_name.casefold().split())
    for name, package in ALIASES:
        if wanted == name:
            return package
    for name, package in ALIASES:
        if wanted.startswith(name):
            return package
    return None


__all__ = ["ALIASES", "package_for"]
