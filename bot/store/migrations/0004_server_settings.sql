-- Version 4: each server's own settings (/uno settings), one row per server. settings_json is
-- the bot's validated settings value; the store never reads inside it, and a row written by
-- an older version is read with defaults for the settings added since.

CREATE TABLE server_settings (
    guild_id      INTEGER PRIMARY KEY,
    settings_json TEXT    NOT NULL,
    updated_at    INTEGER NOT NULL
);
