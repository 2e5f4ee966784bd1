//! The every-route safety walks, over the server functions as well as the
//! REST route table (issue 28, "Also"): each server function declares who
//! may call it and refuses everyone else before it decodes anything; each
//! writing one refuses a missing CSRF header; each reading one answers
//! `no-store`; and every route of either kind refuses a body over the API's
//! limit with 413.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use reqwest::Method;
use serde_json::{json, Value};
use server::middleware::server_fns::{caller, PageCaller};
use server::routes::policy::policy;
use server::routes::use_case::Caller;
use support::browser::Browser;
use support::with_admin;

/// Every server function the app registers: its path and method.
fn server_functions() -> Vec<(String, Method)> {
    let mut all: Vec<(String, Method)> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, method)| {
            (
                path.to_owned(),
                Method::from_bytes(method.as_str().as_bytes()).unwrap(),
            )
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(all.len() >= 90, "only {} server functions found", all.len());
    all
}

async fn status_of(browser: &Browser, method: &Method, path: &str) -> u16 {
    let request = browser.request(method.clone(), path);
    let request = if *method == Method::GET {
        request
    } else {
        request.json(&json!({}))
    };
    request.send().await.unwrap().status().as_u16()
}

#[test]
fn every_server_function_is_declared_by_a_use_case_and_every_declared_one_exists() {
    let registered: Vec<String> = server_functions()
        .into_iter()
        .map(|(path, _)| {
            path.trim_start_matches(server::middleware::server_fns::PREFIX)
                .to_owned()
        })
        .collect();
    let declared: Vec<&str> = policy().server_fn_endpoints().collect();
    let undeclared: Vec<&String> = registered
        .iter()
        .filter(|endpoint| !declared.contains(&endpoint.as_str()))
        .collect();
    assert!(undeclared.is_empty(), "no use case declares {undeclared:?}");
    let missing: Vec<&&str> = declared
        .iter()
        .filter(|endpoint| !registered.iter().any(|found| found == **endpoint))
        .collect();
    assert!(
        missing.is_empty(),
        "declared but no such server function: {missing:?}"
    );
}

#[tokio::test]
async fn every_server_function_refuses_callers_it_does_not_declare() {
    let (app, admin) = with_admin(&[]).await;
    let user = support::plain_user(&app, &admin, "walker@example.com").await;
    let anonymous = Browser::open(&app.address).await;
    let mut counted = [0; 3];
    for (path, method) in server_functions() {
        let anonymous_status = status_of(&anonymous, &method, &path).await;
        let declared = caller(&path).unwrap_or_else(|| panic!("no use case declares {path}"));
        match declared.at_a_browser() {
            PageCaller::Anyone => {
                assert!(
                    anonymous_status < 500,
                    "{method} {path}: {anonymous_status}"
                );
                // Open means open: a read is not refused for want of a
                // session.
                if method == Method::GET {
                    assert_ne!(anonymous_status, 401, "{method} {path}");
                }
                counted[0] += 1;
            }
            PageCaller::SignedIn => {
                assert_eq!(anonymous_status, 401, "{method} {path} for nobody");
                counted[1] += 1;
            }
            PageCaller::Administrator => {
                assert_eq!(anonymous_status, 401, "{method} {path} for nobody");
                let user_status = status_of(&user, &method, &path).await;
                assert_eq!(user_status, 403, "{method} {path} for a plain user");
                counted[2] += 1;
            }
        }
    }
    assert!(counted.iter().all(|n| *n > 0), "{counted:?}");
    // What no use case declares is not served, signed in or not.
    for browser in [&anonymous, &admin] {
        assert_eq!(
            status_of(browser, &Method::POST, "/api/fn/undeclared").await,
            404
        );
    }
    // The sign-in page asks which methods there are before anyone is
    // signed in (it was refused when only the REST route was open).
    assert_eq!(
        status_of(&anonymous, &Method::GET, "/api/fn/sign-in/methods").await,
        200
    );
}

/// A route path with its parameters filled in.
fn concrete(path: &str) -> String {
    let path = path
        .replace("{*name}", "operations/x")
        .replace("{kind}", "leads")
        .replace("{month}", "2026-11")
        .replace("{name}", "bills-20260101T000000.000Z.db")
        .replace("{user}", "me")
        .replace("{id}", "1");
    assert!(!path.contains('{'), "fill the parameters of {path}");
    path
}

/// A token of `browser`'s with `scopes`.
async fn token(browser: &Browser, scopes: &[&str]) -> String {
    let made: Value = browser
        .call(
            Method::POST,
            "/api/tokens",
            &json!({ "name": "walker", "scopes": scopes }),
        )
        .await
        .unwrap()
        .unwrap();
    made["token"].as_str().unwrap().to_owned()
}

