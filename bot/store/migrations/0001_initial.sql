-- Version 1: players, games and their seats, rounds, per-player round scores, match results
-- and the snapshot of each live game. Times are unix milliseconds (UTC).

CREATE TABLE players (
    id           INTEGER PRIMARY KEY,  -- Discord user id
    display_name TEXT    NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    variant     TEXT    NOT NULL CHECK (variant IN ('flip', 'classic')),
    rules_json  TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'live'
                        CHECK (status IN ('live', 'finished', 'abandoned')),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    finished_at INTEGER,
    winner_id   INTEGER REFERENCES players (id)
);

-- Start-up only ever looks for the live games, a handful among millions of finished ones.
CREATE INDEX games_live ON games (status) WHERE status = 'live';

-- The seats of a game and its running match totals, kept in step with every recorded round.
CREATE TABLE game_players (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    seat          INTEGER NOT NULL,
    total_points  INTEGER NOT NULL DEFAULT 0,
    rounds_won    INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, player_id),
    UNIQUE (game_id, seat)
) WITHOUT ROWID;

-- UNIQUE (game_id, round_no) is what makes recording a round idempotent.
CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    round_no    INTEGER NOT NULL CHECK (round_no >= 1),
    winner_id   INTEGER NOT NULL REFERENCES players (id),
    side        TEXT    NOT NULL CHECK (side IN ('light', 'dark')),
    scoring     TEXT    NOT NULL CHECK (scoring IN ('standard', 'alternative')),
    recorded_at INTEGER NOT NULL,
    UNIQUE (game_id, round_no)
);

CREATE TABLE round_scores (
    round_id       INTEGER NOT NULL REFERENCES rounds (id),
    player_id      INTEGER NOT NULL REFERENCES players (id),
    hand_points    INTEGER NOT NULL CHECK (hand_points >= 0),
    points_awarded INTEGER NOT NULL CHECK (points_awarded >= 0),
    PRIMARY KEY (round_id, player_id)
) WITHOUT ROWID;

CREATE INDEX round_scores_player ON round_scores (player_id);

CREATE TABLE match_results (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    player_id    INTEGER NOT NULL REFERENCES players (id),
    final_points INTEGER NOT NULL,
    rounds_won   INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, player_id)
) WITHOUT ROWID;

-- One row per live game: the engine state and the opaque UI blob (message ids to reattach).
CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    state_json TEXT    NOT NULL,
    ui_json    TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
