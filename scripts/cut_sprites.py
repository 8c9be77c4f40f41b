#!/usr/bin/env python3
"""Cut WineMine's sprites out of the recorded fixtures, using their true boards and X geometry.

Every instance of a sprite must be pixel-identical; a cell that differs from its class means the
truth or the geometry is wrong, and the script stops rather than write a bad template.

    python3 scripts/cut_sprites.py fixtures/winemine templates/winemine
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

CELL_NAMES = {
    "?": "unopened", "F": "flag", "Q": "question", "*": "mine", "X": "exploded", "W": "wrong_flag",
    **{str(d): str(d) for d in range(9)},
}
FACE = (24, 24)
DIGIT = (12, 23)


def main() -> None:
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    seen: dict[str, list[np.ndarray]] = defaultdict(list)
    for meta_path in sorted(src.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        img = cv2.imread(str(meta_path.with_suffix(".png")))
        grid = meta_path.with_suffix(".txt").read_text().split()
        f = meta["field"]
        left, top, rows, cols = f["left"], f["top"], f["rows"], f["cols"]
        pressed = meta.get("face") == "pressed"
        for r in range(rows):
            for c in range(cols):
                if pressed:
                    continue  # the held cell is drawn like an opened 0: not a sprite of its own class
                y, x = top + 16 * r, left + 16 * c
                seen["cell_" + CELL_NAMES[grid[r][c]]].append(img[y : y + 16, x : x + 16])
        fx, fy = left + cols * 8 - 13, top - 28
        seen["face_" + meta["face"]].append(img[fy : fy + FACE[1], fx : fx + FACE[0]])
        for k, ch in enumerate(f"{meta['counter']:03d}"):
            x = left + cols * 16 - 36 + 12 * k  # WineMine shows the mines left on the right, the time on the left
            seen[f"digit_{ch}"].append(img[fy : fy + DIGIT[1], x : x + DIGIT[0]])
    dst.mkdir(parents=True, exist_ok=True)
    for name, crops in sorted(seen.items()):
        stack = np.stack(crops)
        first = stack[0]
        odd = int((stack != first).any(axis=(1, 2, 3)).sum())
        if odd:
            raise SystemExit(f"{name}: {odd} of {len(crops)} instances differ; truth or geometry is wrong")
        cv2.imwrite(str(dst / f"{name}.png"), first)
        print(f"{name:18s} {len(crops):6d} identical instances")


if __name__ == "__main__":
    main()
