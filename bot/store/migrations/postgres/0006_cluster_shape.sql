-- Version 6 (PostgreSQL): the cluster's shape. Shard leases are advisory locks on shard ids,
-- which cannot see two processes that disagree on the shard count (shard 1 of 2 and shard 3
-- of 4 both hold server 3 << 22). The first claim records the count here; every later claim
-- must agree with it (bot/store/shards.py), and only a reshard with every process stopped
-- changes it. One row at most.

CREATE TABLE cluster_shape (
    id          SMALLINT PRIMARY KEY CHECK (id = 1),
    shard_count INTEGER  NOT NULL CHECK (shard_count >= 1),
    changed_at  BIGINT   NOT NULL
);
