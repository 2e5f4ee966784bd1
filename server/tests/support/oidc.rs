//! A real OpenID provider on loopback for the single sign-on tests:
//! `end2end/oidc/provider.mjs` (npm `oidc-provider`), and a person going
//! through its development sign-in pages over HTTP as a browser would.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::{Client, Response, StatusCode};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The address Tally is configured with in these tests: the provider sends
/// the browser back to it, and the test carries the answer to the real
/// server's address.
pub const TALLY_BASE: &str = "http://tally.test";
pub const CLIENT_ID: &str = "tally";
pub const CLIENT_SECRET: &str = "tally-test-client-secret";

pub struct OidcProvider {
    child: Child,
    pub issuer: String,
}

impl Drop for OidcProvider {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

fn end2end() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../end2end")
}

/// A free loopback port, for a provider whose address Tally must know
/// before the provider starts.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl OidcProvider {
    /// Starts the provider on `port` with `accounts` (login name → claims).
    ///
    /// Starts are taken one at a time: on a loaded 2-core machine several
    /// Node processes loading `oidc-provider` and making an RSA key at once
    /// took longer than any fixed wait (CI, stop 60). The wait is generous
    /// because it is a deadline for a hung provider, not a speed check; what
    /// the provider wrote to stderr is in the failure.
    pub async fn start(port: u16, accounts: serde_json::Value) -> Self {
        static ONE_AT_A_TIME: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);
        let _turn = ONE_AT_A_TIME.acquire().await.unwrap();
        let mut child = Command::new("node")
            .arg(end2end().join("oidc/provider.mjs"))
            .arg(port.to_string())
            .arg(TALLY_BASE)
            .env("OIDC_TEST_ACCOUNTS", accounts.to_string())
            .env("NODE_PATH", end2end().join("node_modules"))
            .current_dir(end2end())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs the test provider (scripts/setup.sh installs it)");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let errors = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let written = errors.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut text = written.lock().unwrap();
                if text.len() < 16_384 {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
        });
        let mut lines = BufReader::new(stdout).lines();
        let issuer = tokio::time::timeout(std::time::Duration::from_secs(120), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(issuer) = line.strip_prefix("issuer ") {
                    return Some(issuer.to_owned());
                }
            }
            None
        })
        .await;
        let issuer = match issuer {
            Ok(Some(issuer)) => issuer,
            Ok(None) => panic!(
                "the provider stopped before listening; it wrote:\n{}",
                errors.lock().unwrap()
            ),
            Err(_) => panic!(
                "the provider did not listen within 120 s; it wrote:\n{}",
                errors.lock().unwrap()
            ),
        };
        // Keep reading so the pipe never fills.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Self { child, issuer }
    }

    /// Tally's settings for this provider.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("OIDC_ISSUER_URL", self.issuer.clone()),
            ("OIDC_CLIENT_ID", CLIENT_ID.into()),
            ("OIDC_CLIENT_SECRET", CLIENT_SECRET.into()),
            ("OIDC_ALLOW_HTTP", "true".into()),
            ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1".into()),
            ("PUBLIC_BASE_URL", TALLY_BASE.into()),
        ]
    }

    /// Replaces the provider's signing key.
    pub async fn rotate_keys(&self) {
        let response = Client::new()
            .post(format!("{}/test/rotate-keys", self.issuer))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
    }
}

/// A browser: its cookies per host, no redirect followed by itself.
pub struct Person {
    client: Client,
    jar: HashMap<String, HashMap<String, String>>,
    /// The real server's address, where `TALLY_BASE` URLs go.
    tally: String,
}

impl Person {
    pub fn new(tally_address: &str) -> Self {
        Self {
            client: Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            jar: HashMap::new(),
            tally: tally_address.to_owned(),
        }
    }

    fn host_of(url: &str) -> String {
        reqwest::Url::parse(url)
            .unwrap()
            .host_str()
            .unwrap_or_default()
            .to_owned()
            + &reqwest::Url::parse(url)
                .unwrap()
                .port()
                .map(|p| format!(":{p}"))
                .unwrap_or_default()
    }

    /// The real URL of `url` (Tally's public address mapped to the server).
    fn real(&self, url: &str) -> String {
        url.replacen(TALLY_BASE, &self.tally, 1)
    }

