ALTER TABLE login_history DROP COLUMN method;
ALTER TABLE sessions DROP COLUMN oidc_id_token;
DROP TABLE oidc_identities;
