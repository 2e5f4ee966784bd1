ALTER TABLE login_history DROP COLUMN method;
DROP TABLE oidc_identities;
