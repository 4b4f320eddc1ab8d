#!/usr/bin/env bash
# packaging/check.sh [APP]: check a built app (default dist/brikdesk/brikdesk, from build.sh):
#  1. `APP --version` answers with the project's version;
#  2. `APP --check-start` (offscreen, in an empty data folder) opens the window, creates the
#     database through the bundled Alembic scripts and the demo campaign from the bundled
#     resources, and shows the campaign;
#  3. it starts again on that database (nothing to migrate), and a subcommand runs
#     (`APP list`, no Qt);
#  4. a PostgreSQL URL reaches the driver (a refused connection, not a missing module);
#  5. `APP share --bind 127.0.0.1` starts (h11 and the page's files bundled):
#     it prints its address, serves the page and its state there, and stops on SIGTERM;
#  6. `APP share --for-app`, as the app's Share dialog starts it: the token and then the
#     players' links read from standard input, the token in the address, "Watching 0" printed,
#     and it stops when its input closes.
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

# A PostgreSQL URL reaches the driver (bundled when psycopg was installed at build time): the
# connection is refused (nothing listens on port 9), not "No module named ...".
if out="$("$app" --db "postgresql+psycopg://brikdesk:x@127.0.0.1:9/none" list 2>&1)"; then
    echo "check: a database nobody serves was opened?" >&2; exit 1
elif printf '%s' "$out" | grep -q "Connection refused"; then
    echo "==> PostgreSQL driver: bundled"
elif printf '%s' "$out" | grep -q "driver is not"; then
    echo "==> PostgreSQL driver: not bundled (psycopg was not installed at build time)"
else
    printf 'check: a PostgreSQL URL FAILED:\n%s\n' "$out" >&2; exit 1
fi
# The players' page: started from the bundle on 127.0.0.1, fetched, stopped with SIGTERM.
wait_for_line() {  # wait_for_line PATTERN FILE PID: until FILE has PATTERN, PID ends, or 20 s
    for _ in $(seq 1 100); do
        grep -q "$1" "$2" && return
        kill -0 "$3" 2>/dev/null || return
        sleep 0.2
    done
}
address_in() {  # address_in FILE: the URL of the server's "Serving <campaign> at <URL>" line
    sed -n 's/^Serving .* at \(http:[^ ]*\)$/\1/p' "$1"
}
share_out="$home/share.out"
"$app" share --bind 127.0.0.1 >"$share_out" 2>&1 &
share_pid=$!
wait_for_line "^Serving " "$share_out" "$share_pid"
url="$(address_in "$share_out")"
if [ -z "$url" ]; then
    kill "$share_pid" 2>/dev/null || true
    printf 'check: share FAILED (no address printed):\n' >&2; sed 's/^/    | /' "$share_out" >&2; exit 1
fi
fetch() {  # fetch URL: its body (no curl needed: the system's Python)
    python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"
}
if ! fetch "$url" | grep -q 'share.js' || ! fetch "${url}state.json" | grep -q '"campaign"'; then
    kill "$share_pid" 2>/dev/null || true
    printf 'check: share FAILED (the page was not served at %s):\n' "$url" >&2
    sed 's/^/    | /' "$share_out" >&2; exit 1
fi
kill -TERM "$share_pid"
if ! wait "$share_pid"; then
    printf 'check: share FAILED (did not stop cleanly on SIGTERM):\n' >&2
    sed 's/^/    | /' "$share_out" >&2; exit 1
fi
echo "==> share: served $(sed -n 's/^Serving \(.*\) at .*/\1/p' "$share_out") on 127.0.0.1 and stopped on SIGTERM"
# As the app's Share dialog starts it: `share --for-app`, the token and the players' links
# (none here) on standard input (a FIFO held open), "Watching N" lines, and an end when
# standard input closes.
token="$(python3 -c 'import secrets; print(secrets.token_urlsafe(16))')"
fifo="$home/share.in"; app_out="$home/share-app.out"
mkfifo "$fifo"
"$app" share --for-app --bind 127.0.0.1 <"$fifo" >"$app_out" 2>&1 &
app_pid=$!
exec 3>"$fifo"
printf '%s\nplayers {}\n' "$token" >&3
wait_for_line "^Watching " "$app_out" "$app_pid"
url="$(address_in "$app_out")"
case "$url" in
    *"$token"*) ;;
    *) exec 3>&-; kill "$app_pid" 2>/dev/null || true
       printf 'check: share --for-app FAILED (no address with the given token):\n' >&2
       sed 's/^/    | /' "$app_out" >&2; exit 1 ;;
esac
if ! grep -q "^Watching 0$" "$app_out" || ! fetch "${url}state.json" | grep -q '"campaign"'; then
    exec 3>&-; kill "$app_pid" 2>/dev/null || true
    printf 'check: share --for-app FAILED (no watchers line, or nothing served):\n' >&2
    sed 's/^/    | /' "$app_out" >&2; exit 1
fi
exec 3>&-  # the app closes the server's standard input: it stops
for _ in $(seq 1 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$app_pid" 2>/dev/null; then
    kill "$app_pid"; printf 'check: share --for-app FAILED (still running after stdin closed)\n' >&2
    exit 1
fi
if ! wait "$app_pid"; then
    printf 'check: share --for-app FAILED (did not stop cleanly when stdin closed):\n' >&2
    sed 's/^/    | /' "$app_out" >&2; exit 1
fi
echo "==> share --for-app: served with the app's token and stopped when its input closed"
echo "==> $app works"
