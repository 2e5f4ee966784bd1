//! Admin → Authentication against the real OpenID provider
//! (`support::oidc`): settings in the database where the environment is
//! silent, the safeguards that keep one way in open, local sign-in
//! switched off (403), the `tally auth local-login on` break-glass with the
//! server running, linking and unlinking from Profile, and the client
//! secret kept out of answers, pages and logs. Since Hardening III (issue
//! 52) a change takes an administrator's browser session and their
//! password (`currentPassword`), never a token; a new issuer unlinks the
//! identities of the previous one.

use reqwest::Method;
use serde_json::{json, Value};

use crate::single_sign_on::{app_for, scalar};
use crate::support::oidc::{free_port, OidcProvider, Person, CLIENT_ID, CLIENT_SECRET};
use crate::support::{
    spawn_app, tally_binary, RunningBinary, TestApp, ADMIN_EMAIL, ADMIN_PASSWORD,
};

const ADMIN_SETTINGS: &str = "/api/admin/authentication";

/// Tally with the bootstrap administrator, allowed to reach the provider on
/// loopback over http, with nothing of single sign-on in the environment.
async fn bare_app(extra: &[(&str, &str)]) -> TestApp {
    let mut settings = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("OIDC_ALLOW_HTTP", "true"),
        ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
        ("PUBLIC_BASE_URL", crate::support::oidc::TALLY_BASE),
        // Every change checks the password, which counts as a sign-in.
        ("SIGN_IN_ATTEMPTS_PER_MINUTE", "1000"),
        ("SIGN_IN_ACCOUNT_BURST", "1000"),
    ];
    settings.extend_from_slice(extra);
    spawn_app(&settings).await
}

/// Tally set up for `provider` (with `extra`), with the bootstrap
/// administrator.
async fn with_administrator(provider: &OidcProvider, extra: &[(&str, &str)]) -> TestApp {
    let mut settings = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("SIGN_IN_ATTEMPTS_PER_MINUTE", "1000"),
        ("SIGN_IN_ACCOUNT_BURST", "1000"),
    ];
    settings.extend_from_slice(extra);
    app_for(provider, &settings).await
}

async fn administrator(app: &TestApp) -> Person {
    let mut admin = Person::new(&app.address);
    assert_eq!(
        admin
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        200
    );
    admin
}

/// A change as the bootstrap administrator makes it: with their password.
async fn put(admin: &mut Person, mut body: Value) -> (u16, Value) {
    body["currentPassword"] = json!(ADMIN_PASSWORD);
    admin
        .call_tally(Method::PUT, ADMIN_SETTINGS, Some(body))
        .await
}

