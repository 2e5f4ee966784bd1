//! A minimal browser for API tests: keeps the CSRF and session cookies and
//! sends the CSRF header, as the frontend does.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use app::contract::error::ErrorBody;
use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

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
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["csrfToken"], cookie.as_str());
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

    pub async fn login(&mut self, email: &str, password: &str) -> Response {
        let response = self
            .request(Method::POST, "/api/auth/login")
            .json(&serde_json::json!({ "email": email, "password": password }))
            .send()
            .await
            .unwrap();
        if let Some(session) = cookie_value(&response, "tally_session") {
            self.session = Some(session);
        }
        response
    }

    /// `POST /api/auth/register`; keeps the session it starts.
    pub async fn register(&mut self, body: serde_json::Value) -> Response {
        let response = self
            .request(Method::POST, "/api/auth/register")
            .json(&body)
            .send()
            .await
            .unwrap();
        if let Some(session) = cookie_value(&response, "tally_session") {
            self.session = Some(session);
        }
        response
    }

    pub async fn signed_in(base: &str, email: &str, password: &str) -> Self {
        let mut browser = Self::open(base).await;
        let response = browser.login(email, password).await;
        assert_eq!(response.status(), 200, "sign-in of {email}");
        browser
    }

    /// A JSON request; the status and the body (`null` when not JSON).
    pub async fn send(
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

    /// `GET path`, expecting 200 and JSON.
    pub async fn json(&self, path: &str) -> serde_json::Value {
        let response = self.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 200, "GET {path}");
        response.json().await.unwrap()
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
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        if (200..300).contains(&status) {
            if status == 204 {
                return Ok(None);
            }
            return Ok(Some(serde_json::from_str(&text).unwrap_or_else(|error| {
                panic!("{method} {path}: not the contract type ({error}): {text}")
            })));
        }
        let error: ErrorBody = serde_json::from_str(&text).unwrap_or_else(|error| {
            panic!("{method} {path} answered {status} without the error shape ({error}): {text}")
        });
        assert_eq!(error.error.code, status, "{text}");
        Err((status, error))
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

pub fn set_cookie_of(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}
