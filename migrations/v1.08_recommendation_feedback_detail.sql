-- v1.08: what a decline was about. The amount the recommendation had when
-- declined (a new amount brings it back before the 180 days are up) and the
-- person's reason ("not_a_subscription", or their own words).
ALTER TABLE subscription_recommendation_feedback ADD COLUMN amount_cents INTEGER;
ALTER TABLE subscription_recommendation_feedback ADD COLUMN currency TEXT;
ALTER TABLE subscription_recommendation_feedback ADD COLUMN reason TEXT
    CHECK (reason IS NULL OR length(reason) <= 200);