/// A refusal by a safeguard: 400 `FAILED_PRECONDITION`; its message.
fn refused((status, body): (u16, Value)) -> String {
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["status"], "FAILED_PRECONDITION", "{body}");
    body["error"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn admin_switches_single_sign_on_on_past_the_safeguards_and_local_sign_in_off() {
    let provider = OidcProvider::start(free_port(), json!({})).await;
    let app = bare_app(&[]).await;
    let mut admin = administrator(&app).await;

    let (status, settings) = admin.call_tally(Method::GET, ADMIN_SETTINGS, None).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["oidcEnabled"], false);
    assert_eq!(settings["localLoginEnabled"], true);
    assert_eq!(
        settings["redirectUri"],
        "http://tally.test/api/auth/oidc/callback"
    );
    assert_eq!(settings["postLogoutRedirectUri"], "http://tally.test/login");
    assert_eq!(settings["scopes"], "openid email profile groups");
    assert_eq!(settings["fixedByEnvironment"], json!([]));

    // Local sign-in cannot go first: single sign-on is off.
    let message = refused(put(&mut admin, json!({"localLoginEnabled": false})).await);
    assert!(message.contains("single sign-on is on"), "{message}");
    // Half a provider is refused, naming what is missing.
    let message = refused(put(&mut admin, json!({"issuerUrl": provider.issuer})).await);
    assert!(message.contains("clientId, clientSecret"), "{message}");
    // A provider whose discovery fails is refused, and nothing changes.
    let dead = format!("http://127.0.0.1:{}/", free_port());
    let message = refused(
        put(
            &mut admin,
            json!({"issuerUrl": dead, "clientId": CLIENT_ID, "clientSecret": CLIENT_SECRET}),
        )
        .await,
    );
    assert!(message.contains("discovery failed"), "{message}");
    assert_eq!(scalar(&app, "SELECT count(*) FROM oidc_settings").await, 0);
    // A bad field is named.
    let (status, body) = put(&mut admin, json!({"issuerUrl": "not a url"})).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "issuerUrl"
    );

    // The test button: what the provider offers.
    let (status, found) = admin
        .call_tally(
            Method::POST,
            "/api/admin/authentication/discovery",
            Some(json!({"issuerUrl": provider.issuer})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(found["ok"], true, "{found}");
    assert!(found["endSessionEndpoint"].as_str().is_some(), "{found}");

    // All three, and a working provider: on. The secret is never read back.
    let (status, settings) = put(
        &mut admin,
        json!({
            "issuerUrl": provider.issuer,
            "clientId": CLIENT_ID,
            "clientSecret": CLIENT_SECRET,
            "linkByEmail": true,
            "buttonLabel": "Sign in with the test provider",
        }),
    )
    .await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["oidcEnabled"], true);
    assert_eq!(settings["clientSecretSet"], true);
    assert!(!settings.to_string().contains(CLIENT_SECRET));
    let sealed: String = sqlx::query_scalar("SELECT client_secret FROM oidc_settings")
        .fetch_one(&pool(&app).await)
        .await
        .unwrap();
    assert!(!sealed.contains(CLIENT_SECRET), "sealed at rest");
    let (_, methods) = admin
        .call_tally(Method::GET, "/api/auth/methods", None)
        .await;
    assert_eq!(
        methods,
        json!({"password": true, "oidc": {"label": "Sign in with the test provider"}})
    );

    // No administrator has signed in through the provider yet.
    let message = refused(put(&mut admin, json!({"localLoginEnabled": false})).await);
    assert!(message.contains("administrator has signed in"), "{message}");
    // Linking by email never hands over an administrator: they link the
    // provider account from Profile, then sign in through it.
    let mut through = Person::new(&app.address);
    let callback = through
        .through_provider("/api/auth/oidc/start", "admin")
        .await;
    assert_eq!(
        through.finish(&callback).await.1,
        "/login?error=sso_link_from_profile"
    );
    let started = admin
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = admin.at_provider(started, "admin").await;
    assert_eq!(admin.finish(&callback).await.1, "/profile");
    let callback = through
        .through_provider("/api/auth/oidc/start", "admin")
        .await;
    assert_eq!(through.finish(&callback).await.1, "/tracker");
    assert!(through.me().await.unwrap().user.is_admin());

    let (status, settings) = put(&mut admin, json!({"localLoginEnabled": false})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["localLoginEnabled"], false);
    // Email and password no longer sign in, by any door.
    let mut someone = Person::new(&app.address);
    assert_eq!(
        someone
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        403
    );
    let posted = someone
        .post_tally_form(
            "/api/fn/sign-in",
            "/login",
            &[
                ("request[email]", ADMIN_EMAIL),
                ("request[password]", ADMIN_PASSWORD),
            ],
        )
        .await;
    // The sign-in form comes back with the refusal, and no session.
    let back = posted.headers()["location"].to_str().unwrap().to_owned();
    assert!(back.contains("/login?"), "{back}");
    let refusal = crate::support::form_refusal::refusal_in(&back).expect("a refusal");
    assert_eq!(refusal.error.code, 403);
    assert!(
        refusal.error.message.contains("switched off"),
        "{refusal:?}"
    );
    assert!(posted.headers().get("set-cookie").is_none());
    let (_, methods) = someone
        .call_tally(Method::GET, "/api/auth/methods", None)
        .await;
    assert_eq!(methods["password"], false);
    // Existing sessions and the provider keep working.
    assert!(through.me().await.is_some());

    // Never both off.
    let message = refused(
        put(
            &mut through,
            json!({"issuerUrl": null, "clientId": null, "clientSecret": null}),
        )
        .await,
    );
    assert!(message.contains("cannot both be off"), "{message}");
    assert_eq!(
        through
            .call_tally(Method::GET, ADMIN_SETTINGS, None)
            .await
            .1["oidcEnabled"],
        true
    );

    // The break-glass, with the server running: at once.
    let run = local_login_on(&app.dir.path().join("data"));
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("local sign-in is on"));
    assert_eq!(
        someone
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        200
    );
    let (_, settings) = through.call_tally(Method::GET, ADMIN_SETTINGS, None).await;
    assert_eq!(settings["localLoginEnabled"], true);
    assert_eq!(settings["localLoginBreakGlass"], true);
    // An administrator switching it off again ends the break-glass.
    let (status, settings) = put(&mut through, json!({"localLoginEnabled": false})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["localLoginBreakGlass"], false);
    assert_eq!(
        someone
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        403
    );
}

