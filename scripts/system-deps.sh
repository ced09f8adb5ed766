#!/usr/bin/env bash
# Install the Debian packages DevicesWorld's sandboxed devices use, when this user can.
#
# `make run` and `make test` call this first. As root with apt-get it installs what is
# missing (bubblewrap, Chromium, the GUI desktop stack, Wine); otherwise it prints what is
# missing and the command that would install it, and carries on: the tests that need a
# missing tool skip with the reason (unless DEVICESWORLD_REQUIRE_SYSTEM=1, as in CI).
# Set DEVICESWORLD_SKIP_SYSTEM=1 to skip this step entirely.
set -uo pipefail

PACKAGES=(
    bubblewrap chromium fonts-dejavu-core fonts-nanum
    xvfb xdotool openbox wmctrl python3-xlib python3-pyatspi at-spi2-core dbus-x11 python3-pil x11-apps
    mousepad thunar xfce4-terminal ristretto tumbler evince claws-mail libfaketime faketime xfce4-panel xfdesktop4
    libreoffice-writer libreoffice-calc libreoffice-gtk3
    wine wine64 gcc-mingw-w64-x86-64-win32
)

if [ "${DEVICESWORLD_SKIP_SYSTEM:-0}" = 1 ]; then
    exit 0
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "system-deps: not a Debian/Ubuntu system; install bubblewrap, chromium, Xvfb, openbox, LibreOffice and Wine yourself (tests needing them skip)." >&2
    exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        *" installed") ;;
        *) missing+=("$pkg") ;;
    esac
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        # one unavailable package must not block the rest
        for pkg in "${missing[@]}"; do
            apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null 2>&1 \
                || echo "system-deps: could not install $pkg (tests that need it will skip)" >&2
        done
    fi
else
    echo "system-deps: missing ${missing[*]}" >&2
    echo "system-deps: install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "system-deps: carrying on; tests that need them skip with the reason." >&2
fi
exit 0
