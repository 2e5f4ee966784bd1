//! `/api/bank/…`: connections to the bank provider, their accounts, and the
//! transactions they bring. Amounts are signed minor units with the
//! provider's sign (negative is money out); times are RFC 3339.

use serde::{Deserialize, Serialize};

use super::operations::Operation;

/// The setup token that connects the built-in demo bank (when offered).
pub const DEMO_SETUP_TOKEN: &str = "demo";

/// `POST /api/bank/connections` and `…/{id}/reconnect`: the setup token
/// (or setup URL) from the provider. It claims a one-time secret, so its
/// `Debug` never shows it.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectBank {
    pub setup_token: String,
}

impl std::fmt::Debug for ConnectBank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectBank")
            .field("setup_token", &"[redacted]")
            .finish()
    }
}

/// Where a connection stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum ConnectionStatus {
    Active,
    /// The last sync failed (`lastError` says why); the data is as before.
    Error,
    /// Disconnected: no more syncs; its history is kept.
    Disconnected,
}

impl ConnectionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Error => "error",
            Self::Disconnected => "disconnected",
        }
    }

    pub fn parse(text: &str) -> Self {
        match text {
            "error" => Self::Error,
            "disconnected" => Self::Disconnected,
            _ => Self::Active,
        }
    }
}

/// A connection with its accounts. The access secret never leaves the
/// server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BankConnection {
    pub id: i64,
    /// The bank's name as the provider gives it (or the provider's host).
    pub institution: String,
    pub status: ConnectionStatus,
    pub last_synced_at: Option<String>,
    /// The last sync's failure, in plain words.
    pub last_error: Option<String>,
    pub created_at: String,
    pub accounts: Vec<BankAccount>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BankAccount {
    pub id: i64,
    pub connection_id: i64,
    pub name: String,
    pub currency: String,
    /// The balance the provider last reported, and when.
    pub balance_minor: Option<i64>,
    pub available_minor: Option<i64>,
    pub balance_date: Option<String>,
    /// The sum of its pending transactions.
    pub pending_minor: i64,
    /// Whether syncs and matching use it.
    pub monitored: bool,
}

/// `GET /api/bank/connections`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BankConnections {
    pub connections: Vec<BankConnection>,
    /// The windows the UI states: the seed/backfill window and the
    /// provider's lookback cap, in days.
    pub seed_days: i64,
    pub lookback_cap_days: i64,
    /// Whether the built-in demo bank can be connected (`setupToken`
    /// `"demo"`).
    pub demo_bank: bool,
}

/// The answer to connecting (201) or reconnecting: the connection, its
/// accounts, and the seed sync that has started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Connected {
    pub connection: BankConnection,
    pub operation: Operation,
}

/// `PATCH /api/bank/accounts/{id}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetMonitored {
    pub monitored: bool,
}

/// One transaction as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct BankTransaction {
    pub id: i64,
    pub account_id: i64,
    /// When it posted (RFC 3339); for a pending one, when it was made.
    pub posted_at: String,
    /// Signed, with the provider's sign: negative is money out.
    pub amount_minor: i64,
    pub currency: String,
    /// The provider's description, verbatim.
    pub description: String,
    /// The payee cleaned up (upper case, store and order numbers, a
    /// processor's prefix and a trailing city taken away): what merchant
    /// rules and suggestions go by.
    #[cfg_attr(feature = "ssr", sqlx(skip))]
    #[serde(default)]
    pub name: String,
    pub payee: Option<String>,
    pub memo: Option<String>,
    pub pending: bool,
    /// The bill it is matched to.
    pub bill_id: Option<i64>,
    /// `auto` (by a merchant rule) or `manual`, once matched; `return`
    /// for a returned debit linked to the payment it failed.
    pub matched_by: Option<String>,
    pub ignored: bool,
}

/// `GET /api/bank/transactions`: a page, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TransactionPage {
    pub transactions: Vec<BankTransaction>,
    /// Pass as `pageToken` for the next page; empty on the last.
    pub next_page_token: String,
}

/// The filters of `GET /api/bank/transactions`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransactionQuery {
    /// Only this account's.
    pub account_id: Option<i64>,
    /// Only pending (`true`) or only posted (`false`); both when absent.
    pub pending: Option<bool>,
    /// Only matched (`true`) or only unmatched (`false`).
    pub matched: Option<bool>,
    /// Words to find in the description, payee or memo.
    pub q: Option<String>,
    /// At most 200; 50 when absent.
    pub page_size: Option<u32>,
    pub page_token: Option<String>,
}

/// `GET /api/admin/bank-sync`: what an administrator sees of bank sync.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BankSyncStatus {
    pub enabled: bool,
    /// How often the automatic sync runs.
    pub interval_hours: u32,
    pub seed_days: i64,
    pub lookback_cap_days: i64,
    pub worker: WorkerState,
    /// Which key protects the stored bank access: `TOKEN_ENCRYPTION_KEY`
    /// or `database key`.
    pub key_source: String,
    /// Every connection of every user, with its last result.
    pub connections: Vec<ConnectionHealth>,
}

/// The automatic sync's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkerState {
    pub running: bool,
    pub last_run_at: Option<String>,
    pub next_run_at: Option<String>,
    /// Connections synced and failed in the last run.
    pub last_synced: u32,
    pub last_failed: u32,
    /// Failing connections the last run left alone (backed off after
    /// failures in a row).
    #[serde(default)]
    pub last_backed_off: u32,
    /// Connections the last run left for the next one: their owner's
    /// share of the run was used up.
    #[serde(default)]
    pub last_deferred: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct ConnectionHealth {
    pub id: i64,
    pub owner_email: String,
    pub institution: String,
    pub status: String,
    pub last_synced_at: Option<String>,
    pub last_error: Option<String>,
}

/// `PUT /api/admin/bank-sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateBankSync {
    pub enabled: bool,
    /// 1 to 168 hours.
    pub interval_hours: u32,
}

/// `POST /api/bank/transactions/{id}/match`: the bill a transaction paid;
/// `remember` teaches a merchant rule, so the next one matches itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchTransaction {
    pub bill_id: i64,
    #[serde(default)]
    pub remember: bool,
}

/// The filter of `GET /api/bank/suggestions`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuggestionQuery {
    /// Only this transaction's suggestions; else the recent unmatched
    /// debits' (at most 50).
    pub transaction_id: Option<i64>,
}

/// A bill a transaction may have paid, with why; never applied without
/// the user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub bill_id: i64,
    pub bill_name: String,
    /// Out of 100: amount, days from a due date, name, past matches.
    pub score: u32,
    pub reasons: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TransactionSuggestions {
    pub transaction: BankTransaction,
    /// Best first, at most three.
    pub bills: Vec<Suggestion>,
}

/// `GET /api/bank/suggestions`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suggestions {
    pub suggestions: Vec<TransactionSuggestions>,
}

/// A payment automatic matching recorded, open to review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AutoMatch {
    pub transaction: BankTransaction,
    pub bill_name: String,
    pub matched_at: String,
}

/// `GET /api/bank/auto-matches`: the automatic matches of the last seven
/// days, newest first; `…/transactions/{id}/unmatch` undoes one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AutoMatches {
    pub matches: Vec<AutoMatch>,
    pub review_days: u32,
}
