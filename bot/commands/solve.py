"""`solve`: a text grid in, the forced cells, odds and a guess out."""

from __future__ import annotations

import argparse
import sys

from bot.commands.common import Exit
from bot.errors import BotError


def cmd_solve(args: argparse.Namespace) -> Exit:
    from bot import solve
    from bot.board import parse_grid
    from bot.report import advice_text, to_json

    text = _read_text(args.file)
    if args.json:
        print(to_json(solve(text, args.mines, args.rules, args.deadline or None)))
    else:
        from bot.solver.advice import advise

        board = parse_grid(text, args.mines)
        print(advice_text(board, advise(board, args.rules, deadline=args.deadline or None)))
    return Exit.OK


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read().removeprefix("\ufeff")
    try:
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark (Windows Notepad) is not a cell
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise BotError(f"cannot read grid file {path!r}: {err}") from err
