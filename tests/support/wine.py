"""What the live tests ask of the machine's Wine."""

from __future__ import annotations

import subprocess


def wine32_installed() -> bool:
    """Whether Wine can run 32-bit programs here (Debian's wine32:i386 is installed)."""
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "wine32:i386"], capture_output=True, text=True,
                          check=False)
    return "install ok installed" in done.stdout
