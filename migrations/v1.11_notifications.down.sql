-- Rolls v1.11 back: reminders and notifications go, with their log.
DROP TABLE notification_runs;
DROP TABLE calendar_feeds;
DROP TABLE notification_connection_state;
DROP TABLE notification_deliveries;
DROP TABLE notification_preferences;
DROP TABLE notification_channels;
