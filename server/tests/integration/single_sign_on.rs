//! Single sign-on against a real OpenID provider on loopback
//! (`oidc-provider`, see `support::oidc`): the code flow with PKCE, state
//! and nonce; which account an identity signs into; the admin group; the
//! failures that must sign nobody in.

use app::contract::account::{SignInMethod, SignInRecord};
use app::contract::two_factor::{RecoveryCodes, TotpCode, TotpEnrolment};
use reqwest::Method;
use serde_json::json;

use crate::support::browser::{Browser, EmptyBody};
use crate::support::oidc::{free_port, OidcProvider, Person};
use crate::support::totp::{authenticator, now};
use crate::support::{plain_user, spawn_app, TestApp, ADMIN_EMAIL, ADMIN_PASSWORD};

/// A provider (with `accounts`) and Tally set up for it (`extra` added).
pub(crate) async fn provider_and_app(
    accounts: serde_json::Value,
    extra: &[(&str, &str)],
) -> (OidcProvider, TestApp) {
    let provider = OidcProvider::start(free_port(), accounts).await;
    let app = app_for(&provider, extra).await;
    (provider, app)
}

/// Tally set up for `provider`, with `extra` settings.
pub(crate) async fn app_for(provider: &OidcProvider, extra: &[(&str, &str)]) -> TestApp {
    let owned = provider.settings();
    let mut settings: Vec<(&str, &str)> = owned
        .iter()
        .map(|(key, value)| (*key, value.as_str()))
        .collect();
    settings.extend_from_slice(extra);
    spawn_app(&settings).await
}

pub(crate) async fn sign_in(app: &TestApp, login: &str) -> (Person, reqwest::StatusCode, String) {
    let mut person = Person::new(&app.address);
    let callback = person.through_provider("/api/auth/oidc/start", login).await;
    let (status, location) = person.finish(&callback).await;
    (person, status, location)
}

pub(crate) async fn scalar(app: &TestApp, sql: &'static str) -> i64 {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", app.database_path().display()))
        .await
        .unwrap();
    let value: i64 = sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap();
    pool.close().await;
    value
}

pub(crate) async fn get_json(app: &TestApp, path: &str) -> serde_json::Value {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    response.json().await.unwrap()
}

/// `GET /api/auth/oidc/start` from a client without cookies: its 302
/// answer's status and `Location`.
async fn start(app: &TestApp) -> (u16, String) {
    let started = app
        .client
        .get(app.url("/api/auth/oidc/start"))
        .send()
        .await
        .unwrap();
    let location = started
        .headers()
        .get("location")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (started.status().as_u16(), location)
}

#[tokio::test]
async fn the_sign_in_page_learns_the_methods() {
    let app = spawn_app(&[]).await;
    let methods = get_json(&app, "/api/auth/methods").await;
    assert_eq!(methods, json!({"password": true, "oidc": null}));
    // Without a provider, starting lands on the sign-in page with a code.
    assert_eq!(start(&app).await, (302, "/login?error=sso_off".into()));

    let (_provider, app) = provider_and_app(
        json!({}),
        &[("OIDC_BUTTON_LABEL", "Sign in with Authentik")],
    )
    .await;
    let methods = get_json(&app, "/api/auth/methods").await;
    assert_eq!(
        methods,
        json!({"password": true, "oidc": {"label": "Sign in with Authentik"}})
    );
}

