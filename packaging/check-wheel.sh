#!/usr/bin/env bash
# packaging/check-wheel.sh [--borrow-deps]: install BrikDesk as README's Windows and macOS
# sections tell (a wheel in a fresh virtual environment) and check it from outside the checkout:
#  1. build the wheel (pip wheel, no dependencies) into a temporary folder;
#  2. make a fresh venv there and install the wheel with its dependencies (pip, as a user
#     would), or with --borrow-deps only the wheel, the dependencies taken from the project's
#     .venv (a few seconds: the test suite's way; CI runs the whole install);
#  3. from that folder: `brikdesk --version`, `brikdesk --check-start` (offscreen, in an empty
#     data folder: the database, the demo and the window from the installed files),
#     `brikdesk list`, and the windowed launcher `brikdesk-app` is installed beside it;
#     BrikDesk is imported from the fresh venv, never from the checkout.
# Prints each step's time; exits non-zero with the output of a failed step.
set -euo pipefail

# shellcheck source=scripts/ensure-venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/ensure-venv.sh"
ensure_venv
cd "$BRIKDESK_ROOT"

borrow=0
[ "${1:-}" = "--borrow-deps" ] && borrow=1
work="$(mktemp -d "${TMPDIR:-/tmp}/brikdesk-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT

timed() {  # timed NAME COMMAND...: run it quietly; on failure show its output and stop
    local name=$1 start out
    shift
    start=$(date +%s%N)
    if ! out="$("$@" 2>&1)"; then
        printf 'check-wheel: %s FAILED:\n' "$name" >&2
        printf '%s\n' "$out" | tail -n 30 | sed 's/^/    | /' >&2
        exit 1
    fi
    printf '==> %s: ok in %d ms\n' "$name" $(( ($(date +%s%N) - start) / 1000000 ))
    LAST_OUT=$out
}

# The .venv's setuptools builds it when it has one (no build environment to make: seconds).
isolation=()
"$VENV_BIN/python" -c 'import setuptools.command.bdist_wheel' >/dev/null 2>&1 && isolation=(--no-build-isolation)
timed "build the wheel" "$VENV_BIN/python" -m pip wheel --no-deps --disable-pip-version-check \
    "${isolation[@]}" -q -w "$work/dist" "$BRIKDESK_ROOT"
wheel="$(ls "$work"/dist/brikdesk-*.whl)"
echo "    $(basename "$wheel") ($(( $(wc -c <"$wheel") / 1024 )) KiB)"

fresh="$work/venv"
if [ $borrow = 1 ]; then
    timed "make a fresh venv" "$VENV_BIN/python" -m venv --without-pip "$fresh"
    # The project's .venv site-packages as a plain path: its .pth files (the checkout's
    # editable install among them) are not read from there, so BrikDesk can only come from
    # the wheel.
    site="$("$VENV_BIN/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    fresh_site="$(cd "$work" && "$fresh/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    printf '%s\n' "$site" >"$fresh_site/zz-borrowed-dependencies.pth"
    # pip itself is borrowed too, run by the fresh venv's Python (its scripts start that one).
    timed "install the wheel" "$fresh/bin/python" -m pip install --no-deps --no-compile \
        --disable-pip-version-check -q "$wheel"
else
    timed "make a fresh venv" "$VENV_BIN/python" -m venv "$fresh"
    timed "install the wheel and its dependencies" "$fresh/bin/python" -m pip install \
        --disable-pip-version-check -q "$wheel"
fi

cd "$work"
export QT_QPA_PLATFORM=offscreen BRIKDESK_HOME="$work/home"
unset BRIKDESK_DB PYTHONPATH
timed "brikdesk --version" "$fresh/bin/brikdesk" --version
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$BRIKDESK_ROOT/pyproject.toml" | head -n 1)"
[ "$LAST_OUT" = "brikdesk $version" ] || { echo "check-wheel: --version said '$LAST_OUT'" >&2; exit 1; }
timed "where BrikDesk is imported from" "$fresh/bin/python" -c '
import sys, brikdesk, ui
for m in (brikdesk, ui):
    assert m.__file__.startswith(sys.prefix), f"{m.__name__} from {m.__file__}, not {sys.prefix}"
print(brikdesk.__file__)'
echo "    $LAST_OUT"
timed "brikdesk --check-start" "$fresh/bin/brikdesk" --check-start
printf '%s\n' "$LAST_OUT" | sed 's/^/    | /'
timed "brikdesk list" "$fresh/bin/brikdesk" list
case "$LAST_OUT" in
    *"Demo: Battle for Baseplate Valley"*) ;;
    *) echo "check-wheel: brikdesk list did not show the demo:" >&2; echo "$LAST_OUT" >&2; exit 1 ;;
esac
[ -x "$fresh/bin/brikdesk-app" ] \
    || { echo "check-wheel: the windowed launcher brikdesk-app was not installed" >&2; exit 1; }
timed "the gui_scripts entry point" "$fresh/bin/python" -c '
from importlib.metadata import entry_points
(app,) = entry_points(group="gui_scripts", name="brikdesk-app")
assert app.value == "brikdesk.cli:gui_main", app.value'
echo "check-wheel: the wheel installs and runs from a fresh venv"
