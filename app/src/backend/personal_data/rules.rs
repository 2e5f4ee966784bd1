//! What a personal export holds, column by column, and the SQL that copies
//! it out of the live database and back into an account (pure).
//!
//! Every column of every exported table is declared here, so a migration
//! that adds one fails the tests until someone decides whether it leaves
//! Tally (`store`'s tests compare these lists with the schema). The SQL is
//! built from these static names only: the one place where a column list
//! has to be dynamic.

/// SQLite's `application_id` of a personal export ("TALY"): a whole Tally
/// database has 0, any other file something else.
pub const APPLICATION_ID: i32 = 0x5441_4C59;

/// The largest export `POST /api/data/import.sqlite` reads.
pub const MAX_BYTES: usize = 64 * 1024 * 1024;

/// Rows the import copies a transaction (`batch_sql`): a few tens of
/// milliseconds of the write lock each.
pub const BATCH_ROWS: i64 = 5_000;

/// How long the import waits after a batch that held the write lock for
/// `held`: as long again, at least 20 ms and at most 200 ms. A writer kept
/// waiting retries every few milliseconds at first and every 100 ms at
/// most (SQLite's busy handler), so each pause lets the waiting ones in,
/// and the import takes about twice as long as one transaction would.
pub fn pause_after(held: std::time::Duration) -> std::time::Duration {
    held.clamp(
        std::time::Duration::from_millis(20),
        std::time::Duration::from_millis(200),
    )
}

/// How a column travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// As it is.
    AsIs,
    /// The row's own id: kept in the export, moved past the account's own
    /// ids on import.
    Key,
    /// The owner: the exporting user, and on import the signed-in one.
    Owner,
    /// An id of a row of another exported table, moved as that table's.
    Ref(&'static str),
    /// A service of the subscription catalog, matched by its slug (ids
    /// differ between installations); a service this Tally does not know
    /// is left out.
    Catalog,
    /// Never leaves Tally: this SQL literal instead, both ways.
    Withheld(&'static str),
    /// A bank connection's sealed access secret: withheld from the export;
    /// on import a sealed marker that opens no bank (the connection stays
    /// disconnected until it is connected again).
    BankSecret,
}

/// What an imported row does when the account already has its like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnImport {
    /// Always a new row (new ids never collide).
    Add,
    /// The file's row replaces the account's (a preference).
    Replace,
    /// The account's row stays.
    KeepExisting,
}

/// One exported table.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Column)],
    pub on_import: OnImport,
}

impl Table {
    /// Whether rows are moved to new ids on import.
    pub fn has_key(&self) -> bool {
        self.columns
            .iter()
            .any(|(_, column)| *column == Column::Key)
    }
}

use Column::{AsIs, BankSecret, Catalog, Key, Owner, Ref, Withheld};

/// The account itself: exported for its preferences, never imported as a
/// row (an import goes into the signed-in account). No credential leaves.
pub const USER: Table = Table {
    name: "users",
    columns: &[
        ("id", Key),
        ("email", AsIs),
        ("name", AsIs),
        ("password_hash", Withheld("NULL")),
        ("role", Withheld("'user'")),
        ("disabled_at", Withheld("NULL")),
        ("totp_secret", Withheld("NULL")),
        ("totp_enabled", Withheld("0")),
        ("totp_last_step", Withheld("NULL")),
        ("webauthn_enabled", Withheld("0")),
        ("webauthn_user_id", Withheld("NULL")),
        ("locale", AsIs),
        ("currency", AsIs),
        ("time_zone", AsIs),
        ("created_at", AsIs),
        ("updated_at", AsIs),
    ],
    on_import: OnImport::KeepExisting,
};

/// The account's preferences an import takes from the file.
pub const USER_PREFERENCES: &[&str] = &["locale", "currency", "time_zone"];

