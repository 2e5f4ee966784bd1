//! Test helpers: the real application in-process on port 0 against a fresh
//! database, and the real `tally` binary as a child process.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod bank;
pub mod browser;
pub mod fakes;
pub mod form_refusal;
pub mod legacy;
pub mod oidc;
pub mod operations;
pub mod receiver;
pub mod smtp;
pub mod totp;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use server::config::Settings;
use server::startup::Application;
use tempfile::TempDir;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub dir: TempDir,
    pub settings: Settings,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    running: Option<tokio::task::JoinHandle<()>>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// A programmatic client's request: the API token, no cookies, no
    /// CSRF header.
    pub fn with_token(
        &self,
        token: &str,
        method: reqwest::Method,
        path: &str,
    ) -> reqwest::RequestBuilder {
        self.client
            .request(method, self.url(path))
            .bearer_auth(token)
    }

    pub fn database_path(&self) -> PathBuf {
        self.settings.database_path()
    }

    /// Stops the server cleanly (database closed, lock released) and starts
    /// a new one on the same data directory with `extra` settings.
    pub async fn restart(mut self, extra: &[(&str, &str)]) -> TestApp {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(running) = self.running.take() {
            running.await.unwrap();
        }
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().unwrap());
        start_in(dir, extra).await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Settings for a test: port 0, everything under a fresh temporary directory.
pub fn test_settings(dir: &Path, extra: &[(&str, &str)]) -> Settings {
    let data = dir.join("data").to_string_lossy().into_owned();
    let logs = dir.join("logs").to_string_lossy().into_owned();
    let site = dir.join("site").to_string_lossy().into_owned();
    let mut vars: Vec<(String, String)> = vec![
        ("LEPTOS_SITE_ADDR".into(), "127.0.0.1:0".into()),
        ("DATA_DIR".into(), data),
        ("LOG_DIR".into(), logs),
        ("LEPTOS_SITE_ROOT".into(), site),
        ("LEPTOS_HASH_FILES".into(), "false".into()),
    ];
    vars.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    Settings::from_lookup(|name| {
        vars.iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| Ok(value.clone()))
    })
    .unwrap()
}

/// Starts the application in this process on a random port.
pub async fn spawn_app(extra: &[(&str, &str)]) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("site/pkg")).unwrap();
    start_in(dir, extra).await
}

