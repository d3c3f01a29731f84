#!/usr/bin/env bash
# Runs the credentials tests against a real Secret Service (gnome-keyring) on a private
# D-Bus session. Meant for a Debian machine with Go installed, run as root without stdin;
# it installs gnome-keyring, dbus and libsecret-tools when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
command -v secret-tool >/dev/null 2>&1 || need+=(libsecret-tools)
if [ ${#need[@]} -gt 0 ]; then
  echo "keyring-test: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null >/dev/null
  apt-get install -y -qq --no-install-recommends gnome-keyring dbus libsecret-tools </dev/null >/dev/null
fi

# The keyring's files go to a throw-away XDG_DATA_HOME (not HOME: the Go module and
# build caches would move with it).
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
export XDG_DATA_HOME="$data"
unset PARLEY_TOKEN PARLEY_BASE_URL PARLEY_ORG_ID PARLEY_OPERATOR_ID PARLEY_CONFIG

# The unlock password must not be empty: with an empty one gnome-keyring creates no
# "login" collection and every store fails.
dbus-run-session -- sh -c '
  printf %s keyring-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  go test -count=1 -tags keyring ./internal/credentials/...
' </dev/null
