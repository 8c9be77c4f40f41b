#!/usr/bin/env bash
# Run the bot as a Windows program (adapted from ../shared/winpy): `run.sh ARGS...` is
# `python.exe -m bot ARGS...` with the
# Windows CPython that setup.sh built (same WINPY_DIR and WINEPREFIX), in the current directory
# (a project checkout), on the X display in $DISPLAY. Exit status: the bot's.
set -uo pipefail

WINPY_DIR=${WINPY_DIR:-$HOME/.cache/minesweeper-bot/winpy}
WINPY_DIR=$(cd "$WINPY_DIR" 2>/dev/null && pwd) || { echo "run.sh: no $WINPY_DIR: run setup.sh first" >&2; exit 2; }
export WINEPREFIX=${WINEPREFIX:-$WINPY_DIR/prefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
export PYTHONUNBUFFERED=1  # its output reaches us through pipes: no block buffering
PY="$WINPY_DIR/cp312/python.exe"
[ -f "$PY" ] && [ -f "$WINEPREFIX/system.reg" ] || { echo "run.sh: run setup.sh first (no $PY or prefix)" >&2; exit 2; }

if [ -n "${WINE:-}" ]; then :
elif command -v wine64 >/dev/null; then WINE=$(command -v wine64)
elif [ -x /usr/lib/wine/wine64 ]; then WINE=/usr/lib/wine/wine64  # Debian keeps it off PATH
else WINE=$(command -v wine); fi

# Wine gives Python an invalid handle for a regular file (or /dev/null) as stdout or stderr, and
# for a regular file as stdin ("init_sys_streams: can't initialize sys standard streams"); pipes
# and terminals work. So both outputs go through their own cat, and a file on stdin through cat.
# The cats ignore SIGINT, so Ctrl-C reaches the bot (it prints "interrupted", exits 130) and its
# last words still get out.
status=$(mktemp)
trap 'rm -f "$status"' EXIT
bot() {
    { { env -u PYTHONPATH -u PYTHONHOME -u PYTHONSTARTUP -u VIRTUAL_ENV "$WINE" "$PY" -m bot "$@" 2>&1 1>&3 3>&-
        echo $? > "$status"; } | (trap '' INT; exec cat >&2); } 3>&1 | (trap '' INT; exec cat)
}
if [ -f /dev/stdin ]; then
    cat | bot "$@"
else
    bot "$@"
fi
rc=$(cat "$status" 2>/dev/null)
exit "${rc:-1}"
