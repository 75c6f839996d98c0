-- Version 6: reserved for the store's own change made on another branch at the same time
-- (the match history is 0007). Nothing here; the merge replaces this file with that one.
SELECT 1;
