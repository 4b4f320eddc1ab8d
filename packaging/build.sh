#!/usr/bin/env bash
# packaging/build.sh: build BrikDesk as a one-folder app with PyInstaller.
#
#   packaging/build.sh            # -> dist/brikdesk/brikdesk (run it; copy the whole folder)
#
# Uses the project's .venv (made as ./run-tests makes it: scripts/ensure-venv.sh) and installs
# PyInstaller into it if missing; PyInstaller is a build tool only, not in any extra. The work
# folder is build/pyinstaller; the app lands in dist/brikdesk (both replaced on each build).
# Prints the build time. packaging/check.sh checks the result.
set -euo pipefail

# shellcheck source=scripts/ensure-venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/ensure-venv.sh"
ensure_venv
cd "$BRIKDESK_ROOT"

PYINSTALLER_SPEC="pyinstaller>=6.10,<7"
start=$(date +%s)

if ! "$VENV_BIN/python" -c 'import PyInstaller' >/dev/null 2>&1; then
    echo "==> pip install $PYINSTALLER_SPEC (into $VENV)"
    "$VENV_BIN/python" -m pip install -q "$PYINSTALLER_SPEC"
fi

echo "==> pyinstaller packaging/brikdesk.spec ($("$VENV_BIN/pyinstaller" --version))"
export QT_QPA_PLATFORM=offscreen PYQTGRAPH_QT_LIB=PySide6
"$VENV_BIN/pyinstaller" --noconfirm --clean --log-level WARN \
    --workpath build/pyinstaller --distpath dist packaging/brikdesk.spec

end=$(date +%s)
echo "==> built dist/brikdesk ($(du -sh dist/brikdesk | cut -f1)) in $((end - start)) s"
