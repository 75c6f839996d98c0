-- Version 4 (PostgreSQL): each server's own settings, one row per server, as in the SQLite
-- 0004_server_settings.sql.

CREATE TABLE server_settings (
    guild_id      BIGINT PRIMARY KEY,
    settings_json TEXT   NOT NULL,
    updated_at    BIGINT NOT NULL
);
