-- Version 7 (PostgreSQL): how many players each leaderboard holds, kept up to date by
-- triggers, so a page reads its total from one row instead of counting every player of the
-- board. Only a player's first row on a board (and a deleted row) touches the count; two
-- transactions meeting on it in opposite orders are a deadlock, which the store retries.

CREATE TABLE board_sizes (
    scope   BIGINT NOT NULL,
    variant TEXT   NOT NULL,
    players BIGINT NOT NULL,
    PRIMARY KEY (scope, variant)
);

INSERT INTO board_sizes (scope, variant, players)
SELECT scope, variant, COUNT(*) FROM player_totals GROUP BY scope, variant;

-- Statement-level triggers over the rows each statement added or removed: one update of a
-- board's count per statement, not per row, so a bulk copy (COPY of a whole table by
-- migrate_to_postgres) does not update one row a million times in one transaction.
CREATE FUNCTION board_sizes_grow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO board_sizes (scope, variant, players)
    SELECT scope, variant, COUNT(*) FROM added GROUP BY scope, variant ORDER BY scope, variant
    ON CONFLICT (scope, variant) DO UPDATE SET players = board_sizes.players + excluded.players;
    RETURN NULL;
END
$$;

CREATE FUNCTION board_sizes_shrink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE board_sizes SET players = board_sizes.players - gone.players
    FROM (SELECT scope, variant, COUNT(*) AS players FROM removed GROUP BY scope, variant)
        AS gone
    WHERE board_sizes.scope = gone.scope AND board_sizes.variant = gone.variant;
    RETURN NULL;
END
$$;

CREATE TRIGGER board_sizes_grow AFTER INSERT ON player_totals
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION board_sizes_grow();

CREATE TRIGGER board_sizes_shrink AFTER DELETE ON player_totals
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION board_sizes_shrink();
