//! The bank provider's protocol (SimpleFIN): a setup token is the base64 of
//! a claim URL; one `POST` to it returns the access URL, which carries Basic
//! credentials (`https://user:pass@host/path`); `GET {access}/accounts`
//! returns the accounts with their transactions for a window. Answers come
//! in the v1 shape (`errors`, `org`) or the v2 shape (`errlist`,
//! `connections`, `conn_id`); both are read.
//!
//! Every call times out (30 s unless configured shorter, for tests); network
//! errors and 5xx answers are tried again after 1 s and then 2 s, three
//! attempts in all; a 4xx fails at once. The access URL is a secret: it is
//! never logged, never part of an error, and has no `Debug`.

use std::time::Duration;

use base64::Engine as _;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::domain::bank::sync_window::SyncWindow;

/// The spec's timeout of each provider call.
pub const TIMEOUT: Duration = Duration::from_secs(30);
/// The waits before the second and third attempts.
pub const BACKOFF: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(2)];
/// The largest answer read: 3 accounts of 10,000 transactions are about
/// 3 MB; anything near this is not a bank's answer.
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// What went wrong, in words a person can act on. No variant carries a URL
/// or a credential.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("that is not a setup token: paste the token (or setup URL) your bank-connection provider gave you")]
    NotASetupToken,
    #[error("the provider's address must use https (set SIMPLEFIN_ALLOW_HTTP=true only for a local test provider)")]
    InsecureUrl,
    #[error(
        "this setup token was already used; create a new one at your bank-connection provider"
    )]
    TokenUsed,
    #[error("the bank-connection provider needs payment before it answers; check your subscription there")]
    PaymentRequired,
    #[error("the bank-connection provider refused the stored access (it may have been revoked); reconnect with a new setup token")]
    AccessRevoked,
    #[error("the bank-connection provider is limiting requests; try again later")]
    RateLimited,
    #[error("the bank-connection provider could not be reached ({0})")]
    Unreachable(String),
    #[error("the bank-connection provider refused the request (HTTP {0})")]
    Refused(u16),
    #[error("the bank-connection provider sent an answer Tally cannot read ({0})")]
    Malformed(String),
}

/// Where to claim an access URL, from a setup token.
pub struct ClaimUrl(String);

impl ClaimUrl {
    /// A setup token (base64 of the claim URL) or the claim URL itself.
    pub fn parse(input: &str, allow_http: bool) -> Result<Self, ProviderError> {
        let text = input.trim();
        if text.is_empty() || text.len() > 4096 {
            return Err(ProviderError::NotASetupToken);
        }
        let url = if text.starts_with("https://") || text.starts_with("http://") {
            text.to_owned()
        } else {
            let compact: String = text.split_whitespace().collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&compact)
                .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(&compact))
                .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(&compact))
                .map_err(|_| ProviderError::NotASetupToken)?;
            String::from_utf8(bytes).map_err(|_| ProviderError::NotASetupToken)?
        };
        check_scheme(&url, allow_http)?;
        reqwest::Url::parse(&url).map_err(|_| ProviderError::NotASetupToken)?;
        Ok(Self(url))
    }
}

fn check_scheme(url: &str, allow_http: bool) -> Result<(), ProviderError> {
    if url.starts_with("https://") || (allow_http && url.starts_with("http://")) {
        Ok(())
    } else if url.starts_with("http://") {
        Err(ProviderError::InsecureUrl)
    } else {
        Err(ProviderError::NotASetupToken)
    }
}

/// The access URL: the provider's base and the Basic credentials in it.
/// Kept sealed at rest; no `Debug`, no `Serialize`.
pub struct AccessUrl(SecretString);

impl AccessUrl {
    /// Checks an access URL (from a claim, or unsealed from the database).
    pub fn parse(raw: &str, allow_http: bool) -> Result<Self, ProviderError> {
        let text = raw.trim();
        check_scheme(text, allow_http)
            .map_err(|_| ProviderError::Malformed("the access URL is not an http(s) URL".into()))?;
        let url = reqwest::Url::parse(text)
            .map_err(|_| ProviderError::Malformed("the access URL is not a URL".into()))?;
        if url.username().is_empty() || url.password().is_none() {
            return Err(ProviderError::Malformed(
                "the access URL carries no credentials".into(),
            ));
        }
        Ok(Self(SecretString::from(text.to_owned())))
    }

