DROP TABLE drift_dismissals;
