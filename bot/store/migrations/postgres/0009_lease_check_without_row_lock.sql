-- Version 9 (PostgreSQL): a write checks its shard's epoch without locking the lease row.
-- Version 5 share-locked the row (FOR SHARE) so that a new claim waited for the writes in
-- flight; a share lock taken by many transactions at once is recorded as a MultiXact id on
-- the row, nearly one per write, which PostgreSQL must store and later vacuum away. A
-- transaction-level shared advisory lock on (0x756E6F66 "unof", shard) does the same job in
-- the lock table alone: every write holds it to its commit, a claim takes it exclusively
-- while it writes the new epoch (bot/store/shards.py), so the claim waits for the writes in
-- flight and every later write reads the new epoch.

CREATE OR REPLACE FUNCTION hold_shard(shard BIGINT, claimed BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1970171750, shard::INTEGER);
    PERFORM 1 FROM shard_leases WHERE shard_id = shard AND epoch = claimed;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'shard % was claimed by another bot process', shard
            USING ERRCODE = 'UF001', DETAIL = shard::TEXT;
    END IF;
    RETURN TRUE;
END
$$;
