-- v1.23: the calendar feed's address stays viewable to its owner. The
-- token is kept sealed under the database key (beside its hash, which the
-- feed is found by), so Notifications can show the address again; a feed
-- made before v1.23 has none, and replacing it makes one that has.
ALTER TABLE calendar_feeds ADD COLUMN token_sealed TEXT;
