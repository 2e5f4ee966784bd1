//! The bank provider's protocol (SimpleFIN): a setup token is the base64 of
//! a claim URL; one `POST` to it returns the access URL, which carries Basic
//! credentials (`https://user:pass@host/path`); `GET {access}/accounts`
//! returns the accounts with their transactions for a window. Answers come
//! in the v1 shape (`errors`, `org`) or the v2 shape (`errlist`,
//! `connections`, `conn_id`); both are read.
//!
//! Every call goes through the outbound guard (`backend::outbound`): the
//! claim URL a user pastes and the access URL a provider returns are both
//! vetted before any connection, and reached only at the vetted addresses.
//! Every call times out (30 s unless configured shorter, for tests);
//! network errors and 5xx answers are tried again after 1 s and then 2 s,
//! three attempts in all; a 4xx fails at once. An answer is read up to a
//! cap and checked against limits on accounts, transactions and field
//! lengths; control characters in the provider's text are dropped. The
//! access URL is a secret: it is never logged, never part of an error, and
//! has no `Debug`.
//!
//! What a person is told is one sentence per kind of failure, never the
//! provider's status code, body or whether a host answered: a claim fails
//! the same way whether the port was closed or something answered. The
//! details go to the log, with the URL reduced to scheme, host and port.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use tokio::sync::Semaphore;

use crate::backend::outbound::{self, BodyError, Outbound};
use crate::domain::bank::sync_window::SyncWindow;

/// The spec's timeout of each provider call.
pub const TIMEOUT: Duration = Duration::from_secs(30);
/// The waits before the second and third attempts.
pub const BACKOFF: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(2)];
/// The largest accounts answer read: 3 accounts of 10,000 transactions are
/// about 4.5 MiB; a larger answer is refused, never held whole.
pub const MAX_BODY: usize = 8 * 1024 * 1024;
/// The largest claim answer: an access URL is a line of text.
pub const MAX_CLAIM_BODY: usize = 4096;
/// The most accounts one answer may list.
pub const MAX_ACCOUNTS: usize = 100;
/// The most transactions one account may list in one answer.
pub const MAX_TRANSACTIONS: usize = 20_000;
/// The longest text field (names, descriptions, payees, memos, messages),
/// in characters.
pub const MAX_TEXT: usize = 1000;
/// The longest id or amount, in characters.
pub const MAX_ID: usize = 255;
/// The most messages kept from one answer.
pub const MAX_MESSAGES: usize = 50;
/// Bank jobs (syncs, backfills, the automatic worker's syncs) running at
/// once across the server; the rest wait their turn.
pub const JOBS_AT_ONCE: usize = 2;