#[tokio::test]
async fn an_unknown_identity_is_refused_unless_accounts_are_created_through_the_provider() {
    let (provider, app) = provider_and_app(json!({}), &[]).await;
    let (mut person, status, location) = sign_in(&app, "carol").await;
    assert_eq!(
        (status.as_u16(), location.as_str()),
        (302, "/login?error=sso_no_account")
    );
    assert!(person.me().await.is_none(), "no session");
    assert!(person.tally_cookie("tally_session").is_none());
    drop(app);

    let app = app_for(&provider, &[("OIDC_AUTO_PROVISION", "true")]).await;
    let (mut person, status, location) = sign_in(&app, "carol").await;
    assert_eq!((status.as_u16(), location.as_str()), (302, "/tracker"));
    let me = person.me().await.expect("signed in");
    assert_eq!(me.user.email, "carol@example.com");
    assert!(
        !me.user.is_admin(),
        "nobody becomes an administrator without OIDC_ADMIN_GROUP"
    );
    // Keyed on (issuer, subject), recorded as a provider sign-in.
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM oidc_identities WHERE subject = 'carol' AND provisioned = 1"
        )
        .await,
        1
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM login_history WHERE method = 'oidc'"
        )
        .await,
        1
    );
    // And Profile's history says so (`GET /api/profile/sign-ins`).
    let history: Vec<SignInRecord> = person
        .get(&format!("{}/api/profile/sign-ins", app.address))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(
        (history[0].method, history[0].success),
        (SignInMethod::Oidc, true)
    );
    // The second sign-in finds the same account.
    let (mut again, _, location) = sign_in(&app, "carol").await;
    assert_eq!(location, "/tracker");
    assert_eq!(again.me().await.unwrap().user.id, me.user.id);
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM users WHERE email = 'carol@example.com'"
        )
        .await,
        1
    );
}

/// Settings for linking by email, with the bootstrap administrator.
const LINK_BY_EMAIL: &[(&str, &str)] = &[
    ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
    ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ("OIDC_LINK_BY_EMAIL", "true"),
    ("OIDC_AUTO_PROVISION", "true"),
    ("OIDC_ADMIN_GROUP", "tally-admins"),
];

