//! Every use case of the API, declared once (see [`super::use_case`]):
//! the REST routes are mounted from here, and the server functions' gate,
//! CSRF and form rules read it, as the OpenAPI document reads who may
//! call each, its rate limit and whether it asks for the password again.
//! A server function is named by its type (`fns::bills::SaveBill`), so a
//! declaration cannot name one that does not exist. A new REST route or
//! server function is added here or it is not served (a server function
//! no use case names is not found, and a test fails).
//!
//! Grouped as the API is: bills and the Tracker, imports and exports,
//! operations, bank sync, notifications, the public forms, accounts, and
//! Admin.

use super::use_case::Caller::{
    AdminSession, Administrator, Anyone, BackupAdmin, BrowserSession, Operations, SignedIn,
};
use super::use_case::RateLimit::{BankSyncs, PublicForms, SignIn, SingleSignOnStart, TestSends};
use super::use_case::{case, UseCase};
use super::{
    admin, admin_backups, admin_status, api_tokens, auth, authentication, bank, bill_months, bills,
    contact, data, diagnostics, drift, forms, health, history, imports, notifications, openapi,
    operations, personal_data, preferences, profile, registration, security_keys, sso,
    submissions_admin, subscriptions,
};
use app::api as fns;

/// Every use case; the diagnostics routes only when enabled.
pub fn declared(diagnostics_enabled: bool) -> Vec<UseCase> {
    let mut cases = vec![
        case("health.check", Anyone).get("/api/health", health::health),
        case("openapi.document", Anyone).get("/api/openapi.json", openapi::document),
        case("bills.list", SignedIn)
            .get("/api/bills", bills::list)
            .server_fn::<fns::bills::GetBills>(),
        case("bills.create", SignedIn)
            .post("/api/bills", bills::create)
            .server_fn::<fns::bills::SaveBill>()
            .form(),
        case("bills.reorder", SignedIn)
            .put("/api/bills/order", bills::reorder)
            .server_fn::<fns::bills::ReorderBills>()
            .form(),
        case("bills.get", SignedIn)
            .get("/api/bills/{id}", bills::get)
            .server_fn::<fns::bills::GetBill>(),
        case("bills.update", SignedIn)
            .put("/api/bills/{id}", bills::update)
            .server_fn::<fns::bills::SaveBill>(),
        case("bills.delete", SignedIn)
            .delete("/api/bills/{id}", bills::delete)
            .server_fn::<fns::bills::BillAct>()
            .form(),
        case("bills.deactivate", SignedIn)
            .post("/api/bills/{id}/deactivate", bills::deactivate)
            .server_fn::<fns::bills::BillAct>(),
        case("bills.reactivate", SignedIn)
            .post("/api/bills/{id}/reactivate", bills::reactivate)
            .server_fn::<fns::bills::BillAct>(),
        case("bills.autopay_trust", SignedIn)
            .get("/api/bills/{id}/autopay", bills::autopay_trust)
            .server_fn::<fns::bills::GetAutopayTrust>(),
        case("bills.catalog_link", SignedIn)
            .put("/api/bills/{id}/catalog-link", subscriptions::catalog_link)
            .server_fn::<fns::subscriptions::SetCatalogLink>()
            .form(),
        case("payments.list", SignedIn)
            .get("/api/bills/{id}/payments", bills::payments)
            .server_fn::<fns::bills::GetPayments>(),
        case("payments.record", SignedIn)
            .post("/api/bills/{id}/payments", bills::record_payment)
            .server_fn::<fns::tracker_act::TrackerAct>()
            .form(),
        case("payments.record_typed", SignedIn)
            .server_fn::<fns::bills::PayBill>()
            .form(),
        case("payments.undo", SignedIn)
            .delete("/api/payments/{id}", bills::undo_payment)
            .server_fn::<fns::bills::BillAct>(),
        case("payments.flag_autopay_failure", SignedIn)
            .put(
                "/api/payments/{id}/autopay-failure",
                bills::flag_autopay_failure,
            )
            .server_fn::<fns::bills::BillAct>(),
        case("drift.list", SignedIn)
            .get("/api/bills/drift", drift::list)
            .server_fn::<fns::drift::GetDrift>(),
        case("drift.accept", SignedIn)
            .post("/api/bills/{id}/drift/accept", drift::accept)
            .server_fn::<fns::tracker_act::TrackerAct>(),
        case("drift.dismiss", SignedIn)
            .post("/api/bills/{id}/drift/dismiss", drift::dismiss)
            .server_fn::<fns::tracker_act::TrackerAct>(),
        case("bill_months.get", SignedIn).get("/api/bills/{id}/months/{month}", bill_months::get),
        case("bill_months.put", SignedIn).put("/api/bills/{id}/months/{month}", bill_months::put),
        case("bill_months.delete", SignedIn)
            .delete("/api/bills/{id}/months/{month}", bill_months::delete),
        case("tracker.get", SignedIn)
            .get("/api/tracker", bills::tracker)
            .server_fn::<fns::bills::GetTracker>(),
        case("tracker.page", SignedIn).server_fn::<fns::bills::GetTrackerPage>(),
        case("reports.spending", SignedIn)
            .get("/api/reports/spending", bills::spending)
            .server_fn::<fns::bills::GetSpending>(),
        case("statements.upload", SignedIn)
            .post("/api/imports", imports::upload)
            .upload(imports::MAX_UPLOAD_BODY)
            .server_fn::<fns::statements::UploadStatement>()
            .file_form(app::backend::statements::parse::MAX_BYTES),
        case("statements.read", SignedIn)
            .get("/api/imports/{id}", imports::read)
            .server_fn::<fns::statements::GetStatementImport>(),
        case("statements.commit", SignedIn)
            .post("/api/imports/{id}/commit", imports::commit)
            .server_fn::<fns::statements::CommitStatementImport>()
            .form(),
        case("statements.discard", SignedIn)
            .delete("/api/imports/{id}", imports::discard)
            .server_fn::<fns::statements::DiscardStatementImport>()
            .form(),
        case("admin.status", Administrator)
            .get("/api/admin/status", admin_status::status)
            .server_fn::<fns::admin_backups::GetSystemStatus>(),
        case("admin.schema", Administrator).server_fn::<fns::admin_backups::GetSchemaState>(),
        case("admin.roll_back_migration", Administrator)
            .server_fn::<fns::admin_backups::RollBackMigration>()
            .form(),
        case("authentication.read", Administrator)
            .get("/api/admin/authentication", authentication::read)
            .server_fn::<fns::authentication::GetAuthentication>(),
        // Who signs in as whom: a person at a browser with the password.
        case("authentication.change", AdminSession)
            .fresh_password()
            .put("/api/admin/authentication", authentication::change)
            .server_fn::<fns::authentication::SaveAuthentication>()
            .form(),
        case("authentication.discovery", Administrator)
            .post(
                "/api/admin/authentication/discovery",
                authentication::discovery,
            )
            .server_fn::<fns::authentication::TestDiscovery>()
            .form(),
        case("identities.list", SignedIn)
            .get("/api/profile/identities", authentication::list_identities)
            .server_fn::<fns::authentication::GetIdentities>(),
        case("identities.unlink", SignedIn)
            .delete(
                "/api/profile/identities/{id}",
                authentication::unlink_identity,
            )
            .server_fn::<fns::authentication::UnlinkIdentity>()
            .form(),
        case("backups.list", BackupAdmin)
            .get("/api/admin/backups", admin_backups::list)
            .server_fn::<fns::admin_backups::ListBackupFiles>(),
        case("backups.download", BackupAdmin)
            .get("/api/admin/backups/{name}", admin_backups::download),
        case("catalog.search", SignedIn)
            .get("/api/catalog", subscriptions::catalog)
            .server_fn::<fns::bills::GetCatalog>(),
        case("catalog.track", SignedIn)
            .post("/api/catalog/track", subscriptions::track_catalog)
            .server_fn::<fns::subscriptions::TrackCatalogServices>()
            .form(),
        case("catalog.tracked", SignedIn)
            .get("/api/catalog/tracked", subscriptions::tracked)
            .server_fn::<fns::subscriptions::GetTrackedServices>(),
        case("descriptors.list", SignedIn)
            .get("/api/catalog/descriptors", subscriptions::descriptors)
            .server_fn::<fns::subscriptions::GetOwnDescriptors>(),
        case("descriptors.add", SignedIn)
            .post("/api/catalog/descriptors", subscriptions::add_descriptor)
            .server_fn::<fns::subscriptions::AddOwnDescriptor>()
            .form(),
        case("descriptors.delete", SignedIn)
            .delete(
                "/api/catalog/descriptors/{id}",
                subscriptions::delete_descriptor,
            )
            .server_fn::<fns::subscriptions::DeleteOwnDescriptor>()
            .form(),
        case("recommendations.list", SignedIn)
            .get("/api/subscriptions/recommendations", subscriptions::list)
            .server_fn::<fns::subscriptions::GetRecommendations>(),
        case("recommendations.track", SignedIn)
            .post(
                "/api/subscriptions/recommendations/{id}/track",
                subscriptions::track,
            )
            .server_fn::<fns::subscriptions::TrackSuggestedService>()
            .form(),
        case("recommendations.decline", SignedIn)
            .post(
                "/api/subscriptions/recommendations/{id}/decline",
                subscriptions::decline,
            )
            .server_fn::<fns::subscriptions::DeclineSuggestedService>()
            .form(),
        case("recommendations.link", SignedIn)
            .post(
                "/api/subscriptions/recommendations/{id}/link",
                subscriptions::link,
            )
            .server_fn::<fns::subscriptions::LinkSuggestedService>()
            .form(),
        case("recommendations.relink", SignedIn)
            .post(
                "/api/subscriptions/recommendations/{id}/relink",
                subscriptions::relink,
            )
            .server_fn::<fns::subscriptions::RelinkSuggestedService>()
            .form(),
        case("data.export_bills_csv", SignedIn).get("/api/data/bills.csv", data::export_csv),
        case("data.export_payments_csv", SignedIn)
            .get("/api/data/payments.csv", data::export_payments_csv),
        case("data.export_months_csv", SignedIn)
            .get("/api/data/months.csv", data::export_months_csv),
        case("data.export_json", SignedIn).get("/api/data/export.json", data::export_json),
        case("data.export_xlsx", SignedIn).get("/api/data/export.xlsx", data::export_xlsx),
        case("personal_data.export", SignedIn)
            .get("/api/data/export.sqlite", personal_data::export),
        case("personal_data.import", SignedIn)
            .post("/api/data/import.sqlite", personal_data::import)
            .upload(personal_data::MAX_UPLOAD_BODY)
            .server_fn::<fns::personal_data::ImportWhole>()
            .file_form(app::backend::personal_data::rules::MAX_BYTES),
        case("history.sheets", SignedIn)
            .post("/api/data/history/sheets", history::sheets)
            .upload(history::MAX_UPLOAD_BODY),
        case("history.preview", SignedIn)
            .post("/api/data/history/preview", history::preview)
            .upload(history::MAX_UPLOAD_BODY),
        case("history.import", SignedIn)
            .post("/api/data/history/import", history::import)
            .upload(history::MAX_UPLOAD_BODY),
        // The Data page's forms: the workbook goes up once and is kept
        // between the steps.
        case("history.keep", SignedIn)
            .server_fn::<fns::history::UploadWorkbook>()
            .file_form(app::backend::workbook::cells::MAX_BYTES),
        case("history.read_kept", SignedIn).server_fn::<fns::history::GetKeptSheets>(),
        case("history.preview_kept", SignedIn).server_fn::<fns::history::GetKeptPreview>(),
        case("history.import_kept", SignedIn)
            .server_fn::<fns::history::ImportKeptHistory>()
            .form(),
        case("bill_import.preview", SignedIn)
            .post("/api/data/import/preview", data::preview)
            .upload(data::MAX_IMPORT_BODY),
        case("bill_import.import", SignedIn)
            .post("/api/data/import", data::import)
            .upload(data::MAX_IMPORT_BODY),
        // The Data page's form: the file goes up once and is kept between
        // its preview and its import.
        case("bill_import.preview_kept", SignedIn)
            .server_fn::<fns::data::PreviewBillsFile>()
            .file_form(app::backend::bills::import::MAX_BUDGET_FILE),
        case("bill_import.read_kept", SignedIn).server_fn::<fns::data::GetKeptBills>(),
        case("bill_import.import_kept", SignedIn)
            .server_fn::<fns::data::ImportKeptBills>()
            .form(),
        case("preferences.get", SignedIn)
            .get("/api/profile/preferences", preferences::get)
            .server_fn::<fns::profile::GetPreferences>(),
        case("preferences.set", SignedIn)
            .put("/api/profile/preferences", preferences::set)
            .server_fn::<fns::profile::SavePreferences>()
            .form(),
        case("operations.list", Operations)
            .get("/v1/operations", operations::list)
            .server_fn::<fns::operations::ListOperations>(),
        case("operations.list_for_user", Operations)
            .get("/v1/users/{user}/operations", operations::list_for_user),
        case("operations.get", Operations).get("/v1/operations/{*name}", operations::get),
        case("operations.delete", Operations)
            .delete("/v1/operations/{*name}", operations::delete)
            .server_fn::<fns::operations::DeleteOperation>()
            .form(),
        case("operations.cancel", Operations)
            .post("/v1/operations/{*name}", operations::post)
            .server_fn::<fns::operations::CancelOperation>()
            .form(),
        case("operations.wait", Operations).server_fn::<fns::operations::WaitOperation>(),
        case("maintenance.backup", BackupAdmin)
            .post("/v1/admin:backup", operations::start_backup)
            .server_fn::<fns::operations::StartMaintenance>()
            .form(),
        case("maintenance.restore_check", BackupAdmin)
            .post("/v1/admin:restoreCheck", operations::start_restore_check)
            .server_fn::<fns::admin_backups::CheckBackupFile>()
            .form(),
        case("maintenance.restore", AdminSession)
            .fresh_password()
            .post("/v1/admin:restore", operations::start_restore)
            .server_fn::<fns::admin_backups::RestoreBackupFile>()
            .form(),
        case("maintenance.reencrypt_secrets", Administrator)
            .post(
                "/v1/admin:reencryptSecrets",
                operations::start_reencrypt_secrets,
            )
            .server_fn::<fns::operations::StartMaintenance>()
            .form(),
        case("bank.connections", SignedIn)
            .get("/api/bank/connections", bank::list)
            .server_fn::<fns::bank::GetBankConnections>(),
        case("bank.connect", SignedIn)
            .limited(BankSyncs)
            .post("/api/bank/connections", bank::connect)
            .server_fn::<fns::bank::AddBankConnection>()
            .form(),
        case("bank.sync_all", SignedIn)
            .limited(BankSyncs)
            .post("/api/bank/connections/sync-all", bank::sync_all),
        case("bank.disconnect", SignedIn)
            .delete("/api/bank/connections/{id}", bank::disconnect)
            .server_fn::<fns::bank::DisconnectBank>()
            .form(),
        case("bank.reconnect", SignedIn)
            .limited(BankSyncs)
            .post("/api/bank/connections/{id}/reconnect", bank::reconnect)
            .server_fn::<fns::bank::ReconnectBank>()
            .form(),
        case("bank.sync", SignedIn)
            .limited(BankSyncs)
            .post("/api/bank/connections/{id}/sync", bank::sync)
            .server_fn::<fns::bank::SyncBank>()
            .form(),
        case("bank.backfill", SignedIn)
            .limited(BankSyncs)
            .post("/api/bank/connections/{id}/backfill", bank::backfill)
            .server_fn::<fns::bank::SyncBank>()
            .form(),
        case("bank.set_monitored", SignedIn)
            .patch("/api/bank/accounts/{id}", bank::set_monitored)
            .server_fn::<fns::bank::SetAccountMonitored>()
            .form(),
        case("bank.transactions", SignedIn)
            .get("/api/bank/transactions", bank::list_transactions)
            .server_fn::<fns::bank::GetBankTransactions>(),
        case("bank.suggestions", SignedIn)
            .get("/api/bank/suggestions", bank::suggestions)
            .server_fn::<fns::bank::GetBankSuggestions>(),
        case("bank.auto_matches", SignedIn)
            .get("/api/bank/auto-matches", bank::auto_matches)
            .server_fn::<fns::bank::GetAutoMatches>(),
        case("bank.match", SignedIn)
            .post("/api/bank/transactions/{id}/match", bank::match_transaction)
            .server_fn::<fns::bank::LinkTransactionToBill>()
            .form(),
        case("bank.unmatch", SignedIn)
            .post(
                "/api/bank/transactions/{id}/unmatch",
                bank::unmatch_transaction,
            )
            .server_fn::<fns::bank::UnlinkTransaction>()
            .form(),
        case("bank.ignore", SignedIn)
            .post(
                "/api/bank/transactions/{id}/ignore",
                bank::ignore_transaction,
            )
            .server_fn::<fns::bank::IgnoreTransaction>()
            .form(),
        case("bank.unignore", SignedIn)
            .post(
                "/api/bank/transactions/{id}/unignore",
                bank::unignore_transaction,
            )
            .server_fn::<fns::bank::IgnoreTransaction>()
            .form(),
        case("bank_sync.status", Administrator)
            .get("/api/admin/bank-sync", bank::admin_status)
            .server_fn::<fns::bank::GetBankSyncStatus>(),
        case("bank_sync.update", Administrator)
            .put("/api/admin/bank-sync", bank::admin_update)
            .server_fn::<fns::bank::SaveBankSync>()
            .form(),
        case("bank_sync.run", Administrator)
            .post("/api/admin/bank-sync/run", bank::admin_run)
            .server_fn::<fns::bank::RunBankSyncNow>()
            .form(),
        case("notifications.channels", SignedIn)
            .get("/api/notifications/channels", notifications::channels),
        case("notifications.page", SignedIn).server_fn::<fns::notifications::GetNotifications>(),
        case("notifications.create_channel", SignedIn)
            .post("/api/notifications/channels", notifications::create_channel)
            .server_fn::<fns::notifications::AddChannel>()
            .form(),
        case("notifications.change_channel", SignedIn)
            .patch(
                "/api/notifications/channels/{id}",
                notifications::change_channel,
            )
            .server_fn::<fns::notifications::ChangeChannel>()
            .form(),
        case("notifications.delete_channel", SignedIn)
            .delete(
                "/api/notifications/channels/{id}",
                notifications::delete_channel,
            )
            .server_fn::<fns::notifications::RemoveChannel>()
            .form(),
        case("notifications.test_channel", SignedIn)
            .limited(TestSends)
            .post(
                "/api/notifications/channels/{id}/test",
                notifications::test_channel,
            )
            .server_fn::<fns::notifications::TestChannel>()
            .form(),
        case("notifications.preferences", SignedIn)
            .get("/api/notifications/preferences", notifications::preferences),
        case("notifications.set_preferences", SignedIn)
            .put(
                "/api/notifications/preferences",
                notifications::set_preferences,
            )
            .server_fn::<fns::notifications::SaveNotificationPreferences>()
            .form(),
        case("notifications.deliveries", SignedIn)
            .get("/api/notifications/deliveries", notifications::deliveries),
        case("notifications.calendar_state", SignedIn)
            .get("/api/notifications/calendar", notifications::calendar_state),
        case("notifications.create_calendar", SignedIn)
            .post(
                "/api/notifications/calendar",
                notifications::create_calendar,
            )
            .server_fn::<fns::notifications::CreateCalendar>()
            .form(),
        case("notifications.delete_calendar", SignedIn)
            .delete(
                "/api/notifications/calendar",
                notifications::delete_calendar,
            )
            .server_fn::<fns::notifications::DeleteCalendar>()
            .form(),
        case("notifications.admin", Administrator)
            .get("/api/admin/notifications", notifications::admin)
            .server_fn::<fns::notifications::GetAdminNotifications>(),
        // Every confirmation link goes through it: as for sign-in.
        case("notifications.set_mail", AdminSession)
            .fresh_password()
            .put("/api/admin/notifications", notifications::set_admin)
            .server_fn::<fns::notifications::SaveMailServer>()
            .form(),
        case("notifications.test_email", Administrator)
            .post(
                "/api/admin/notifications/test-email",
                notifications::test_email,
            )
            .server_fn::<fns::notifications::SendTestEmail>()
            .form(),
        case("notifications.run", Administrator)
            .post("/api/admin/notifications/run", notifications::run_now)
            .server_fn::<fns::notifications::RunRemindersNow>()
            .form(),
        case("contact.config", Anyone)
            .get("/api/contact/config", contact::config)
            .server_fn::<fns::contact::GetContactConfig>()
            .cross_origin(),
        case("contact.lead", Anyone)
            .limited(PublicForms)
            .post("/api/leads", contact::create_lead)
            .server_fn::<fns::contact::SendLead>()
            .public_form(),
        case("contact.support", Anyone)
            .limited(PublicForms)
            .post("/api/support", contact::create_support)
            .server_fn::<fns::contact::SendSupport>()
            .public_form(),
        case("auth.csrf_token", Anyone).get("/api/auth/csrf-token", auth::csrf_token),
        case("auth.sign_in", Anyone)
            .limited(SignIn)
            .post("/api/auth/login", auth::login)
            .server_fn::<fns::entrance::StartSignIn>()
            .form(),
        case("auth.sign_in_code", Anyone)
            .limited(SignIn)
            .post("/api/auth/login/totp", auth::login_second_factor)
            .server_fn::<fns::entrance::AnswerWithCode>()
            .form(),
        case("auth.key_options", Anyone)
            .post(
                "/api/auth/login/security-key/options",
                security_keys::sign_in_options,
            )
            .server_fn::<fns::entrance::StartKeySignIn>(),
        case("auth.sign_in_key", Anyone)
            .limited(SignIn)
            .post("/api/auth/login/security-key", security_keys::sign_in)
            .server_fn::<fns::entrance::AnswerWithKey>(),
        case("auth.methods", Anyone)
            .get("/api/auth/methods", sso::methods)
            .server_fn::<fns::entrance::GetSignInMethods>(),
        case("auth.oidc_start", Anyone)
            .limited(SingleSignOnStart)
            .get("/api/auth/oidc/start", sso::start),
        case("auth.oidc_callback", Anyone).get("/api/auth/oidc/callback", sso::callback),
        case("identities.link", SignedIn)
            .limited(SingleSignOnStart)
            .page_form("/profile/single-sign-on", forms::sso_link::submit),
        case("auth.sign_out", SignedIn)
            .page_form("/profile/sign-out", forms::sign_out::submit)
            .post("/api/auth/logout", auth::logout)
            .server_fn::<fns::account::SignOut>(),
        case("auth.sign_out_everywhere", SignedIn)
            .post("/api/auth/logout-all", auth::logout_all)
            .server_fn::<fns::account::SignOut>(),
        case("auth.me", SignedIn)
            .get("/api/auth/me", auth::me)
            .server_fn::<fns::account::GetMe>(),
        case("auth.session", Anyone)
            .get("/api/auth/session", auth::session)
            .server_fn::<fns::session::CurrentSession>(),
        case("totp.status", SignedIn)
            .get("/api/auth/totp", auth::totp_status)
            .server_fn::<fns::account::GetTotpStatus>(),
        case("totp.begin", BrowserSession)
            .page_form("/profile/two-factor", forms::two_factor::start)
            .post("/api/auth/totp/setup", auth::totp_setup)
            .server_fn::<fns::account::StartTotp>(),
        case("totp.confirm", BrowserSession)
            .page_form("/profile/two-factor/confirm", forms::two_factor::confirm)
            .post("/api/auth/totp/confirm", auth::totp_confirm)
            .server_fn::<fns::account::ConfirmTotp>(),
        case("totp.disable", SignedIn)
            .fresh_password()
            .post("/api/auth/totp/disable", auth::totp_disable)
            .server_fn::<fns::account::StopTotp>()
            .form(),
        case("account.change_password", SignedIn)
            .fresh_password()
            .post("/api/auth/password", auth::change_password)
            .server_fn::<fns::account::SetPassword>()
            .form(),
        case("profile.update", SignedIn)
            .fresh_password()
            .put("/api/profile", profile::update)
            .server_fn::<fns::account::SaveAccount>()
            .form(),
        case("profile.privacy", SignedIn)
            .get("/api/profile/privacy", profile::privacy)
            .server_fn::<fns::profile::GetPrivacy>(),
        case("profile.set_privacy", SignedIn)
            .put("/api/profile/privacy", profile::set_privacy)
            .server_fn::<fns::profile::SetPrivacy>()
            .form(),
        case("profile.sign_ins", SignedIn)
            .get("/api/profile/sign-ins", profile::sign_ins)
            .server_fn::<fns::profile::GetSignIns>(),
        case("tokens.list", SignedIn)
            .get("/api/tokens", api_tokens::list)
            .server_fn::<fns::profile::ListTokens>(),
        case("tokens.create", SignedIn)
            .page_form("/profile/tokens", forms::tokens::submit)
            .post("/api/tokens", api_tokens::create)
            .server_fn::<fns::profile::MakeToken>(),
        case("tokens.revoke", SignedIn)
            .delete("/api/tokens/{id}", api_tokens::revoke)
            .server_fn::<fns::profile::RevokeToken>()
            .form(),
        case("registration.status", Anyone)
            .get("/api/auth/registration", registration::status)
            .server_fn::<fns::entrance::GetRegistration>(),
        case("registration.register", Anyone)
            .post("/api/auth/register", registration::register)
            .server_fn::<fns::entrance::CreateAccount>()
            .form(),
        case("security_keys.list", SignedIn)
            .get("/api/auth/security-keys", security_keys::list)
            .server_fn::<fns::security_keys::GetSecurityKeys>(),
        case("security_keys.begin_registration", BrowserSession)
            .post(
                "/api/auth/security-keys/options",
                security_keys::registration_options,
            )
            .server_fn::<fns::security_keys::StartKeyRegistration>(),
        case("security_keys.register", BrowserSession)
            .post("/api/auth/security-keys", security_keys::register)
            .server_fn::<fns::security_keys::FinishKeyRegistration>(),
        case("security_keys.remove", SignedIn)
            .fresh_password()
            .delete("/api/auth/security-keys/{id}", security_keys::remove)
            .server_fn::<fns::security_keys::RemoveSecurityKey>(),
        case("admin.users", Administrator)
            .get("/api/admin/users", admin::users)
            .server_fn::<fns::admin::ListUsers>(),
        case("admin.disable_user", AdminSession)
            .fresh_password()
            .post("/api/admin/users/{id}/disable", admin::disable)
            .server_fn::<fns::admin::ChangeAccount>()
            .form(),
        case("admin.enable_user", AdminSession)
            .fresh_password()
            .post("/api/admin/users/{id}/enable", admin::enable)
            .server_fn::<fns::admin::ChangeAccount>()
            .form(),
        case("admin.reset_second_factor", AdminSession)
            .fresh_password()
            .post(
                "/api/admin/users/{id}/reset-second-factor",
                admin::reset_second_factor,
            )
            .server_fn::<fns::admin::ChangeAccount>()
            .form(),
        case("admin.invitations", Administrator)
            .get("/api/admin/invitations", admin::invitations)
            .server_fn::<fns::admin::ListInvitations>(),
        case("admin.invite", AdminSession)
            .page_form("/admin/invite", forms::invitation::submit)
            .fresh_password()
            .post("/api/admin/invitations", admin::invite)
            .server_fn::<fns::admin::InviteUser>(),
        case("admin.withdraw_invitation", Administrator)
            .delete("/api/admin/invitations/{id}", admin::revoke_invitation)
            .server_fn::<fns::admin::WithdrawInvitation>()
            .form(),
        case("admin.registration", Administrator)
            .get("/api/admin/registration", admin::registration)
            .server_fn::<fns::admin::GetRegistration>(),
        case("admin.set_registration", AdminSession)
            .fresh_password()
            .put("/api/admin/registration", admin::set_registration)
            .server_fn::<fns::admin::SetRegistration>()
            .form(),
        case("admin.leads", Administrator)
            .get("/api/admin/leads", submissions_admin::leads)
            .server_fn::<fns::admin::ListSubmissions>(),
        case("admin.support_requests", Administrator)
            .get(
                "/api/admin/support-requests",
                submissions_admin::support_requests,
            )
            .server_fn::<fns::admin::ListSubmissions>(),
        case("admin.resend", Administrator)
            .post("/api/admin/{kind}/{id}/resend", submissions_admin::resend)
            .server_fn::<fns::admin::ResendSubmissions>()
            .form(),
        case("admin.crm", Administrator)
            .get("/api/admin/crm", submissions_admin::crm)
            .server_fn::<fns::admin::GetCrmStatus>(),
        case("admin.resend_all", Administrator)
            .post(
                "/api/admin/crm/resend-failed",
                submissions_admin::resend_all,
            )
            .server_fn::<fns::admin::ResendSubmissions>()
            .form(),
    ];
    if diagnostics_enabled {
        cases.extend(diagnostics::use_cases());
    }
    cases
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    #[test]
    fn no_route_is_declared_twice_and_every_use_case_has_a_door() {
        let mut routes = BTreeSet::new();
        let mut names = BTreeSet::new();
        for case in declared(true) {
            assert!(names.insert(case.name), "{} declared twice", case.name);
            assert!(
                !case.rest.is_empty() || case.server_fn.is_some() || case.page_form.is_some(),
                "{} has no door",
                case.name
            );
            if let Some(form) = &case.page_form {
                assert!(
                    routes.insert(("POST", form.path)),
                    "POST {} declared twice",
                    form.path
                );
            }
            for rest in &case.rest {
                assert!(
                    routes.insert((rest.method, rest.path)),
                    "{} {} declared twice",
                    rest.method,
                    rest.path
                );
            }
        }
    }

    #[test]
    fn the_use_cases_a_server_function_serves_agree_on_who_may_call_it() {
        let mut callers: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for case in declared(true) {
            if let Some(endpoint) = case.server_fn {
                callers
                    .entry(endpoint)
                    .or_default()
                    .insert(format!("{:?}", case.caller.at_a_browser()));
            }
        }
        for (endpoint, found) in callers {
            assert_eq!(found.len(), 1, "{endpoint}: {found:?}");
        }
    }
}