#[tokio::test]
async fn the_environment_wins_and_the_page_says_which_fields_it_fixed() {
    let provider = OidcProvider::start(free_port(), json!({})).await;
    let app = with_administrator(&provider, &[("OIDC_BUTTON_LABEL", "Authentik")]).await;
    let mut admin = administrator(&app).await;
    let (_, settings) = admin.call_tally(Method::GET, ADMIN_SETTINGS, None).await;
    assert_eq!(
        settings["fixedByEnvironment"],
        json!(["issuerUrl", "clientId", "clientSecret", "buttonLabel"])
    );
    assert_eq!(settings["oidcEnabled"], true);
    let message = refused(put(&mut admin, json!({"buttonLabel": "Mine"})).await);
    assert!(message.contains("OIDC_BUTTON_LABEL"), "{message}");
    // What the environment leaves open is Admin's.
    let (status, settings) = put(&mut admin, json!({"autoProvision": true})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["autoProvision"], true);
    let mut carol = Person::new(&app.address);
    let callback = carol
        .through_provider("/api/auth/oidc/start", "carol")
        .await;
    assert_eq!(
        carol.finish(&callback).await.1,
        "/tracker",
        "provisioned by Admin's setting"
    );
    // The Admin page shows the fixed fields read-only.
    let page = admin
        .get(&app.url("/admin/authentication"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("Set by OIDC_ISSUER_URL"), "{page}");
    assert!(page.contains("http://tally.test/api/auth/oidc/callback"));
}

#[tokio::test]
async fn profile_links_and_unlinks_a_provider_account() {
    let provider = OidcProvider::start(
        free_port(),
        json!({"dave-idp": {"email": "dave.elsewhere@example.com", "email_verified": true, "groups": []}}),
    )
    .await;
    let app = with_administrator(&provider, &[("OIDC_AUTO_PROVISION", "true")]).await;
    let mut admin = administrator(&app).await;
    let (_, listed) = admin
        .call_tally(Method::GET, "/api/profile/identities", None)
        .await;
    assert_eq!(listed["identities"], json!([]));
    assert_eq!(listed["hasPassword"], true);
    assert!(listed["providerLabel"].is_string());

    // Linking starts with a form post (its CSRF field), and comes back to
    // Profile with no new session.
    let session = admin.tally_cookie("tally_session");
    let started = admin
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = admin.at_provider(started, "dave-idp").await;
    assert_eq!(admin.finish(&callback).await.1, "/profile");
    assert_eq!(admin.tally_cookie("tally_session"), session);
    let (_, listed) = admin
        .call_tally(Method::GET, "/api/profile/identities", None)
        .await;
    assert_eq!(
        listed["identities"][0]["email"],
        "dave.elsewhere@example.com"
    );
    let id = listed["identities"][0]["id"].as_i64().unwrap();

    // The provider account now signs into this one, an administrator.
    let mut through = Person::new(&app.address);
    let callback = through
        .through_provider("/api/auth/oidc/start", "dave-idp")
        .await;
    assert_eq!(through.finish(&callback).await.1, "/tracker");
    assert_eq!(through.me().await.unwrap().user.email, ADMIN_EMAIL);

    // API tokens work for an account that signs in through the provider:
    // made from that browser session, used without it.
    let (status, made) = through
        .call_tally(Method::POST, "/api/tokens", Some(json!({"name": "script"})))
        .await;
    assert_eq!(status, 201, "{made}");
    let me = app
        .client
        .get(app.url("/api/auth/me"))
        .bearer_auth(made["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);

    // A linking without the session that started it is refused.
    let mut stranger = Person::new(&app.address);
    let started = admin
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = admin.at_provider(started, "dave-idp").await;
    assert_eq!(stranger.finish(&callback).await.1, "/login?error=sso_state");

    // A provider account linked elsewhere is not linked twice.
    let mut erin = Person::new(&app.address);
    let callback = erin.through_provider("/api/auth/oidc/start", "erin").await;
    assert_eq!(erin.finish(&callback).await.1, "/tracker", "provisioned");
    // (A fresh browser: the first one is signed in at the provider as dave.)
    let mut admin_again = administrator(&app).await;
    let started = admin_again
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = admin_again.at_provider(started, "erin").await;
    assert_eq!(
        admin_again.finish(&callback).await.1,
        "/login?error=sso_identity_taken"
    );

    // Erin's account has no password: her identity stays.
    let (_, hers) = erin
        .call_tally(Method::GET, "/api/profile/identities", None)
        .await;
    assert_eq!(hers["hasPassword"], false);
    let her_id = hers["identities"][0]["id"].as_i64().unwrap();
    let message = refused(
        erin.call_tally(
            Method::DELETE,
            &format!("/api/profile/identities/{her_id}"),
            None,
        )
        .await,
    );
    assert!(message.contains("no password"), "{message}");
    // Nobody unlinks another account's identity.
    let (status, _) = admin
        .call_tally(
            Method::DELETE,
            &format!("/api/profile/identities/{her_id}"),
            None,
        )
        .await;
    assert_eq!(status, 404);

    // The administrator has a password: unlinked.
    let (status, _) = admin
        .call_tally(
            Method::DELETE,
            &format!("/api/profile/identities/{id}"),
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, listed) = admin
        .call_tally(Method::GET, "/api/profile/identities", None)
        .await;
    assert_eq!(listed["identities"], json!([]));
}

#[tokio::test]
async fn the_client_secret_is_never_in_logs_answers_or_pages() {
    let provider = OidcProvider::start(free_port(), json!({"boss": {"email": "boss@example.com", "email_verified": true, "groups": ["tally-admins"]}})).await;
    let mut extra: Vec<(&str, String)> = provider.settings();
    extra.extend([
        ("OIDC_AUTO_PROVISION", "true".to_owned()),
        ("OIDC_ADMIN_GROUP", "tally-admins".to_owned()),
        ("RUST_LOG", "debug".to_owned()),
    ]);
    let extra: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut server = RunningBinary::start(&extra);
    let mut boss = Person::new(&server.url(""));
    let callback = boss.through_provider("/api/auth/oidc/start", "boss").await;
    assert_eq!(boss.finish(&callback).await.1, "/tracker");
    assert!(boss.me().await.unwrap().user.is_admin());

    let mut seen = String::new();
    for path in [
        "/login",
        "/admin/authentication",
        "/profile",
        "/api/auth/methods",
        ADMIN_SETTINGS,
    ] {
        let answer = boss.get(&server.url(path)).await;
        assert_eq!(answer.status(), 200, "{path}");
        seen.push_str(&answer.text().await.unwrap());
    }
    // Saved through Admin too, and discovery tested. The boss's account was
    // made by the provider and has no password to confirm a change with,
    // so the save is refused naming it (and would be refused as fixed: the
    // environment's secret wins); the secret is in no answer either way.
    let (status, _) = boss
        .call_tally(
            Method::POST,
            "/api/admin/authentication/discovery",
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = boss
        .call_tally(
            Method::PUT,
            ADMIN_SETTINGS,
            Some(json!({"clientSecret": "another-secret-value", "currentPassword": "a guess"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "currentPassword"
    );
    seen.push_str(&body.to_string());
    assert!(
        !seen.contains(CLIENT_SECRET),
        "an answer or page shows the secret"
    );
    assert!(!seen.contains("another-secret-value"));

    let logs = server.stop_and_read_logs();
    assert!(
        logs.contains("signed in through the identity provider"),
        "the logs were read"
    );
    assert!(!logs.contains(CLIENT_SECRET), "the logs show the secret");
    assert!(!logs.contains("another-secret-value"));
}

/// Hardening III (issue 52, finding 2): an administrator's API token, or
/// a session without the password, could point single sign-on at a
/// provider of its own with linking by email on, and that provider then
/// signed it in as anyone. Neither changes anything now; the administrator
/// with the password does, and the change is listed on Admin → Status by
/// field, never by value.
#[tokio::test]
async fn only_an_administrator_with_the_password_points_sign_in_at_a_provider() {
    let theirs = OidcProvider::start(free_port(), json!({})).await;
    let app = bare_app(&[]).await;
    let mut admin = administrator(&app).await;
    let takeover = json!({
        "issuerUrl": theirs.issuer,
        "clientId": CLIENT_ID,
        "clientSecret": CLIENT_SECRET,
        "linkByEmail": true,
        "autoProvision": true,
    });

    // No token, whatever its scopes, even with the password in the body.
    for scopes in [
        json!(["admin"]),
        json!(["read", "write", "admin", "admin:backup"]),
    ] {
        let (status, made) = admin
            .call_tally(
                Method::POST,
                "/api/tokens",
                Some(json!({"name": "script", "scopes": scopes})),
            )
            .await;
        assert_eq!(status, 201, "{made}");
        let token = made["token"].as_str().unwrap();
        let mut body = takeover.clone();
        body["currentPassword"] = json!(ADMIN_PASSWORD);
        let answer = app
            .with_token(token, Method::PUT, ADMIN_SETTINGS)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 403, "{scopes}");
        // Reading stays the administrator's API.
        let read = app
            .with_token(token, Method::GET, ADMIN_SETTINGS)
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200, "{scopes}");
    }
    // A browser session without the password, or with a wrong one.
    for password in [None, Some("not the password")] {
        let mut body = takeover.clone();
        if let Some(password) = password {
            body["currentPassword"] = json!(password);
        }
        let (status, answer) = admin
            .call_tally(Method::PUT, ADMIN_SETTINGS, Some(body))
            .await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(
            answer["error"]["details"][0]["fieldViolations"][0]["field"], "currentPassword",
            "{answer}"
        );
    }
    assert_eq!(scalar(&app, "SELECT count(*) FROM oidc_settings").await, 0);
    assert_eq!(
        scalar(&app, "SELECT count(*) FROM settings_changes").await,
        0
    );
    let (_, methods) = admin
        .call_tally(Method::GET, "/api/auth/methods", None)
        .await;
    assert!(methods["oidc"].is_null(), "still off: {methods}");

    // With the password: on, and listed.
    let (status, settings) = put(&mut admin, takeover).await;
    assert_eq!(status, 200, "{settings}");
    let (status, page) = admin
        .call_tally(Method::GET, "/api/admin/status", None)
        .await;
    assert_eq!(status, 200, "{page}");
    let section = page["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|section| section["title"] == "Settings changes")
        .expect("the list of settings changes")
        .clone();
    let rows = section["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{section}");
    assert_eq!(
        rows[0]["value"],
        format!(
            "{ADMIN_EMAIL} changed the sign-in settings: issuerUrl, clientId, clientSecret, autoProvision, linkByEmail"
        )
    );
    let shown = section.to_string();
    assert!(!shown.contains(CLIENT_SECRET), "{shown}");
    assert!(!shown.contains(&theirs.issuer), "{shown}");
}

/// When the issuer changes, the identities linked at the previous one go,
/// in the same change: at another provider the same subject may be anyone,
/// and the previous provider must not sign them in again should it come
/// back under someone else's control.
#[tokio::test]
async fn a_new_issuer_unlinks_the_identities_of_the_previous_one() {
    let first = OidcProvider::start(free_port(), json!({})).await;
    let second = OidcProvider::start(free_port(), json!({})).await;
    let app = bare_app(&[]).await;
    let mut admin = administrator(&app).await;
    let (status, settings) = put(
        &mut admin,
        json!({
            "issuerUrl": first.issuer,
            "clientId": CLIENT_ID,
            "clientSecret": CLIENT_SECRET,
            "autoProvision": true,
        }),
    )
    .await;
    assert_eq!(status, 200, "{settings}");
    // One account linked from Profile, one made at its first sign-in.
    let started = admin
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = admin.at_provider(started, "admin-elsewhere").await;
    assert_eq!(admin.finish(&callback).await.1, "/profile");
    let mut carol = Person::new(&app.address);
    let callback = carol
        .through_provider("/api/auth/oidc/start", "carol")
        .await;
    assert_eq!(carol.finish(&callback).await.1, "/tracker");
    let identities = "SELECT count(*) FROM oidc_identities";
    assert_eq!(scalar(&app, identities).await, 2);

    // A change that keeps the issuer keeps them.
    let (status, settings) = put(&mut admin, json!({"buttonLabel": "Family sign-in"})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(scalar(&app, identities).await, 2);

    // Another issuer: both go with the change.
    let (status, settings) = put(&mut admin, json!({"issuerUrl": second.issuer})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(scalar(&app, identities).await, 0);
    let (_, listed) = admin
        .call_tally(Method::GET, "/api/profile/identities", None)
        .await;
    assert_eq!(listed["identities"], json!([]));
    assert_eq!(
        scalar(
            &app,
            "SELECT identities_dropped FROM settings_changes WHERE fields = 'issuerUrl'"
        )
        .await,
        2
    );
    let (_, page) = admin
        .call_tally(Method::GET, "/api/admin/status", None)
        .await;
    assert!(
        page.to_string()
            .contains("the issuer changed, so 2 identities at the previous provider were unlinked"),
        "{page}"
    );
}

async fn pool(app: &TestApp) -> sqlx::SqlitePool {
    sqlx::SqlitePool::connect(&format!("sqlite:{}", app.database_path().display()))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_v036_provider_that_was_switched_off_stays_off_after_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::support::legacy::upgraded(dir.path()).await;
    let (issuer, client_id, secret): (Option<String>, Option<String>, Option<String>) =
        sqlx::query_as("SELECT issuer_url, client_id, client_secret FROM oidc_settings")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(issuer, None, "its issuer is not kept, so it is not on");
    assert_eq!(client_id.as_deref(), Some("tally"));
    let secret = db
        .keyring
        .open(app::backend::secrets::OIDC_CLIENT_SECRET, &secret.unwrap())
        .unwrap();
    use secrecy::ExposeSecret;
    assert_eq!(
        secret.expose_secret(),
        "oidc-client-secret",
        "its secret is kept, sealed"
    );
}

#[tokio::test]
async fn the_break_glass_wins_over_the_environment() {
    let provider = OidcProvider::start(free_port(), json!({})).await;
    let app = with_administrator(&provider, &[("LOCAL_LOGIN_ENABLED", "false")]).await;
    let mut someone = Person::new(&app.address);
    assert_eq!(
        someone
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        403
    );

    // A wrong data directory is said, and creates nothing.
    let elsewhere = tempfile::tempdir().unwrap();
    let wrong = local_login_on(&elsewhere.path().join("data"));
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("no database at"));
    assert!(!elsewhere.path().join("data").join("db").exists());

    let run = local_login_on(&app.dir.path().join("data"));
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        someone
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        200
    );
}

/// `tally auth local-login on` on the data directory `data`.
fn local_login_on(data: &std::path::Path) -> std::process::Output {
    tally_binary()
        .args(["auth", "local-login", "on"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATA_DIR", data)
        .env("LOG_DIR", data.with_file_name("cli-logs"))
        .env("LEPTOS_SITE_ROOT", data.with_file_name("site"))
        .output()
        .unwrap()
}
