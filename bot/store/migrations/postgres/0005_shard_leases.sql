-- Version 5 (PostgreSQL): fencing tokens for shard leases. A process holds its shards through
-- advisory locks (bot/store/shards.py); each claim also draws a new epoch from one sequence
-- and writes it into its shards' rows. Every write of a server's games, snapshots, rounds and
-- lobbies calls hold_shard(), which share-locks the server's shard row and stops the write
-- unless the row still carries the writer's epoch: once another process has claimed the
-- shard, a late write from the old owner (through a pool connection still open) is refused
-- instead of landing over the new owner's state. The share lock lasts to the writer's commit,
-- so a new claim waits for the writes in flight and every later write sees the new epoch.

CREATE SEQUENCE shard_lease_epochs;

CREATE TABLE shard_leases (
    shard_id INTEGER PRIMARY KEY,
    epoch    BIGINT  NOT NULL
);

CREATE FUNCTION hold_shard(shard BIGINT, claimed BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM shard_leases WHERE shard_id = shard AND epoch = claimed FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'shard % was claimed by another bot process', shard
            USING ERRCODE = 'UF001', DETAIL = shard::TEXT;
    END IF;
    RETURN TRUE;
END
$$;
