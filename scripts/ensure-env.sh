#!/usr/bin/env sh
# Gives a local checkout its own secrets: adds a random SECRET_KEY and API_KEY_PEPPER to .env (git-ignored) when
# the file does not define them yet, and says so. Values already in the file are never changed, because a new
# API_KEY_PEPPER invalidates every API key stored in the local database.
# Usage: scripts/ensure-env.sh [path]   (default: .env in the project root)
set -eu

env_file=${1:-"$(cd "$(dirname "$0")/.." && pwd)/.env"}

random_secret() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }

written=""
umask 077
for name in SECRET_KEY API_KEY_PEPPER; do
  if [ -f "$env_file" ] && grep -Eq "^[[:space:]]*(export[[:space:]]+)?$name=" "$env_file"; then
    continue
  fi
  if [ ! -f "$env_file" ]; then
    printf '# Local settings for this checkout (git-ignored), read by config/settings.py.\n' >"$env_file"
  elif [ -s "$env_file" ] && [ -n "$(tail -c 1 "$env_file")" ]; then
    printf '\n' >>"$env_file"  # the last line had no newline
  fi
  printf '%s=%s\n' "$name" "$(random_secret)" >>"$env_file"
  written="${written:+$written and }$name"
done

if [ -n "$written" ]; then
  echo "Wrote a fresh random $written to $env_file (kept on later runs; delete the line for a new one)."
fi
