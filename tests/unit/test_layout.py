"""The package's layout is the pipeline: each stage imports only the stages before it.

Read from the source (no import runs), so that a module reaching back upstream fails here by name
rather than as a cycle somewhere else later.
"""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"

#: Modules at the top of `bot` that every stage may use.
SHARED = {"board", "errors", "imagefile", "places", "waiting"}
#: What each subpackage may import besides the shared modules and itself.
ALLOWED = {
    "screen": set(),
    "vision": set(),
    "solver": set(),
    "learn": {"screen", "vision", "solver"},
    "games": {"screen", "solver"},
    "play": {"screen", "vision", "solver", "learn", "games"},
}


def _stage(parts: list[str]) -> str:
    """`bot.solver.guess` -> "solver"; a shared top-level module -> "shared"; an entry point -> itself."""
    if len(parts) > 1 and parts[1] in ALLOWED:
        return parts[1]
    return "shared" if len(parts) > 1 and parts[1] in SHARED else ".".join(parts[:2])


def _imports(path: Path) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bot":
            base = node.module.split(".")
            # `from bot import x` or `from bot.solver import x` name modules; deeper, the module is the target
            if len(base) == 1 or (len(base) == 2 and base[1] in ALLOWED):
                found.update(tuple([*base, alias.name]) for alias in node.names)
            else:
                found.add(tuple(base))
        elif isinstance(node, ast.Import):
            found.update(tuple(alias.name.split(".")) for alias in node.names if alias.name.startswith("bot."))
    return found


def violations(root: Path) -> tuple[int, list[str]]:
    """How many stage modules under `root` (a `bot` folder) were checked, and each import against
    the pipeline."""
    wrong = []
    checked = 0
    for path in sorted(root.rglob("*.py")):
        parts = ["bot", *path.relative_to(root).with_suffix("").parts]
        stage = _stage(parts)
        if stage not in ALLOWED and stage != "shared":
            continue  # an entry point (cli, report, demo): it may use everything
        checked += 1
        for target in _imports(path):
            to = _stage(list(target))
            if to not in ("shared", stage) and to not in ALLOWED.get(stage, set()):
                wrong.append(f"{'.'.join(parts)} imports {'.'.join(target)}")
    return checked, wrong


def test_each_stage_imports_only_the_stages_before_it() -> None:
    checked, wrong = violations(BOT)
    assert checked > 40, f"only {checked} modules found under {BOT}"
    assert not wrong, "imports against the pipeline:\n" + "\n".join(wrong)


def test_the_check_catches_an_import_upstream(tmp_path: Path) -> None:
    """The check itself can fail: the solver reading pixels, or the board knowing the solver."""
    (tmp_path / "solver").mkdir()
    (tmp_path / "solver" / "guess.py").write_text("from bot.vision.reader import read_board\nfrom bot import board\n")
    (tmp_path / "board.py").write_text("from bot.solver import rules\n")
    (tmp_path / "cli.py").write_text("from bot.play.loop import play\n")
    checked, wrong = violations(tmp_path)
    assert checked == 2
    assert sorted(wrong) == ["bot.board imports bot.solver.rules", "bot.solver.guess imports bot.vision.reader"]


def cycles(root: Path) -> list[list[str]]:
    """Module import cycles under `root` (a `bot` folder), imports inside functions included: each
    cycle once, as the modules round it."""
    modules = {".".join(["bot", *p.relative_to(root).with_suffix("").parts]).removesuffix(".__init__"): p
               for p in root.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        targets = set()
        for target in _imports(path):
            for k in range(len(target), 1, -1):  # `from bot.x import y`: module bot.x.y, else bot.x
                if ".".join(target[:k]) in modules:
                    targets.add(".".join(target[:k]))
                    break
        graph[name] = targets - {name}
    found, seen = [], set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in path:
                ring = path[path.index(nxt):]
                key = frozenset(ring)
                if key not in seen:
                    seen.add(key)
                    found.append(ring)
            elif len(path) < 12:
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    assert not cycles(BOT), cycles(BOT)


def test_the_circle_check_finds_one(tmp_path: Path) -> None:
    (tmp_path / "screen").mkdir()
    (tmp_path / "screen" / "actuator.py").write_text("def f():\n    from bot.screen.xmouse import g\n")
    (tmp_path / "screen" / "xmouse.py").write_text("from bot.screen.actuator import f\n")
    assert cycles(tmp_path) == [["bot.screen.actuator", "bot.screen.xmouse"]]


def test_importing_bot_changes_nothing_in_the_environment() -> None:
    """A program that imports the library keeps its own settings (the CLI sets one BLAS thread for
    its own process only), and the CLI's module loads no numpy before it has set it."""
    import subprocess
    import sys

    code = ("import os, sys; before = dict(os.environ); import bot, bot.cli; "
            "print(dict(os.environ) == before, 'numpy' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=BOT.parent, check=True)
    assert run.stdout.split() == ["True", "False"]
