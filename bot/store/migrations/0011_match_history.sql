-- Version 11: the match history. Every finished match, kept for /uno history and /uno replay
-- until the history_days setting prunes it: the players as they were named, each round's
-- winner, points and ending card, and the engine's seed and moves (bot/engine/replay.py's
-- tokens, one text per round) that rebuild every round. rules_version is the engine's
-- RULES_VERSION when the match was played: another version's moves are not replayed.
-- Player ids as in game_players (computer players negative); engine_id is the id the engine
-- knew them by, which the moves refer to by seat.

CREATE TABLE match_history (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    rules_json    TEXT    NOT NULL,
    rules_version INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    winner_id     INTEGER NOT NULL,
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER NOT NULL
);

-- A server's history page is a short walk down this index, newest first.
CREATE INDEX match_history_by_server ON match_history (guild_id, ended_at DESC, game_id DESC);
CREATE INDEX match_history_by_age ON match_history (ended_at);

CREATE TABLE match_history_players (
    game_id   INTEGER NOT NULL REFERENCES match_history (game_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    engine_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    place     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX match_history_players_by_player ON match_history_players (player_id, game_id);

CREATE TABLE match_history_rounds (
    game_id   INTEGER NOT NULL REFERENCES match_history (game_id) ON DELETE CASCADE,
    round_no  INTEGER NOT NULL,
    winner_id INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    side      TEXT    NOT NULL,
    ending    TEXT    NOT NULL,
    moves     TEXT,
    PRIMARY KEY (game_id, round_no)
);
