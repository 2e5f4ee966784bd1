//! A minimal browser for API tests: keeps the CSRF and session cookies and
//! sends the CSRF header, as the frontend does. A sign-in or registration
//! changes the token (a signed-in browser's is bound to its session), so
//! `login` and `register` keep the one their answer sets
//! ([`Browser::keep_cookies`]). Its requests and answers
//! are the contract's types (`call`, `get`, `login`, `register`), so a
//! change that breaks a client breaks the tests at compile time;
//! `send_raw` and `json_raw` are for what the contract cannot express.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use app::contract::account::{CsrfToken, Register, SecondFactorChallenge, SignIn, SignInAnswer};
use app::contract::error::ErrorBody;
use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// `{}`: the body of a request that takes none (starting TOTP setup or a
/// key ceremony, signing out everywhere, re-sending a submission).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct EmptyBody {}

pub struct Browser {
    pub base: String,
    pub client: reqwest::Client,
    pub csrf: String,
    pub session: Option<String>,
}

fn cookie_value(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.strip_prefix(&format!("{name}="))
                .map(|rest| rest.split(';').next().unwrap_or_default().to_owned())
        })
}

impl Browser {
    /// Fetches a CSRF token, as the frontend does on load.
    pub async fn open(base: &str) -> Self {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let response = client
            .get(format!("{base}/api/auth/csrf-token"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let cookie = cookie_value(&response, "tally_csrf").unwrap();
        let body: CsrfToken = response.json().await.unwrap();
        assert_eq!(body.csrf_token, cookie);
        Self {
            base: base.to_owned(),
            client,
            csrf: cookie,
            session: None,
        }
    }

    pub fn cookie_header(&self) -> String {
        match &self.session {
            Some(session) => format!("tally_csrf={}; tally_session={session}", self.csrf),
            None => format!("tally_csrf={}", self.csrf),
        }
    }

    /// A request with the cookies and the CSRF header.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .header("x-csrf-token", &self.csrf)
    }

    /// The same cookies without the CSRF header.
    pub fn request_without_csrf(&self, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
    }

    /// `POST path` as a browser posts a form without JavaScript from
    /// `page` (a path of this site): the cookies and this site's `Origin`,
    /// no CSRF header (the form carries its field), asking for a page,
    /// with `page` as its `Referer`. The body is the caller's.
    pub fn form_post_from(&self, path: &str, page: &str) -> RequestBuilder {
        self.request_without_csrf(Method::POST, path)
            .header("origin", &self.base)
            .header("accept", "text/html,application/xhtml+xml")
            .header("referer", format!("{}{page}", self.base))
    }

    /// [`Self::form_post_from`] for a file form: [`file_form`]'s body.
    pub fn file_form_post_from(
        &self,
        path: &str,
        page: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &[u8]),
    ) -> RequestBuilder {
        let (content_type, body) = file_form(fields, file);
        self.form_post_from(path, page)
            .header("content-type", content_type)
            .body(body)
    }

    /// Keeps the session and CSRF cookies `response` sets, as a browser
    /// does: an answer that starts a session sets the CSRF token bound to
    /// it, one that ends it a fresh token, and this browser sends those
    /// from then on. (A browser's script fetches the token again instead;
    /// it is the same one.)
    pub fn keep_cookies(&mut self, response: &Response) {
        let Some(session) = cookie_value(response, "tally_session") else {
            return;
        };
        self.csrf = cookie_value(response, "tally_csrf").unwrap_or_else(|| {
            panic!(
                "{} set the session cookie without the CSRF cookie that goes with it",
                response.url().path()
            )
        });
        self.session = (!session.is_empty()).then_some(session);
    }

    /// `POST /api/auth/login`; keeps the session it starts and its CSRF
    /// token. The answer is left to the caller (its status and cookies
    /// matter to some tests): [`read`] it as a [`SignInAnswer`].
    pub async fn login(&mut self, email: &str, password: &str) -> Response {
        let request = SignIn {
            email: email.to_owned(),
            password: password.to_owned(),
        };
        let response = self
            .request(Method::POST, "/api/auth/login")
            .json(&request)
            .send()
            .await
            .unwrap();
        self.keep_cookies(&response);
        response
    }

    /// `POST /api/auth/register`; keeps the session it starts and its CSRF
    /// token. [`read`] the answer as an `account::Me`.
    pub async fn register(&mut self, request: &Register) -> Response {
        let response = self
            .request(Method::POST, "/api/auth/register")
            .json(request)
            .send()
            .await
            .unwrap();
        self.keep_cookies(&response);
        response
    }

    /// Reads this browser's CSRF token again from `GET
    /// /api/auth/csrf-token` (with its session cookie, the one bound to
    /// the session), as the pages' script does after signing in.
    pub async fn fetch_csrf(&mut self) -> String {
        let response = self
            .request(Method::GET, "/api/auth/csrf-token")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: CsrfToken = response.json().await.unwrap();
        self.csrf = body.csrf_token.clone();
        body.csrf_token
    }

    pub async fn signed_in(base: &str, email: &str, password: &str) -> Self {
        let mut browser = Self::open(base).await;
        let response = browser.login(email, password).await;
        assert_eq!(response.status(), 200, "sign-in of {email}");
        browser
    }

