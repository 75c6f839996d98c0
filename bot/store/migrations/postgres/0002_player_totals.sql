-- Version 2 (PostgreSQL): running totals per (scope, variant, player), as in the SQLite
-- 0002_player_totals.sql; scope is a guild id or 0 for global, variant 'flip', 'classic', 'all'.

CREATE TABLE player_totals (
    scope         BIGINT  NOT NULL,
    variant       TEXT    NOT NULL CHECK (variant IN ('flip', 'classic', 'all')),
    player_id     BIGINT  NOT NULL REFERENCES players (id),
    points        BIGINT  NOT NULL DEFAULT 0,
    matches_won   INTEGER NOT NULL DEFAULT 0,
    rounds_won    INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    games_played  INTEGER NOT NULL DEFAULT 0,
    best_round    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, variant, player_id)
);

-- Backfill from the rounds scored before this version: each score counts in four rows.
INSERT INTO player_totals (
    scope, variant, player_id, points, rounds_won, rounds_played, games_played, best_round
)
SELECT
    CASE WHEN k.per_guild = 1 THEN g.guild_id ELSE 0 END,
    CASE WHEN k.per_variant = 1 THEN g.variant ELSE 'all' END,
    rs.player_id,
    SUM(rs.points_awarded),
    SUM(CASE WHEN r.winner_id = rs.player_id THEN 1 ELSE 0 END),
    COUNT(*),
    COUNT(DISTINCT r.game_id),
    MAX(rs.points_awarded)
FROM round_scores AS rs
JOIN rounds AS r ON r.id = rs.round_id
JOIN games AS g ON g.id = r.game_id
CROSS JOIN (VALUES (0, 0), (0, 1), (1, 0), (1, 1)) AS k (per_guild, per_variant)
GROUP BY 1, 2, 3;

INSERT INTO player_totals (scope, variant, player_id, matches_won)
SELECT
    CASE WHEN k.per_guild = 1 THEN g.guild_id ELSE 0 END,
    CASE WHEN k.per_variant = 1 THEN g.variant ELSE 'all' END,
    m.player_id,
    COUNT(*)
FROM match_results AS m
JOIN games AS g ON g.id = m.game_id
CROSS JOIN (VALUES (0, 0), (0, 1), (1, 0), (1, 1)) AS k (per_guild, per_variant)
WHERE m.won = 1
GROUP BY 1, 2, 3
ON CONFLICT (scope, variant, player_id) DO UPDATE SET matches_won = excluded.matches_won;

-- One index per leaderboard sort: a page is a short walk down the index.
CREATE INDEX player_totals_by_points
    ON player_totals (scope, variant, points DESC, player_id);
CREATE INDEX player_totals_by_matches_won
    ON player_totals (scope, variant, matches_won DESC, player_id);
CREATE INDEX player_totals_by_rounds_won
    ON player_totals (scope, variant, rounds_won DESC, player_id);
