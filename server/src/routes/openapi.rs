//! The OpenAPI document of `/api` and `/v1`, served at
//! `GET /api/openapi.json`. Schemas are derived from the contract types
//! (`app::contract`, `ToSchema` in the server build); paths from the
//! `#[utoipa::path]` attribute on each handler, beside the code they
//! describe. Every failure answers with the one error body, so each
//! operation gets it as its `default` response here rather than in
//! seventy attributes; `routes::api_routes` and this document are checked
//! against each other by a test.

use std::sync::OnceLock;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi, ToSchema};

use app::backend::api_error::ApiError;
use app::backend::cookies;
use app::contract::error::ErrorBody;

use crate::routes;
use crate::routes::policy::policy;

/// Tally's REST API, as Google's client libraries and people read it.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tally",
        description = "Bills, payments, debts and subscriptions (`/api`), and long-running \
operations in the `google.longrunning` shape (`/v1`). Send a personal API token as \
`Authorization: Bearer tally_pat_…`, or use the browser session; a session's state-changing \
requests also carry the `X-CSRF-Token` header. Every failure answers with a \
`google.rpc.Status` body (`ErrorBody`).",
        license(name = "AGPL-3.0-or-later", identifier = "AGPL-3.0-or-later"),
    ),
    paths(
        routes::health::health,
        routes::bills::list,
        routes::bills::create,
        routes::bills::reorder,
        routes::bills::get,
        routes::bills::update,
        routes::bills::delete,
        routes::bills::deactivate,
        routes::bills::reactivate,
        routes::bills::payments,
        routes::bills::record_payment,
        routes::bills::undo_payment,
        routes::bills::flag_autopay_failure,
        routes::bills::autopay_trust,
        routes::bills::tracker,
        routes::bills::spending,
        routes::subscriptions::list,
        routes::subscriptions::track,
        routes::subscriptions::decline,
        routes::subscriptions::link,
        routes::subscriptions::relink,
        routes::subscriptions::catalog_link,
        routes::subscriptions::catalog,
        routes::subscriptions::track_catalog,
        routes::subscriptions::tracked,
        routes::subscriptions::descriptors,
        routes::subscriptions::add_descriptor,
        routes::subscriptions::delete_descriptor,
        routes::data::export_csv,
        routes::data::export_payments_csv,
        routes::data::export_months_csv,
        routes::data::export_json,
        routes::data::export_xlsx,
        routes::personal_data::export,
        routes::personal_data::import,
        routes::history::sheets,
        routes::history::preview,
        routes::history::import,
        routes::data::preview,
        routes::data::import,
        routes::preferences::get,
        routes::preferences::set,
        routes::operations::list,
        routes::operations::list_for_user,
        routes::operations::get,
        routes::operations::delete,
        routes::operations::cancel,
        routes::operations::wait,
        routes::operations::start_backup,
        routes::operations::start_restore_check,
        routes::operations::start_restore,
        routes::operations::start_reencrypt_secrets,
        routes::bank::list,
        routes::bank::connect,
        routes::bank::reconnect,
        routes::bank::disconnect,
        routes::bank::set_monitored,
        routes::bank::sync,
        routes::bank::sync_all,
        routes::bank::backfill,
        routes::bank::list_transactions,
        routes::bank::suggestions,
        routes::bank::auto_matches,
        routes::bank::match_transaction,
        routes::bank::unmatch_transaction,
        routes::bank::ignore_transaction,
        routes::bank::unignore_transaction,
        routes::bank::admin_status,
        routes::bank::admin_update,
        routes::bank::admin_run,
        routes::contact::config,
        routes::contact::create_lead,
        routes::contact::create_support,
        routes::auth::csrf_token,
        routes::auth::login,
        routes::auth::login_second_factor,
        routes::auth::totp_status,
        routes::auth::totp_setup,
        routes::auth::totp_disable,
        routes::auth::totp_confirm,
        routes::auth::logout,
        routes::sso::methods,
        routes::sso::start,
        routes::sso::callback,
        routes::imports::upload,
        routes::imports::read,
        routes::imports::commit,
        routes::imports::discard,
        routes::authentication::read,
        routes::authentication::change,
        routes::authentication::discovery,
        routes::authentication::list_identities,
        routes::authentication::unlink_identity,
        routes::auth::logout_all,
        routes::auth::me,
        routes::auth::session,
        routes::auth::change_password,
        routes::api_tokens::list,
        routes::api_tokens::create,
        routes::api_tokens::revoke,
        routes::registration::status,
        routes::registration::register,
        routes::security_keys::list,
        routes::security_keys::register,
        routes::security_keys::registration_options,
        routes::security_keys::remove,
        routes::security_keys::sign_in_options,
        routes::security_keys::sign_in,
        routes::profile::update,
        routes::profile::privacy,
        routes::profile::set_privacy,
        routes::profile::sign_ins,
        routes::admin::users,
        routes::admin::disable,
        routes::admin::enable,
        routes::admin::reset_second_factor,
        routes::admin::invitations,
        routes::admin::invite,
        routes::admin::revoke_invitation,
        routes::submissions_admin::leads,
        routes::submissions_admin::support_requests,
        routes::submissions_admin::resend,
        routes::submissions_admin::crm,
        routes::submissions_admin::resend_all,
        routes::admin::registration,
        routes::admin_status::status,
        routes::admin_backups::list,
        routes::admin_backups::download,
        routes::admin::set_registration,
        routes::drift::list,
        routes::drift::accept,
        routes::drift::dismiss,
        routes::bill_months::get,
        routes::bill_months::put,
        routes::bill_months::delete,
        routes::notifications::channels,
        routes::notifications::create_channel,
        routes::notifications::change_channel,
        routes::notifications::delete_channel,
        routes::notifications::test_channel,
        routes::notifications::preferences,
        routes::notifications::set_preferences,
        routes::notifications::deliveries,
        routes::notifications::calendar_state,
        routes::notifications::create_calendar,
        routes::notifications::delete_calendar,
        routes::notifications::admin,
        routes::notifications::set_admin,
        routes::notifications::test_email,
        routes::notifications::run_now,
        document,
    ),
    components(schemas(ErrorBody)),
    modifiers(&Conventions),
    security(("bearer" = []), ("session" = [])),
)]
pub struct ApiDoc;

