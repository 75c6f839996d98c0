"""A fingerprint of the engine's behaviour: one hash over many seeded random matches.

Every event, every legal-move list, every saved state (the store's JSON) and, now and then,
views, timeout moves, refused illegal moves, JSON round trips, timed-out turns and players
leaving, over matches of both variants, every edition and house rule and 2 to 10 players. Three
agents play them: the property tests' all-players agent (UNO calls, catches, jump-ins) and the
engine benchmark's current-player agents (uniform and play-first). The round memory is on, as in
real games.

Optimisations must leave the hash unchanged; ``tests/engine/test_fingerprint.py`` compares it
with constants recorded before they started. ``python -m tests.engine.fingerprint 200`` prints
the hash of the first 200 matches and how long they took.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from collections.abc import Callable, Sequence

from bot.compiled import describe_engine
from bot.engine import (
    Color,
    Game,
    IllegalMove,
    Phase,
    PlayCard,
    RuleSet,
    dumps,
    loads,
    public_view,
    view_for,
)
from bot.engine.moves import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    PASS,
    Catch,
    ChooseColor,
    Move,
    SwapWith,
)
from bot.engine.simulate import RandomAgent, StuckGame

# Moves in a round before the current-player agents turn eager (play a card when they can).
PATIENCE = 300
# Rounds played per match at most: enough to meet the match end often, few enough to stay quick.
MAX_ROUNDS = 3
# Per move, the chance of each occasional check.
CHECK_CHANCE = 0.02
AGENTS = ("all players", "uniform", "play-first")


def rules_for(rng: random.Random) -> RuleSet:
    """Any valid RuleSet: variant, edition, scoring and each house rule, drawn from ``rng``."""
    variant = rng.choice(["flip", "classic"])
    classic = variant == "classic"
    stacking = rng.random() < 0.5
    return RuleSet(
        variant=variant,
        edition=rng.choice(["standard", "shuffle_hands", "swap_hands"]) if classic else "standard",
        target=rng.choice([100, 200, 500]),
        scoring=rng.choice(["standard", "alternative"]),
        stacking=stacking,
        stack_wild_draw_four_on_draw_two=classic and stacking and rng.random() < 0.5,
        seven_o=classic and rng.random() < 0.5,
        jump_in=rng.random() < 0.5,
        draw_until_playable=rng.random() < 0.3,
        forced_play=rng.random() < 0.3,
    )


class Fingerprint:
    """A running SHA-256 over the text of everything the engine says."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.moves = 0

    def add(self, *items: object) -> None:
        """Hash the repr of each item, separated so that no two sequences collide."""
        for item in items:
            self.digest.update(repr(item).encode())
            self.digest.update(b"\x1f")

    def state(self, game: Game) -> None:
        """Hash the saved state: the JSON the store keeps."""
        self.add(dump(game))

    def hexdigest(self) -> str:
        """The hash so far."""
        return self.digest.hexdigest()


# The engine API the fingerprint reads, in one place, so a rename touches these lines only.
def dump(game: Game) -> str:
    """The state as the store saves it."""
    return dumps(game)


def load(text: str) -> Game:
    """A game restored from ``dump``."""
    return loads(text)


def view(game: Game, player: str | None) -> object:
    """A player's view, or the spectator's for None."""
    return public_view(game) if player is None else view_for(game, player)


def illegal_moves(game: Game, player: str) -> list[Move]:
    """Moves of every shape not legal for ``player`` now."""
    legal = set(game.legal_moves(player))
    shapes: list[Move] = [PlayCard(card) for card in range(len(game.deck))]
    shapes += [DRAW, PASS, ACCEPT, CHALLENGE, CALL_UNO]
    shapes += [ChooseColor(color) for color in Color]
    for other in game.players:
        shapes += [SwapWith(other), Catch(other)]
    return [move for move in shapes if move not in legal]