/// Records a payment of `bill` on `on` through the API.
pub async fn pay(
    browser: &browser::Browser,
    bill: i64,
    amount_minor: i64,
    on: app::domain::date::Date,
) {
    let response = browser
        .request(
            reqwest::Method::POST,
            &format!("/api/bills/{bill}/payments"),
        )
        .json(&serde_json::json!({"amountMinor": amount_minor, "paidOn": on.to_string()}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
}

/// The bootstrap administrator every `with_admin` app starts with.
pub const ADMIN_EMAIL: &str = "admin@example.com";
pub const ADMIN_PASSWORD: &str = "correct horse battery staple";

/// The bootstrap administrator's password, asked again for the
/// account-level actions (disable, enable, reset a second factor).
pub fn admin_confirms() -> app::contract::two_factor::CurrentPassword {
    app::contract::two_factor::CurrentPassword {
        current_password: ADMIN_PASSWORD.into(),
    }
}

/// Opening (or closing) registration, as the bootstrap administrator.
pub fn registration(open: bool) -> app::contract::admin::RegistrationChange {
    app::contract::admin::RegistrationChange {
        open,
        current_password: ADMIN_PASSWORD.into(),
    }
}

/// An invitation made by the bootstrap administrator.
pub fn invitation(
    email: Option<&str>,
    role: Option<app::domain::role::Role>,
) -> app::contract::admin::Invite {
    app::contract::admin::Invite {
        email: email.map(str::to_owned),
        role,
        current_password: ADMIN_PASSWORD.into(),
    }
}

/// A plain user of `app`, joined through open registration (which the
/// bootstrap administrator `admin` turns on), signed in in their own
/// browser.
pub async fn plain_user(app: &TestApp, admin: &browser::Browser, email: &str) -> browser::Browser {
    plain_user_at(&app.address, admin, email).await
}

/// [`plain_user`] of the server at `base` (a `RunningBinary` too).
pub async fn plain_user_at(base: &str, admin: &browser::Browser, email: &str) -> browser::Browser {
    let opened = admin
        .request(reqwest::Method::PUT, "/api/admin/registration")
        .json(&registration(true))
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let mut user = browser::Browser::open(base).await;
    let joined = user
        .register(&app::contract::account::Register {
            invitation: None,
            email: email.to_owned(),
            name: String::new(),
            password: "a long enough passphrase".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(joined.status(), 200);
    user
}

/// The application with a bootstrap administrator, and a browser signed in
/// as that administrator (`extra` settings added).
pub async fn with_admin(extra: &[(&str, &str)]) -> (TestApp, browser::Browser) {
    let mut settings = vec![
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ];
    settings.extend_from_slice(extra);
    let app = spawn_app(&settings).await;
    let admin = browser::Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let me: app::contract::account::Me = admin.get("/api/auth/me").await;
    assert!(
        me.user.is_admin(),
        "the bootstrap account is an administrator"
    );
    (app, admin)
}

async fn start_in(dir: TempDir, extra: &[(&str, &str)]) -> TestApp {
    let settings = test_settings(dir.path(), extra);
    let application = Application::build(settings.clone()).await.unwrap();
    let address = format!("http://{}", application.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(async move {
        application
            .run_until_stopped(async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        dir,
        settings,
        stop: Some(stop),
        running: Some(running),
    }
}

/// Peak resident memory (VmHWM) of process `pid` so far, in MiB (Linux).
pub fn peak_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib / 1024.0
}

/// The real `tally` binary, started with `serve` on a random port.
pub struct RunningBinary {
    pub child: Child,
    pub address: SocketAddr,
    pub dir: TempDir,
    lines: Receiver<String>,
    seen: Vec<String>,
}

pub fn tally_binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tally"))
}

impl RunningBinary {
    pub fn start(extra: &[(&str, &str)]) -> Self {
        Self::start_in(tempfile::tempdir().unwrap(), extra)
    }

    /// Starts the binary on an existing directory (a restart after a crash).
    pub fn start_in(dir: TempDir, extra: &[(&str, &str)]) -> Self {
        let mut command = tally_binary();
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
            .env("DATA_DIR", dir.path().join("data"))
            .env("LOG_DIR", dir.path().join("logs"))
            .env("LEPTOS_SITE_ROOT", dir.path().join("site"))
            .env("RUST_LOG", "info")
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // A run that moves the calendar moves the server's too
        // (app::backend::clock).
        if let Ok(day) = std::env::var("TALLY_TEST_TODAY") {
            command.env("TALLY_TEST_TODAY", day);
        }
        for (key, value) in extra {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut running = Self {
            child,
            address: "127.0.0.1:0".parse().unwrap(),
            dir,
            lines,
            seen: Vec::new(),
        };
        let line = running.wait_for_line("listening on http://");
        let address = line.rsplit("http://").next().unwrap().trim();
        running.address = address.parse().unwrap();
        running
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Waits (up to a minute, generous for a loaded machine) for a stdout
    /// line containing `needle`, and returns it.
    pub fn wait_for_line(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        if let Some(line) = self.seen.iter().find(|line| line.contains(needle)) {
            return line.clone();
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no stdout line containing {needle:?}; seen:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Everything printed so far, after the process has ended.
    pub fn output(&mut self) -> String {
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        self.seen.join("\n")
    }

    /// Waits for the process to exit (up to a minute) and returns its code.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "tally did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the process (`TERM`) and answers everything it wrote: its
    /// stdout and its log files.
    pub fn stop_and_read_logs(&mut self) -> String {
        self.signal("TERM");
        self.wait_exit();
        let mut written = self.output();
        for entry in std::fs::read_dir(self.dir.path().join("logs")).unwrap() {
            written.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
        written
    }

    /// Sends a signal by name (`TERM`, `INT`) with the system's `kill`.
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -{name} failed");
    }
}

impl Drop for RunningBinary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