/// What holds for every operation: how callers authenticate, and the
/// error body of every failure.
struct Conventions;

impl Modify for Conventions {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A personal API token (Profile → API tokens)."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                cookies::SESSION,
                "The browser session (`__Host-tally_session` when PUBLIC_BASE_URL is https); state-changing requests also send X-CSRF-Token.",
            ))),
        );
        let error = ResponseBuilder::new()
            .description("The failure, as a google.rpc.Status (the status code is in the body too)")
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        ErrorBody::name(),
                    ))))
                    .build(),
            )
            .build();
        for (path, item) in openapi.paths.paths.iter_mut() {
            for (method, operation) in [
                ("GET", &mut item.get),
                ("PUT", &mut item.put),
                ("POST", &mut item.post),
                ("DELETE", &mut item.delete),
                ("PATCH", &mut item.patch),
            ] {
                let Some(operation) = operation else {
                    continue;
                };
                operation
                    .responses
                    .responses
                    .entry("default".to_owned())
                    .or_insert_with(|| RefOr::T(error.clone()));
                // Who may call it, how often, and whether it asks for the
                // password again, as its use case declares.
                let Some(rule) = policy().rest_rule(method, routed(path)) else {
                    continue;
                };
                let extensions = operation.extensions.get_or_insert_with(Default::default);
                extensions.insert(CALLER.to_owned(), rule.caller.as_str().into());
                if rule.fresh_password {
                    extensions.insert(FRESH_PASSWORD.to_owned(), true.into());
                }
                if let Some(limit) = rule.limit {
                    extensions.insert(RATE_LIMIT.to_owned(), limit.as_str().into());
                    operation
                        .responses
                        .responses
                        .entry("429".to_owned())
                        .or_insert_with(|| {
                            RefOr::T(
                                ResponseBuilder::new()
                                    .description(limit.description())
                                    .build(),
                            )
                        });
                }
            }
        }
    }
}