    /// The URL as stored (for sealing).
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    /// `{access}/accounts` without credentials, and the credentials.
    fn accounts_endpoint(&self) -> Result<(reqwest::Url, String, String), ProviderError> {
        let mut url = reqwest::Url::parse(self.expose())
            .map_err(|_| ProviderError::Malformed("the access URL is not a URL".into()))?;
        let user = percent_decode(url.username());
        let password = percent_decode(url.password().unwrap_or_default());
        url.set_username("")
            .and_then(|()| url.set_password(None))
            .map_err(|()| ProviderError::Malformed("the access URL cannot hold a path".into()))?;
        let path = format!("{}/accounts", url.path().trim_end_matches('/'));
        url.set_path(&path);
        Ok((url, user, password))
    }

    /// A label for the connection: the provider's host, no credentials.
    pub fn host(&self) -> String {
        reqwest::Url::parse(self.expose())
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// Userinfo in a URL is percent-encoded; the credentials are not.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(byte) = u8::from_str_radix(&text[i + 1..i + 3], 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One account as the provider describes it, with its transactions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub currency: String,
    pub institution: String,
    /// Decimal strings, as sent.
    pub balance: String,
    pub available_balance: Option<String>,
    /// Epoch seconds.
    pub balance_date: Option<i64>,
    pub transactions: Vec<Transaction>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    pub id: String,
    /// Epoch seconds; 0 while pending.
    pub posted: i64,
    /// A decimal string; positive is money in.
    pub amount: String,
    pub description: String,
    pub payee: Option<String>,
    pub memo: Option<String>,
    pub transacted_at: Option<i64>,
    pub pending: bool,
}

/// A fetch: the accounts, and the messages the provider sent beside them
/// (a bank that needs attention, say).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fetched {
    pub accounts: Vec<Account>,
    pub messages: Vec<String>,
}

/// The answer's shape, v1 and v2 together.
#[derive(Deserialize)]
struct Wire {
    #[serde(default)]
    errors: Vec<String>,
    #[serde(default)]
    errlist: Vec<WireError>,
    #[serde(default)]
    connections: Vec<WireConnection>,
    #[serde(default)]
    accounts: Vec<WireAccount>,
}

#[derive(Deserialize)]
struct WireError {
    #[serde(default)]
    msg: String,
}

