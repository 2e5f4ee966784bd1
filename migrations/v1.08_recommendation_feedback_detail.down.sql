-- Rolls v1.08 back: declines then last their 180 days whatever the amount.
ALTER TABLE subscription_recommendation_feedback DROP COLUMN reason;
ALTER TABLE subscription_recommendation_feedback DROP COLUMN currency;
ALTER TABLE subscription_recommendation_feedback DROP COLUMN amount_cents;
