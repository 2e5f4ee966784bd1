//! Every migration Tally has shipped, in order. A shipped migration is never
//! edited: its checksum is recorded in `schema_migrations` and checked on
//! every start. New schema work takes the next version (v1.00 onward).

use super::migration::Migration;
use super::steps;
use super::Version;

macro_rules! sql {
    ($file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../migrations/",
            $file
        ))
    };
}

pub fn all() -> Vec<Migration> {
    vec![
        Migration {
            version: Version::new(0, 91),
            description: "v0.36 baseline schema and subscription catalog",
            sql: sql!("v0.91_baseline.sql"),
            step: Some((
                "seed catalog services v1",
                steps::catalog_seed::seed_services,
            )),
            after_sql: "",
            rollback: None,
        },
        Migration {
            version: Version::new(0, 92),
            description: "WebAuthn security keys",
            sql: sql!("v0.92_webauthn.sql"),
            step: None,
            after_sql: "",
            rollback: None,
        },
        Migration {
            version: Version::new(0, 93),
            description: "monthly interest columns; stable transaction ids without duplicates",
            sql: sql!("v0.93_interest_and_stable_transaction_ids.sql"),
            step: Some((
                "stable provider transaction ids v1",
                steps::stable_transaction_ids::rewrite,
            )),
            after_sql: sql!("v0.93_interest_and_stable_transaction_ids.after.sql"),
            rollback: None,
        },
        Migration {
            version: Version::new(0, 94),
            description: "sessions keyed by SHA-256 of the token; geolocation opt-in",
            sql: sql!("v0.94_hashed_sessions.sql"),
            step: None,
            after_sql: "",
            rollback: None,
        },
        Migration {
            version: Version::new(0, 95),
            description: "catalog details and 1,501 bank descriptors and slang terms",
            sql: sql!("v0.95_catalog_descriptors.sql"),
            step: Some((
                "seed catalog descriptors v1",
                steps::catalog_seed::seed_descriptors,
            )),
            after_sql: "",
            rollback: None,
        },
        Migration {
            version: Version::new(0, 96),
            description: "bills linked to the catalog; per-user bank descriptors",
            sql: sql!("v0.96_bill_catalog_links.sql"),
            step: Some((
                "backfill bill catalog links v1",
                steps::bill_catalog_backfill::backfill,
            )),
            after_sql: "",
            rollback: None,
        },
        Migration {
            version: Version::new(0, 97),
            description: "subscription recommendation feedback",
            sql: sql!("v0.97_recommendation_feedback.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v0.97_recommendation_feedback.down.sql")),
        },
        Migration {
            version: Version::new(0, 99),
            description: "autopay verification, inactivation reasons, autopay failures",
            sql: sql!("v0.99_autopay_and_inactivation.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v0.99_autopay_and_inactivation.down.sql")),
        },
        Migration {
            version: Version::new(1, 0),
            description: "personal API tokens",
            sql: sql!("v1.00_api_tokens.sql"),
            step: None,
            after_sql: "",
            rollback: Some("DROP TABLE api_tokens;"),
        },
        Migration {
            version: Version::new(1, 1),
            description: "TOTP replay guard and pending sign-ins",
            sql: sql!("v1.01_totp_sign_in.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.01_totp_sign_in.down.sql")),
        },
        Migration {
            version: Version::new(1, 2),
            description: "invitation links",
            sql: sql!("v1.02_invitations.sql"),
            step: None,
            after_sql: "",
            rollback: Some("DROP TABLE invitations;"),
        },
        Migration {
            version: Version::new(1, 3),
            description: "payment kinds: payments and interest charges",
            sql: sql!("v1.03_payment_kinds.sql"),
            step: None,
            after_sql: "",
            rollback: Some("ALTER TABLE payments DROP COLUMN kind;"),
        },
        Migration {
            version: Version::new(1, 4),
            description: "second factors offered per sign-in; API token expiry",
            sql: sql!("v1.04_second_factor_offers_and_token_expiry.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.04_second_factor_offers_and_token_expiry.down.sql")),
        },
        Migration {
            version: Version::new(1, 5),
            description: "bank sync: monitored accounts, pending and ignored transactions",
            sql: sql!("v1.05_bank_sync.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.05_bank_sync.down.sql")),
        },
        Migration {
            version: Version::new(1, 6),
            description: "bank matching: how a transaction was matched; merchant rules",
            sql: sql!("v1.06_bank_matching.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.06_bank_matching.down.sql")),
        },
        Migration {
            version: Version::new(1, 7),
            description: "bank returns: the payment a returned debit gave back",
            sql: sql!("v1.07_bank_returns.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.07_bank_returns.down.sql")),
        },
        Migration {
            version: Version::new(1, 8),
            description: "recommendation feedback: a decline's amount, currency and reason",
            sql: sql!("v1.08_recommendation_feedback_detail.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.08_recommendation_feedback_detail.down.sql")),
        },
        Migration {
            version: Version::new(1, 9),
            description: "migration failures: failed attempts kept for Admin Status",
            sql: sql!("v1.09_migration_failures.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.09_migration_failures.down.sql")),
        },
        Migration {
            version: Version::new(1, 10),
            description: "token scopes: what each personal API token may do",
            sql: sql!("v1.10_token_scopes.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.10_token_scopes.down.sql")),
        },
        Migration {
            version: Version::new(1, 11),
            description:
                "notifications: channels, preferences, the delivery log, calendar feeds, runs",
            sql: sql!("v1.11_notifications.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.11_notifications.down.sql")),
        },
        Migration {
            version: Version::new(1, 12),
            description: "per-month overrides of a bill's occurrences: amount, skip, snooze, note",
            sql: sql!("v1.12_bill_months.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.12_bill_months.down.sql")),
        },
        Migration {
            version: Version::new(1, 13),
            description: "price drift dismissals",
            sql: sql!("v1.13_drift_dismissals.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.13_drift_dismissals.down.sql")),
        },
        Migration {
            version: Version::new(1, 14),
            description: "the plans of catalog services and their prices",
            sql: sql!("v1.14_catalog_tiers.sql"),
            step: Some(("seed catalog tiers v1", steps::catalog_seed::seed_tiers)),
            after_sql: "",
            rollback: Some(sql!("v1.14_catalog_tiers.down.sql")),
        },
        Migration {
            version: Version::new(1, 15),
            description: "single sign-on identities; the sign-in history's method",
            sql: sql!("v1.15_single_sign_on.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.15_single_sign_on.down.sql")),
        },
        Migration {
            version: Version::new(1, 16),
            description: "Admin → Authentication: single sign-on and local sign-in settings",
            sql: sql!("v1.16_authentication_settings.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.16_authentication_settings.down.sql")),
        },
        Migration {
            version: Version::new(1, 17),
            description: "statement file imports waiting as previews",
            sql: sql!("v1.17_statement_imports.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.17_statement_imports.down.sql")),
        },
        Migration {
            version: Version::new(1, 18),
            description: "Firefly III and Actual CSV exports as statement imports",
            sql: sql!("v1.18_statement_formats.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.18_statement_formats.down.sql")),
        },
        Migration {
            version: Version::new(1, 19),
            description: "the list of sign-in and mail settings changes",
            sql: sql!("v1.19_settings_changes.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.19_settings_changes.down.sql")),
        },
        Migration {
            version: Version::new(1, 20),
            description: "the sign-in history's method may be a security key",
            sql: sql!("v1.20_sign_in_methods.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.20_sign_in_methods.down.sql")),
        },
        Migration {
            version: Version::new(1, 21),
            description: "the id ranges of a personal import being copied",
            sql: sql!("v1.21_personal_import_ranges.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.21_personal_import_ranges.down.sql")),
        },
        Migration {
            version: Version::new(1, 22),
            description: "a payment may say which due date it pays",
            sql: sql!("v1.22_payment_occurrence.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.22_payment_occurrence.down.sql")),
        },
        Migration {
            version: Version::new(1, 23),
            description: "the calendar feed's address stays viewable to its owner",
            sql: sql!("v1.23_calendar_feed_address.sql"),
            step: None,
            after_sql: "",
            rollback: Some(sql!("v1.23_calendar_feed_address.down.sql")),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::all;

    #[test]
    fn versions_are_strictly_increasing_and_checksums_distinct() {
        let migrations = all();
        for pair in migrations.windows(2) {
            assert!(pair[0].version < pair[1].version);
        }
        let mut sums: Vec<String> = migrations.iter().map(|m| m.checksum()).collect();
        sums.sort();
        sums.dedup();
        assert_eq!(sums.len(), migrations.len());
    }

    #[test]
    fn the_v037_release_is_exactly_the_listed_versions() {
        let versions: Vec<String> = all().iter().map(|m| m.version.to_string()).collect();
        assert_eq!(
            versions[..8],
            ["v0.91", "v0.92", "v0.93", "v0.94", "v0.95", "v0.96", "v0.97", "v0.99"]
        );
        assert!(
            versions[8..].iter().all(|v| v.as_str() >= "v1.00"),
            "later work starts at v1.00"
        );
        let with_rollback: Vec<String> = all()
            .iter()
            .filter(|m| m.rollback.is_some())
            .map(|m| m.version.to_string())
            .collect();
        assert_eq!(with_rollback[..2], ["v0.97", "v0.99"]);
    }
}
