//! The provider's HTTP calls (discovery, keys, token, userinfo) through the
//! outbound guard: each URL is vetted (a provider on the LAN needs the
//! administrator's allowance), `http://` only with `OIDC_ALLOW_HTTP`, no
//! redirect followed, answers capped.

use std::time::Duration;

use openidconnect::{HttpRequest, HttpResponse};
use reqwest::Url;

use crate::backend::outbound::{read_capped, redact, Outbound};

/// A provider's call may take this long.
const TIMEOUT: Duration = Duration::from_secs(15);
/// The largest answer read (discovery documents and key sets are small).
const MAX_ANSWER: usize = 1024 * 1024;

/// Why a call to the provider failed; names the host, never a path, query
/// or credential.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("{0}: plain http is refused (OIDC_ALLOW_HTTP is for tests)")]
    PlainHttp(String),
    #[error("{host}: {reason}")]
    Refused { host: String, reason: String },
    #[error("{host}: {reason}")]
    Failed { host: String, reason: String },
}

/// The guard and whether plain http is allowed: what a call needs.
#[derive(Clone, Debug)]
pub struct ProviderHttp {
    pub outbound: Outbound,
    pub allow_http: bool,
}

impl ProviderHttp {
    /// The calls as `openidconnect` takes them: a function whose futures
    /// own what they use (so a handler's future stays `Send`).
    pub fn client(
        &self,
    ) -> impl Fn(
        HttpRequest,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<HttpResponse, CallError>> + Send>,
    > + Send
           + Sync {
        let http = self.clone();
        move |request| {
            let http = http.clone();
            Box::pin(async move { http.call(request).await })
        }
    }

    /// One call, as `openidconnect` makes them.
    pub async fn call(&self, request: HttpRequest) -> Result<HttpResponse, CallError> {
        let url = Url::parse(&request.uri().to_string()).map_err(|error| CallError::Refused {
            host: "?".into(),
            reason: error.to_string(),
        })?;
        let host = redact(&url);
        if url.scheme() == "http" && !self.allow_http {
            return Err(CallError::PlainHttp(host));
        }
        let vetted = self
            .outbound
            .vet(&url)
            .await
            .map_err(|refused| CallError::Refused {
                host: host.clone(),
                reason: refused.to_string(),
            })?;
        let failed = |reason: String| CallError::Failed {
            host: host.clone(),
            reason,
        };
        let client = self
            .outbound
            .client_for(&vetted, TIMEOUT)
            .map_err(|error| failed(error.to_string()))?;
        let (parts, body) = request.into_parts();
        let response = client
            .request(parts.method, url)
            .headers(parts.headers)
            .body(body)
            .send()
            .await
            .map_err(|error| failed(error.without_url().to_string()))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = read_capped(response, MAX_ANSWER)
            .await
            .map_err(|error| failed(error.to_string()))?;
        let mut answer = HttpResponse::new(body);
        *answer.status_mut() = status;
        *answer.headers_mut() = headers;
        Ok(answer)
    }
}
