#!/bin/sh
# Installs what the browser tests (tests/test_view_browser.py) need: headless Chromium and its
# WebDriver from Debian's `chromium` and `chromium-driver` packages, and a font with the card
# suits (fonts-dejavu-core). As root it installs them with apt-get; otherwise it says what to
# install and exits 1. Called by the README's test command and by .ci/run.
set -eu
PACKAGES="chromium chromium-driver fonts-dejavu-core"
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
elif ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    missing=" $PACKAGES"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq$missing >/dev/null
    exit 0
fi
echo "install-browser: the browser tests need$missing; as root run:" >&2
echo "    apt-get install -y$missing" >&2
exit 1