#[tokio::test]
async fn a_verified_email_links_a_plain_account_and_an_unverified_one_never_does() {
    let accounts = json!({
        "pat-at-idp": {"email": "pat@example.com", "email_verified": true, "groups": []},
        "impostor": {"email": "pat@example.com", "email_verified": false, "groups": []},
    });
    let (_provider, app) = provider_and_app(accounts, LINK_BY_EMAIL).await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    plain_user(&app, &admin, "pat@example.com").await;
    // Unverified: not linked, and no second account, whatever
    // OIDC_AUTO_PROVISION says.
    let (mut person, _, location) = sign_in(&app, "impostor").await;
    assert_eq!(location, "/login?error=sso_unverified_email");
    assert!(person.me().await.is_none());
    assert_eq!(scalar(&app, "SELECT count(*) FROM users").await, 2);

    // Verified, and a plain account without a second factor: linked, and
    // it keeps its role.
    let (mut person, _, location) = sign_in(&app, "pat-at-idp").await;
    assert_eq!(location, "/tracker");
    let me = person.me().await.unwrap();
    assert_eq!(me.user.email, "pat@example.com");
    assert!(!me.user.is_admin());
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM oidc_identities WHERE subject = 'pat-at-idp' AND provisioned = 0"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn linking_by_email_never_hands_over_an_administrator_or_a_second_factor() {
    let accounts = json!({
        "admin-at-idp": {"email": ADMIN_EMAIL, "email_verified": true, "groups": []},
        "tess-at-idp": {"email": "tess@example.com", "email_verified": true, "groups": []},
        "kim-at-idp": {"email": "kim@example.com", "email_verified": true, "groups": []},
    });
    let (_provider, app) = provider_and_app(accounts, LINK_BY_EMAIL).await;
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    // Tess has TOTP on, Kim a security key.
    let tess = plain_user(&app, &admin, "tess@example.com").await;
    let enrolment: TotpEnrolment = tess
        .call_expecting(200, Method::POST, "/api/auth/totp/setup", &EmptyBody {})
        .await;
    let _: RecoveryCodes = tess
        .call_expecting(
            200,
            Method::POST,
            "/api/auth/totp/confirm",
            &TotpCode {
                code: authenticator(&enrolment.secret).generate(now()),
            },
        )
        .await;
    plain_user(&app, &admin, "kim@example.com").await;
    add_key(&app, "kim@example.com").await;

    // A provider that calls every address verified (Authentik before
    // 2025.10) signs none of them in, makes no second account and links
    // nothing.
    for login in ["admin-at-idp", "tess-at-idp", "kim-at-idp"] {
        let (mut person, status, location) = sign_in(&app, login).await;
        assert_eq!(
            (status.as_u16(), location.as_str()),
            (302, "/login?error=sso_link_from_profile"),
            "{login}"
        );
        assert!(person.me().await.is_none(), "{login}: no session");
        assert!(person.tally_cookie("tally_session").is_none());
    }
    assert_eq!(scalar(&app, "SELECT count(*) FROM users").await, 3);
    let identities = scalar(&app, "SELECT count(*) FROM oidc_identities").await;
    assert_eq!(identities, 0, "nothing linked");
    // The sign-in page says what to do instead.
    let page = Browser::open(&app.address)
        .await
        .text("/login?error=sso_link_from_profile")
        .await;
    assert!(
        page.contains("link your provider account from Profile → Single sign-on"),
        "{page}"
    );

    // Signed in with the password, the administrator links from Profile,
    // and from then on the provider signs them in, still an administrator.
    let mut linking = Person::new(&app.address);
    assert_eq!(
        linking
            .sign_in_with_password(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await,
        200
    );
    let started = linking
        .post_tally_form("/profile/single-sign-on", "/profile", &[])
        .await;
    let callback = linking.at_provider(started, "admin-at-idp").await;
    assert_eq!(linking.finish(&callback).await.1, "/profile");
    let (mut person, _, location) = sign_in(&app, "admin-at-idp").await;
    assert_eq!(location, "/tracker");
    let me = person.me().await.unwrap();
    assert_eq!(me.user.email, ADMIN_EMAIL);
    assert!(me.user.is_admin(), "a linked administrator keeps the role");
}

/// A security key on `email`'s account, as registering one leaves it (its
/// public key does not matter: no key ceremony happens here).
async fn add_key(app: &TestApp, email: &str) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", app.database_path().display()))
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         SELECT id, 'cred-' || id, 'Key', '{}' FROM users WHERE email = ?",
    )
    .bind(email)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query("UPDATE users SET webauthn_enabled = 1 WHERE email = ?")
        .bind(email)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

#[tokio::test]
async fn the_admin_group_grants_and_removes_rights_at_each_sign_in() {
    let accounts = json!({"dana": {"email": "dana@example.com", "email_verified": true, "groups": ["family", "tally-admins"]}});
    let (provider, app) = provider_and_app(
        accounts,
        &[
            ("OIDC_AUTO_PROVISION", "true"),
            ("OIDC_ADMIN_GROUP", "tally-admins"),
        ],
    )
    .await;
    let (mut first, _, _) = sign_in(&app, "dana").await;
    assert!(first.me().await.unwrap().user.is_admin());

    provider
        .set_claims(
            "dana",
            json!({"email": "dana@example.com", "email_verified": true, "groups": ["family"]}),
        )
        .await;
    let (mut second, _, location) = sign_in(&app, "dana").await;
    assert_eq!(location, "/tracker");
    assert!(
        !second.me().await.unwrap().user.is_admin(),
        "demoted at this sign-in"
    );
    // The demotion ended the session that still had the rights.
    assert!(first.me().await.is_none());
}

