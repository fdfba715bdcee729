#!/usr/bin/env bash
# Headless Chromium for the Playwright browser tests (tests/test_ui_browser.py), from Debian packages:
# `playwright install` cannot download browsers here. Does nothing when /usr/bin/chromium exists.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "browser-deps: need root or sudo to install chromium" >&2; exit 1; }
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver
/usr/bin/chromium --version
