//! The long-running operations API over real HTTP against a fresh database:
//! the google.longrunning methods, their JSON, errors, filter and paging,
//! who may see what, restarts, and the real kinds (backup, restore check,
//! re-encryption). Waits use `:wait` (event-driven) with generous timeouts;
//! nothing here times the server. The operations' JSON is checked raw on
//! purpose (`send_raw`, `json_raw`): proto3's JSON mapping is the wire
//! shape under test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::Register;
use app::contract::admin::RegistrationSetting;
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::Browser;
use support::{spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

async fn app(extra: &[(&str, &str)]) -> TestApp {
    let mut vars = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("TALLY_DIAGNOSTICS", "1"),
    ];
    vars.extend_from_slice(extra);
    spawn_app(&vars).await
}

async fn admin(app: &TestApp) -> Browser {
    Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await
}

/// A second, ordinary user (through open registration).
async fn user(app: &TestApp, admin: &Browser, email: &str) -> Browser {
    let open: RegistrationSetting = admin
        .call_expecting(
            200,
            Method::PUT,
            "/api/admin/registration",
            &support::registration(true),
        )
        .await;
    assert!(open.open);
    let mut browser = Browser::open(&app.address).await;
    let response = browser
        .register(&Register {
            invitation: None,
            email: email.to_owned(),
            name: "Bea".into(),
            password: ADMIN_PASSWORD.into(),
            time_zone: None,
        })
        .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    Browser::signed_in(&app.address, email, ADMIN_PASSWORD).await
}

async fn sleep(browser: &Browser, duration: &str, fail: bool) -> Value {
    let (status, operation) = browser
        .send_raw(
            Method::POST,
            "/v1/diagnostics:sleep",
            json!({ "duration": duration, "fail": fail }),
        )
        .await;
    assert_eq!(status, 200, "{operation}");
    operation
}

async fn wait(browser: &Browser, name: &str) -> Value {
    let (status, operation) = browser
        .send_raw(
            Method::POST,
            &format!("/v1/{name}:wait"),
            json!({ "timeout": "25s" }),
        )
        .await;
    assert_eq!(status, 200, "{operation}");
    assert_eq!(
        operation["done"], true,
        "still running after the wait: {operation}"
    );
    operation
}

fn keys(operation: &Value) -> Vec<String> {
    let mut keys: Vec<String> = operation.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

fn names(list: &Value) -> Vec<String> {
    list["operations"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|op| op["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_sleep_runs_to_its_response_and_reads_as_a_google_operation() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let started = sleep(&admin, "0.3s", false).await;
    assert_eq!(keys(&started), ["done", "metadata", "name"]);
    assert_eq!(started["done"], false);
    let name = started["name"].as_str().unwrap();
    assert!(name.starts_with("operations/"), "{name}");
    let metadata = &started["metadata"];
    assert_eq!(
        metadata["@type"],
        "type.googleapis.com/tally.v1.SleepMetadata"
    );
    assert_eq!(metadata["duration"], "0.300s");
    assert_eq!(metadata["progress"]["kind"], "sleep");
    assert_eq!(metadata["progress"]["owner"], "users/1");
    assert!(metadata["progress"]["createTime"]
        .as_str()
        .unwrap()
        .ends_with('Z'));

    let done = wait(&admin, name).await;
    assert_eq!(keys(&done), ["done", "metadata", "name", "response"]);
    assert_eq!(
        done["response"],
        json!({ "@type": "type.googleapis.com/tally.v1.SleepResponse", "slept": "0.300s" })
    );
    assert!(done["metadata"]["progress"]["endTime"].is_string());
    // Waiting on a done operation answers at once with the same operation.
    let again = wait(&admin, name).await;
    assert_eq!(again, done);
    assert_eq!(admin.json_raw(&format!("/v1/{name}")).await, done);

    let failing = sleep(&admin, "0s", true).await;
    let failed = wait(&admin, failing["name"].as_str().unwrap()).await;
    assert_eq!(keys(&failed), ["done", "error", "metadata", "name"]);
    assert_eq!(failed["error"]["code"], 13);
}

#[tokio::test]
async fn cancel_ends_a_running_operation_cancelled_and_delete_forgets_it() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let long = sleep(&admin, "600s", false).await;
    let name = long["name"].as_str().unwrap();
    // The body may be empty even when it says it is JSON.
    let cancelled = admin
        .request(Method::POST, &format!("/v1/{name}:cancel"))
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 200);
    assert_eq!(cancelled.json::<Value>().await.unwrap(), json!({}));
    let ended = wait(&admin, name).await;
    assert_eq!(ended["error"]["code"], 1, "{ended}");
    assert_eq!(ended["metadata"]["progress"]["cancelRequested"], true);
    // Cancelled operations stay readable.
    assert_eq!(admin.json_raw(&format!("/v1/{name}")).await, ended);

    let (status, body) = admin
        .send_raw(Method::DELETE, &format!("/v1/{name}"), json!(null))
        .await;
    assert_eq!((status, body), (200, json!({})));
    let (status, body) = admin
        .send_raw(Method::GET, &format!("/v1/{name}"), json!(null))
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["status"], "NOT_FOUND");
    assert!(!names(&admin.json_raw("/v1/operations").await).contains(&name.to_owned()));

    // Delete does not cancel: a running operation deleted keeps running and
    // is gone from the API at once.
    let running = sleep(&admin, "0.5s", false).await;
    let running_name = running["name"].as_str().unwrap().to_owned();
    let (status, _) = admin
        .send_raw(Method::DELETE, &format!("/v1/{running_name}"), json!(null))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        admin
            .status(Method::GET, &format!("/v1/{running_name}"))
            .await,
        404
    );
}

