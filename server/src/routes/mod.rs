//! REST routes under `/api`. Pages are served by Leptos (see `startup`).
//! The routes are a table so tests can walk every one of them (the CSRF
//! test sends each state-changing route a request without the token).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::Uri;
use axum::routing::{any, delete, get, patch, post, put, MethodRouter};
use axum::Router;
use tower_http::cors::CorsLayer;

use crate::extract::MAX_API_BODY;
use crate::state::AppState;
use app::ssr::api_error::ApiError;

pub mod admin;
pub mod admin_backups;
pub mod admin_status;
pub mod api_tokens;
pub mod auth;
pub mod authentication;
pub mod bank;
pub mod bill_months;
pub mod bills;
pub mod contact;
pub mod data;
pub mod diagnostics;
pub mod drift;
pub mod forms;
pub mod health;
pub mod history;
pub mod imports;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod operations;
pub mod personal_data;
pub mod preferences;
pub mod profile;
pub mod registration;
pub mod security_keys;
pub mod sso;
pub mod submissions_admin;
pub mod subscriptions;

/// One path of the API with the methods it answers and the largest body
/// it reads.
pub struct ApiRoute {
    pub path: &'static str,
    pub methods: &'static [&'static str],
    pub route: MethodRouter<AppState>,
    /// [`MAX_API_BODY`], or more for a path whose body is a whole file.
    pub body_limit: usize,
}

fn route(
    path: &'static str,
    methods: &'static [&'static str],
    route: MethodRouter<AppState>,
) -> ApiRoute {
    ApiRoute {
        path,
        methods,
        route,
        body_limit: MAX_API_BODY,
    }
}

/// A route whose body is a whole file of up to `body_limit` bytes.
fn upload(
    path: &'static str,
    methods: &'static [&'static str],
    route: MethodRouter<AppState>,
    body_limit: usize,
) -> ApiRoute {
    ApiRoute {
        path,
        methods,
        route: route.layer(DefaultBodyLimit::max(body_limit)),
        body_limit,
    }
}

