"""A game file as a game: the static facts every command reads, and a referee per game."""
from __future__ import annotations

import re
from typing import Any

from referee.api import Game, OptionSpec, TimeControl, TurnOrder, UsageError
from referee.external.brutal import BrutalReferee
from referee.external.channel import Channel, RefereeProcess
from referee.external.gamefile import KEY_PATTERN, GameFile, read_game_file
from referee.external.host import compiled_host, host_command, open_session
from referee.external.sdk import SdkReferee


class ExternalGame:
    """A game whose referee is another process (see ``referee.external.gamefile``).

    It has what the commands read of a :class:`referee.api.Game` (name, description, seats,
    turn order, time control, options) and, instead of rules, ``referee(options, clock)``: the
    match loop's Referee for one game. ``source`` is the file's path, which names the game
    wherever a game name goes (a cluster's workers, a replay)."""

    codec = None
    external = True

    def __init__(self, game_file: GameFile):
        self.file = game_file
        self.name = game_file.name
        self.description = game_file.description
        self.seats = game_file.players
        self.source = str(game_file.path)
        self.protocol = game_file.protocol
        # one player per step: the referee asks them in its own order
        self.turn_order = TurnOrder.ALTERNATING
        if game_file.protocol == "brutaltester":
            self.time_control = TimeControl(first_turn_ms=game_file.first_turn_ms,
                                            turn_ms=game_file.turn_ms)
        else:                       # nominal: the SDK's defaults; the referee sends its own
            self.time_control = TimeControl()
        if game_file.host is not None:
            # compiled here, once, before any game (a missing javac is one line now, and a
            # game's start is not the JDK's compile time)
            compiled_host(game_file.host.java)
        self.option_specs = tuple(OptionSpec(key, value, "a game parameter of INIT (game file)")
                                  for key, value in game_file.parameters.items())

    def parse_options(self, pairs: dict[str, str]) -> dict[str, Any]:
        """The game file's [parameters] overridden by ``--option key=value`` (codingame only:
        INIT's properties are free text, a referee reads the ones it knows)."""
        if pairs and self.protocol != "codingame":
            raise UsageError(f"game {self.name} (a brutaltester referee) takes no options; "
                             f"got {', '.join(pairs)}")
        options = dict(self.file.parameters)
        for key, text in pairs.items():
            text = str(text)
            if not KEY_PATTERN.fullmatch(key) or key == "seed":
                raise UsageError(f"--option {key}={text}: {key!r} is not a usable game parameter "
                                 "(letters, digits and _ . - only; the seed is --seed)")
            if re.search(r"[\r\n]", text):
                raise UsageError(f"--option {key}: the value must be one line")
            options[key] = text
        return options

    def check_time_control(self, clock: TimeControl) -> None:
        """The SDK's referee sends its own time limits: --turn-ms/--first-turn-ms cannot change
        them (--grace-ms still applies)."""
        nominal = self.time_control
        if self.protocol == "codingame" and (clock.turn_ms, clock.first_turn_ms) != \
                (nominal.turn_ms, nominal.first_turn_ms):
            raise UsageError(f"game {self.name}: the CodinGame referee sends its own time limits; "
                             "--turn-ms and --first-turn-ms apply to brutaltester referees only "
                             "(--grace-ms still applies)")

    def commands(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every command a game runs besides the bots, each with what it is (in the folder of
        the game file): the referee's, or the referee host's and the one it falls back to."""
        file = self.file
        if file.host is None:
            return [("referee", file.command)]
        return [("referee host", tuple(host_command(file.host))),
                ("referee without the host", file.command or file.host.fallback_command())]

    def referee(self, options: dict[str, Any],
                clock: TimeControl | None = None) -> SdkReferee | BrutalReferee:
        """The Referee of one game (its process starts in ``start``)."""
        clock = clock or self.time_control
        file = self.file
        label = f"the referee of {self.name}"
        def open_channel() -> Channel:
            if file.host is not None:
                session = open_session(file)
                if session is not None:
                    return session
            command = file.command if file.host is None else file.command or file.host.fallback_command()
            return RefereeProcess(command, cwd=file.folder, label=label)
        if file.protocol == "codingame":
            return SdkReferee(open_channel, parameters={key: str(value) for key, value in options.items()},
                              referee_timeout_ms=file.referee_timeout_ms, grace_ms=clock.grace_ms,
                              label=label)
        return BrutalReferee(open_channel, seed_line=file.seed_line,
                             first_turn_ms=clock.first_turn_ms, turn_ms=clock.turn_ms,
                             grace_ms=clock.grace_ms, referee_timeout_ms=file.referee_timeout_ms,
                             label=label)


def replay_fields(game: Game | ExternalGame) -> dict[str, Any]:
    """What a replay of ``game`` adds to name it: a game file's path (replay --run and view
    load it from there; its name alone is no built-in game)."""
    return {"game_file": game.source} if isinstance(game, ExternalGame) else {}


def load_game_file(text: str) -> ExternalGame:
    return ExternalGame(read_game_file(text))