#[tokio::test]
async fn errors_use_googles_shape_and_name_what_is_wrong() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let cases = [
        (Method::GET, "/v1/operations/nope", 404, "NOT_FOUND"),
        (
            Method::GET,
            "/v1/operations?filter=done%20%3D%3D",
            400,
            "INVALID_ARGUMENT",
        ),
        (
            Method::GET,
            "/v1/operations?pageSize=-1",
            400,
            "INVALID_ARGUMENT",
        ),
        (
            Method::GET,
            "/v1/operations?page_size=many",
            400,
            "INVALID_ARGUMENT",
        ),
        (
            Method::GET,
            "/v1/operations?pageToken=forged",
            400,
            "INVALID_ARGUMENT",
        ),
        (
            Method::POST,
            "/v1/operations/abc:frobnicate",
            404,
            "NOT_FOUND",
        ),
    ];
    for (method, path, code, status) in cases {
        let (got, body) = admin.send_raw(method.clone(), path, json!({})).await;
        assert_eq!(got, code, "{method} {path}: {body}");
        assert_eq!(body["error"]["code"], code);
        assert_eq!(body["error"]["status"], status, "{body}");
        assert!(body["error"]["message"].as_str().unwrap().len() > 5);
    }
    // Verbs that do not exist for an operation one may see are 501.
    let mine = sleep(&admin, "0s", false).await;
    let name = mine["name"].as_str().unwrap();
    for (method, verb) in [
        (Method::POST, "frobnicate"),
        (Method::GET, "cancel"),
        (Method::DELETE, "wait"),
    ] {
        let (status, body) = admin
            .send_raw(method.clone(), &format!("/v1/{name}:{verb}"), json!({}))
            .await;
        assert_eq!(status, 501, "{method} :{verb}: {body}");
        assert_eq!(body["error"]["status"], "UNIMPLEMENTED");
    }
    let (_, body) = admin
        .send_raw(Method::GET, "/v1/operations?filter=owner%3D1", json!({}))
        .await;
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "filter"
    );
    let (status, body) = admin
        .send_raw(
            Method::POST,
            "/v1/diagnostics:sleep",
            json!({ "duration": "soon" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "duration"
    );
    let anonymous = reqwest::get(app.url("/v1/operations")).await.unwrap();
    assert_eq!(anonymous.status(), 401);
}

#[tokio::test]
async fn users_see_their_own_operations_and_admins_see_all() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let bea = user(&app, &admin, "bea@example.com").await;
    let mine = sleep(&admin, "600s", false).await;
    let name = mine["name"].as_str().unwrap();

    // Bea cannot start diagnostics, see, wait on, cancel or delete it.
    let (status, _) = bea
        .send_raw(
            Method::POST,
            "/v1/diagnostics:sleep",
            json!({ "duration": "1s" }),
        )
        .await;
    assert_eq!(status, 403);
    for (method, path) in [
        (Method::GET, format!("/v1/{name}")),
        (Method::POST, format!("/v1/{name}:wait")),
        (Method::POST, format!("/v1/{name}:cancel")),
        (Method::DELETE, format!("/v1/{name}")),
    ] {
        assert_eq!(
            bea.status(method.clone(), &path).await,
            404,
            "{method} {path}"
        );
    }
    assert!(names(&bea.json_raw("/v1/operations").await).is_empty());
    assert_eq!(bea.status(Method::GET, "/v1/users/1/operations").await, 403);
    assert_eq!(
        names(&admin.json_raw("/v1/users/1/operations").await),
        [name]
    );
    assert_eq!(
        names(&admin.json_raw("/v1/users/me/operations").await),
        [name]
    );
    assert!(names(&admin.json_raw("/v1/users/2/operations").await).is_empty());
    // Still running: nothing Bea did touched it.
    assert_eq!(admin.json_raw(&format!("/v1/{name}")).await["done"], false);

    // A bearer token works without a CSRF header.
    let (status, created) = admin
        .send_raw(Method::POST, "/api/tokens", json!({ "name": "ops script" }))
        .await;
    assert_eq!(status, 201);
    let token = created["token"].as_str().unwrap();
    let cancelled = reqwest::Client::new()
        .post(app.url(&format!("/v1/{name}:cancel")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 200);
    assert_eq!(wait(&admin, name).await["error"]["code"], 1);
}

#[tokio::test]
async fn pages_are_stable_under_concurrent_inserts_and_filters_select() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let mut started = Vec::new();
    for n in 0..5 {
        let op = sleep(&admin, "0s", n % 2 == 0).await;
        started.push(op["name"].as_str().unwrap().to_owned());
    }
    for name in &started {
        wait(&admin, name).await;
    }
    let mut seen = Vec::new();
    let first = admin.json_raw("/v1/operations?pageSize=2").await;
    assert_eq!(names(&first).len(), 2);
    seen.extend(names(&first));
    // New operations arrive between pages; the walk neither repeats nor
    // skips the ones that were there.
    let newcomer = sleep(&admin, "0s", false).await;
    let mut token = first["nextPageToken"].as_str().unwrap().to_owned();
    loop {
        let page = admin
            .json_raw(&format!("/v1/operations?page_size=2&page_token={token}"))
            .await;
        seen.extend(names(&page));
        match page["nextPageToken"].as_str() {
            Some(next) => token = next.to_owned(),
            None => break,
        }
    }
    let mut expected = started.clone();
    expected.reverse();
    assert_eq!(seen, expected, "newest first, each once");
    assert!(!seen.contains(&newcomer["name"].as_str().unwrap().to_owned()));

    // A token is bound to its filter.
    let (status, body) = admin
        .send_raw(
            Method::GET,
            &format!(
                "/v1/operations?pageSize=2&filter=done%3Dtrue&pageToken={}",
                first["nextPageToken"].as_str().unwrap()
            ),
            json!(null),
        )
        .await;
    assert_eq!(status, 400, "{body}");

    let failed = admin
        .json_raw("/v1/operations?filter=done%20%3D%20true%20AND%20NOT%20kind%20%3D%20backup%20AND%20metadata.%40type%20%3D%20%22type.googleapis.com%2Ftally.v1.SleepMetadata%22")
        .await;
    let done_sleeps = names(&failed);
    assert!(done_sleeps.len() >= 5, "{failed}");
    assert!(started.iter().all(|name| done_sleeps.contains(name)));
    let running = admin
        .json_raw("/v1/operations?filter=done%20%3D%20false")
        .await;
    let all_done = names(&running)
        .iter()
        .all(|name| name == newcomer["name"].as_str().unwrap());
    assert!(all_done, "{running}");
    let future = admin
        .json_raw("/v1/operations?filter=create_time%20%3E%20%222999-01-01T00%3A00%3A00Z%22")
        .await;
    assert!(names(&future).is_empty());
    let capped = admin.json_raw("/v1/operations?pageSize=5000").await;
    assert_eq!(names(&capped).len(), 6);
}