def occasional_checks(game: Game, rng: random.Random, print_: Fingerprint) -> Game:
    """Now and then: views, a timeout move, a refused move, a JSON round trip; the game to go on
    with (the restored copy after a round trip, so play continues from it)."""
    if rng.random() < CHECK_CHANCE:
        player = rng.choice([*game.players, None])
        print_.add("view", view(game, player))
    if rng.random() < CHECK_CHANCE:
        print_.add("default", [game.default_move(p) for p in game.players])
    if rng.random() < CHECK_CHANCE:
        player = rng.choice(game.players)
        move = rng.choice(illegal_moves(game, player))
        before = dump(game)
        try:
            game.apply(player, move)
        except IllegalMove as refused:
            print_.add("refused", move, str(refused))
        else:
            raise AssertionError(f"{move} was applied although not legal")
        assert dump(game) == before, "a refused move changed the state"
    if rng.random() < CHECK_CHANCE:
        text = dump(game)
        copy = load(text)
        assert dump(copy) == text, "a JSON round trip changed the state"
        print_.add("round trip")
        return copy
    return game


def play_match(seed: int, print_: Fingerprint) -> None:
    """One seeded match (up to ``MAX_ROUNDS`` rounds), every step hashed."""
    rng = random.Random(f"fingerprint:{seed}")
    rules = rules_for(rng)
    players = [f"p{i}" for i in range(rng.randint(2, 10))]
    agent_kind = AGENTS[seed % len(AGENTS)]
    game, events = Game.start(players, rules, seed)
    print_.add(agent_kind, rules, players, events)
    print_.state(game)
    agent = RandomAgent(seed, patience=PATIENCE)
    removed = False
    rounds = 1
    moves_this_round = 0
    while game.phase is not Phase.MATCH_OVER and game.phase is not Phase.ABANDONED:
        if game.phase is Phase.ROUND_OVER:
            if rounds >= MAX_ROUNDS:
                break
            rounds += 1
            moves_this_round = 0
            agent.moves_this_round = 0
            print_.add("next round", game.start_next_round())
            print_.state(game)
            continue
        game = occasional_checks(game, rng, print_)
        roll = rng.random()
        if roll < CHECK_CHANCE / 4 and not removed and len(game.players) > 2:
            removed = True
            print_.add("removed", game.remove_player(rng.choice(game.players), "left"))
        elif roll < CHECK_CHANCE / 2:
            current = game.current_player
            assert current is not None
            print_.add("auto", game.auto_play(current))
        elif agent_kind == "all players":
            if agent.moves_this_round >= 4_000:
                raise StuckGame(f"fingerprint match {seed}")
            player, move = agent.choose(game)
            print_.add(player, move, game.apply(player, move))
            agent.moves_this_round += 1
        else:
            eager = agent_kind == "play-first" or moves_this_round >= PATIENCE
            print_.add(*current_player_step(game, rng, eager))
            moves_this_round += 1
        print_.moves += 1
        print_.state(game)
        print_.add([game.legal_moves(p) for p in game.players])


def play_to_the_end(game: Game, seed: int, print_: Fingerprint, next_round: str) -> None:
    """Play ``game`` to its match's end with the seeded random agent, hashing every step
    (player, move, events, every seat's legal moves, the saved state); each new round is
    hashed under ``next_round``. The fingerprints of the newer variants share it."""
    agent = RandomAgent(seed)
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            print_.add(next_round, agent.next_round(game))
            continue
        player, move, events = agent.step(game)
        print_.add(player, move, events, [game.legal_moves(p) for p in game.players])
        print_.add(dump(game))
        print_.moves += 1


def current_player_step(game: Game, rng: random.Random, eager: bool) -> Sequence[object]:
    """The bench's agent: the current player picks among its legal moves (a card first if
    ``eager``); returns what to hash."""
    player = game.players[game.current]
    legal = game.legal_moves(player)
    options = ([m for m in legal if type(m) is PlayCard] or legal) if eager else legal
    move = rng.choice(options)
    return (player, legal, move, game.apply(player, move))


def fingerprint(matches: int, progress: Callable[[int], None] | None = None) -> Fingerprint:
    """The fingerprint of the first ``matches`` seeded matches."""
    print_ = Fingerprint()
    for seed in range(matches):
        play_match(seed, print_)
        if progress is not None:
            progress(seed)
    return print_


def main(argv: Sequence[str]) -> int:
    """Print the hash of the first N matches (default 200), the moves and the time taken."""
    matches = int(argv[0]) if argv else 200
    print(describe_engine().describe())
    started = time.perf_counter()
    result = fingerprint(matches)
    elapsed = time.perf_counter() - started
    print(f"{matches} matches, {result.moves:,} moves, {elapsed:.1f} s: {result.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
