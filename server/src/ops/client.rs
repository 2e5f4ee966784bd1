//! The HTTP side of the ops commands: the running server's API with an
//! administrator's bearer token (or one with the `admin:backup` scope).
//! No redirect is followed: the token would go with it.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use app::contract::error::ErrorBody;
use app::contract::operations::{Operation, WaitOperation};
use secrecy::{ExposeSecret, SecretString};

use super::OpsError;

/// How long one `:wait` asks the server to hold on.
const WAIT: &str = "25s";
/// How long a backup may take in all.
const BACKUP_LIMIT: Duration = Duration::from_secs(30 * 60);

pub struct Tally {
    base: String,
    token: SecretString,
    http: reqwest::Client,
}

impl Tally {
    pub fn new(base: String, token: SecretString) -> Result<Self, OpsError> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| OpsError::Failed(format!("cannot make an HTTP client: {error}")))?;
        Ok(Self { base, token, http })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        url: &str,
    ) -> Result<reqwest::Response, OpsError> {
        super::answered(
            request.bearer_auth(self.token.expose_secret()),
            url,
            |text| {
                serde_json::from_str::<ErrorBody>(text)
                    .ok()
                    .map(|body| body.error.message)
            },
        )
        .await
    }

    async fn operation(
        &self,
        request: reqwest::RequestBuilder,
        url: &str,
    ) -> Result<Operation, OpsError> {
        self.send(request, url)
            .await?
            .json()
            .await
            .map_err(|error| {
                OpsError::Failed(format!(
                    "{url} answered something other than an operation: {error}"
                ))
            })
    }

    /// Whether the server takes this token for backups (lists them, which
    /// only an administrator may): a read, for dry runs.
    pub async fn can_back_up(&self) -> Result<(), OpsError> {
        let url = self.url("/api/admin/backups");
        self.send(self.http.get(&url), &url).await.map(|_| ())
    }

    /// Starts a backup on the server and follows it to its end; answers
    /// the backup's file name.
    pub async fn backup(&self) -> Result<String, OpsError> {
        let url = self.url("/v1/admin:backup");
        let mut operation = self
            .operation(self.http.post(&url).json(&serde_json::json!({})), &url)
            .await?;
        let started = std::time::Instant::now();
        while !operation.done {
            if started.elapsed() > BACKUP_LIMIT {
                return Err(OpsError::Failed(format!(
                    "{} still running after {} minutes",
                    operation.name,
                    BACKUP_LIMIT.as_secs() / 60
                )));
            }
            let url = self.url(&format!("/v1/{}:wait", operation.name));
            let body = WaitOperation {
                timeout: Some(WAIT.into()),
            };
            operation = self
                .operation(self.http.post(&url).json(&body), &url)
                .await?;
        }
        if let Some(error) = operation.error {
            return Err(OpsError::Failed(format!(
                "the server's backup failed: {}",
                error.message
            )));
        }
        operation
            .response
            .as_ref()
            .and_then(|response| response["fileName"].as_str())
            .map(str::to_owned)
            .ok_or_else(|| {
                OpsError::Failed(format!("{} ended without a backup file", operation.name))
            })
    }

    /// Streams the backup `name` into `dest`, showing progress on stderr.
    pub async fn download(&self, name: &str, dest: &Path) -> Result<u64, OpsError> {
        let url = self.url(&format!("/api/admin/backups/{name}"));
        let mut response = self.send(self.http.get(&url), &url).await?;
        let total = response.content_length();
        let io = |source| OpsError::Io {
            path: dest.to_path_buf(),
            source,
        };
        let mut file = std::fs::File::create(dest).map_err(io)?;
        let mut written: u64 = 0;
        let mut shown = None;
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|error| OpsError::Unreachable {
                url: url.clone(),
                reason: format!("the download broke off: {error}"),
            })?
        {
            file.write_all(&chunk).map_err(io)?;
            written += chunk.len() as u64;
            shown = progress(name, written, total, shown);
        }
        file.sync_all().map_err(io)?;
        eprintln!();
        if let Some(total) = total.filter(|total| *total != written) {
            return Err(OpsError::Failed(format!(
                "the download of {name} stopped at {written} of {total} bytes"
            )));
        }
        Ok(written)
    }
}

/// A one-line progress bar, redrawn when the percentage changes.
fn progress(name: &str, written: u64, total: Option<u64>, shown: Option<u64>) -> Option<u64> {
    const WIDTH: u64 = 30;
    let Some(total) = total.filter(|total| *total > 0) else {
        eprint!("\rdownloading {name}: {written} bytes");
        return shown;
    };
    let percent = written * 100 / total;
    if shown == Some(percent) {
        return shown;
    }
    let filled = (percent * WIDTH / 100) as usize;
    eprint!(
        "\rdownloading {name} [{}{}] {percent:>3} % of {total} bytes",
        "#".repeat(filled),
        " ".repeat(WIDTH as usize - filled)
    );
    Some(percent)
}