    fn cookie_header(&self, url: &str) -> Option<String> {
        let cookies = self.jar.get(&Self::host_of(url))?;
        (!cookies.is_empty()).then(|| {
            cookies
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    fn keep_cookies(&mut self, url: &str, response: &Response) {
        let host = Self::host_of(url);
        for value in response.headers().get_all(SET_COOKIE) {
            let text = value.to_str().unwrap();
            let pair = text.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            let expired = text.contains("Max-Age=0") || text.contains("expires=Thu, 01 Jan 1970");
            let cookies = self.jar.entry(host.clone()).or_default();
            if expired || value.is_empty() {
                cookies.remove(name);
            } else {
                cookies.insert(name.to_owned(), value.to_owned());
            }
        }
    }

    /// A cookie this browser holds for Tally.
    pub fn tally_cookie(&self, name: &str) -> Option<String> {
        self.jar
            .get(&Self::host_of(&self.tally))?
            .get(name)
            .cloned()
    }

    /// Sends `request` to `url` with this browser's cookies for its host,
    /// and keeps the cookies of the answer.
    async fn send(&mut self, url: &str, request: reqwest::RequestBuilder) -> Response {
        let request = match self.cookie_header(url) {
            Some(cookies) => request.header(COOKIE, cookies),
            None => request,
        };
        let response = request.send().await.unwrap();
        self.keep_cookies(url, &response);
        response
    }

    pub async fn get(&mut self, url: &str) -> Response {
        let real = self.real(url);
        let request = self.client.get(&real);
        self.send(&real, request).await
    }

    pub async fn post_form(&mut self, url: &str, form: &[(&str, &str)]) -> Response {
        let real = self.real(url);
        let request = self.client.post(&real).form(form);
        self.send(&real, request).await
    }

    /// Submits the first form of the page at `at` with its hidden fields
    /// and `extra`; returns where the answer sends the browser.
    async fn submit_form(&mut self, at: &str, page: &str, extra: &[(&str, &str)]) -> String {
        let (action, mut fields) = form_of(page);
        fields.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let action = reqwest::Url::parse(at)
            .unwrap()
            .join(&action)
            .unwrap()
            .to_string();
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let answer = self.post_form(&action, &pairs).await;
        assert!(
            answer.status().is_redirection(),
            "{}: {}",
            action,
            answer.status()
        );
        reqwest::Url::parse(&action)
            .unwrap()
            .join(answer.headers()[LOCATION].to_str().unwrap())
            .unwrap()
            .to_string()
    }

    /// Follows redirects from `url` until an answer is not one, or it
    /// reaches Tally's callback (returned unfollowed, for the test to send).
    pub async fn follow(&mut self, url: &str) -> (String, Response) {
        let mut url = url.to_owned();
        for _ in 0..20 {
            let response = self.get(&url).await;
            if !response.status().is_redirection() {
                return (url, response);
            }
            let location = response.headers()[LOCATION].to_str().unwrap().to_owned();
            url = reqwest::Url::parse(&self.real(&url))
                .unwrap()
                .join(&location)
                .unwrap()
                .to_string();
            if url.starts_with(&format!("{TALLY_BASE}/api/auth/oidc/callback")) {
                return (url, response);
            }
        }
        panic!("too many redirects")
    }

    /// Starts a sign-in at Tally (`/api/auth/oidc/start?…`), signs in at the
    /// provider as `login` and consents; returns the callback URL the
    /// provider sent the browser to (not yet visited).
    pub async fn through_provider(&mut self, start: &str, login: &str) -> String {
        let started = self.get(&format!("{}{start}", self.tally)).await;
        self.at_provider(started, login).await
    }

    /// From Tally's answer sending the browser to the provider: signs in
    /// there as `login` and consents; returns the callback URL the provider
    /// sent the browser to (not yet visited).
    /// Tally's answer is a redirect, or a page that moves on by a `<meta>`
    /// refresh (after a form post).
    pub async fn at_provider(&mut self, started: Response, login: &str) -> String {
        let mut url = if started.status() == StatusCode::OK {
            let page = started.text().await.unwrap();
            let start = page.find("url=").expect("a page moving on") + 4;
            let end = start + page[start..].find('"').unwrap();
            page[start..end].replace("&amp;", "&")
        } else {
            assert_eq!(
                started.status(),
                StatusCode::FOUND,
                "{:?}",
                started.headers()
            );
            started.headers()[LOCATION].to_str().unwrap().to_owned()
        };
        // The provider's pages: sign in, then consent, each a form.
        for _ in 0..4 {
            let (at, page) = self.follow(&url).await;
            if at.starts_with(TALLY_BASE) {
                return at;
            }
            assert_eq!(page.status(), 200, "a page of the provider at {at}");
            let page = page.text().await.unwrap();
            let signing_in = page.contains("value=\"login\"");
            let extra: &[(&str, &str)] = if signing_in {
                &[("login", login), ("password", "any")]
            } else {
                &[]
            };
            url = self.submit_form(&at, &page, extra).await;
            if url.starts_with(TALLY_BASE) {
                return url;
            }
        }
        panic!("the provider did not send the browser back")
    }

    /// Sends the provider's answer to Tally: `(status, Location)`.
    pub async fn finish(&mut self, callback: &str) -> (StatusCode, String) {
        let response = self.get(callback).await;
        let location = response
            .headers()
            .get(LOCATION)
            .map(|value| value.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (response.status(), location)
    }

    /// Who Tally says is signed in, with this browser's session.
    pub async fn me(&mut self) -> Option<app::contract::account::Me> {
        let response = self.get(&format!("{}/api/auth/me", self.tally)).await;
        (response.status() == 200).then_some(())?;
        Some(response.json().await.unwrap())
    }
}

impl OidcProvider {
    /// Changes what the provider says about `login` from now on.
    pub async fn set_claims(&self, login: &str, claims: serde_json::Value) {
        let response = Client::new()
            .post(format!("{}/test/claims", self.issuer))
            .json(&serde_json::json!({"login": login, "claims": claims}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
    }
}

/// The first form of a page: its action and hidden fields.
fn form_of(page: &str) -> (String, Vec<(String, String)>) {
    let attribute = |tag: &str, name: &str| -> Option<String> {
        let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
        let end = tag[start..].find('"')? + start;
        Some(tag[start..end].replace("&amp;", "&"))
    };
    let form_start = page.find("<form").expect("a form");
    let form_tag = &page[form_start..form_start + page[form_start..].find('>').unwrap()];
    let action = attribute(form_tag, "action").unwrap_or_default();
    let body = &page[form_start
        ..page[form_start..]
            .find("</form>")
            .map_or(page.len(), |end| form_start + end)];
    let mut fields = Vec::new();
    for piece in body.split("<input").skip(1) {
        let tag = &piece[..piece.find('>').unwrap_or(piece.len())];
        if tag.contains("type=\"hidden\"") {
            if let (Some(name), Some(value)) = (attribute(tag, "name"), attribute(tag, "value")) {
                fields.push((name, value));
            }
        }
    }
    (action, fields)
}

impl Person {
    /// `POST` to Tally with the CSRF header from this browser's cookie (as
    /// the pages send it).
    pub async fn post_to_tally(&mut self, path: &str, body: serde_json::Value) -> Response {
        let url = format!("{}{path}", self.tally);
        let csrf = self.tally_cookie("tally_csrf").expect("a CSRF cookie");
        let request = self
            .client
            .post(&url)
            .header("x-csrf-token", csrf)
            .json(&body);
        self.send(&url, request).await
    }

    /// Whether starting a sign-in shows the provider's sign-in form (no
    /// provider session) or comes straight back (a provider session).
    pub async fn provider_asks_to_sign_in(&mut self) -> bool {
        let started = self
            .get(&format!("{}/api/auth/oidc/start", self.tally))
            .await;
        let url = started.headers()[LOCATION].to_str().unwrap().to_owned();
        let (at, page) = self.follow(&url).await;
        if at.starts_with(TALLY_BASE) {
            return false;
        }
        let page = page.text().await.unwrap();
        page.contains("name=\"login\"")
    }

    /// Follows the provider's end-session page (confirming it) back to
    /// Tally's sign-in page; returns where it landed.
    pub async fn sign_out_at_provider(&mut self, end_session: &str) -> String {
        let (at, page) = self.follow(end_session).await;
        if at.starts_with(TALLY_BASE) {
            return at;
        }
        let page = page.text().await.unwrap();
        let next = self.submit_form(&at, &page, &[("logout", "yes")]).await;
        let (at, _) = self.follow(&next).await;
        at
    }
}

impl Person {
    /// Signs in to Tally with email and password (JSON, as the page does);
    /// the answer's status.
    pub async fn sign_in_with_password(&mut self, email: &str, password: &str) -> StatusCode {
        if self.tally_cookie("tally_csrf").is_none() {
            let answer = self
                .get(&format!("{}/api/auth/csrf-token", self.tally))
                .await;
            assert_eq!(answer.status(), 200);
        }
        self.post_to_tally(
            "/api/auth/login",
            serde_json::json!({"email": email, "password": password}),
        )
        .await
        .status()
    }

    /// Posts one of Tally's forms (`path`, with its CSRF field and
    /// `fields`) from `page`, as a browser without JavaScript: asking for
    /// a page, with the page as its `Referer`.
    pub async fn post_tally_form(
        &mut self,
        path: &str,
        page: &str,
        fields: &[(&str, &str)],
    ) -> Response {
        let csrf = self.tally_cookie("tally_csrf").expect("a CSRF cookie");
        let mut form = vec![("csrf_token", csrf.as_str())];
        form.extend_from_slice(fields);
        let url = format!("{}{path}", self.tally);
        let request = self
            .client
            .post(&url)
            .header("origin", &self.tally)
            .header("accept", "text/html,application/xhtml+xml")
            .header("referer", format!("{}{page}", self.tally))
            .form(&form);
        self.send(&url, request).await
    }

    /// `METHOD path` at Tally with the CSRF header; status and JSON body
    /// (`null` when none).
    pub async fn call_tally(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        let url = format!("{}{path}", self.tally);
        let mut request = self.client.request(method, &url);
        if let Some(csrf) = self.tally_cookie("tally_csrf") {
            request = request.header("x-csrf-token", csrf);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = self.send(&url, request).await;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
        )
    }
}