#[tokio::test]
async fn a_reused_or_foreign_state_signs_nobody_in() {
    let (_provider, app) = provider_and_app(json!({}), &[("OIDC_AUTO_PROVISION", "true")]).await;
    let mut person = Person::new(&app.address);
    let callback = person
        .through_provider("/api/auth/oidc/start", "erin")
        .await;

    // Another browser with the same answer (no cookie binding it).
    let mut stranger = Person::new(&app.address);
    let (_, location) = stranger.finish(&callback).await;
    assert_eq!(location, "/login?error=sso_state");
    assert!(stranger.me().await.is_none());

    // The state was used up by that attempt: the right browser is refused
    // too, and starts again.
    let (_, location) = person.finish(&callback).await;
    assert_eq!(location, "/login?error=sso_state");
    assert!(person.me().await.is_none());

    // A tampered state.
    let callback = person
        .through_provider("/api/auth/oidc/start", "erin")
        .await;
    let tampered = callback.replace("state=", "state=x");
    let (_, location) = person.finish(&tampered).await;
    assert_eq!(location, "/login?error=sso_state");

    // A code replayed after a successful sign-in.
    let callback = person
        .through_provider("/api/auth/oidc/start", "erin")
        .await;
    let (_, location) = person.finish(&callback).await;
    assert_eq!(location, "/tracker");
    let (_, location) = person.finish(&callback).await;
    assert_eq!(location, "/login?error=sso_state");
}

#[tokio::test]
async fn next_is_kept_and_an_off_site_next_is_not() {
    let (_provider, app) = provider_and_app(json!({}), &[("OIDC_AUTO_PROVISION", "true")]).await;
    let mut person = Person::new(&app.address);
    let callback = person
        .through_provider("/api/auth/oidc/start?next=%2Fbills%3Fshow%3Dall", "fay")
        .await;
    assert_eq!(person.finish(&callback).await.1, "/bills?show=all");
    for off_site in [
        "%2F%2Fevil.example",
        "https%3A%2F%2Fevil.example%2F",
        "%2F%5Cevil.example",
    ] {
        let callback = person
            .through_provider(&format!("/api/auth/oidc/start?next={off_site}"), "fay")
            .await;
        assert_eq!(person.finish(&callback).await.1, "/tracker", "{off_site}");
    }
}

#[tokio::test]
async fn a_new_signing_key_at_the_provider_is_fetched_again() {
    let (provider, app) = provider_and_app(json!({}), &[("OIDC_AUTO_PROVISION", "true")]).await;
    let (_, _, location) = sign_in(&app, "gil").await;
    assert_eq!(location, "/tracker");
    provider.rotate_keys().await;
    // Keys are fetched again at most every 30 s.
    tokio::time::sleep(std::time::Duration::from_secs(31)).await;
    let (mut person, _, location) = sign_in(&app, "gil").await;
    assert_eq!(location, "/tracker");
    assert!(person.me().await.is_some());
}

#[tokio::test]
async fn a_provider_that_is_down_leaves_the_password_way_in() {
    let closed = free_port();
    let issuer = format!("http://127.0.0.1:{closed}");
    let app = spawn_app(&[
        ("OIDC_ISSUER_URL", issuer.as_str()),
        ("OIDC_CLIENT_ID", "tally"),
        ("OIDC_CLIENT_SECRET", "whatever"),
        ("OIDC_ALLOW_HTTP", "true"),
        ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
        ("BOOTSTRAP_ADMIN_EMAIL", "admin@example.com"),
        ("BOOTSTRAP_ADMIN_PASSWORD", "correct horse battery staple"),
    ])
    .await;
    assert_eq!(
        start(&app).await,
        (302, "/login?error=sso_unavailable".into())
    );
    let admin = crate::support::browser::Browser::signed_in(
        &app.address,
        "admin@example.com",
        "correct horse battery staple",
    )
    .await;
    let me: app::contract::account::Me = admin.get("/api/auth/me").await;
    assert!(me.user.is_admin());
}

#[tokio::test]
async fn the_twenty_first_start_from_one_address_waits() {
    let (_provider, app) = provider_and_app(json!({}), &[]).await;
    for _ in 0..20 {
        assert_eq!(start(&app).await.0, 302);
    }
    let refused = app
        .client
        .get(app.url("/api/auth/oidc/start"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=45).contains(&wait), "{wait}");
}

