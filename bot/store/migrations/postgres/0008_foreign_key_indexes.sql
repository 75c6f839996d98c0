-- Version 8: an index for every foreign key whose columns no index leads with, so deleting a
-- player (a data-erasure request) or a game finds the rows that point at it through an index
-- instead of reading whole tables. Already covered: game_players (game_id, ...),
-- rounds (game_id, round_no), round_scores (round_id, ...) and round_scores_player,
-- match_results (game_id, ...), snapshots (game_id).

CREATE INDEX games_winner ON games (winner_id);
CREATE INDEX game_players_player ON game_players (player_id);
CREATE INDEX rounds_winner ON rounds (winner_id);
CREATE INDEX match_results_player ON match_results (player_id);
CREATE INDEX player_totals_player ON player_totals (player_id);
