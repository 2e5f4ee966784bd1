DROP TABLE settings_changes;
