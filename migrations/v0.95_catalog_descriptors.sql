-- v0.95: richer catalog entries and the bank descriptors and slang terms that
-- identify them. Prices are in US cents. The rows are seeded by the data step
-- from migrations/data/.
ALTER TABLE subscription_catalog ADD COLUMN subcategory TEXT;
ALTER TABLE subscription_catalog ADD COLUMN starting_monthly_usd INTEGER CHECK (starting_monthly_usd >= 0);
ALTER TABLE subscription_catalog ADD COLUMN starting_annual_usd INTEGER CHECK (starting_annual_usd >= 0);
ALTER TABLE subscription_catalog ADD COLUMN price_notes TEXT;

CREATE TABLE subscription_catalog_descriptors (
    id              INTEGER PRIMARY KEY,
    catalog_id      INTEGER NOT NULL REFERENCES subscription_catalog(id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('bank', 'slang')),
    descriptor      TEXT    NOT NULL,
    normalized      TEXT    NOT NULL UNIQUE
);
CREATE INDEX subscription_catalog_descriptors_catalog ON subscription_catalog_descriptors(catalog_id);
CREATE INDEX subscription_catalog_descriptors_kind ON subscription_catalog_descriptors(kind, normalized);
