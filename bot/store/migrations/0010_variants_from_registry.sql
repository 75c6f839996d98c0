-- Version 10: games.variant and player_totals.variant take any key; the engine's variant
-- registry (bot/engine/variants) is what validates one, so a new variant needs no migration.
-- rounds.scoring keeps its CHECK: a one-hand game (No Mercy, Junior) records its hand as
-- 'standard' and All Wild's lowest-total scoring is 'alternative' (RoundRecord.from_engine).
--
-- SQLite cannot drop a CHECK, so each table is rebuilt (https://sqlite.org/lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"): a copy without the CHECK takes the rows, the
-- old table is dropped and the copy renamed; its indexes and triggers, dropped with the old
-- table, are created again. migrate() runs this with foreign keys off and checks every
-- foreign key before it commits.

CREATE TABLE games_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    rules_json  TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'live'
                        CHECK (status IN ('live', 'finished', 'abandoned')),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    finished_at INTEGER,
    winner_id   INTEGER REFERENCES players (id)
);

INSERT INTO games_new (
    id, guild_id, channel_id, variant, rules_json, status, created_at, updated_at, finished_at,
    winner_id
)
SELECT
    id, guild_id, channel_id, variant, rules_json, status, created_at, updated_at, finished_at,
    winner_id
FROM games;

-- AUTOINCREMENT never reuses the id of a deleted game: the copy continues the old sequence.
UPDATE sqlite_sequence
SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'games')
WHERE name = 'games_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'games');

INSERT INTO sqlite_sequence (name, seq)
SELECT 'games_new', seq FROM sqlite_sequence WHERE name = 'games'
AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'games_new');

DROP TABLE games;

ALTER TABLE games_new RENAME TO games;

CREATE INDEX games_live ON games (status) WHERE status = 'live';
CREATE INDEX games_winner ON games (winner_id);

CREATE TABLE player_totals_new (
    scope         INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    points        INTEGER NOT NULL DEFAULT 0,
    matches_won   INTEGER NOT NULL DEFAULT 0,
    rounds_won    INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    games_played  INTEGER NOT NULL DEFAULT 0,
    best_round    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, variant, player_id)
) WITHOUT ROWID;

-- board_sizes already counts these rows: the copy fires no trigger (none is on it yet).
INSERT INTO player_totals_new (
    scope, variant, player_id, points, matches_won, rounds_won, rounds_played, games_played,
    best_round
)
SELECT
    scope, variant, player_id, points, matches_won, rounds_won, rounds_played, games_played,
    best_round
FROM player_totals;

DROP TABLE player_totals;

ALTER TABLE player_totals_new RENAME TO player_totals;

CREATE INDEX player_totals_by_points
    ON player_totals (scope, variant, points DESC, player_id);
CREATE INDEX player_totals_by_matches_won
    ON player_totals (scope, variant, matches_won DESC, player_id);
CREATE INDEX player_totals_by_rounds_won
    ON player_totals (scope, variant, rounds_won DESC, player_id);
CREATE INDEX player_totals_player ON player_totals (player_id);

CREATE TRIGGER board_sizes_grow AFTER INSERT ON player_totals
BEGIN
    INSERT INTO board_sizes (scope, variant, players) VALUES (NEW.scope, NEW.variant, 1)
    ON CONFLICT (scope, variant) DO UPDATE SET players = board_sizes.players + 1;
END;

CREATE TRIGGER board_sizes_shrink AFTER DELETE ON player_totals
BEGIN
    UPDATE board_sizes SET players = players - 1
    WHERE scope = OLD.scope AND variant = OLD.variant;
END;
