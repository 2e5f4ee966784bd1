-- Rolls v1.09 back: failed attempts are then only in the logs.
DROP TABLE schema_migration_failures;
