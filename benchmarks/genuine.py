"""The genuine Windows Minesweeper, live: N games per preset of a winmine.exe under Wine, in a
private Xvfb and a private Wine prefix, with the `winxp` first-click rule (the genuine game moves a
mine from under the first click).

The program is the user's own copy (DEVELOPERS.md says where the two builds come from; never
commit one). It needs a 32-bit Wine: `dpkg --add-architecture i386; apt-get install wine32:i386`.
Figures as benchmarks/live.py prints them, with clicks outside the field and the face judged by
X's window geometry; beside them, the simulator's `winxp` win rate on the same level, for the
interval the live rate must fall in.

    python3 -m benchmarks.genuine PATH/TO/winmine.exe --games 200
    python3 -m benchmarks.genuine PATH/TO/winmine.exe --no-skins     # learnt on first sight
    python3 -m benchmarks.genuine PATH/TO/winmine.exe --best-time 999  # name dialogs answered

--one-profile: every level starts with the profile the last one saved (a level change, met by
the bot); --no-skins: no shipped skin at all, so `play` learns the look on the spot into a
temporary folder (then plays on with it, at every level).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchmarks.live import run
from bot.games.bench import run as simulate
from bot.games.wine_game import genuine
from bot.vision.skin import load_skins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("exe", type=Path, help="a genuine winmine.exe")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", default="beginner,intermediate,expert")
    parser.add_argument("--stops", default=".", help="where screenshots of safe stops go")
    parser.add_argument("--best-time", type=int, default=0, help="best times written before start (999: records, "
                                                                  "so a won game opens the name dialog)")
    parser.add_argument("--leave-dialogs", action="store_true", help="a player answers the dialogs, not the bot")
    parser.add_argument("--one-profile", action="store_true", help="one saved profile for every level")
    parser.add_argument("--no-skins", action="store_true", help="ship no skin: the look is learnt on first sight")
    parser.add_argument("--simulated", type=int, default=5000, help="simulated games per level for the interval")
    args = parser.parse_args()
    if not args.exe.is_file():
        sys.exit(f"no such program: {args.exe}")
    program = genuine(args.exe.resolve())
    with tempfile.TemporaryDirectory() as learnt:
        skins = [] if args.no_skins else load_skins()
        run(program, args.levels.split(","), args.games, "winxp", Path(args.stops), skins,
            best_time=args.best_time, one_profile=args.one_profile, learn_into=Path(learnt) if args.no_skins else None,
            leave_dialogs=args.leave_dialogs)
    for name in args.levels.split(","):
        level = program.preset(name)
        sim = simulate(level, "winxp", args.simulated, jobs=2)
        print(f"simulator {name:12s} winxp {sim['games']} games: won {sim['win_rate']:.1%} "
              f"(95% CI {sim['ci_low']:.1%}..{sim['ci_high']:.1%})", flush=True)


if __name__ == "__main__":
    main()
