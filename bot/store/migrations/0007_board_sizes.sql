-- Version 7: how many players each leaderboard holds, kept up to date by triggers, so a page
-- reads its total from one row instead of counting every player of the board.

CREATE TABLE board_sizes (
    scope   INTEGER NOT NULL,
    variant TEXT    NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (scope, variant)
);

INSERT INTO board_sizes (scope, variant, players)
SELECT scope, variant, COUNT(*) FROM player_totals GROUP BY scope, variant;

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
