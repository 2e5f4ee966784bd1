-- The plans (tiers) of catalog services and their US list prices (cents),
-- so a tracked bill is compared with the plan it is on (issue 30). The
-- rows are seeded by the data step from migrations/data/catalog_tiers.csv.
CREATE TABLE subscription_catalog_tiers (
    id           INTEGER PRIMARY KEY,
    catalog_id   INTEGER NOT NULL REFERENCES subscription_catalog(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    monthly_usd  INTEGER CHECK (monthly_usd > 0),
    annual_usd   INTEGER CHECK (annual_usd > 0),
    CHECK (monthly_usd IS NOT NULL OR annual_usd IS NOT NULL),
    UNIQUE (catalog_id, name)
);
CREATE INDEX subscription_catalog_tiers_catalog ON subscription_catalog_tiers(catalog_id, position);
