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

CREATE FUNCTION board_sizes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO board_sizes (scope, variant, players) VALUES (NEW.scope, NEW.variant, 1)
        ON CONFLICT (scope, variant) DO UPDATE SET players = board_sizes.players + 1;
    ELSE
        UPDATE board_sizes SET players = players - 1
        WHERE scope = OLD.scope AND variant = OLD.variant;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER board_sizes_count AFTER INSERT OR DELETE ON player_totals
FOR EACH ROW EXECUTE FUNCTION board_sizes_count();