/// Everything else that is the person's, in an order that keeps foreign
/// keys pointing backwards where they can (the two that cannot,
/// payments ↔ transactions, are checked at commit).
pub const TABLES: &[Table] = &[
    Table {
        name: "settings",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("key", AsIs),
            ("value", AsIs),
            ("updated_at", AsIs),
        ],
        on_import: OnImport::Replace,
    },
    Table {
        name: "notification_preferences",
        columns: &[
            ("user_id", Owner),
            ("lead_days", AsIs),
            ("digest", AsIs),
            ("include_verified_autopay", AsIs),
            ("overdue_repeat_days", AsIs),
            ("started_on", AsIs),
        ],
        on_import: OnImport::Replace,
    },
    Table {
        name: "bills",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("name", AsIs),
            ("amount_cents", AsIs),
            ("currency", AsIs),
            ("cadence", AsIs),
            ("cadence_interval", AsIs),
            ("due_day", AsIs),
            ("anchor_date", AsIs),
            ("category", AsIs),
            ("notes", AsIs),
            ("is_debt", AsIs),
            ("balance_cents", AsIs),
            ("apr_basis_points", AsIs),
            ("minimum_payment_cents", AsIs),
            ("autopay", AsIs),
            ("is_subscription", AsIs),
            ("sort_order", AsIs),
            ("active", AsIs),
            ("created_at", AsIs),
            ("updated_at", AsIs),
            ("interest_accrued_month", AsIs),
            ("catalog_id", Catalog),
            ("autopay_verified_at", AsIs),
            ("inactive_reason", AsIs),
            ("inactivated_at", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "bill_months",
        columns: &[
            ("id", Key),
            ("bill_id", Ref("bills")),
            ("user_id", Owner),
            ("occurrence", AsIs),
            ("amount_cents", AsIs),
            ("skipped", AsIs),
            ("snoozed_to", AsIs),
            ("note", AsIs),
            ("updated_at", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "drift_dismissals",
        columns: &[
            ("bill_id", Ref("bills")),
            ("user_id", Owner),
            ("median_cents", AsIs),
            ("until", AsIs),
            ("created_at", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "merchant_rules",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("bill_id", Ref("bills")),
            ("merchant", AsIs),
            ("created_at", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "user_catalog_descriptors",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("catalog_id", Catalog),
            ("descriptor", AsIs),
            ("normalized", AsIs),
            ("created_at", AsIs),
        ],
        on_import: OnImport::KeepExisting,
    },
    Table {
        name: "subscription_recommendation_feedback",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("catalog_id", Catalog),
            ("bill_id", Ref("bills")),
            ("merchant_key", AsIs),
            ("action", AsIs),
            ("created_at", AsIs),
            ("amount_cents", AsIs),
            ("currency", AsIs),
            ("reason", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "bank_connections",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("provider", AsIs),
            ("institution", AsIs),
            ("access_secret", BankSecret),
            ("status", Withheld("'disconnected'")),
            ("last_synced_at", AsIs),
            ("last_error", Withheld("NULL")),
            ("created_at", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "bank_accounts",
        columns: &[
            ("id", Key),
            ("connection_id", Ref("bank_connections")),
            ("user_id", Owner),
            ("provider_account_id", AsIs),
            ("name", AsIs),
            ("currency", AsIs),
            ("balance_cents", AsIs),
            ("balance_date", AsIs),
            ("monitored", AsIs),
            ("available_cents", AsIs),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "transactions",
        columns: &[
            ("id", Key),
            ("user_id", Owner),
            ("account_id", Ref("bank_accounts")),
            ("provider_transaction_id", AsIs),
            ("posted_at", AsIs),
            ("amount_cents", AsIs),
            ("description", AsIs),
            ("payee", AsIs),
            ("memo", AsIs),
            ("bill_id", Ref("bills")),
            ("user_edited_at", AsIs),
            ("created_at", AsIs),
            ("pending", AsIs),
            ("provider_id", AsIs),
            ("transacted_at", AsIs),
            ("ignored_at", AsIs),
            ("matched_by", AsIs),
            ("matched_at", AsIs),
            ("unmatched_at", AsIs),
            ("returns_payment_id", Ref("payments")),
        ],
        on_import: OnImport::Add,
    },
    Table {
        name: "payments",
        columns: &[
            ("id", Key),
            ("bill_id", Ref("bills")),
            ("user_id", Owner),
            ("amount_cents", AsIs),
            ("paid_on", AsIs),
            ("method", AsIs),
            ("transaction_id", Ref("transactions")),
            ("created_at", AsIs),
            ("interest_delta", AsIs),
            ("autopay_failure", AsIs),
            ("kind", AsIs),
            ("for_occurrence", AsIs),
        ],
        on_import: OnImport::Add,
    },
];

/// Tables with a person's rows that stay behind, and why.
pub const LEFT_OUT: &[(&str, &str)] = &[
    ("sessions", "sign-ins of this server"),
    ("pending_sign_ins", "sign-ins of this server"),
    ("login_history", "the security history of this server"),
    ("api_tokens", "credentials"),
    ("recovery_codes", "credentials"),
    (
        "webauthn_credentials",
        "credentials of this server's address",
    ),
    (
        "webauthn_challenges",
        "credentials of this server's address",
    ),
    ("oidc_identities", "links to this server's sign-in provider"),
    (
        "push_subscriptions",
        "tied to one browser and this server's keys",
    ),
    (
        "notification_channels",
        "their tokens are sealed with this server's key",
    ),
    ("notification_deliveries", "a log of messages sent"),
    ("calendar_feeds", "private addresses of this server"),
    ("statement_imports", "unfinished uploads"),
    (
        "personal_import_ranges",
        "an import of this server half done",
    ),
];

/// The subscription catalog's id for `row.{column}` in `to`, matched by
/// slug from `from`.
fn catalog(column: &str, from: &str, to: &str) -> String {
    format!(
        "(SELECT t.id FROM {to}.subscription_catalog AS t \
         JOIN {from}.subscription_catalog AS f ON f.slug = t.slug \
         WHERE f.id = row.{column})"
    )
}

fn shifted(column: &str, table: &str) -> String {
    shifted_value(&format!("row.{column}"), table)
}

fn shifted_value(value: &str, table: &str) -> String {
    format!("{value} + (SELECT shift FROM temp.id_shift WHERE name = '{table}')")
}

fn names(table: &Table) -> String {
    table
        .columns
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rows whose required catalog service is unknown where they go are left
/// out (`user_catalog_descriptors` needs one).
fn catalog_condition(table: &Table, from: &str, to: &str) -> String {
    if table.name != "user_catalog_descriptors" {
        return String::new();
    }
    table
        .columns
        .iter()
        .filter(|(_, column)| *column == Catalog)
        .map(|(name, _)| format!(" AND {} IS NOT NULL", catalog(name, from, to)))
        .collect()
}

/// Copies the person's rows of `table` from the live database (`main`)
/// into the attached export (`export`); `?1` is the person's id.
pub fn export_sql(table: &Table) -> String {
    let values = table
        .columns
        .iter()
        .map(|(name, column)| match column {
            AsIs | Key | Owner | Ref(_) => format!("row.{name}"),
            Catalog => catalog(name, "main", "export"),
            Withheld(literal) => (*literal).to_owned(),
            BankSecret => "''".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let owner = if table.name == USER.name {
        "id"
    } else {
        "user_id"
    };
    format!(
        "INSERT INTO export.{name} ({columns}) SELECT {values} FROM main.{name} AS row \
         WHERE row.{owner} = ?1{condition}",
        name = table.name,
        columns = names(table),
        condition = catalog_condition(table, "main", "export"),
    )
}

/// The file's rows of the person it holds (`row` is the file's table).
const FILE_OWNER: &str = "row.user_id = (SELECT id FROM import.users)";

/// Where `name` comes in [`TABLES`].
fn position(name: &str) -> usize {
    TABLES
        .iter()
        .position(|table| table.name == name)
        .unwrap_or(usize::MAX)
}

/// Whether the import copies `table` in batches of its own transactions
/// (`batch_sql`): rows that are always added, with ids of their own. The
/// rest (preferences, kept rows, dismissals: a few rows each) go in the
/// import's last transaction (`import_sql`).
pub fn batched(table: &Table) -> bool {
    table.on_import == OnImport::Add && table.has_key()
}

/// The references from a batched table to one copied after it (a
/// transaction's `returns_payment_id`): its batches leave them empty, and
/// `link_sql` fills them once the other table is in.
pub fn links() -> impl Iterator<Item = (&'static Table, &'static str, &'static str)> {
    references().filter(|(table, _, other)| position(other) > position(table.name))
}

/// Copies the rows of `table` from the attached export (`import`) into the
/// live database (`main`) for the person `?1`, with new ids
/// (`temp.id_shift`) and `?2` as a bank connection's sealed secret.
pub fn import_sql(table: &Table) -> String {
    insert_sql(table, "")
}

/// [`import_sql`] for one batch of a batched table: the file's rows with
/// an id of at most `?3` and more than `?4`, references to a table copied
/// later left empty (`links`).
pub fn batch_sql(table: &Table) -> String {
    insert_sql(table, " AND row.id <= ?3 AND row.id > ?4")
}

fn insert_sql(table: &Table, batch: &str) -> String {
    let values = table
        .columns
        .iter()
        .map(|(name, column)| match column {
            AsIs => format!("row.{name}"),
            Key => shifted(name, table.name),
            Ref(other) if !batch.is_empty() && position(other) > position(table.name) => {
                "NULL".to_owned()
            }
            Ref(other) => shifted(name, other),
            Owner => "?1".to_owned(),
            Catalog => catalog(name, "import", "main"),
            Withheld(literal) => (*literal).to_owned(),
            BankSecret => "?2".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let verb = match table.on_import {
        OnImport::Add => "INSERT",
        OnImport::Replace => "INSERT OR REPLACE",
        OnImport::KeepExisting => "INSERT OR IGNORE",
    };
    format!(
        "{verb} INTO main.{name} ({columns}) SELECT {values} FROM import.{name} AS row \
         WHERE {FILE_OWNER}{condition}{batch}",
        name = table.name,
        columns = names(table),
        condition = catalog_condition(table, "import", "main"),
    )
}

/// The highest id of the file's rows of `table` (NULL when it has none):
/// where its first batch starts.
pub fn top_id_sql(table: &Table) -> String {
    format!(
        "SELECT MAX(row.id) FROM import.{name} AS row WHERE {FILE_OWNER}",
        name = table.name
    )
}

/// The id below the next batch of `table` (the file's rows of ids up to
/// `?1`, from the top, `?2` of them): the id of the row after the last one
/// in it, or none when the batch takes every row left. With `column`,
/// only rows whose `column` is set count (`link_sql`'s batches).
pub fn batch_floor_sql(table: &Table, column: Option<&str>) -> String {
    let set = column.map_or_else(String::new, |column| {
        format!(" AND row.{column} IS NOT NULL")
    });
    format!(
        "SELECT row.id FROM import.{name} AS row WHERE {FILE_OWNER}{set} AND row.id <= ?1 \
         ORDER BY row.id DESC LIMIT 1 OFFSET ?2",
        name = table.name
    )
}

/// Records, in the batch that takes them, the ids `table`'s rows take:
/// `?1` is the import, `?2` the person.
pub fn range_sql(table: &Table) -> String {
    format!(
        "INSERT INTO main.personal_import_ranges (import, user_id, table_name, first_id, last_id) \
         SELECT ?1, ?2, '{name}', {first}, {last} FROM import.{name} AS row WHERE {FILE_OWNER}",
        name = table.name,
        first = shifted_value("MIN(row.id)", table.name),
        last = shifted_value("MAX(row.id)", table.name),
    )
}

/// Fills `column` of the rows of `table` copied with it left empty
/// (`links`), for the file's rows of ids up to `?1` and above `?2`.
pub fn link_sql(table: &Table, column: &str, other: &str) -> String {
    format!(
        "UPDATE main.{name} AS live SET {column} = {value} FROM import.{name} AS row \
         WHERE live.id = {key} AND {FILE_OWNER} AND row.{column} IS NOT NULL \
         AND row.id <= ?1 AND row.id > ?2",
        name = table.name,
        value = shifted(column, other),
        key = shifted("id", table.name),
    )
}

/// Deletes up to `?4` rows of `table` of the person `?1` with ids from `?2`
/// to `?3`: what an import that did not finish added (ranges are the
/// import's alone, so the person's rows from before or after it are never
/// in one).
pub fn staged_delete_sql(table: &str) -> String {
    format!(
        "DELETE FROM main.{table} WHERE id IN (SELECT id FROM main.{table} \
         WHERE user_id = ?1 AND id BETWEEN ?2 AND ?3 LIMIT ?4)"
    )
}

/// Fills `temp.id_shift` for `table`: its imported ids start right after
/// the highest id the live table has.
pub fn shift_sql(table: &Table) -> String {
    format!(
        "INSERT INTO temp.id_shift (name, shift) SELECT '{name}', \
         COALESCE((SELECT MAX(id) FROM main.{name}), 0) + 1 \
         - COALESCE((SELECT MIN(id) FROM import.{name}), 1)",
        name = table.name,
    )
}

/// How many of the file's rows of `table` have an id no Tally wrote
/// (not a whole number from 1 to 10¹²): a file with any is refused, so no
/// moved id can overflow.
pub fn odd_ids_sql(table: &Table) -> String {
    format!(
        "SELECT COUNT(*) FROM import.{name} \
         WHERE typeof(id) <> 'integer' OR id < 1 OR id > 1000000000000",
        name = table.name,
    )
}

/// How many of the file's rows of `table` that would be imported point
/// through `column` at something that is not one of the file's own rows of
/// `other` that would be imported too: a value of another type, or an id
/// the file does not hold (after the shift it could be anybody's row).
/// A file with any is refused.
pub fn stray_references_sql(table: &Table, column: &str, other: &str) -> String {
    format!(
        "SELECT COUNT(*) FROM import.{name} AS row \
         WHERE row.user_id = (SELECT id FROM import.users) \
         AND row.{column} IS NOT NULL \
         AND (typeof(row.{column}) <> 'integer' OR row.{column} NOT IN \
         (SELECT id FROM import.{other} WHERE user_id = (SELECT id FROM import.users)))",
        name = table.name,
    )
}

/// Every reference of every exported table, with the table it points at.
pub fn references() -> impl Iterator<Item = (&'static Table, &'static str, &'static str)> {
    TABLES.iter().flat_map(|table| {
        table
            .columns
            .iter()
            .filter_map(move |(name, column)| match column {
                Ref(other) => Some((table, *name, *other)),
                _ => None,
            })
    })
}

/// Why a file is not a personal export, from its first 100 bytes (the
/// SQLite header), or `None` when it is one.
pub fn header_refusal(header: &[u8]) -> Option<&'static str> {
    const MAGIC: &[u8] = b"SQLite format 3\0";
    if header.len() < 100 || !header.starts_with(MAGIC) {
        return Some(
            "the file is not a SQLite database; choose the file \"Download my data\" made",
        );
    }
    let id = i32::from_be_bytes([header[68], header[69], header[70], header[71]]);
    match id {
        APPLICATION_ID => None,
        0 => Some(
            "the file is a whole database, not one person's export; an administrator restores those in Admin → Backups",
        ),
        _ => Some("the file is a SQLite database of another application, not a Tally export"),
    }
}

/// The file's locale, currency and time zone, each only where this Tally
/// would accept it (otherwise the account keeps its own).
pub fn usable_preferences(
    locale: String,
    currency: String,
    time_zone: String,
) -> (Option<String>, Option<String>, Option<String>) {
    use crate::domain::money::{Currency, LOCALES};
    let locale = LOCALES
        .iter()
        .any(|(tag, _)| *tag == locale)
        .then_some(locale);
    let currency = Currency::parse(&currency).is_ok().then_some(currency);
    let time_zone = crate::backend::bills::known_time_zone(&time_zone).then_some(time_zone);
    (locale, currency, time_zone)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(id: i32) -> Vec<u8> {
        let mut bytes = b"SQLite format 3\0".to_vec();
        bytes.resize(100, 0);
        bytes[68..72].copy_from_slice(&id.to_be_bytes());
        bytes
    }

    #[test]
    fn only_a_database_marked_as_an_export_is_one() {
        assert_eq!(header_refusal(&header(APPLICATION_ID)), None);
        assert!(header_refusal(&header(0)).is_some_and(|why| why.contains("Backups")));
        assert!(header_refusal(&header(7)).is_some_and(|why| why.contains("another")));
        assert!(
            header_refusal(b"id,name\n1,Rent\n").is_some_and(|why| why.contains("not a SQLite"))
        );
        assert!(header_refusal(&header(APPLICATION_ID)[..99]).is_some());
    }

    #[test]
    fn no_credential_or_secret_is_copied_out() {
        let export = export_sql(&USER);
        for secret in [
            "row.password_hash",
            "row.totp_secret",
            "row.webauthn_user_id",
            "row.role",
        ] {
            assert!(!export.contains(secret), "{secret} in {export}");
        }
        let connections = TABLES
            .iter()
            .find(|table| table.name == "bank_connections")
            .unwrap();
        let export = export_sql(connections);
        assert!(!export.contains("row.access_secret"), "{export}");
        assert!(export.contains("'disconnected'"), "{export}");
        let import = import_sql(connections);
        assert!(import.contains("?2"), "{import}");
        assert!(
            !import.contains("row.access_secret") && !import.contains("row.status"),
            "{import}"
        );
    }

    #[test]
    fn imported_ids_move_and_references_move_with_them() {
        let payments = TABLES
            .iter()
            .find(|table| table.name == "payments")
            .unwrap();
        let sql = import_sql(payments);
        assert!(
            sql.contains("row.id + (SELECT shift FROM temp.id_shift WHERE name = 'payments')"),
            "{sql}"
        );
        assert!(
            sql.contains("row.bill_id + (SELECT shift FROM temp.id_shift WHERE name = 'bills')"),
            "{sql}"
        );
        assert!(sql.contains("row.transaction_id + (SELECT shift FROM temp.id_shift WHERE name = 'transactions')"), "{sql}");
        assert!(sql.contains("?1"), "{sql}");
        assert!(
            !sql.contains("row.user_id,"),
            "the owner is the signed-in person: {sql}"
        );
    }

    #[test]
    fn every_reference_names_an_exported_table_with_ids() {
        for table in TABLES {
            for (name, column) in table.columns {
                if let Ref(other) = column {
                    let target = TABLES.iter().find(|candidate| candidate.name == *other);
                    assert!(
                        target.is_some_and(Table::has_key),
                        "{}.{name} points at {other}",
                        table.name
                    );
                }
            }
            assert!(
                table
                    .columns
                    .iter()
                    .filter(|(_, column)| *column == Owner)
                    .count()
                    == 1,
                "{} has one owner",
                table.name
            );
        }
    }

    #[test]
    fn a_reference_must_be_one_of_the_files_own_rows() {
        let payments = TABLES
            .iter()
            .find(|table| table.name == "payments")
            .unwrap();
        let sql = stray_references_sql(payments, "bill_id", "bills");
        assert!(sql.contains("FROM import.payments AS row"), "{sql}");
        assert!(sql.contains("NOT IN (SELECT id FROM import.bills WHERE user_id = (SELECT id FROM import.users))"), "{sql}");
        assert!(sql.contains("typeof(row.bill_id) <> 'integer'"), "{sql}");
        assert!(!sql.contains("main."), "only the file is read: {sql}");
        let all: Vec<_> = references()
            .map(|(table, column, other)| (table.name, column, other))
            .collect();
        assert!(
            all.contains(&("transactions", "returns_payment_id", "payments")),
            "{all:?}"
        );
        assert!(
            all.contains(&("bank_accounts", "connection_id", "bank_connections")),
            "{all:?}"
        );
        assert_eq!(all.len(), 10, "{all:?}");
    }

    #[test]
    fn preferences_this_tally_would_refuse_stay_the_accounts() {
        let kept = usable_preferences("de-DE".into(), "EUR".into(), "Europe/Berlin".into());
        assert_eq!(
            kept,
            (
                Some("de-DE".into()),
                Some("EUR".into()),
                Some("Europe/Berlin".into())
            )
        );
        let refused = usable_preferences("xx'; DROP".into(), "EURO".into(), "Mars/Olympus".into());
        assert_eq!(refused, (None, None, None));
    }

    #[test]
    fn a_known_descriptor_needs_a_known_service() {
        let descriptors = TABLES
            .iter()
            .find(|table| table.name == "user_catalog_descriptors")
            .unwrap();
        assert!(import_sql(descriptors).contains("IS NOT NULL"));
        assert!(import_sql(descriptors).starts_with("INSERT OR IGNORE"));
        let bills = TABLES.iter().find(|table| table.name == "bills").unwrap();
        assert!(!import_sql(bills).contains("IS NOT NULL"));
    }
}