#[test]
fn a_secret_and_a_secret_file_together_stop_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret");
    std::fs::write(&file, "from-a-file\n").unwrap();
    let vars = [
        ("OIDC_CLIENT_SECRET", "inline".to_owned()),
        ("OIDC_CLIENT_SECRET_FILE", file.display().to_string()),
    ];
    let error = server::config::Settings::from_lookup(|name| {
        vars.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| Ok(value.clone()))
    })
    .unwrap_err();
    assert_eq!(error.variable, "OIDC_CLIENT_SECRET_FILE");
    assert!(error.problem.contains("not both"), "{}", error.problem);
    // The file alone is read, its line end dropped, and never echoed.
    let vars = [("OIDC_CLIENT_SECRET_FILE", file.display().to_string())];
    let settings = server::config::Settings::from_lookup(|name| {
        vars.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| Ok(value.clone()))
    })
    .unwrap();
    assert!(!format!("{settings:?}").contains("from-a-file"));
}

#[tokio::test]
async fn signing_out_of_a_provider_session_signs_out_at_the_provider_too() {
    let (provider, app) = provider_and_app(json!({}), &[("OIDC_AUTO_PROVISION", "true")]).await;
    let (mut person, _, location) = sign_in(&app, "hal").await;
    assert_eq!(location, "/tracker");
    // While the provider's session lasts, a new sign-in comes straight back.
    assert!(!person.provider_asks_to_sign_in().await);

    let answer = person.post_to_tally("/api/auth/logout", json!({})).await;
    assert_eq!(answer.status(), 200);
    let body: serde_json::Value = answer.json().await.unwrap();
    let end_session = body["redirect"].as_str().unwrap().to_owned();
    let url = reqwest::Url::parse(&end_session).unwrap();
    let query: std::collections::HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert!(
        end_session.starts_with(&format!("{}/session/end", provider.issuer)),
        "{end_session}"
    );
    assert_eq!(query["post_logout_redirect_uri"], "http://tally.test/login");
    assert_eq!(query["client_id"], "tally");
    assert!(
        query["id_token_hint"].split('.').count() == 3,
        "the ID token as hint"
    );
    assert!(person.me().await.is_none(), "signed out of Tally");

    assert_eq!(
        person.sign_out_at_provider(&end_session).await,
        "http://tally.test/login"
    );
    assert!(
        person.provider_asks_to_sign_in().await,
        "the provider asks again"
    );

    // A password session signs out as before: no content.
    let admin_app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", "admin@example.com"),
        ("BOOTSTRAP_ADMIN_PASSWORD", "correct horse battery staple"),
    ])
    .await;
    let admin = crate::support::browser::Browser::signed_in(
        &admin_app.address,
        "admin@example.com",
        "correct horse battery staple",
    )
    .await;
    let answer = admin
        .request(reqwest::Method::POST, "/api/auth/logout")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 204);
}

#[tokio::test]
async fn a_new_account_gets_only_an_email_and_name_a_registration_could_have() {
    let (_provider, app) = provider_and_app(
        json!({
            "odd": {"email": "not an email", "email_verified": true, "groups": []},
            "named": {"email": "named@example.com", "email_verified": true, "name": "Two\nlines", "groups": []},
        }),
        &[("OIDC_AUTO_PROVISION", "true")],
    )
    .await;
    let (mut person, _, location) = sign_in(&app, "odd").await;
    assert_eq!(location, "/login?error=sso_no_email");
    assert!(person.me().await.is_none());
    assert_eq!(scalar(&app, "SELECT count(*) FROM users").await, 0);

    let (mut person, _, location) = sign_in(&app, "named").await;
    assert_eq!(location, "/tracker");
    assert_eq!(
        person.me().await.unwrap().user.name,
        "",
        "a name of two lines is left out"
    );
}
