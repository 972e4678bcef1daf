#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: pnpm (pinned, from npm) and the Debian
# packages the SSH and Docker suites and the docs site test run against. Idempotent; prints what it does.
set -euo pipefail
PNPM_VERSION=$(node -p 'require("./package.json").packageManager.split("@")[1]')

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION from npm"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null
fi

missing=()
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
[ -x /bin/busybox ] || command -v busybox >/dev/null 2>&1 || missing+=(busybox-static)
# The docs site test opens the built site in Debian's headless Chromium (no browser download).
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]} (install them as root: apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Never let a package start its service: a system dockerd with default flags would rewrite
  # the host firewall and add a bridge. Tests start their own sshd and dockerd, owned by the run.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
