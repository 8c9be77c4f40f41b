"""The live loop: look, check, decide, act, in batches, until the games are played.

Nothing is clicked unless the board just read is complete, consistent with the board before it
and satisfiable (bot.play.game_view reads it so); a batch is dropped when the game moves, closes or
restarts under it. After a few failures the loop stops with a message and the offending
screenshot saved. It never guesses where the board is.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bot.board import FLAG, UNOPENED, Board, Cell, format_grid
from bot.errors import InconsistentBoardError, VisionError
from bot.imagefile import write_image
from bot.play.click_guard import Stale
from bot.play.dry_run import DryRun
from bot.play.game_log import GameLog, layout_of, result_said_by_window, three_bv_of, unopened
from bot.play.game_view import GameView, Stop, UserStop, follows
from bot.play.game_windows import GameEnded
from bot.play.new_game import STALE_BATCHES, NewGame
from bot.play.options import Options
from bot.screen.actuator import Actuator, ActuatorError, Target, TargetMoved
from bot.screen.capture import Screen
from bot.solver.advice import Advice, advise
from bot.solver.deadline import DEFAULT_SECONDS
from bot.vision.reader import Reading
from bot.waiting import wait_for

UNCHANGED = 3  # batches in a row that change nothing on the board before the loop ends the game
#: How long a game about to be logged abandoned waits for a window of the game's to say its end (s):
#: the Java clone's "You win!" came more than 2 s after its board changed on a loaded 2-core machine.
END_WINDOW = 5.0


class Player:
    """Plays the game a GameView sees: decides on each board read and clicks through an actuator
    made anew wherever the game is found (or, in a dry run, only shows the advice)."""

    def __init__(self, screen: Screen, options: Options, actuator_factory: Callable[[Target], Actuator] = Actuator,
                 say: Callable[[str], None] = lambda _: None):
        self.options = options
        self.say = say
        self.make_actuator = actuator_factory
        self.actuator: Actuator | None = None
        self.game_view = GameView(screen, options, self._found_at, actuator_factory, self.still_wanted, say,
                                  lambda: self.actuator)
        self.new_game = NewGame(self.game_view, lambda: self.actuator, self.still_wanted)
        self.advised: list[tuple[Board, Advice | None]] = []  # dry run: each board shown, and its advice
        self.frames = 0
        self.clicked: list[Cell] = []  # the last batch's clicks
        self.played: set[Cell] = set()  # every cell clicked in the game under way
        self.own_flags: set[Cell] = set()  # this game's flags we put on proven mines
        self.unfinished: GameLog | None = None  # the game a stop cut short, once it had clicks
        self.shape: tuple[int, int] | None = None  # the level of the game being played
        self.over_off_board = False  # the last game's end was said by its window, its board left as it was
        #: The last batch: the board it was decided on, its advice, the game's dialogs answered before it.
        self.batch: tuple[Board, Advice, int] | None = None
        #: A batch after which a window of the game's was answered while its board went on: the game's
        #: end if the next clicks find another game (the Java clone's win, its last cell drawn late),
        #: forgotten once they open cells of this one (a late window of Arbiter's last game).
        self.pending_end: tuple[Board, Advice, int] | None = None

    def _found_at(self, target: Target) -> None:
        """The game found (again): clicks go through a new actuator guarding its new place."""
        earlier = self.actuator
        if earlier is not None:
            earlier.close()
        self.actuator = None if self.options.dry_run else self.make_actuator(target)
        if self.actuator is not None and earlier is not None:
            self.actuator.carry_over(earlier)  # (one count for the whole run, whatever the window did)

    def record(self, image: np.ndarray, board: Board) -> None:
        if self.options.record is None:
            return
        self.options.record.mkdir(parents=True, exist_ok=True)
        stem = self.options.record / f"frame-{self.frames:05d}"
        write_image(str(stem.with_suffix(".png")), image)
        stem.with_suffix(".txt").write_text(format_grid(board) + "\n")

    def decide(self, board: Board) -> Advice:
        try:
            trusted = frozenset(c for c in self.own_flags if board.cells[c] == FLAG)  # the user's are claims
            advice = advise(board, self.options.rule, odds=False, trusted=trusted, deadline=DEFAULT_SECONDS)
            if not advice.safe:
                advice = advise(board, self.options.rule, trusted=trusted, deadline=DEFAULT_SECONDS)
            return advice
        except InconsistentBoardError as err:
            raise VisionError(f"the board read has no mine layout: {err}") from err

    def still_wanted(self) -> bool:
        """True, until the user presses the stop key: then Stop, and the next click is not made."""
        if self.options.stopped is not None and self.options.stopped():
            raise UserStop("stopped: the stop key was pressed")
        return True

    def act(self, board: Board, advice: Advice) -> int:
        """Click a batch; returns how many of the clicks were guesses. The mouse's own check (the
        game's window still where it was, in the same X server grab as the click) drops the
        batch like the check by pixels does."""
        try:
            return self._act(board, advice)
        except TargetMoved as err:
            self.game_view.forget_place()
            raise Stale(str(err)) from err

    def _act(self, board: Board, advice: Advice) -> int:
        assert self.actuator is not None
        guard = self.game_view.guard
        covered = board.covered()
        self.clicked = []
        if advice.safe:
            for cell in sorted(advice.safe):
                if covered[cell] and self.still_wanted() and guard.still_covered(board, cell):
                    self.actuator.open(cell)
                    self.clicked.append(cell)
            if self.options.flags:
                for cell in sorted(advice.mines):
                    if (board.cells[cell] == UNOPENED and self.still_wanted()
                            and guard.still_covered(board, cell)):
                        self.actuator.flag(cell)
                        self.own_flags.add(cell)
                        self.clicked.append(cell)
            return 0
        if (advice.guess is not None and covered[advice.guess] and self.still_wanted()
                and guard.still_covered(board, advice.guess)):
            self.actuator.open(advice.guess)
            self.clicked.append(advice.guess)
            return 1
        left = [c for c in sorted(advice.mines) if board.cells[c] == UNOPENED]
        if advice.guess is None and left:  # every covered cell a proven mine, and the game goes on:
            for cell in left:  # one that is won only with every mine flagged (ace-minesweeper)
                if self.still_wanted() and guard.still_covered(board, cell):
                    self.actuator.flag(cell)
                    self.own_flags.add(cell)
                    self.clicked.append(cell)
            return 0
        raise VisionError("nothing to click on a board that is still being played")

    def play_game(self) -> GameLog:
        """One game to its end: a fresh board on the screen is played as it is (the user may just
        have started it), anything else restarted first. A game the user restarts, or whose level
        changes, mid-way is logged as abandoned; the next one follows the new board."""
        self.unfinished = None
        image, reading, board = self.new_game.look_past_dialog()
        in_progress = reading.face == "playing" and (board.cells != UNOPENED).any()
        # A game without a face asks before its key starts over (GNOME Mines' dialog hides the
        # board): one in progress is played on as it stands, unless its end was said by a window.
        over, self.over_off_board = self.over_off_board, False
        if over or ((reading.face != "playing" or in_progress)
                    and not (in_progress and self.game_view.skin.new_game_key)):
            image, reading, board = self.new_game.start(board)
        self._check_level(board)
        if self.options.fresh_layouts:  # two first clicks in one second would replay the same mines
            while int(time.time()) == getattr(self, "_last_second", None):
                time.sleep(0.02)
            self._last_second = int(time.time())
        start, clicks0 = time.monotonic(), self.actuator.clicks
        self.own_flags, self.played = set(), set()
        self.guesses = 0
        self.batch = self.pending_end = None
        try:
            return self._play_on(image, reading, board, start, clicks0)
        except GameEnded as end:  # its end dialog hides the board: the result is the dialog's
            self.say(f"game over: {end}")
            return self._log(end.result, start, clicks0)
        except BaseException:  # a stop, the stop key, Ctrl-C: a game begun is kept for the summary
            if self.actuator is not None and self.actuator.clicks > clicks0:
                self.unfinished = self._log("stopped", start, clicks0)
            raise

    def _play_on(self, image: np.ndarray, reading, board: Board, start: float, clicks0: int) -> GameLog:
        """A game from its first read to its end (GameEnded where its end dialog shows)."""
        shape, started = board.shape, False
        failures = stale = unchanged = 0
        self.game_view.windows.after_clicks = False  # (the last game's dialogs are answered by now)
        while reading.face == "playing" and not board.solved():  # (a win some games show on the board alone)
            if board.shape != shape or (started and not (board.cells >= 0).any()):
                why = "the board's size changed" if board.shape != shape else "the board is all covered again"
                return self._abandon(why, start, clicks0)
            started = started or bool((board.cells >= 0).any())
            try:
                advice = self.decide(board)
                self.record(image, board)
                self.frames += 1
                before = board
                self.batch = (board, advice, self.game_view.windows.dialogs_answered)
                self.game_view.windows.after_clicks = True
                self.guesses += self.act(board, advice)
                self.played.update(self.clicked)
                self.game_view.guard.wait_for_change(image, self.clicked)
                # (every click of the game, not the batch's: a cell drawn only after the board this
                # batch was decided on was read, skipped by it as opened, shows its number now)
                image, reading, board = self.game_view.look(board, frozenset(self.own_flags), frozenset(self.played))
                failures = stale = 0
                unchanged = unchanged + 1 if self.clicked and np.array_equal(board.cells, before.cells) else 0
                # A game that says its end only by a window: one answered after these clicks, which
                # changed nothing or left a board that is not this game's (a late window of Arbiter's
                # after the last game, answered as this one goes on, is not this game's end).
                goes_on = board.shape == before.shape and follows(before, board, self.game_view.unread)
                answered = self.game_view.windows.dialogs_answered > self.batch[2] and reading.face == "playing" \
                    and not board.solved() and (unchanged or not goes_on)
                if answered or (unchanged and self.actuator.dialog_open()):
                    return self._ended_by_window(self.batch, start, clicks0)
                if self._answered_since_batch():
                    self.pending_end = self.batch
                elif goes_on and not unchanged:
                    self.pending_end = None
                if unchanged >= UNCHANGED:  # the game takes no more clicks
                    if unopened(board) <= advice.mines:
                        return self._log("won", start, clicks0)  # every safe cell open: its flags refused
                    raise Stop(f"stopped safely: {UNCHANGED} batches of clicks in a row changed nothing on the "
                               f"board; last screenshot: {self.game_view.save_stop(image)}")
                if self.game_view.replaced:
                    self.game_view.replaced = False
                    return self._abandon("another game is on the board (restarted?)", start, clicks0)
            except Stale as err:
                stale += 1
                if stale >= STALE_BATCHES:
                    raise Stop(f"stopped safely: {err}, {stale} times in a row; "
                               f"last screenshot: {self.game_view.save_stop(image)}") from err
                image, reading, board, same = self._read_again(board)
                if not same:
                    return self._abandon(f"after {err}, another board was read", start, clicks0)
            except VisionError as err:
                failures += 1
                if failures >= 3:
                    raise Stop(f"stopped safely: {err}; last screenshot: {self.game_view.save_stop(image)}") from err
                image, reading, board, same = self._read_again(board)
                if not same:
                    return self._abandon(f"after {err}, another board was read", start, clicks0)
        self.record(image, board)
        if self.game_view.unread is not None:  # something over the finished board: the game's own
            self.new_game.answer_game_windows()  # window (Arbiter's records) closed, as its player would
        result = "won" if board.solved() else reading.face
        return self._log(result, start, clicks0, three_bv_of(board), layout_of(board))

    def _ended_by_window(self, batch: tuple[Board, Advice, int], start: float, clicks0: int) -> GameLog:
        """The game said its end by a window of its own after our last batch, and nothing on the
        board did: the Java Windows 7 clone's "You lose!" (the mine clicked never drawn, the board
        taking no click meanwhile; centred on the screen, clear of the game, or over it and answered
        as the board was read, its new game drawn a moment later). Its result: result_said_by_window."""
        board, advice, _ = batch
        result = result_said_by_window(board, advice, self.actuator.dialog_title)
        self.say(f"game over: {result}, said by a window of the game's after our clicks")
        self.over_off_board = True  # (its board shows no end: a new game is asked for)
        # Answered now, as the player who read it would: left up beside the game (the last game of
        # a run), the next run would meet a board taking no click, and a window it cannot tell
        # from the game's others (bot.screen.xmouse: one there when the mouse is made is not one).
        self.new_game.answer_game_windows()
        return self._log(result, start, clicks0)

    def _answered_since_batch(self) -> bool:
        """Whether a window of the game's was answered since the last batch was clicked: that
        batch may have ended the game (kept as pending_end while the board read still follows it:
        the Java clone shows the finished board a moment after its window is answered)."""
        return self.batch is not None and self.game_view.windows.dialogs_answered > self.batch[2]

    def _read_again(self, last: Board) -> tuple[np.ndarray, Reading, Board, bool]:
        """The game read afresh after a dropped batch or a misread, and whether it is still the game
        of `last` (another one may be where the game was found again). A window of the game's
        answered as it is read is kept as the last batch's possible end, as after a batch: the next
        batch must not forget it (a win's window dropping the flags after the winning click)."""
        image, reading, board = self.game_view.look(None)
        if self._answered_since_batch():
            self.pending_end = self.batch
        return image, reading, board, board.shape == last.shape and follows(last, board, self.game_view.unread)

    def _abandon(self, why: str, start: float, clicks0: int) -> GameLog:
        """The game left unfinished (restarted by the user, its level changed), unless a window of
        the game's came of our last batch, answered before another game showed: then that was its end."""
        if self._answered_since_batch():
            return self._ended_by_window(self.batch, start, clicks0)
        if self.pending_end is not None:  # (answered a batch before, the board read then one cell short)
            return self._ended_by_window(self.pending_end, start, clicks0)
        if self.batch is not None and self._end_window_shows():
            return self._ended_by_window(self.batch, start, clicks0)
        self.say(f"game abandoned: {why}")
        return self._log("abandoned", start, clicks0)

    def _end_window_shows(self) -> bool:
        """Whether a window of the game's shows within END_WINDOW seconds: a game that says its end
        by one may draw its board otherwise first (the Java clone repainting under load), and the
        board read then is no game's."""
        return wait_for(self.game_view.windows.dialog_open, END_WINDOW)

    def _log(self, result: str, start: float, clicks0: int, bv: int | None = None,
             layout: str | None = None) -> GameLog:
        return GameLog(result, time.monotonic() - start, self.actuator.clicks - clicks0, self.guesses, bv,
                       self.shape, layout)

    def _check_level(self, board: Board) -> None:
        """The level asked for (options.shape) is the one shown, at every game's start; without one,
        a change of level is said."""
        wanted = self.options.shape
        if wanted is not None and board.shape != wanted:
            raise Stop(f"stopped safely: the game now shows {board.shape[0]}x{board.shape[1]} cells, not the "
                       f"{wanted[0]}x{wanted[1]} level asked for (--level)")
        if self.shape is not None and board.shape != self.shape:
            self.say(f"the game's level changed: {board.shape[0]}x{board.shape[1]} cells "
                     f"(was {self.shape[0]}x{self.shape[1]})")
        self.shape = board.shape

    def watch(self) -> int:
        """Dry run: never click; show the advice whenever the board changes (bot.play.dry_run). Returns
        frames drawn; each board shown and its advice are appended to `advised`."""
        return DryRun(self.game_view, self.options, self.decide, self.advised, self.say).run()


def play(options: Options, screen: Screen | None = None,
         actuator_factory: Callable[[Target], Actuator] = Actuator, say: Callable[[str], None] = lambda _: None,
         logs: list[GameLog] | None = None) -> list[GameLog]:
    """Play options.games games; each finished game is appended to logs as it ends, so a caller
    that passes its own list still has the games played when the run stops or is interrupted (the
    game under way then, once clicked, as "stopped")."""
    own = screen is None
    logs = [] if logs is None else logs
    try:
        screen = screen or Screen()
        player = Player(screen, options, actuator_factory, say)
        if options.dry_run:
            player.watch()
            return logs
        for _ in range(options.games):
            try:
                logs.append(player.play_game())
            except BaseException:
                if player.unfinished is not None:
                    logs.append(player.unfinished)
                raise
    except ActuatorError as err:
        raise Stop(str(err)) from err
    finally:
        if own and screen is not None:
            screen.close()
    return logs