/// The extension naming an operation's caller (`routes::use_case::Caller`):
/// `anyone`, `signed-in`, `operations`, `administrator`,
/// `backup-administrator`, `browser-session` or
/// `administrator-browser-session`.
pub const CALLER: &str = "x-tally-caller";

/// The extension naming an operation's rate limit
/// (`routes::use_case::RateLimit`): `sign-in`, `public-forms`,
/// `single-sign-on-start`, `bank-syncs` or `test-sends`. Each such
/// operation documents its 429 answer.
pub const RATE_LIMIT: &str = "x-tally-rate-limit";

/// The extension marking an operation that asks for the current password
/// again (`currentPassword` in its request).
pub const FRESH_PASSWORD: &str = "x-tally-fresh-password";

/// The route that serves a documented path: one axum route serves
/// google.longrunning's `operations/{id}` and its `:cancel`/`:wait` verbs.
fn routed(documented: &str) -> &str {
    if documented.starts_with("/v1/operations/{operation}") {
        "/v1/operations/{*name}"
    } else {
        documented
    }
}

/// The document as JSON, built once.
fn json() -> Result<&'static str, ApiError> {
    static JSON: OnceLock<Result<String, String>> = OnceLock::new();
    JSON.get_or_init(|| {
        ApiDoc::openapi()
            .to_json()
            .map_err(|error| error.to_string())
    })
    .as_deref()
    .map_err(|error| ApiError::Internal(format!("the OpenAPI document: {error}")))
}

