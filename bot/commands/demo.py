"""`demo`: WineMine in a virtual display, played and pictured."""

from __future__ import annotations

import argparse

from bot.commands.common import Exit


def cmd_demo(args: argparse.Namespace) -> Exit:
    from bot.demo import run_demo

    return Exit.OK if run_demo(args.games, args.levels.split(","), args.screenshot) else Exit.FAILED
