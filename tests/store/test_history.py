"""The match history on both backends: kept once, paged newest first, filtered, pruned."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine import Phase, RuleSet
from bot.engine import events as ev
from bot.engine.replay import RULES_VERSION, replay_steps
from bot.engine.simulate import RandomAgent
from bot.options import TableOptions
from bot.persistence import Persistence
from bot.store import Store
from bot.store.repositories.history import DAY_MS, FinishedMatch, HistoryPlayer, HistoryRound
from bot.table import Seat, TableState

from .factories import ANNA, BEN, CARL, CHANNEL, GUILD, OTHER_GUILD, new_game, query


def finished(players: tuple[int, ...] = (ANNA, BEN), guild_id: int = GUILD) -> FinishedMatch:
    """A two-round match won by the first player."""
    return FinishedMatch(
        guild_id=guild_id,
        channel_id=CHANNEL,
        variant="flip",
        rules_json="{}",
        rules_version=RULES_VERSION,
        seed=2**62,
        winner_id=players[0],
        players=[
            HistoryPlayer(
                seat=seat, player_id=p, engine_id=str(p), name=f"P{p}", points=0, place=seat + 1
            )
            for seat, p in enumerate(players)
        ],
        rounds=[
            HistoryRound(round_no=1, winner_id=players[1], points=40, side="light", ending="R5"),
            HistoryRound(
                round_no=2, winner_id=players[0], points=510, side="dark", ending="W", moves="0d"
            ),
        ],
    )


async def keep(store: Store, players: tuple[int, ...] = (ANNA, BEN), guild_id: int = GUILD) -> int:
    """A game row and its kept match; the game's id."""
    game = await new_game(store, players, guild_id=guild_id)
    assert await store.history.record(game.id, finished(players, guild_id))
    return game.id


async def test_a_kept_match_reads_back_whole(store: Store) -> None:
    """Players, rounds, endings, moves, seed and times come back as they were kept."""
    game_id = await keep(store)
    match = await store.history.match(game_id)
    assert match is not None
    assert [(p.player_id, p.name, p.place) for p in match.players] == [
        (ANNA, f"P{ANNA}", 1),
        (BEN, f"P{BEN}", 2),
    ]
    assert [
        (r.round_no, r.winner_id, r.points, r.side, r.ending, r.moves) for r in match.rounds
    ] == [
        (1, BEN, 40, "light", "R5", None),
        (2, ANNA, 510, "dark", "W", "0d"),
    ]
    assert (match.seed, match.round_count, match.winner_id) == (2**62, 2, ANNA)
    assert match.started_at <= match.ended_at


async def test_a_match_is_kept_once(store: Store) -> None:
    """A retried save of the same match changes nothing and says so."""
    game_id = await keep(store)
    assert not await store.history.record(game_id, finished())
    assert await query(store, "SELECT COUNT(*) FROM match_history_rounds") == [(2,)]


async def test_pages_are_newest_first_and_per_server(store: Store) -> None:
    """A server's page lists its own matches, the last one ended first."""
    first = await keep(store)
    second = await keep(store)
    await keep(store, guild_id=OTHER_GUILD)
    page = await store.history.page(GUILD)
    assert [m.game_id for m in page.matches] == [second, first]
    assert (page.total, page.total_pages, page.page) == (2, 1, 1)


async def test_the_player_option_keeps_their_matches(store: Store) -> None:
    """Filtered by a player, the page holds only the matches they played."""
    await keep(store, (ANNA, BEN))
    with_carl = await keep(store, (CARL, BEN))
    page = await store.history.page(GUILD, player_id=CARL)
    assert [m.game_id for m in page.matches] == [with_carl]


async def test_a_page_past_the_end_shows_the_last(store: Store) -> None:
    """Asking for page 9 of a three-page history shows page 3."""
    for _ in range(5):
        await keep(store)
    page = await store.history.page(GUILD, page=9, page_size=2)
    assert (page.page, page.total_pages, len(page.matches)) == (3, 3, 1)


async def test_pruning_forgets_only_old_matches(store: Store) -> None:
    """Matches that ended longer ago than the kept days go, with their players and rounds."""
    old = await keep(store)
    new = await keep(store)
    await query(store, "SELECT 1")  # both ended "now"
    later = int(datetime.now(UTC).timestamp() * 1000) + 400 * DAY_MS
    assert await store.history.prune(365, now=later) == 2
    assert await store.history.match(old) is None and await store.history.match(new) is None
    assert await query(store, "SELECT COUNT(*) FROM match_history_players") == [(0,)]


async def test_pruning_keeps_what_is_recent(store: Store) -> None:
    """A match that ended today stays."""
    game_id = await keep(store)
    assert await store.history.prune(365) == 0
    assert await store.history.match(game_id) is not None


async def test_a_match_played_to_its_end_is_kept_with_replayable_rounds(store: Store) -> None:
    """Persistence keeps a finished match; every kept round replays to the stored winner."""
    table = TableState(
        "s1",
        GUILD,
        CHANNEL,
        Seat(str(ANNA), "Anna"),
        TableOptions(rules=RuleSet(variant="classic", target=50)),
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    table.join(BEN, "Ben")
    table.start(ANNA, 7, {str(ANNA): "Anna", str(BEN): "Ben"})
    persistence = Persistence(store)
    agent = RandomAgent(7, patience=100)
    game = table.game
    assert game is not None
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            agent.moves_this_round = 0
            table.next_round()
        else:
            player, move = agent.choose(game)
            agent.moves_this_round += 1
            table.play(player, move)
        await persistence.save(table)
    game_id = persistence.game_id("s1")
    assert game_id is not None
    match = await store.history.match(game_id)
    assert match is not None and match.round_count == len(game.history)
    texts = [r.moves or "" for r in match.rounds]
    for kept in match.rounds:
        steps = replay_steps(
            [p.engine_id for p in match.players],
            RuleSet(variant="classic", target=50),
            match.seed,
            texts,
            kept.round_no,
        )
        ends = [e for step in steps for e in step.events if isinstance(e, ev.RoundEnded)]
        assert [e.winner for e in ends] == [str(kept.winner_id)]


async def test_a_forgotten_player_leaves_every_kept_match(store: Store) -> None:
    """Forgetting a player erases their name and id from the history; the match stays."""
    game_id = await keep(store, (ANNA, BEN))
    assert await store.history.forget(ANNA) == 3  # a seat, a round won, the match won
    match = await store.history.match(game_id)
    assert match is not None
    assert [(p.player_id, p.name) for p in match.players] == [(0, ""), (BEN, f"P{BEN}")]
    assert match.winner_id == 0 and [r.winner_id for r in match.rounds] == [BEN, 0]
    assert (await store.history.page(GUILD, player_id=ANNA)).matches == []


async def test_forget_me_also_forgets_the_history(store: Store) -> None:
    """The standings' forget (/uno forget-me, unoflip forget) takes the player out of the
    history in the same transaction."""
    game_id = await keep(store, (ANNA, BEN))
    await store.standings.forget(ANNA)
    match = await store.history.match(game_id)
    assert match is not None and match.player(ANNA) is None