/// What went wrong, in words a person can act on. No variant carries a URL,
/// a credential, a status code or the provider's own text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("that is not a setup token: paste the token (or setup URL) your bank-connection provider gave you")]
    NotASetupToken,
    #[error("the provider's address must use https (set SIMPLEFIN_ALLOW_HTTP=true only for a local test provider)")]
    InsecureUrl,
    #[error("Tally does not connect to that address: local, private and cloud-metadata networks are refused unless an administrator allows them (OUTBOUND_ALLOWED_HOSTS)")]
    AddressRefused,
    #[error("the provider refused the token or could not be reached; check the token (each works once) or try again later")]
    TokenRefused,
    #[error("the bank-connection provider needs payment before it answers; check your subscription there")]
    PaymentRequired,
    #[error("the bank-connection provider refused the stored access (it may have been revoked); reconnect with a new setup token")]
    AccessRevoked,
    #[error("the bank-connection provider is limiting requests; try again later")]
    RateLimited,
    #[error("the bank-connection provider could not be reached; try again later")]
    Unreachable,
    #[error("the bank-connection provider sent an answer Tally cannot read")]
    Malformed,
    #[error("the bank-connection provider sent more than Tally accepts: {0}")]
    TooLarge(String),
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
        if text.chars().any(char::is_control) {
            return Err(ProviderError::Malformed);
        }
        check_scheme(text, allow_http).map_err(|_| ProviderError::Malformed)?;
        let url = reqwest::Url::parse(text).map_err(|_| ProviderError::Malformed)?;
        if url.username().is_empty() || url.password().is_none() {
            return Err(ProviderError::Malformed);
        }
        Ok(Self(SecretString::from(text.to_owned())))
    }

    /// The URL as stored (for sealing).
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    /// `{access}/accounts` without credentials, and the credentials.
    fn accounts_endpoint(&self) -> Result<(reqwest::Url, String, String), ProviderError> {
        let mut url = reqwest::Url::parse(self.expose()).map_err(|_| ProviderError::Malformed)?;
        let user = percent_decode(url.username());
        let password = percent_decode(url.password().unwrap_or_default());
        url.set_username("")
            .and_then(|()| url.set_password(None))
            .map_err(|()| ProviderError::Malformed)?;
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

/// Provider text as Tally keeps it: control characters (and the bidi
/// overrides that reorder what a person sees) become spaces, ends trimmed.
pub fn clean(text: &str) -> String {
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(|c| c.is_control() || bidi(c)) {
        return text.trim().to_owned();
    }
    text.chars()
        .map(|c| if c.is_control() || bidi(c) { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

fn too_large(what: String) -> ProviderError {
    ProviderError::TooLarge(what)
}

/// A text field: at most `max` characters, cleaned.
fn text(field: &str, value: String, max: usize) -> Result<String, ProviderError> {
    if value.chars().count() > max {
        return Err(too_large(format!("a {field} longer than {max} characters")));
    }
    Ok(clean(&value))
}

fn optional(
    field: &str,
    value: Option<String>,
    max: usize,
) -> Result<Option<String>, ProviderError> {
    value.map(|value| text(field, value, max)).transpose()
}

/// Reads an accounts answer in either shape, within the limits.
pub fn read_accounts(body: &[u8]) -> Result<Fetched, ProviderError> {
    let wire: Wire = serde_json::from_slice(body).map_err(|error| {
        // serde's message can quote the body: the log gets its position only.
        tracing::warn!(
            line = error.line(),
            column = error.column(),
            category = ?error.classify(),
            "the bank provider's accounts answer could not be read"
        );
        ProviderError::Malformed
    })?;
    if wire.accounts.len() > MAX_ACCOUNTS {
        return Err(too_large(format!("more than {MAX_ACCOUNTS} accounts")));
    }
    let mut messages = Vec::new();
    for message in wire
        .errors
        .into_iter()
        .chain(wire.errlist.into_iter().map(|error| error.msg))
        .filter(|msg| !msg.is_empty())
        .take(MAX_MESSAGES)
    {
        messages.push(text("message", message, MAX_TEXT)?);
    }
    let connections = wire.connections;
    let institution_of = |conn: &Option<String>| {
        conn.as_ref().and_then(|id| {
            connections
                .iter()
                .find(|connection| &connection.conn_id == id)
                .map(|connection| connection.name.clone())
        })
    };
    let mut accounts = Vec::with_capacity(wire.accounts.len());
    for account in wire.accounts {
        if account.transactions.len() > MAX_TRANSACTIONS {
            return Err(too_large(format!(
                "more than {MAX_TRANSACTIONS} transactions in one account"
            )));
        }
        let institution = account
            .org
            .as_ref()
            .and_then(|org| org.name.clone().or_else(|| org.domain.clone()))
            .or_else(|| institution_of(&account.conn_id))
            .unwrap_or_default();
        let mut transactions = Vec::with_capacity(account.transactions.len());
        for t in account.transactions {
            transactions.push(Transaction {
                pending: t.pending || t.posted == 0,
                id: text("transaction id", t.id, MAX_ID)?,
                posted: t.posted,
                amount: text("amount", t.amount, MAX_ID)?,
                description: text("description", t.description, MAX_TEXT)?,
                payee: optional("payee", t.payee, MAX_TEXT)?,
                memo: optional("memo", t.memo, MAX_TEXT)?,
                transacted_at: t.transacted_at,
            });
        }
        accounts.push(Account {
            id: text("account id", account.id, MAX_ID)?,
            name: text("account name", account.name, MAX_TEXT)?,
            currency: text(
                "currency",
                account.currency.unwrap_or_else(|| "USD".to_owned()),
                MAX_ID,
            )?,
            institution: text("institution", institution, MAX_TEXT)?,
            balance: text(
                "balance",
                account.balance.unwrap_or_else(|| "0".to_owned()),
                MAX_ID,
            )?,
            available_balance: optional("balance", account.available_balance, MAX_ID)?,
            balance_date: account.balance_date,
            transactions,
        });
    }
    Ok(Fetched { accounts, messages })
}

/// The provider's client: the outbound guard it calls through, how long a
/// call may take, and the server-wide gate on bank jobs (every bank job
/// reaches the provider through this client, so the gate travels with it).
#[derive(Clone)]
pub struct Provider {
    outbound: Outbound,
    timeout: Duration,
    backoff: [Duration; 2],
    allow_http: bool,
    jobs: Arc<Semaphore>,
}

/// What one attempt did, and whether another may help.
enum Attempt {
    Retry(ProviderError),
    Final(ProviderError),
}

impl Provider {
    /// With the strict guard (no private address); see [`Self::with_outbound`].
    pub fn new(timeout: Duration, allow_http: bool) -> Self {
        Self::with_backoff(timeout, allow_http, BACKOFF)
    }

    /// With other waits between attempts (the benchmark's fake never
    /// fails, tests that count attempts keep the real ones).
    pub fn with_backoff(timeout: Duration, allow_http: bool, backoff: [Duration; 2]) -> Self {
        Self {
            outbound: Outbound::default(),
            timeout,
            backoff,
            allow_http,
            jobs: Arc::new(Semaphore::new(JOBS_AT_ONCE)),
        }
    }

    /// Calls through `outbound` (the administrator's allowances).
    pub fn with_outbound(mut self, outbound: Outbound) -> Self {
        self.outbound = outbound;
        self
    }

    pub fn allows_http(&self) -> bool {
        self.allow_http
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The gate a bank job passes before it runs (`JOBS_AT_ONCE` at once).
    pub fn jobs(&self) -> &Arc<Semaphore> {
        &self.jobs
    }

    /// Vets `url` and builds the client pinned to what was vetted.
    async fn client(&self, url: &reqwest::Url) -> Result<reqwest::Client, ProviderError> {
        let vetted = self.outbound.vet(url).await.map_err(|refused| {
            tracing::warn!(address = %outbound::redact(url), %refused, "bank provider address refused");
            ProviderError::AddressRefused
        })?;
        self.outbound
            .client_for(&vetted, self.timeout)
            .map_err(|error| {
                tracing::error!(%error, "building the bank provider's client");
                ProviderError::Unreachable
            })
    }

    /// Claims a setup token once: the access URL. Every failure after the
    /// address was vetted reads the same (`TokenRefused`).
    pub async fn claim(&self, claim: &ClaimUrl) -> Result<AccessUrl, ProviderError> {
        let url = reqwest::Url::parse(&claim.0).map_err(|_| ProviderError::NotASetupToken)?;
        let http = self.client(&url).await?;
        let body = self
            .with_retries(
                &url,
                || http.post(url.clone()).header("content-length", "0"),
                MAX_CLAIM_BODY,
            )
            .await
            .map_err(|_| ProviderError::TokenRefused)?;
        let text = String::from_utf8(body).map_err(|_| {
            tracing::warn!(address = %outbound::redact(&url), "the claim answer is not text");
            ProviderError::TokenRefused
        })?;
        let access = AccessUrl::parse(&text, self.allow_http).map_err(|_| {
            tracing::warn!(address = %outbound::redact(&url), "the claim answer is not an access URL with credentials");
            ProviderError::TokenRefused
        })?;
        // The provider picks the access URL: it is kept only if the guard
        // would let every later sync reach it.
        let (endpoint, _, _) = access.accounts_endpoint()?;
        self.outbound.vet(&endpoint).await.map_err(|refused| {
            tracing::warn!(address = %outbound::redact(&endpoint), %refused, "the provider's access URL is refused");
            ProviderError::AddressRefused
        })?;
        Ok(access)
    }

    /// The accounts and their transactions (pending included) for a window.
    pub async fn accounts(
        &self,
        access: &AccessUrl,
        window: SyncWindow,
    ) -> Result<Fetched, ProviderError> {
        self.fetch(access, window, false).await
    }

    /// The accounts and their balances only, for a new connection's answer.
    pub async fn balances(&self, access: &AccessUrl, now: i64) -> Result<Fetched, ProviderError> {
        let window = SyncWindow {
            start: now,
            end: now,
        };
        self.fetch(access, window, true).await
    }

    async fn fetch(
        &self,
        access: &AccessUrl,
        window: SyncWindow,
        balances_only: bool,
    ) -> Result<Fetched, ProviderError> {
        let (url, user, password) = access.accounts_endpoint()?;
        let http = self.client(&url).await?;
        let start = window.start.to_string();
        let end = window.end.to_string();
        let body = self
            .with_retries(
                &url,
                || {
                    let request = http
                        .get(url.clone())
                        .basic_auth(&user, Some(&password))
                        .query(&[
                            ("start-date", start.as_str()),
                            ("end-date", end.as_str()),
                            ("pending", "1"),
                        ]);
                    if balances_only {
                        request.query(&[("balances-only", "1")])
                    } else {
                        request
                    }
                },
                MAX_BODY,
            )
            .await?;
        read_accounts(&body)
    }

    /// Up to three attempts: again after network errors and 5xx, with the
    /// backoff between; a 4xx answers at once.
    async fn with_retries(
        &self,
        url: &reqwest::Url,
        request: impl Fn() -> reqwest::RequestBuilder,
        cap: usize,
    ) -> Result<Vec<u8>, ProviderError> {
        let mut last = ProviderError::Unreachable;
        for attempt in 0..=self.backoff.len() {
            if attempt > 0 {
                tokio::time::sleep(self.backoff[attempt - 1]).await;
            }
            match self.attempt(url, request(), cap).await {
                Ok(body) => return Ok(body),
                Err(Attempt::Final(error)) => return Err(error),
                Err(Attempt::Retry(error)) => last = error,
            }
        }
        Err(last)
    }

    async fn attempt(
        &self,
        url: &reqwest::Url,
        request: reqwest::RequestBuilder,
        cap: usize,
    ) -> Result<Vec<u8>, Attempt> {
        let address = outbound::redact(url);
        let response = request.send().await.map_err(|error| {
            tracing::warn!(%address, timeout = error.is_timeout(), connect = error.is_connect(),
                error = %error.without_url(), "the bank provider could not be reached");
            Attempt::Retry(ProviderError::Unreachable)
        })?;
        let status = response.status().as_u16();
        if !(200..=299).contains(&status) {
            tracing::warn!(%address, status, "the bank provider answered with an error");
        }
        match status {
            200..=299 => {}
            500..=599 => return Err(Attempt::Retry(ProviderError::Unreachable)),
            402 => return Err(Attempt::Final(ProviderError::PaymentRequired)),
            401 | 403 => return Err(Attempt::Final(ProviderError::AccessRevoked)),
            429 => return Err(Attempt::Final(ProviderError::RateLimited)),
            _ => return Err(Attempt::Final(ProviderError::Unreachable)),
        }
        outbound::read_capped(response, cap).await.map_err(|error| match error {
            BodyError::TooLarge(cap) => {
                tracing::warn!(%address, cap, "the bank provider's answer is over the cap");
                Attempt::Final(too_large(format!(
                    "an answer over {} MiB",
                    (cap / (1024 * 1024)).max(1)
                )))
            }
            BodyError::Cut(error) => {
                tracing::warn!(%address, error = %error.without_url(), "the bank provider's answer was cut off");
                Attempt::Retry(ProviderError::Unreachable)
            }
        })
    }
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
        assert!(AccessUrl::parse("https://u:p@bridge.example.com/s\n", false).is_ok());
        assert!(AccessUrl::parse("https://u:p@bridge.exa\u{7}mple.com/s", false).is_err());
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

    #[test]
    fn answers_over_the_limits_are_refused_in_plain_words_and_control_characters_dropped() {
        let many = format!(
            r#"{{"accounts":[{}]}}"#,
            (0..=MAX_ACCOUNTS)
                .map(|i| format!(r#"{{"id":"A{i}"}}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        let error = read_accounts(many.as_bytes()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the bank-connection provider sent more than Tally accepts: more than 100 accounts"
        );
        let long = format!(
            r#"{{"accounts":[{{"id":"A","name":"{}"}}]}}"#,
            "x".repeat(MAX_TEXT + 1)
        );
        assert!(matches!(
            read_accounts(long.as_bytes()),
            Err(ProviderError::TooLarge(_))
        ));
        let body = br#"{"errors":["bad\u001b[31m red"],"accounts":[{"id":"A","name":"Check\u0007ing\u202e",
            "transactions":[{"id":"t","posted":1,"amount":"-1","description":"NET\nFLIX"}]}]}"#;
        let fetched = read_accounts(body).unwrap();
        assert_eq!(fetched.messages, vec!["bad [31m red"]);
        assert_eq!(fetched.accounts[0].name, "Check ing");
        assert_eq!(fetched.accounts[0].transactions[0].description, "NET FLIX");
        // serde's message would quote the body; the error never does.
        let error = read_accounts(b"{\"accounts\": SECRET-BODY}").unwrap_err();
        assert_eq!(error, ProviderError::Malformed);
        assert!(!error.to_string().contains("SECRET"));
    }
}
