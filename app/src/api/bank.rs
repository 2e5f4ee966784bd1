//! Data → Bank Sync's server functions, over the same services as
//! `/api/bank/…`: the connections and transactions (GET, rendered with the
//! page), and connecting, syncing, switching accounts, disconnecting and
//! matching: forms that post without JavaScript too (through
//! [`CsrfClient`] with it), each sync answered with its operation.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::bank::{
    AutoMatches, BankAccount, BankConnections, BankSyncStatus, BankTransaction, ConnectBank,
    Connected, MatchTransaction, Suggestions, TransactionPage, TransactionQuery,
};
use crate::contract::error::ErrorBody;
use crate::contract::operations::Operation;

/// The user's connections with their accounts.
#[server(prefix = "/api/fn", endpoint = "bank/connections", input = GetUrl)]
pub async fn get_bank_connections() -> Result<BankConnections, ErrorBody> {
    let me = super::signed_in::as_declared::<GetBankConnections>().await?;
    Ok(crate::backend::bank::service::overview(&me.services.bank, me.current.user.id).await?)
}

/// Connects a bank with a setup token (or the demo bank); the seed sync
/// starts.
#[server(prefix = "/api/fn", endpoint = "bank/connect", client = CsrfClient)]
pub async fn add_bank_connection(request: ConnectBank) -> Result<Connected, ErrorBody> {
    let me = super::signed_in::as_declared::<AddBankConnection>().await?;
    Ok(
        crate::backend::bank::service::connect(
            &me.services.bank,
            me.current.user.id,
            request,
            None,
        )
        .await?,
    )
}

/// A new setup token for a connection.
#[server(prefix = "/api/fn", endpoint = "bank/reconnect", client = CsrfClient)]
pub async fn reconnect_bank(id: i64, request: ConnectBank) -> Result<Connected, ErrorBody> {
    let me = super::signed_in::as_declared::<ReconnectBank>().await?;
    Ok(crate::backend::bank::service::connect(
        &me.services.bank,
        me.current.user.id,
        request,
        Some(id),
    )
    .await?)
}

/// Stops syncing a connection; its history stays.
#[server(prefix = "/api/fn", endpoint = "bank/disconnect", client = CsrfClient)]
pub async fn disconnect_bank(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<DisconnectBank>().await?;
    Ok(
        crate::backend::bank::service::disconnect(&me.services.bank, me.current.user.id, id)
            .await?,
    )
}

/// Switches an account in or out of syncing: its form's checkbox as it
/// posts (`monitored` is present when ticked).
#[server(prefix = "/api/fn", endpoint = "bank/monitor", client = CsrfClient)]
pub async fn set_account_monitored(
    id: i64,
    monitored: Option<String>,
) -> Result<BankAccount, ErrorBody> {
    let me = super::signed_in::as_declared::<SetAccountMonitored>().await?;
    Ok(crate::backend::bank::service::set_monitored(
        &me.services.bank,
        me.current.user.id,
        id,
        monitored.is_some(),
    )
    .await?)
}

/// Syncs one connection now (the last 30 days), or backfills it (44).
#[server(prefix = "/api/fn", endpoint = "bank/sync", client = CsrfClient)]
pub async fn sync_bank(id: i64, backfill: bool) -> Result<Operation, ErrorBody> {
    use crate::domain::bank::sync_window::SyncReason;
    let me = super::signed_in::as_declared::<SyncBank>().await?;
    let reason = if backfill {
        SyncReason::Backfill
    } else {
        SyncReason::Routine
    };
    Ok(
        crate::backend::bank::service::sync_one(&me.services.bank, me.current.user.id, id, reason)
            .await?,
    )
}

/// A page of the user's transactions.
#[server(prefix = "/api/fn", endpoint = "bank/transactions", input = GetUrl)]
pub async fn get_bank_transactions(query: TransactionQuery) -> Result<TransactionPage, ErrorBody> {
    let me = super::signed_in::as_declared::<GetBankTransactions>().await?;
    crate::backend::bank::transactions::check(&query)?;
    Ok(crate::backend::bank::transactions::page(me.pool(), me.current.user.id, &query).await?)
}

