#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: Node at the packages' floor, pnpm (pinned, from
# npm) and the Debian packages the SSH and Docker suites, the sandbox tests and the docs site test
# run against.
# Idempotent; prints what it does.
set -euo pipefail

# Node: every package declares `engines.node` ">=N" (the root package.json holds the same floor).
# A machine with an older Node gets the npm registry's `node` package at that major, installed by
# npm into /usr/local: /usr/local/bin comes before /usr/bin on Debian's PATH, so a new shell runs
# it for `node` and for every `#!/usr/bin/env node` script (pnpm, npm) alike, and the README's
# `pnpm test` runs on it. The machine's own Node stays where it was.
NODE_FLOOR=$(sed -n 's/.*"node": ">=\([0-9][0-9]*\)".*/\1/p' package.json | head -n 1)
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt "$NODE_FLOOR" ]; then
  if [ ! -w /usr/local/lib ] || ! command -v npm >/dev/null 2>&1; then
    echo "setup: Node $NODE_FLOOR or newer is needed (found: $(node --version 2>/dev/null || echo none)); as root: npm install -g --prefix /usr/local node@$NODE_FLOOR" >&2
    exit 1
  fi
  # npm's default global prefix follows the running node; under the new one it would be the
  # package's own folder. Keep `npm install -g` installing where it did before.
  npm_prefix=$(npm config get prefix)
  echo "setup: installing Node $NODE_FLOOR from npm into /usr/local (found $(node --version 2>/dev/null || echo none))"
  npm install -g --prefix /usr/local "node@$NODE_FLOOR" >/dev/null
  mkdir -p /usr/local/lib/node_modules/node/etc
  printf 'prefix=%s\n' "$npm_prefix" >/usr/local/lib/node_modules/node/etc/npmrc
  hash -r
  if [ "$(node_major)" -lt "$NODE_FLOOR" ]; then
    echo "setup: Node $NODE_FLOOR is in /usr/local/bin, but \`node\` on this PATH is $(command -v node); put /usr/local/bin first in PATH" >&2
    exit 1
  fi
fi

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
# The sandbox of the local adapter (and its escape corpus) runs commands under bubblewrap.
[ -x /usr/bin/bwrap ] || missing+=(bubblewrap)
# The apply_patch tool's Lark grammar is checked by a real Lark (Debian's, for Debian's python3).
/usr/bin/python3 -c "import lark" >/dev/null 2>&1 || missing+=(python3-lark)
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
