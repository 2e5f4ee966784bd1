-- v0.96: bills link to the catalog entry they are; the data step backfills the
-- link for existing subscription bills by name. Users can teach Tally their
-- own bank descriptors.
ALTER TABLE bills ADD COLUMN catalog_id INTEGER REFERENCES subscription_catalog(id) ON DELETE SET NULL;
CREATE INDEX bills_catalog ON bills(catalog_id) WHERE catalog_id IS NOT NULL;

CREATE TABLE user_catalog_descriptors (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    catalog_id      INTEGER NOT NULL REFERENCES subscription_catalog(id) ON DELETE CASCADE,
    descriptor      TEXT    NOT NULL CHECK (length(descriptor) BETWEEN 1 AND 200),
    normalized      TEXT    NOT NULL,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user_id, normalized)
);
CREATE INDEX user_catalog_descriptors_catalog ON user_catalog_descriptors(catalog_id);
