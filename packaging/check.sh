#!/usr/bin/env bash
# packaging/check.sh [APP]: check a built app (default dist/brikdesk/brikdesk, from build.sh):
#  1. `APP --version` answers with the project's version;
#  2. `APP --check-start` (offscreen, in an empty data folder) opens the window, creates the
#     database through the bundled Alembic scripts and the demo campaign from the bundled
#     resources, and shows the campaign;
#  3. it starts again on that database (nothing to migrate), and a subcommand runs
#     (`APP list`, no Qt).
# Exits non-zero with the app's output when a step fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

app="${1:-dist/brikdesk/brikdesk}"
[ -x "$app" ] || { echo "check: $app not found; run packaging/build.sh first" >&2; exit 1; }
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml | head -n 1)"
home="$(mktemp -d "${TMPDIR:-/tmp}/brikdesk-check.XXXXXX")"
trap 'rm -rf "$home"' EXIT
export QT_QPA_PLATFORM=offscreen BRIKDESK_HOME="$home"
unset BRIKDESK_DB

step() {  # step NAME COMMAND...: run it; on failure show its output and stop
    local name=$1 out
    shift
    if out="$("$@" 2>&1)"; then
        printf '==> %s: ok\n' "$name"
        printf '%s\n' "$out" | sed 's/^/    | /'
    else
        printf 'check: %s FAILED:\n' "$name" >&2
        printf '%s\n' "$out" | sed 's/^/    | /' >&2
        exit 1
    fi
}

out="$("$app" --version)"
[ "$out" = "brikdesk $version" ] || { echo "check: --version said '$out', not 'brikdesk $version'" >&2; exit 1; }
echo "==> --version: $out"
step "--check-start on a new data folder" "$app" --check-start
step "--check-start again" "$app" --check-start
step "list" "$app" list
echo "==> $app works"
