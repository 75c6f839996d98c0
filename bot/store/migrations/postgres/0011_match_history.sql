-- Version 11 (PostgreSQL): the match history, as in the SQLite 0011_match_history.sql.

CREATE TABLE match_history (
    game_id       BIGINT  PRIMARY KEY REFERENCES games (id),
    guild_id      BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    variant       TEXT    NOT NULL,
    rules_json    TEXT    NOT NULL,
    rules_version INTEGER NOT NULL,
    seed          BIGINT  NOT NULL,
    winner_id     BIGINT  NOT NULL,
    started_at    BIGINT  NOT NULL,
    ended_at      BIGINT  NOT NULL
);

CREATE INDEX match_history_by_server ON match_history (guild_id, ended_at DESC, game_id DESC);
CREATE INDEX match_history_by_age ON match_history (ended_at);

CREATE TABLE match_history_players (
    game_id   BIGINT  NOT NULL REFERENCES match_history (game_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    player_id BIGINT  NOT NULL,
    engine_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    place     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX match_history_players_by_player ON match_history_players (player_id, game_id);

CREATE TABLE match_history_rounds (
    game_id   BIGINT  NOT NULL REFERENCES match_history (game_id) ON DELETE CASCADE,
    round_no  INTEGER NOT NULL,
    winner_id BIGINT  NOT NULL,
    points    INTEGER NOT NULL,
    side      TEXT    NOT NULL,
    ending    TEXT    NOT NULL,
    moves     TEXT,
    PRIMARY KEY (game_id, round_no)
);
