-- Version 3 (PostgreSQL): the open lobbies, one row per channel, as in the SQLite
-- 0003_lobbies.sql.

CREATE TABLE lobbies (
    channel_id BIGINT PRIMARY KEY,
    session_id TEXT   NOT NULL,
    guild_id   BIGINT NOT NULL,
    lobby_json TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
