# shellcheck shell=bash
# Sourced by ./run-app and ./run-tests (not run on its own).
#
# ensure_venv: make sure .venv exists (Python >= 3.11) with BrikDesk installed editable with its
# test extra. Quick when nothing changed: a stamp file in .venv records the hash of
# pyproject.toml, the checkout's path and the venv's Python; pip runs only when one differs.
# Sets BRIKDESK_ROOT (the checkout), VENV (its virtualenv; BRIKDESK_VENV overrides) and, after
# ensure_venv, VENV_BIN: the venv's scripts folder (bin/, or Scripts\ where Windows' Python made it).
# Python: $PYTHON if set, else python3.11, else python3 (then python3.13, python3.12).

BRIKDESK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${BRIKDESK_VENV:-$BRIKDESK_ROOT/.venv}"
_STAMP="$VENV/.brikdesk-stamp"

_say() { printf '%s\n' "$*" >&2; }

venv_bin() {  # the venv's scripts folder: bin/ (Linux, macOS) or Scripts/ (Windows' Python)
    if [ ! -d "$VENV/bin" ] && [ -d "$VENV/Scripts" ]; then
        printf '%s\n' "$VENV/Scripts"
    else
        printf '%s\n' "$VENV/bin"
    fi
}
VENV_BIN="$(venv_bin)"

_python_ok() {  # a Python that runs and is >= 3.11
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1
}

_find_python() {
    local c found=""
    local candidates=(python3.11 python3 python3.13 python3.12)
    [ -n "${PYTHON:-}" ] && candidates=("$PYTHON")
    for c in "${candidates[@]}"; do
        command -v "$c" >/dev/null 2>&1 || continue
        if _python_ok "$c"; then
            printf '%s\n' "$c"
            return 0
        fi
        found+=" $c ($("$c" -c 'import platform; print(platform.python_version())' 2>/dev/null \
                      || echo 'does not run'))"
    done
    _say "BrikDesk needs Python 3.11 or newer.${found:+ Found:$found.}"
    _say "Install it (Debian/Ubuntu: sudo apt-get install python3.11 python3.11-venv) or point"
    _say "PYTHON at one: PYTHON=/path/to/python3.11 $0"
    return 1
}

_hash_file() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        "$2" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1"
    fi
}

_make_venv() {  # _make_venv PYTHON
    local py=$1 log
    log="$(mktemp)"
    rm -rf "$VENV"
    _say "==> creating $VENV with $py ($("$py" -c 'import platform; print(platform.python_version())'))"
    if "$py" -m venv "$VENV" >"$log" 2>&1 && "$(venv_bin)/python" -m pip --version >/dev/null 2>&1; then
        rm -f "$log"
        return 0
    fi
    _say "    '$py -m venv' failed (on Debian/Ubuntu the python3-venv package is missing):"
    sed 's/^/    | /' "$log" | head -n 5 >&2
    rm -f "$log"
    rm -rf "$VENV"
    if ! "$py" -m virtualenv --version >/dev/null 2>&1; then
        _say "==> installing virtualenv for your user ($py -m pip install --user virtualenv)"
        "$py" -m pip install --user --quiet virtualenv >/dev/null 2>&1 \
            || "$py" -m pip install --user --quiet --break-system-packages virtualenv >/dev/null 2>&1 \
            || true
    fi
    if "$py" -m virtualenv --quiet "$VENV" && "$(venv_bin)/python" -m pip --version >/dev/null 2>&1
    then
        return 0
    fi
    rm -rf "$VENV"
    _say ""
    _say "Could not create a Python virtual environment in $VENV."
    _say "On Debian/Ubuntu install the venv module, then run this again:"
    _say "    sudo apt-get install python3-venv      (or python3.11-venv)"
    return 1
}

_ensure_venv_locked() {
    local py want have="" venv_py
    venv_py="$(venv_bin)/python"
    if [ -x "$venv_py" ] && _python_ok "$venv_py"; then
        py="$venv_py"
    else
        py="$(_find_python)" || return 1
    fi
    want="pyproject=$(_hash_file "$BRIKDESK_ROOT/pyproject.toml" "$py") root=$BRIKDESK_ROOT"
    [ -f "$_STAMP" ] && have="$(cat "$_STAMP")"
    if [ -x "$venv_py" ] && _python_ok "$venv_py" && [ "$have" = "$want" ]; then
        return 0  # up to date: nothing to do
    fi
    # A venv made for another checkout path (moved or copied) has wrong paths baked in.
    if [ ! -x "$venv_py" ] || ! _python_ok "$venv_py" \
            || { [ -n "$have" ] && [ "${have#* root=}" != "$BRIKDESK_ROOT" ]; }; then
        py="$(_find_python)" || return 1
        _make_venv "$py" || return 1
        venv_py="$(venv_bin)/python"
    fi
    # Editable installs of a pyproject-only project need pip >= 21.3 (PEP 660).
    if ! "$venv_py" -c 'import sys, pip; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))' 2>/dev/null
    then
        "$venv_py" -m pip install --quiet --upgrade "pip>=23" || return 1
    fi
    _say "==> installing BrikDesk and its test tools into $VENV (pyproject.toml changed or new venv)"
    if ! "$venv_py" -m pip install --disable-pip-version-check --quiet -e "$BRIKDESK_ROOT[test]"
    then
        _say "pip could not install BrikDesk (see above); the next run will try again."
        rm -f "$_STAMP"
        return 1
    fi
    printf '%s\n' "$want" >"$_STAMP"
}

ensure_venv() {
    local status
    # Two runs at once (two terminals, an editor) must not pip-install over each other.
    if command -v flock >/dev/null 2>&1 && exec 9<"${BASH_SOURCE[0]}"; then
        flock 9
        _ensure_venv_locked
        status=$?
        flock -u 9
        exec 9<&-
        VENV_BIN="$(venv_bin)"
        return $status
    fi
    _ensure_venv_locked
    status=$?
    VENV_BIN="$(venv_bin)"
    return $status
}

# qt_missing_libs PLUGIN: the system libraries a Qt platform plugin cannot find ("" if none).
qt_missing_libs() {
    local plugin
    plugin="$(ls "$VENV"/lib/python3*/site-packages/PySide6/Qt/plugins/platforms/"$1" 2>/dev/null | head -n 1)"
    [ -n "$plugin" ] && command -v ldd >/dev/null 2>&1 || return 0
    ldd "$plugin" 2>/dev/null | awk '/not found/ {print $1}' | sort -u | tr '\n' ' '
}

# debian_packages SONAME...: the Debian package names that usually ship these libraries.
debian_packages() {
    local so base ver pkgs=()
    for so in "$@"; do
        case "$so" in
            libglib-2.0.so.*|libgthread-2.0.so.*) pkgs+=(libglib2.0-0); continue ;;
        esac
        base="${so%%.so*}"; ver="${so##*.so.}"; ver="${ver%%.*}"
        base="$(printf '%s' "$base" | tr '[:upper:]' '[:lower:]')"
        case "$base" in *[0-9]) base="$base-" ;; esac
        pkgs+=("$base$ver")
    done
    printf '%s\n' "${pkgs[@]}" | sort -u | tr '\n' ' '
}