/// Every API route; the diagnostics routes only when enabled.
pub fn api_routes(diagnostics_enabled: bool) -> Vec<ApiRoute> {
    let mut routes = vec![
        route("/api/health", &["GET"], get(health::health)),
        route("/api/openapi.json", &["GET"], get(openapi::document)),
        route(
            "/api/bills",
            &["GET", "POST"],
            get(bills::list).post(bills::create),
        ),
        route("/api/bills/order", &["PUT"], put(bills::reorder)),
        route(
            "/api/bills/{id}",
            &["GET", "PUT", "DELETE"],
            get(bills::get).put(bills::update).delete(bills::delete),
        ),
        route(
            "/api/bills/{id}/deactivate",
            &["POST"],
            post(bills::deactivate),
        ),
        route(
            "/api/bills/{id}/reactivate",
            &["POST"],
            post(bills::reactivate),
        ),
        route(
            "/api/bills/{id}/autopay",
            &["GET"],
            get(bills::autopay_trust),
        ),
        route(
            "/api/bills/{id}/payments",
            &["GET", "POST"],
            get(bills::payments).post(bills::record_payment),
        ),
        route(
            "/api/payments/{id}",
            &["DELETE"],
            delete(bills::undo_payment),
        ),
        route(
            "/api/payments/{id}/autopay-failure",
            &["PUT"],
            put(bills::flag_autopay_failure),
        ),
        route("/api/bills/drift", &["GET"], get(drift::list)),
        route(
            "/api/bills/{id}/drift/accept",
            &["POST"],
            post(drift::accept),
        ),
        route(
            "/api/bills/{id}/drift/dismiss",
            &["POST"],
            post(drift::dismiss),
        ),
        route(
            "/api/bills/{id}/months/{month}",
            &["GET", "PUT", "DELETE"],
            get(bill_months::get)
                .put(bill_months::put)
                .delete(bill_months::delete),
        ),
        route("/api/tracker", &["GET"], get(bills::tracker)),
        route("/api/reports/spending", &["GET"], get(bills::spending)),
        route("/api/admin/status", &["GET"], get(admin_status::status)),
        upload(
            "/api/imports",
            &["POST"],
            post(imports::upload),
            imports::MAX_UPLOAD_BODY,
        ),
        route("/api/imports/{id}", &["GET"], get(imports::read)),
        route("/api/imports/{id}/commit", &["POST"], post(imports::commit)),
        route(
            "/api/admin/authentication",
            &["GET", "PUT"],
            get(authentication::read).put(authentication::change),
        ),
        route(
            "/api/admin/authentication/discovery",
            &["POST"],
            post(authentication::discovery),
        ),
        route(
            "/api/profile/identities",
            &["GET"],
            get(authentication::list_identities),
        ),
        route(
            "/api/profile/identities/{id}",
            &["DELETE"],
            delete(authentication::unlink_identity),
        ),
        route("/api/admin/backups", &["GET"], get(admin_backups::list)),
        route(
            "/api/admin/backups/{name}",
            &["GET"],
            get(admin_backups::download),
        ),
        route("/api/catalog", &["GET"], get(subscriptions::catalog)),
        route(
            "/api/catalog/track",
            &["POST"],
            post(subscriptions::track_catalog),
        ),
        route(
            "/api/catalog/tracked",
            &["GET"],
            get(subscriptions::tracked),
        ),
        route(
            "/api/catalog/descriptors",
            &["GET", "POST"],
            get(subscriptions::descriptors).post(subscriptions::add_descriptor),
        ),
        route(
            "/api/catalog/descriptors/{id}",
            &["DELETE"],
            delete(subscriptions::delete_descriptor),
        ),
        route(
            "/api/subscriptions/recommendations",
            &["GET"],
            get(subscriptions::list),
        ),
        route(
            "/api/subscriptions/recommendations/{id}/track",
            &["POST"],
            post(subscriptions::track),
        ),
        route(
            "/api/subscriptions/recommendations/{id}/decline",
            &["POST"],
            post(subscriptions::decline),
        ),
        route(
            "/api/subscriptions/recommendations/{id}/link",
            &["POST"],
            post(subscriptions::link),
        ),
        route(
            "/api/subscriptions/recommendations/{id}/relink",
            &["POST"],
            post(subscriptions::relink),
        ),
        route(
            "/api/bills/{id}/catalog-link",
            &["PUT"],
            put(subscriptions::catalog_link),
        ),
        route("/api/data/bills.csv", &["GET"], get(data::export_csv)),
        route(
            "/api/data/payments.csv",
            &["GET"],
            get(data::export_payments_csv),
        ),
        route(
            "/api/data/months.csv",
            &["GET"],
            get(data::export_months_csv),
        ),
        route("/api/data/export.json", &["GET"], get(data::export_json)),
        route("/api/data/export.xlsx", &["GET"], get(data::export_xlsx)),
        route(
            "/api/data/export.sqlite",
            &["GET"],
            get(personal_data::export),
        ),
        upload(
            "/api/data/import.sqlite",
            &["POST"],
            post(personal_data::import),
            personal_data::MAX_UPLOAD_BODY,
        ),
        upload(
            "/api/data/history/sheets",
            &["POST"],
            post(history::sheets),
            history::MAX_UPLOAD_BODY,
        ),
        upload(
            "/api/data/history/preview",
            &["POST"],
            post(history::preview),
            history::MAX_UPLOAD_BODY,
        ),
        upload(
            "/api/data/history/import",
            &["POST"],
            post(history::import),
            history::MAX_UPLOAD_BODY,
        ),
        upload(
            "/api/data/import/preview",
            &["POST"],
            post(data::preview),
            data::MAX_IMPORT_BODY,
        ),
        upload(
            "/api/data/import",
            &["POST"],
            post(data::import),
            data::MAX_IMPORT_BODY,
        ),
        route(
            "/api/profile/preferences",
            &["GET", "PUT"],
            get(preferences::get).put(preferences::set),
        ),
        route("/v1/operations", &["GET"], get(operations::list)),
        route(
            "/v1/users/{user}/operations",
            &["GET"],
            get(operations::list_for_user),
        ),
        route(
            "/v1/operations/{*name}",
            &["GET", "DELETE", "POST"],
            get(operations::get)
                .delete(operations::delete)
                .post(operations::post),
        ),
        route(
            "/v1/admin:backup",
            &["POST"],
            post(operations::start_backup),
        ),
        route(
            "/v1/admin:restoreCheck",
            &["POST"],
            post(operations::start_restore_check),
        ),
        route(
            "/v1/admin:restore",
            &["POST"],
            post(operations::start_restore),
        ),
        route(
            "/v1/admin:reencryptSecrets",
            &["POST"],
            post(operations::start_reencrypt_secrets),
        ),
        route(
            "/api/bank/connections",
            &["GET", "POST"],
            get(bank::list).post(bank::connect),
        ),
        route(
            "/api/bank/connections/sync-all",
            &["POST"],
            post(bank::sync_all),
        ),
        route(
            "/api/bank/connections/{id}",
            &["DELETE"],
            delete(bank::disconnect),
        ),
        route(
            "/api/bank/connections/{id}/reconnect",
            &["POST"],
            post(bank::reconnect),
        ),
        route(
            "/api/bank/connections/{id}/sync",
            &["POST"],
            post(bank::sync),
        ),
        route(
            "/api/bank/connections/{id}/backfill",
            &["POST"],
            post(bank::backfill),
        ),
        route(
            "/api/bank/accounts/{id}",
            &["PATCH"],
            patch(bank::set_monitored),
        ),
        route(
            "/api/bank/transactions",
            &["GET"],
            get(bank::list_transactions),
        ),
        route("/api/bank/suggestions", &["GET"], get(bank::suggestions)),
        route("/api/bank/auto-matches", &["GET"], get(bank::auto_matches)),
        route(
            "/api/bank/transactions/{id}/match",
            &["POST"],
            post(bank::match_transaction),
        ),
        route(
            "/api/bank/transactions/{id}/unmatch",
            &["POST"],
            post(bank::unmatch_transaction),
        ),
        route(
            "/api/bank/transactions/{id}/ignore",
            &["POST"],
            post(bank::ignore_transaction),
        ),
        route(
            "/api/bank/transactions/{id}/unignore",
            &["POST"],
            post(bank::unignore_transaction),
        ),
        route(
            "/api/admin/bank-sync",
            &["GET", "PUT"],
            get(bank::admin_status).put(bank::admin_update),
        ),
        route("/api/admin/bank-sync/run", &["POST"], post(bank::admin_run)),
        route(
            "/api/notifications/channels",
            &["GET", "POST"],
            get(notifications::channels).post(notifications::create_channel),
        ),
        route(
            "/api/notifications/channels/{id}",
            &["PATCH", "DELETE"],
            patch(notifications::change_channel).delete(notifications::delete_channel),
        ),
        route(
            "/api/notifications/channels/{id}/test",
            &["POST"],
            post(notifications::test_channel),
        ),
        route(
            "/api/notifications/preferences",
            &["GET", "PUT"],
            get(notifications::preferences).put(notifications::set_preferences),
        ),
        route(
            "/api/notifications/deliveries",
            &["GET"],
            get(notifications::deliveries),
        ),
        route(
            "/api/notifications/calendar",
            &["GET", "POST", "DELETE"],
            get(notifications::calendar_state)
                .post(notifications::create_calendar)
                .delete(notifications::delete_calendar),
        ),
        route(
            "/api/admin/notifications",
            &["GET", "PUT"],
            get(notifications::admin).put(notifications::set_admin),
        ),
        route(
            "/api/admin/notifications/test-email",
            &["POST"],
            post(notifications::test_email),
        ),
        route(
            "/api/admin/notifications/run",
            &["POST"],
            post(notifications::run_now),
        ),
        route("/api/contact/config", &["GET"], get(contact::config)),
        route("/api/leads", &["POST"], post(contact::create_lead)),
        route("/api/support", &["POST"], post(contact::create_support)),
        route("/api/auth/csrf-token", &["GET"], get(auth::csrf_token)),
        route("/api/auth/login", &["POST"], post(auth::login)),
        route("/api/auth/methods", &["GET"], get(sso::methods)),
        route("/api/auth/oidc/start", &["GET"], get(sso::start)),
        route("/api/auth/oidc/callback", &["GET"], get(sso::callback)),
        route(
            "/api/auth/login/totp",
            &["POST"],
            post(auth::login_second_factor),
        ),
        route("/api/auth/totp", &["GET"], get(auth::totp_status)),
        route("/api/auth/totp/setup", &["POST"], post(auth::totp_setup)),
        route(
            "/api/auth/totp/disable",
            &["POST"],
            post(auth::totp_disable),
        ),
        route(
            "/api/auth/totp/confirm",
            &["POST"],
            post(auth::totp_confirm),
        ),
        route("/api/auth/logout", &["POST"], post(auth::logout)),
        route("/api/auth/logout-all", &["POST"], post(auth::logout_all)),
        route("/api/auth/me", &["GET"], get(auth::me)),
        route("/api/auth/session", &["GET"], get(auth::session)),
        route("/api/auth/password", &["POST"], post(auth::change_password)),
        route(
            "/api/tokens",
            &["GET", "POST"],
            get(api_tokens::list).post(api_tokens::create),
        ),
        route("/api/tokens/{id}", &["DELETE"], delete(api_tokens::revoke)),
        route(
            "/api/auth/registration",
            &["GET"],
            get(registration::status),
        ),
        route(
            "/api/auth/register",
            &["POST"],
            post(registration::register),
        ),
        route(
            "/api/auth/security-keys",
            &["GET", "POST"],
            get(security_keys::list).post(security_keys::register),
        ),
        route(
            "/api/auth/security-keys/options",
            &["POST"],
            post(security_keys::registration_options),
        ),
        route(
            "/api/auth/security-keys/{id}",
            &["DELETE"],
            delete(security_keys::remove),
        ),
        route(
            "/api/auth/login/security-key/options",
            &["POST"],
            post(security_keys::sign_in_options),
        ),
        route(
            "/api/auth/login/security-key",
            &["POST"],
            post(security_keys::sign_in),
        ),
        route("/api/profile", &["PUT"], put(profile::update)),
        route(
            "/api/profile/privacy",
            &["GET", "PUT"],
            get(profile::privacy).put(profile::set_privacy),
        ),
        route("/api/profile/sign-ins", &["GET"], get(profile::sign_ins)),
        route("/api/admin/users", &["GET"], get(admin::users)),
        route(
            "/api/admin/users/{id}/disable",
            &["POST"],
            post(admin::disable),
        ),
        route(
            "/api/admin/users/{id}/enable",
            &["POST"],
            post(admin::enable),
        ),
        route(
            "/api/admin/users/{id}/reset-second-factor",
            &["POST"],
            post(admin::reset_second_factor),
        ),
        route(
            "/api/admin/invitations",
            &["GET", "POST"],
            get(admin::invitations).post(admin::invite),
        ),
        route(
            "/api/admin/invitations/{id}",
            &["DELETE"],
            delete(admin::revoke_invitation),
        ),
        route("/api/admin/leads", &["GET"], get(submissions_admin::leads)),
        route(
            "/api/admin/support-requests",
            &["GET"],
            get(submissions_admin::support_requests),
        ),
        route(
            "/api/admin/{kind}/{id}/resend",
            &["POST"],
            post(submissions_admin::resend),
        ),
        route("/api/admin/crm", &["GET"], get(submissions_admin::crm)),
        route(
            "/api/admin/crm/resend-failed",
            &["POST"],
            post(submissions_admin::resend_all),
        ),
        route(
            "/api/admin/registration",
            &["GET", "PUT"],
            get(admin::registration).put(admin::set_registration),
        ),
    ];
    if diagnostics_enabled {
        routes.extend(diagnostics::routes());
    }
    routes
}