/// Every API route refuses whoever its use case does not declare, before
/// its handler runs: only refusals are asked for, so the walk changes
/// nothing (a route's own tests show whom it serves).
#[tokio::test]
async fn every_route_refuses_callers_its_use_case_does_not_declare() {
    let (app, admin) = with_admin(&[("TALLY_DIAGNOSTICS", "1")]).await;
    let user = support::plain_user(&app, &admin, "walker@example.com").await;
    let anonymous = Browser::open(&app.address).await;
    // The administrator's token with every scope but `admin`, one with
    // all of them (no token reaches what needs a person at a browser),
    // and the plain user's read-only token.
    let no_admin = token(&admin, &["read", "write", "admin:backup"]).await;
    let every_scope = token(&admin, &["read", "write", "admin", "admin:backup"]).await;
    let read_only = token(&user, &["read"]).await;
    let by_token = |token: String, method: Method, path: String| {
        let request = app.with_token(&token, method.clone(), &path);
        let request = if method == Method::GET {
            request
        } else {
            request.json(&json!({}))
        };
        async move { request.send().await.unwrap().status().as_u16() }
    };
    let mut walked = [0; 7];
    for route in server::routes::api_routes(true) {
        for (method, declared) in route.methods.iter().zip(&route.callers) {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let path = concrete(route.path);
            let label = format!("{method} {path} ({declared:?})");
            if *declared == Caller::Anyone {
                walked[0] += 1;
                continue;
            }
            assert_eq!(
                status_of(&anonymous, &method, &path).await,
                401,
                "{label} for nobody"
            );
            let for_admins = matches!(
                declared,
                Caller::Administrator | Caller::BackupAdmin | Caller::AdminSession
            );
            if for_admins {
                assert_eq!(
                    status_of(&user, &method, &path).await,
                    403,
                    "{label} for a plain user"
                );
            }
            let writes = method != Method::GET;
            if for_admins || writes {
                let status = by_token(read_only.clone(), method.clone(), path.clone()).await;
                assert_eq!(status, 403, "{label} for a read-only token");
            }
            let counted = match declared {
                Caller::Anyone => 0,
                Caller::SignedIn => 1,
                Caller::Operations => 2,
                Caller::Administrator => {
                    let status = by_token(no_admin.clone(), method.clone(), path.clone()).await;
                    assert_eq!(status, 403, "{label} for a token without `admin`");
                    3
                }
                Caller::BackupAdmin => 4,
                Caller::BrowserSession | Caller::AdminSession => {
                    let status = by_token(every_scope.clone(), method.clone(), path.clone()).await;
                    assert_eq!(status, 403, "{label} for a token with every scope");
                    if *declared == Caller::BrowserSession {
                        5
                    } else {
                        6
                    }
                }
            };
            walked[counted] += 1;
        }
    }
    assert!(walked.iter().all(|n| *n > 0), "{walked:?}");
}

#[tokio::test]
async fn every_writing_server_function_refuses_a_missing_or_wrong_csrf_header() {
    let (_app, admin) = with_admin(&[]).await;
    let mut checked = 0;
    for (path, method) in server_functions() {
        // The public forms act for no account (`accounts.rs` pins the list).
        if method == Method::GET || server::middleware::csrf::exempt(&path) {
            continue;
        }
        for wrong in [None, Some("not-the-token")] {
            let mut request = admin
                .request_without_csrf(method.clone(), &path)
                .json(&json!({}));
            if let Some(wrong) = wrong {
                request = request.header("x-csrf-token", wrong);
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 403, "{method} {path} without CSRF");
            let body: Value = response.json().await.unwrap();
            assert!(
                body["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("CSRF"),
                "{method} {path}: {body}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

#[tokio::test]
async fn every_reading_server_function_answers_no_store() {
    let (_app, admin) = with_admin(&[]).await;
    let anonymous = Browser::open(&admin.base).await;
    let mut checked = 0;
    for (path, method) in server_functions() {
        if method != Method::GET {
            continue;
        }
        for browser in [&admin, &anonymous] {
            let response = browser.request(Method::GET, &path).send().await.unwrap();
            assert_eq!(
                response.headers()["cache-control"],
                "no-store",
                "GET {path} ({})",
                response.status()
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

/// One byte over the API's limit.
const OVER: usize = 1024 * 1024 + 1;

#[tokio::test]
async fn every_route_and_server_function_refuses_a_body_over_the_limit_with_413() {
    let (_app, admin) = with_admin(&[("TALLY_DIAGNOSTICS", "1")]).await;
    // Each route reads its own limit: 1 MiB, more for a file upload.
    let mut walked: Vec<(Method, String, usize)> = server_functions()
        .into_iter()
        .filter(|(_, method)| *method != Method::GET)
        .map(|(path, method)| (method, path, OVER))
        .collect();
    for route in server::routes::api_routes(true) {
        for method in route.methods {
            let path = concrete(route.path);
            walked.push((
                Method::from_bytes(method.as_bytes()).unwrap(),
                path,
                route.body_limit + 1,
            ));
        }
    }
    assert!(walked.len() > 150, "{}", walked.len());
    assert!(
        walked.iter().any(|(_, _, over)| *over > OVER),
        "uploads are walked"
    );
    for (method, path, over) in walked {
        let request = admin.request(method.clone(), &path);
        // A file form's function is sent its form with a file one byte
        // over the file's limit.
        let request = match policy().file_form_limit(&path) {
            Some(limit) => {
                let mut body = b"--Walk\r\nContent-Disposition: form-data; name=\"file\"; \
                    filename=\"big\"\r\n\r\n"
                    .to_vec();
                body.resize(body.len() + limit + 1, b' ');
                body.extend_from_slice(b"\r\n--Walk--\r\n");
                request
                    .header("content-type", "multipart/form-data; boundary=Walk")
                    .body(body)
            }
            None => request
                .header("content-type", "application/json")
                .body(vec![b' '; over]),
        };
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 413, "{method} {path}");
        let json: Value = response.json().await.unwrap();
        assert_eq!(json["error"]["code"], 413, "{method} {path}: {json}");
    }
}