    /// A raw JSON request; the status and the body (`null` when not JSON).
    /// Only for what the contract cannot express: hostile input (unknown
    /// fields, wrong types, characters a client would not send) and checks
    /// of the exact wire shape. Everything else goes through [`Self::call`].
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        body: serde_json::Value,
    ) -> (u16, serde_json::Value) {
        let response = self.request(method, path).json(&body).send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
        )
    }

    /// `POST path` with a whole file as the body (an upload route); the
    /// status and the JSON answer (`null` when not JSON).
    pub async fn post_file(
        &self,
        path: &str,
        content_type: &str,
        file: Vec<u8>,
    ) -> (u16, serde_json::Value) {
        let response = self
            .request(Method::POST, path)
            .header("content-type", content_type)
            .body(file)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (
            status,
            response.json().await.unwrap_or(serde_json::Value::Null),
        )
    }

    /// `GET path` as raw JSON, expecting 200. Only for checks of the exact
    /// wire shape (fields that must be absent, proto3's JSON); everything
    /// else goes through [`Self::get`].
    pub async fn json_raw(&self, path: &str) -> serde_json::Value {
        let response = self.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 200, "GET {path}");
        response.json().await.unwrap()
    }

    /// `GET path` as text (a page's HTML, a CSV), expecting 200.
    pub async fn text(&self, path: &str) -> String {
        let response = self.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 200, "GET {path}");
        response.text().await.unwrap()
    }

    /// The page a redirect's `Location` opens (an address of this site,
    /// absolute or a path), as the browser opens it next, expecting 200.
    pub async fn page_at(&self, location: &str) -> String {
        self.text(location.strip_prefix(&self.base).unwrap_or(location))
            .await
    }

    /// `GET path` into a contract type, expecting 200.
    pub async fn get<T: DeserializeOwned>(&self, path: &str) -> T {
        let response = self.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 200, "GET {path}");
        let text = response.text().await.unwrap();
        serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("GET {path}: not the contract type ({error}): {text}"))
    }

    /// A call with a contract request body: the contract answer on 2xx
    /// (`None` for 204), or the status and the error body, which must be
    /// Tally's one error shape.
    pub async fn call<B: Serialize, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: &B,
    ) -> Result<Option<T>, (u16, ErrorBody)> {
        let response = self
            .request(method.clone(), path)
            .json(body)
            .send()
            .await
            .unwrap();
        answer_labelled(&format!("{method} {path}"), response).await
    }

    /// A call that must succeed with exactly `expected` (200, 201 or 204):
    /// its contract answer (`()` for 204). For tests that check which
    /// success status a route answers.
    pub async fn call_expecting<B: Serialize, T: DeserializeOwned>(
        &self,
        expected: u16,
        method: Method,
        path: &str,
        body: &B,
    ) -> T {
        let response = self
            .request(method.clone(), path)
            .json(body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(status, expected, "{method} {path}: {text}");
        let json = if status == 204 { "null" } else { text.as_str() };
        serde_json::from_str(json).unwrap_or_else(|error| {
            panic!("{method} {path}: not the contract type ({error}): {text}")
        })
    }

    /// The status of a call with a JSON body.
    pub async fn status_with<B: Serialize>(&self, method: Method, path: &str, body: &B) -> u16 {
        self.request(method, path)
            .json(body)
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    }

    pub async fn status(&self, method: Method, path: &str) -> u16 {
        self.request(method, path)
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    }
}

/// A response read as [`Browser::call`] reads one: the contract answer on
/// 2xx (`None` for 204), or the status and the error body, which must be
/// Tally's one error shape. For requests that are not a browser's (an API
/// token's, a proxy's).
pub async fn answer_of<T: DeserializeOwned>(
    response: Response,
) -> Result<Option<T>, (u16, ErrorBody)> {
    let what = response.url().path().to_owned();
    answer_labelled(&what, response).await
}

async fn answer_labelled<T: DeserializeOwned>(
    what: &str,
    response: Response,
) -> Result<Option<T>, (u16, ErrorBody)> {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    if (200..300).contains(&status) {
        if status == 204 {
            return Ok(None);
        }
        return Ok(Some(serde_json::from_str(&text).unwrap_or_else(|error| {
            panic!("{what}: not the contract type ({error}): {text}")
        })));
    }
    let error: ErrorBody = serde_json::from_str(&text).unwrap_or_else(|error| {
        panic!("{what} answered {status} without the error shape ({error}): {text}")
    });
    assert_eq!(error.error.code, status, "{text}");
    Err((status, error))
}

/// The answer of a call that kept its `Response` (sign-in and registration,
/// whose cookies and statuses some tests look at), read as
/// [`Browser::call`] reads one; a 2xx must carry a body.
pub async fn read<T: DeserializeOwned>(response: Response) -> Result<T, (u16, ErrorBody)> {
    let what = response.url().path().to_owned();
    answer_labelled(&what, response)
        .await
        .map(|answer| answer.unwrap_or_else(|| panic!("{what} answered no body")))
}

/// The challenge of a sign-in that asks for a second factor.
pub fn second_factor(answer: SignInAnswer) -> SecondFactorChallenge {
    match answer {
        SignInAnswer::SecondFactor(challenge) => challenge,
        SignInAnswer::SignedIn(me) => panic!("signed in without a second factor: {me:?}"),
    }
}

/// Where a redirect sends the browser; the answer must be one.
/// A file form's `multipart/form-data` body and its content type: `fields`
/// in their order, then the file as (field, file name, bytes), as a
/// browser sends such a form.
pub fn file_form(
    fields: &[(&str, &str)],
    (field, file_name, file): (&str, &str, &[u8]),
) -> (&'static str, Vec<u8>) {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--FormBoundary\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--FormBoundary\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file_name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--FormBoundary--\r\n");
    ("multipart/form-data; boundary=FormBoundary", body)
}

pub fn location(response: &Response) -> String {
    assert!(
        response.status().is_redirection(),
        "a form post without JavaScript is answered with a page to open, got {}",
        response.status()
    );
    response.headers()["location"].to_str().unwrap().to_owned()
}

pub fn set_cookie_of(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}
