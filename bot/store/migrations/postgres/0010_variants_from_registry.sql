-- Version 10 (PostgreSQL): games.variant and player_totals.variant take any key, as in the
-- SQLite 0010_variants_from_registry.sql; the engine's variant registry validates one, so a
-- new variant needs no migration. rounds.scoring keeps its CHECK (see the SQLite file).

ALTER TABLE games DROP CONSTRAINT games_variant_check;

ALTER TABLE player_totals DROP CONSTRAINT player_totals_variant_check;