#[derive(Deserialize)]
struct WireConnection {
    conn_id: String,
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct WireOrg {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    domain: Option<String>,
}

#[derive(Deserialize)]
struct WireAccount {
    id: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    currency: Option<String>,
    #[serde(default)]
    balance: Option<String>,
    #[serde(default, rename = "available-balance")]
    available_balance: Option<String>,
    #[serde(default, rename = "balance-date")]
    balance_date: Option<i64>,
    #[serde(default)]
    org: Option<WireOrg>,
    #[serde(default)]
    conn_id: Option<String>,
    #[serde(default)]
    transactions: Vec<WireTransaction>,
}

#[derive(Deserialize)]
struct WireTransaction {
    id: String,
    #[serde(default)]
    posted: i64,
    amount: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    payee: Option<String>,
    #[serde(default)]
    memo: Option<String>,
    #[serde(default)]
    transacted_at: Option<i64>,
    #[serde(default)]
    pending: bool,
}

/// Reads an accounts answer in either shape.
pub fn read_accounts(body: &[u8]) -> Result<Fetched, ProviderError> {
    let wire: Wire = serde_json::from_slice(body)
        .map_err(|error| ProviderError::Malformed(format!("accounts: {error}")))?;
    let mut messages = wire.errors;
    messages.extend(
        wire.errlist
            .into_iter()
            .map(|error| error.msg)
            .filter(|msg| !msg.is_empty()),
    );
    let institution_of = |conn: &Option<String>| {
        conn.as_ref().and_then(|id| {
            wire.connections
                .iter()
                .find(|connection| &connection.conn_id == id)
                .map(|connection| connection.name.clone())
        })
    };
    let accounts = wire
        .accounts
        .into_iter()
        .map(|account| {
            let institution = account
                .org
                .as_ref()
                .and_then(|org| org.name.clone().or_else(|| org.domain.clone()))
                .or_else(|| institution_of(&account.conn_id))
                .unwrap_or_default();
            Account {
                id: account.id,
                name: account.name,
                currency: account.currency.unwrap_or_else(|| "USD".to_owned()),
                institution,
                balance: account.balance.unwrap_or_else(|| "0".to_owned()),
                available_balance: account.available_balance,
                balance_date: account.balance_date,
                transactions: account
                    .transactions
                    .into_iter()
                    .map(|t| Transaction {
                        pending: t.pending || t.posted == 0,
                        id: t.id,
                        posted: t.posted,
                        amount: t.amount,
                        description: t.description,
                        payee: t.payee,
                        memo: t.memo,
                        transacted_at: t.transacted_at,
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(Fetched { accounts, messages })
}

/// The provider's client: its HTTP client and how long a call may take.
#[derive(Clone)]
pub struct Provider {
    http: reqwest::Client,
    timeout: Duration,
    backoff: [Duration; 2],
    allow_http: bool,
}

impl Provider {
    pub fn new(timeout: Duration, allow_http: bool) -> Self {
        Self::with_backoff(timeout, allow_http, BACKOFF)
    }

    /// With other waits between attempts (the benchmark's fake never
    /// fails, tests that count attempts keep the real ones).
    pub fn with_backoff(timeout: Duration, allow_http: bool, backoff: [Duration; 2]) -> Self {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self {
            http,
            timeout,
            backoff,
            allow_http,
        }
    }

    pub fn allows_http(&self) -> bool {
        self.allow_http
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Claims a setup token once: the access URL.
    pub async fn claim(&self, claim: &ClaimUrl) -> Result<AccessUrl, ProviderError> {
        let body = self
            .with_retries(
                || self.http.post(&claim.0).header("content-length", "0"),
                true,
            )
            .await?;
        let text = String::from_utf8(body)
            .map_err(|_| ProviderError::Malformed("the claim answer is not text".into()))?;
        AccessUrl::parse(&text, self.allow_http)
    }

    /// The accounts and their transactions (pending included) for a window.
    pub async fn accounts(
        &self,
        access: &AccessUrl,
        window: SyncWindow,
    ) -> Result<Fetched, ProviderError> {
        let (url, user, password) = access.accounts_endpoint()?;
        let start = window.start.to_string();
        let end = window.end.to_string();
        let body = self
            .with_retries(
                || {
                    self.http
                        .get(url.clone())
                        .basic_auth(&user, Some(&password))
                        .query(&[
                            ("start-date", start.as_str()),
                            ("end-date", end.as_str()),
                            ("pending", "1"),
                        ])
                },
                false,
            )
            .await?;
        read_accounts(&body)
    }

    /// Up to three attempts: again after network errors and 5xx, with the
    /// backoff between; a 4xx answers at once.
    async fn with_retries(
        &self,
        request: impl Fn() -> reqwest::RequestBuilder,
        claiming: bool,
    ) -> Result<Vec<u8>, ProviderError> {
        let mut last = ProviderError::Unreachable("no attempt was made".into());
        for attempt in 0..=self.backoff.len() {
            if attempt > 0 {
                tokio::time::sleep(self.backoff[attempt - 1]).await;
            }
            match self.attempt(request(), claiming).await {
                Ok(body) => return Ok(body),
                Err(Attempt::Final(error)) => return Err(error),
                Err(Attempt::Retry(error)) => last = error,
            }
        }
        Err(last)
    }

    async fn attempt(
        &self,
        request: reqwest::RequestBuilder,
        claiming: bool,
    ) -> Result<Vec<u8>, Attempt> {
        let mut response = request.send().await.map_err(|error| {
            Attempt::Retry(ProviderError::Unreachable(if error.is_timeout() {
                format!("no answer within {} s", self.timeout.as_secs())
            } else if error.is_connect() {
                "connection failed".to_owned()
            } else {
                "the request failed".to_owned()
            }))
        })?;
        let status = response.status().as_u16();
        match status {
            200..=299 => {}
            500..=599 => return Err(Attempt::Retry(ProviderError::Refused(status))),
            402 => return Err(Attempt::Final(ProviderError::PaymentRequired)),
            403 if claiming => return Err(Attempt::Final(ProviderError::TokenUsed)),
            401 | 403 => return Err(Attempt::Final(ProviderError::AccessRevoked)),
            429 => return Err(Attempt::Final(ProviderError::RateLimited)),
            _ => return Err(Attempt::Final(ProviderError::Refused(status))),
        }
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() + chunk.len() > MAX_BODY {
                        return Err(Attempt::Final(ProviderError::Malformed(
                            "the answer is too large".into(),
                        )));
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(body),
                Err(error) => {
                    return Err(Attempt::Retry(ProviderError::Unreachable(
                        if error.is_timeout() {
                            format!("no answer within {} s", self.timeout.as_secs())
                        } else {
                            "the answer was cut off".to_owned()
                        },
                    )))
                }
            }
        }
    }
}

enum Attempt {
    Retry(ProviderError),
    Final(ProviderError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_token_is_base64_of_the_claim_url_or_the_url_itself() {
        let url = "https://bridge.example.com/simplefin/claim/ABC";
        let token = base64::engine::general_purpose::STANDARD.encode(url);
        assert_eq!(ClaimUrl::parse(&token, false).unwrap().0, url);
        assert_eq!(
            ClaimUrl::parse(&format!("  {url}\n"), false).unwrap().0,
            url
        );
        assert_eq!(
            ClaimUrl::parse("not base64 !!", false).err(),
            Some(ProviderError::NotASetupToken)
        );
        let plain = base64::engine::general_purpose::STANDARD.encode("http://localhost:9/claim");
        assert_eq!(
            ClaimUrl::parse(&plain, false).err(),
            Some(ProviderError::InsecureUrl)
        );
        assert!(ClaimUrl::parse(&plain, true).is_ok());
        let other = base64::engine::general_purpose::STANDARD.encode("ftp://x/claim");
        assert_eq!(
            ClaimUrl::parse(&other, true).err(),
            Some(ProviderError::NotASetupToken)
        );
    }

    #[test]
    fn the_access_url_splits_into_endpoint_and_credentials_and_never_shows_them() {
        let access =
            AccessUrl::parse("https://us%40r:p%3Ass@bridge.example.com/simplefin", false).unwrap();
        let (url, user, password) = access.accounts_endpoint().unwrap();
        assert_eq!(
            url.as_str(),
            "https://bridge.example.com/simplefin/accounts"
        );
        assert_eq!((user.as_str(), password.as_str()), ("us@r", "p:ss"));
        assert_eq!(access.host(), "bridge.example.com");
        let error = AccessUrl::parse("https://bridge.example.com/simplefin", false)
            .err()
            .unwrap();
        assert!(!error.to_string().contains("bridge"), "{error}");
        assert!(AccessUrl::parse("http://u:p@localhost/s", false).is_err());
    }

    #[test]
    fn both_answer_shapes_are_read() {
        let v1 = br#"{"errors":["Connection to Bank A may need attention"],
            "accounts":[{"org":{"domain":"bank-a.example","name":"Bank A"},"id":"ACT-1",
            "name":"Checking","currency":"USD","balance":"1200.50","available-balance":"1100.00",
            "balance-date":1790000000,"transactions":[
              {"id":"t1","posted":1789900000,"amount":"-15.99","description":"NETFLIX.COM","payee":"Netflix"},
              {"id":"t2","posted":0,"amount":"-30.00","description":"DINER","pending":true}]}]}"#;
        let fetched = read_accounts(v1).unwrap();
        assert_eq!(
            fetched.messages,
            vec!["Connection to Bank A may need attention"]
        );
        let account = &fetched.accounts[0];
        assert_eq!(account.institution, "Bank A");
        assert_eq!(account.available_balance.as_deref(), Some("1100.00"));
        assert!(!account.transactions[0].pending && account.transactions[1].pending);

        let v2 = br#"{"errlist":[{"code":"con.auth","msg":"Bank B needs you to sign in again","conn_id":"C1"}],
            "connections":[{"conn_id":"C1","name":"Bank B","org_id":"o","org_url":"https://b.example","sfin_url":"https://x"}],
            "accounts":[{"id":"ACT-9","name":"Card","conn_id":"C1","currency":"USD","balance":"-50.00",
            "balance-date":1790000000,"transactions":[]}]}"#;
        let fetched = read_accounts(v2).unwrap();
        assert_eq!(fetched.messages, vec!["Bank B needs you to sign in again"]);
        assert_eq!(fetched.accounts[0].institution, "Bank B");
        assert!(read_accounts(b"<html>").is_err());
    }
}
