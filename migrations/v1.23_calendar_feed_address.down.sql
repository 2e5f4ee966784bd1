-- Back to v1.22: the feed's address is shown once, when it is made.
ALTER TABLE calendar_feeds DROP COLUMN token_sealed;
