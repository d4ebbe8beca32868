#!/bin/sh
# The browser check needs Chromium.  Debian's package is installed when it
# is missing and we are root with apt-get (CI runs as root on Debian);
# elsewhere say what to do.  CHROMIUM names another browser binary.
set -eu
if [ -n "${CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "docs-browser: installing Debian's chromium package" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    exit 0
fi
echo "docs-browser: no chromium: install it (sudo apt-get install chromium) or set CHROMIUM" >&2
exit 1