#[tokio::test]
async fn a_restart_aborts_a_running_sleep_and_keeps_finished_operations() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let finished = sleep(&admin, "0s", false).await;
    let finished = wait(&admin, finished["name"].as_str().unwrap()).await;
    let running = sleep(&admin, "600s", false).await;
    let name = running["name"].as_str().unwrap().to_owned();

    let app = app
        .restart(&[
            ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
            ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
            ("TALLY_DIAGNOSTICS", "1"),
        ])
        .await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let aborted = admin.json_raw(&format!("/v1/{name}")).await;
    assert_eq!(aborted["done"], true);
    assert_eq!(aborted["error"]["code"], 10, "{aborted}");
    assert!(aborted["error"]["message"]
        .as_str()
        .unwrap()
        .contains("restarted"));
    assert_eq!(
        admin
            .json_raw(&format!("/v1/{}", finished["name"].as_str().unwrap()))
            .await,
        finished
    );
}

#[tokio::test]
async fn backup_restore_check_and_reencryption_run_as_operations() {
    let app = app(&[]).await;
    let admin = admin(&app).await;
    let (status, started) = admin
        .send_raw(Method::POST, "/v1/admin:backup", json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(
        started["metadata"]["@type"],
        "type.googleapis.com/tally.v1.BackupMetadata"
    );
    let backup = wait(&admin, started["name"].as_str().unwrap()).await;
    let response = &backup["response"];
    assert_eq!(
        response["@type"], "type.googleapis.com/tally.v1.BackupResponse",
        "{backup}"
    );
    let file = response["fileName"].as_str().unwrap();
    assert!(file.starts_with("bills-"), "{file}");
    let pages = &backup["metadata"];
    assert_eq!(pages["pagesCopied"], pages["pagesTotal"], "{pages}");
    assert!(
        pages["pagesTotal"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
            > 0
    );
    assert!(app.dir.path().join("data/backups").join(file).is_file());

    let (status, check) = admin
        .send_raw(
            Method::POST,
            "/v1/admin:restoreCheck",
            json!({ "backupFile": file }),
        )
        .await;
    assert_eq!(status, 200, "{check}");
    let check = wait(&admin, check["name"].as_str().unwrap()).await;
    let response = &check["response"];
    assert_eq!(
        response["@type"], "type.googleapis.com/tally.v1.RestoreCheckResponse",
        "{check}"
    );
    assert_eq!(response["backupFile"], file);
    assert_eq!(response["tableRows"]["users"], "1");
    assert!(
        response["totalRows"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
            > 1
    );
    // The scratch copy is gone.
    let leftovers = std::fs::read_dir(app.dir.path().join("data/backups"))
        .unwrap()
        .filter(|entry| {
            entry
                .as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with(".restore")
        })
        .count();
    assert_eq!(leftovers, 0);

    let (status, bad) = admin
        .send_raw(
            Method::POST,
            "/v1/admin:restoreCheck",
            json!({ "backupFile": "../etc/passwd" }),
        )
        .await;
    assert_eq!(status, 400, "{bad}");

    let (_, reencrypt) = admin
        .send_raw(Method::POST, "/v1/admin:reencryptSecrets", json!({}))
        .await;
    let reencrypt = wait(&admin, reencrypt["name"].as_str().unwrap()).await;
    assert_eq!(
        reencrypt["response"]["@type"], "type.googleapis.com/tally.v1.ReencryptSecretsResponse",
        "{reencrypt}"
    );
    // Secrets still open after re-sealing: the admin can still sign in and
    // read the sign-in history (sealed columns).
    let (status, _) = admin
        .send_raw(Method::GET, "/api/profile/sign-ins", json!(null))
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_restore_check_below_the_minimum_rows_fails_with_a_reason() {
    let app = app(&[("RESTORE_MIN_ROWS", "1000000")]).await;
    let admin = admin(&app).await;
    let (_, check) = admin
        .send_raw(Method::POST, "/v1/admin:restoreCheck", json!({}))
        .await;
    let none_yet = wait(&admin, check["name"].as_str().unwrap()).await;
    assert_eq!(none_yet["error"]["code"], 9, "{none_yet}");
    assert!(none_yet["error"]["message"]
        .as_str()
        .unwrap()
        .contains("take a backup first"));

    let (_, backup) = admin
        .send_raw(Method::POST, "/v1/admin:backup", json!({}))
        .await;
    wait(&admin, backup["name"].as_str().unwrap()).await;
    let (_, check) = admin
        .send_raw(Method::POST, "/v1/admin:restoreCheck", json!({}))
        .await;
    let short = wait(&admin, check["name"].as_str().unwrap()).await;
    assert_eq!(short["error"]["code"], 9, "{short}");
    assert!(short["error"]["message"]
        .as_str()
        .unwrap()
        .contains("RESTORE_MIN_ROWS"));
}

#[tokio::test]
async fn without_diagnostics_there_is_no_sleep() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await;
    let admin = admin(&app).await;
    let (status, _) = admin
        .send_raw(
            Method::POST,
            "/v1/diagnostics:sleep",
            json!({ "duration": "1s" }),
        )
        .await;
    assert_eq!(status, 404);
}
