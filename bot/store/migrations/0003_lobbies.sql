-- Version 3: the open lobbies (games not started yet), so a lobby survives a restart like a game.
-- One row per channel, as a channel holds one session at a time. lobby_json is the Discord
-- side's opaque blob (seats, rules, lobby message, when the idle timer runs out); the store
-- never reads inside it. Starting the game deletes the row in the transaction that creates the
-- game (create_game with lobby_session_id), so a channel is never restored as both or neither.

CREATE TABLE lobbies (
    channel_id INTEGER PRIMARY KEY,
    session_id TEXT    NOT NULL,
    guild_id   INTEGER NOT NULL,
    lobby_json TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
