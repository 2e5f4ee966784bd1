-- v0.97: what users did with subscription recommendations.
CREATE TABLE subscription_recommendation_feedback (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    catalog_id      INTEGER REFERENCES subscription_catalog(id) ON DELETE SET NULL,
    bill_id         INTEGER REFERENCES bills(id) ON DELETE SET NULL,
    merchant_key    TEXT    NOT NULL,
    action          TEXT    NOT NULL CHECK (action IN ('accept', 'decline', 'link_existing', 'relink_catalog', 'unlink')),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX subscription_recommendation_feedback_user ON subscription_recommendation_feedback(user_id, merchant_key);