/// The routes another site may call from a browser (with `CORS_ORIGIN`):
/// the public forms and their configuration.
pub const CROSS_ORIGIN: &[&str] = &["/api/leads", "/api/support", "/api/contact/config"];

/// The API; every route reads at most [`MAX_API_BODY`] of a body (the
/// extractors answer more with 413 in the JSON error shape), and a request
/// that says it carries more is answered 413 before any route sees it,
/// whether or not the route reads a body.
pub fn api_router(diagnostics_enabled: bool, cors: CorsLayer) -> Router<AppState> {
    let routes = api_routes(diagnostics_enabled);
    // The paths whose body may be larger (all literal paths).
    let file_limits: HashMap<&'static str, usize> = routes
        .iter()
        .filter(|api| api.body_limit != MAX_API_BODY)
        .map(|api| (api.path, api.body_limit))
        .collect();
    routes
        .into_iter()
        .fold(Router::new(), |router, api| {
            let route = if CROSS_ORIGIN.contains(&api.path) {
                api.route.layer(cors.clone())
            } else {
                api.route
            };
            router.route(api.path, route)
        })
        .route("/api/{*rest}", any(api_not_found))
        .layer(DefaultBodyLimit::max(MAX_API_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(file_limits),
            refuse_declared_oversize,
        ))
}

/// 413 for a request whose `Content-Length` is over its route's body limit
/// ([`MAX_API_BODY`] unless the route is an [`upload`]); a body without one
/// is still cut off by the extractors that read it.
async fn refuse_declared_oversize(
    State(file_limits): State<Arc<HashMap<&'static str, usize>>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if let Some(length) = declared {
        let limit = file_limits
            .get(request.uri().path())
            .copied()
            .unwrap_or(MAX_API_BODY);
        if length > limit as u64 {
            return ApiError::PayloadTooLarge { limit }.into_response();
        }
    }
    next.run(request).await
}

/// Unknown API paths answer with a JSON error, not the HTML not-found page.
async fn api_not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API route at {}", uri.path()))
}