/// Matches a transaction to a bill (the payment is recorded); `remember`
/// teaches the payee.
#[server(prefix = "/api/fn", endpoint = "bank/match", client = CsrfClient)]
pub async fn link_transaction_to_bill(
    id: i64,
    request: MatchTransaction,
) -> Result<BankTransaction, ErrorBody> {
    let me = super::signed_in::as_declared::<LinkTransactionToBill>().await?;
    Ok(
        crate::backend::bank::matching::match_by_hand(me.pool(), me.current.user.id, id, request)
            .await?,
    )
}

/// Undoes a match and the payment it recorded.
#[server(prefix = "/api/fn", endpoint = "bank/unmatch", client = CsrfClient)]
pub async fn unlink_transaction(id: i64) -> Result<BankTransaction, ErrorBody> {
    let me = super::signed_in::as_declared::<UnlinkTransaction>().await?;
    Ok(crate::backend::bank::matching::unmatch(me.pool(), me.current.user.id, id).await?)
}

/// Ignores a transaction (or stops): matching and suggestions leave it be.
#[server(prefix = "/api/fn", endpoint = "bank/ignore", client = CsrfClient)]
pub async fn ignore_transaction(id: i64, ignored: bool) -> Result<BankTransaction, ErrorBody> {
    let me = super::signed_in::as_declared::<IgnoreTransaction>().await?;
    Ok(
        crate::backend::bank::matching::set_ignored(me.pool(), me.current.user.id, id, ignored)
            .await?,
    )
}

/// Bills the recent unmatched debits (or one) may have paid. (A flat
/// argument: a query struct with every field empty does not survive the
/// URL.)
#[server(prefix = "/api/fn", endpoint = "bank/suggestions", input = GetUrl)]
pub async fn get_bank_suggestions(transaction_id: Option<i64>) -> Result<Suggestions, ErrorBody> {
    let me = super::signed_in::as_declared::<GetBankSuggestions>().await?;
    let query = crate::contract::bank::SuggestionQuery { transaction_id };
    Ok(
        crate::backend::bank::suggestions::suggestions(me.pool(), me.current.user.id, &query)
            .await?,
    )
}

/// The automatic matches of the last seven days.
#[server(prefix = "/api/fn", endpoint = "bank/auto-matches", input = GetUrl)]
pub async fn get_auto_matches() -> Result<AutoMatches, ErrorBody> {
    let me = super::signed_in::as_declared::<GetAutoMatches>().await?;
    Ok(crate::backend::bank::review::auto_matches(me.pool(), me.current.user.id).await?)
}

/// Admin → Bank Sync: the switch, interval, windows, worker, key source and
/// every connection's last result (administrators only).
#[server(prefix = "/api/fn", endpoint = "admin/bank-sync", input = GetUrl)]
pub async fn get_bank_sync_status() -> Result<BankSyncStatus, ErrorBody> {
    let me = super::signed_in::as_declared::<GetBankSyncStatus>().await?;
    Ok(crate::backend::bank::service::status(&me.services.bank).await?)
}

/// Turns bank sync on or off and sets the automatic sync's interval: Admin
/// → Bank Sync's form as it posts, with or without JavaScript (`enabled`
/// is the checkbox, present when ticked; `interval_hours` the text typed).
#[server(prefix = "/api/fn", endpoint = "admin/bank-sync/save", client = CsrfClient)]
pub async fn save_bank_sync(
    enabled: Option<String>,
    interval_hours: String,
) -> Result<BankSyncStatus, ErrorBody> {
    use crate::backend::bank::worker::MAX_INTERVAL_HOURS;
    use crate::contract::bank::UpdateBankSync;
    use crate::domain::form_field::{required, whole};
    let me = super::signed_in::as_declared::<SaveBankSync>().await?;
    let hint = format!("enter a whole number of hours, 1 to {MAX_INTERVAL_HOURS}");
    let typed = whole("intervalHours", Some(interval_hours), &hint)?;
    let interval_hours = required("intervalHours", typed, &hint)?;
    let request = UpdateBankSync {
        enabled: enabled.is_some(),
        interval_hours,
    };
    Ok(crate::backend::bank::service::update(&me.services.bank, request).await?)
}

/// Runs the automatic sync now rather than at its next time (a form of
/// one button).
#[server(prefix = "/api/fn", endpoint = "admin/bank-sync/run", client = CsrfClient)]
pub async fn run_bank_sync_now() -> Result<BankSyncStatus, ErrorBody> {
    let me = super::signed_in::as_declared::<RunBankSyncNow>().await?;
    Ok(crate::backend::bank::service::run_now(&me.services.bank).await?)
}