/// `GET /api/openapi.json`: this document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    security(()),
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", content_type = "application/json")),
)]
pub async fn document() -> Result<Response, ApiError> {
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json()?,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// `(METHOD, path)` of every operation in the document.
    fn documented() -> BTreeSet<(String, String)> {
        let doc = ApiDoc::openapi();
        let mut all = BTreeSet::new();
        for (path, item) in &doc.paths.paths {
            for (method, operation) in [
                ("GET", &item.get),
                ("PUT", &item.put),
                ("POST", &item.post),
                ("DELETE", &item.delete),
                ("PATCH", &item.patch),
            ] {
                if operation.is_some() {
                    all.insert((method.to_owned(), path.clone()));
                }
            }
        }
        all
    }

    #[test]
    fn every_route_is_documented_and_every_documented_path_is_routed() {
        let documented = documented();
        let mut routed = BTreeSet::new();
        for route in routes::api_routes(false) {
            for method in route.methods {
                // One axum route serves the methods of google.longrunning on
                // `operations/{id}` and its `:cancel`/`:wait` verbs.
                if route.path == "/v1/operations/{*name}" {
                    let documented_as = match method {
                        "POST" => vec![
                            "/v1/operations/{operation}:cancel",
                            "/v1/operations/{operation}:wait",
                        ],
                        _ => vec!["/v1/operations/{operation}"],
                    };
                    for path in documented_as {
                        routed.insert((method.to_owned(), path.to_owned()));
                    }
                } else {
                    routed.insert((method.to_owned(), route.path.to_owned()));
                }
            }
        }
        let missing: Vec<_> = routed.difference(&documented).collect();
        let extra: Vec<_> = documented.difference(&routed).collect();
        assert!(missing.is_empty(), "routed but not documented: {missing:?}");
        assert!(extra.is_empty(), "documented but not routed: {extra:?}");
    }

    #[test]
    fn every_operation_answers_failures_with_the_error_body_and_names_its_schemas() {
        let doc: serde_json::Value = serde_json::from_str(json().unwrap()).unwrap();
        assert_eq!(doc["openapi"].as_str().map(|v| &v[..2]), Some("3."));
        let paths = doc["paths"].as_object().unwrap();
        for (path, item) in paths {
            for (method, operation) in item.as_object().unwrap() {
                let default = &operation["responses"]["default"]["content"]["application/json"];
                assert_eq!(
                    default["schema"]["$ref"], "#/components/schemas/ErrorBody",
                    "{method} {path}"
                );
                assert!(
                    operation[CALLER].is_string(),
                    "{method} {path} names no caller"
                );
            }
        }
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for name in [
            "BillForm",
            "BillRecord",
            "Tracker",
            "Operation",
            "LeadForm",
            "Role",
        ] {
            assert!(schemas.contains_key(name), "no schema {name}");
        }
        // Domain types on the wire, not strings.
        assert_eq!(
            schemas["Role"]["enum"],
            serde_json::json!(["user", "admin"])
        );
        // A public operation asks for no credentials; the rest for either.
        assert_eq!(
            paths["/api/leads"]["post"]["security"],
            serde_json::json!([{}])
        );
        // Who may call each, from its use case's declaration.
        for (path, method, caller) in [
            ("/api/leads", "post", "anyone"),
            ("/api/bills", "get", "signed-in"),
            ("/api/admin/users", "get", "administrator"),
            (
                "/api/admin/users/{id}/disable",
                "post",
                "administrator-browser-session",
            ),
            ("/v1/operations/{operation}:cancel", "post", "operations"),
            ("/v1/admin:backup", "post", "backup-administrator"),
        ] {
            assert_eq!(paths[path][method][CALLER], caller, "{method} {path}");
        }
        assert_eq!(
            doc["security"],
            serde_json::json!([{"bearer": []}, {"session": []}])
        );
    }

    /// The schemas a request body names, followed through `$ref`s.
    fn request_properties(
        doc: &serde_json::Value,
        operation: &serde_json::Value,
    ) -> BTreeSet<String> {
        fn walk(doc: &serde_json::Value, value: &serde_json::Value, found: &mut BTreeSet<String>) {
            match value {
                serde_json::Value::Object(map) => {
                    if let Some(name) = map
                        .get("$ref")
                        .and_then(|r| r.as_str())
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    {
                        walk(doc, &doc["components"]["schemas"][name], found);
                    }
                    if let Some(properties) = map.get("properties").and_then(|p| p.as_object()) {
                        found.extend(properties.keys().cloned());
                    }
                    for (key, inner) in map {
                        if key != "properties" {
                            walk(doc, inner, found);
                        }
                    }
                }
                serde_json::Value::Array(items) => {
                    for item in items {
                        walk(doc, item, found);
                    }
                }
                _ => {}
            }
        }
        let mut found = BTreeSet::new();
        walk(doc, &operation["requestBody"], &mut found);
        found
    }

    #[test]
    fn the_declared_password_checks_and_rate_limits_are_the_documented_ones() {
        let doc: serde_json::Value = serde_json::from_str(json().unwrap()).unwrap();
        let mut fresh = BTreeSet::new();
        let mut limited = BTreeSet::new();
        let mut wrong = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let asks = request_properties(&doc, operation).contains("currentPassword");
                let declared = operation[FRESH_PASSWORD] == serde_json::json!(true);
                if asks != declared {
                    wrong.push(format!(
                        "{method} {path}: its request {} currentPassword but its use case {} .fresh_password()",
                        if asks { "has" } else { "has no" },
                        if declared { "declares" } else { "does not declare" },
                    ));
                }
                if declared {
                    fresh.insert(format!("{method} {path}"));
                    assert_eq!(operation[RATE_LIMIT], "sign-in", "{method} {path}");
                }
                // A 429 written by hand on a route that declares no limit
                // fails here: the declaration is where a limit is said.
                let answers_429 = operation["responses"].get("429").is_some();
                if answers_429 != operation[RATE_LIMIT].is_string() {
                    wrong.push(format!(
                        "{method} {path}: a 429 answer and a declared rate limit go together"
                    ));
                }
                if let Some(limit) = operation[RATE_LIMIT].as_str() {
                    limited.insert(format!("{method} {path} {limit}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        for expected in [
            "post /api/auth/password",
            "post /api/auth/totp/disable",
            "post /v1/admin:restore",
        ] {
            assert!(fresh.contains(expected), "{expected} in {fresh:?}");
        }
        for expected in [
            "post /api/leads public-forms",
            "post /api/support public-forms",
            "post /api/auth/login sign-in",
            "get /api/auth/oidc/start single-sign-on-start",
            "post /api/bank/connections/{id}/sync bank-syncs",
            "post /api/notifications/channels/{id}/test test-sends",
        ] {
            assert!(limited.contains(expected), "{expected} in {limited:?}");
        }
    }
}
