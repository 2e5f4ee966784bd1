//! A real SMTP server on loopback for the email tests:
//! `scripts/smtp-test-server.py` (aiosmtpd, in the project's `.venv`) as a
//! child process, recording every message it receives.
//!
//! The child's stdin is a pipe held by this process: when the test process
//! dies the pipe closes and the server exits on its own.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use tempfile::TempDir;

/// How long the server may take to print `READY <port>` (it may first have
/// to generate its certificate, on a loaded machine).
// A deadline for a hung process, not a speed check: a loaded 2-core CI
// machine has taken over 20 s to start a helper process.
const READY_TIMEOUT: Duration = Duration::from_secs(120);

/// How the server speaks TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpMode {
    /// Plain connection offering STARTTLS, which it requires.
    StartTls,
    /// Implicit TLS from the first byte (SMTPS).
    Tls,
    /// No TLS at all.
    Plain,
}

impl SmtpMode {
    fn flag(self) -> &'static str {
        match self {
            SmtpMode::StartTls => "starttls",
            SmtpMode::Tls => "tls",
            SmtpMode::Plain => "none",
        }
    }
}

pub struct SmtpServer {
    /// On 127.0.0.1; the certificate is for `localhost` and `127.0.0.1`.
    pub port: u16,
    /// The CA certificate (PEM) a client must trust for TLS to verify.
    pub ca_pem: PathBuf,
    dir: TempDir,
    child: Child,
}

/// The workspace root (where `.venv` and `scripts` are).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

impl SmtpServer {
    /// Starts `scripts/smtp-test-server.py` with the project's `.venv`
    /// python, requiring AUTH PLAIN/LOGIN with `auth` (user, password) when
    /// given; returns once it accepts connections.
    pub fn start(mode: SmtpMode, auth: Option<(&str, &str)>) -> Self {
        let root = workspace_root();
        let python = root.join(".venv/bin/python");
        let script = root.join("scripts/smtp-test-server.py");
        assert!(
            python.is_file(),
            "{} is missing: the email tests need the project's Python \
             virtualenv with aiosmtpd; run scripts/setup.sh",
            python.display()
        );
        let dir = tempfile::tempdir().expect("a temporary directory for the SMTP server");
        let mut command = Command::new(&python);
        command
            .arg(&script)
            .arg("--mode")
            .arg(mode.flag())
            .arg("--dir")
            .arg(dir.path())
            .current_dir(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some((user, password)) = auth {
            command.arg("--auth").arg(format!("{user}:{password}"));
        }
        let mut child = command.spawn().unwrap_or_else(|error| {
            panic!(
                "could not start {} {}: {error}; run scripts/setup.sh",
                python.display(),
                script.display()
            )
        });

        // The first stdout line, read off this thread so that it can time
        // out; the rest is drained so the child never blocks on a full pipe.
        let stdout = child.stdout.take().expect("the SMTP server's stdout");
        let (sender, first_line) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next().and_then(Result::ok);
            let _ = sender.send(first);
            for _ in lines.map_while(Result::ok) {}
        });

        let line = first_line.recv_timeout(READY_TIMEOUT);
        let port = match &line {
            Ok(Some(line)) => line
                .strip_prefix("READY ")
                .and_then(|port| port.trim().parse::<u16>().ok()),
            _ => None,
        };
        let Some(port) = port else {
            let _ = child.kill();
            let status = child
                .wait()
                .map_or_else(|error| error.to_string(), |status| status.to_string());
            match line {
                Err(_) => panic!(
                    "the SMTP test server printed no READY line within {READY_TIMEOUT:?} \
                     (its stderr is above)"
                ),
                Ok(None) => panic!(
                    "the SMTP test server exited before it was ready ({status}); if \
                     aiosmtpd is missing from .venv, run scripts/setup.sh (its stderr is above)"
                ),
                Ok(Some(line)) => {
                    panic!("the SMTP test server printed {line:?}, not READY <port>")
                }
            }
        };

        SmtpServer {
            port,
            ca_pem: dir.path().join("ca.pem"),
            dir,
            child,
        }
    }

    /// The server's directory (certificate, `messages.jsonl`).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The messages received so far, oldest first.
    pub fn messages(&self) -> Vec<ReceivedMail> {
        let path = self.dir.path().join("messages.jsonl");
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(error) => panic!("could not read {}: {error}", path.display()),
        };
        // Only whole lines: a line being appended right now is left for the
        // next call.
        let complete = match text.rfind('\n') {
            Some(end) => &text[..=end],
            None => "",
        };
        complete
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|error| {
                    panic!("bad line in {}: {error}\n{line}", path.display())
                })
            })
            .collect()
    }

    /// Waits (polling, up to `timeout`) until at least `n` messages arrived,
    /// and returns all of them; panics when they do not.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<ReceivedMail> {
        let deadline = Instant::now() + timeout;
        loop {
            let messages = self.messages();
            if messages.len() >= n {
                return messages;
            }
            if Instant::now() >= deadline {
                panic!(
                    "expected at least {n} email(s) within {timeout:?}, got {}: {messages:#?}",
                    messages.len()
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One message as the server received it (a line of `messages.jsonl`).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ReceivedMail {
    /// The envelope sender (MAIL FROM).
    pub mail_from: String,
    /// The envelope recipients (RCPT TO).
    pub rcpt_tos: Vec<String>,
    /// The raw message, headers and body, CRLF line ends (decoded as UTF-8,
    /// invalid bytes replaced).
    pub data: String,
    /// Whether the session was under TLS (STARTTLS or implicit) at DATA.
    pub tls: bool,
    /// The login name, when the client authenticated.
    pub authenticated: Option<String>,
}

/// A leaf MIME part of a message, its body decoded.
#[derive(Debug, Clone)]
pub struct MailPart {
    /// The part's own headers, unfolded, in order.
    pub headers: Vec<(String, String)>,
    /// The body with its transfer encoding (quoted-printable, base64)
    /// undone, as UTF-8 (invalid bytes replaced), line ends as `\n`.
    pub body: String,
}

impl MailPart {
    /// The first header called `name` (any case), unfolded, not decoded.
    pub fn header(&self, name: &str) -> Option<String> {
        find_header(&self.headers, name)
    }

    /// The media type, lowercase, without parameters (`text/plain` when
    /// the part has no Content-Type).
    pub fn content_type(&self) -> String {
        media_type(self.header("Content-Type").as_deref())
    }

    /// A Content-Type or Content-Disposition parameter, e.g. `charset`,
    /// `filename`, `method`.
    pub fn parameter(&self, name: &str) -> Option<String> {
        ["Content-Type", "Content-Disposition"]
            .iter()
            .filter_map(|header| self.header(header))
            .find_map(|value| parameter(&value, name))
    }
}

impl ReceivedMail {
    /// The message's headers, unfolded, in order.
    pub fn headers(&self) -> Vec<(String, String)> {
        split_entity(&self.data).0
    }

    /// The first header called `name` (any case), unfolded (continuation
    /// lines joined), encoded words left as they are.
    pub fn header(&self, name: &str) -> Option<String> {
        find_header(&self.headers(), name)
    }

    /// Every header called `name` (any case), unfolded.
    pub fn header_all(&self, name: &str) -> Vec<String> {
        self.headers()
            .into_iter()
            .filter(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value)
            .collect()
    }

    /// The first header called `name`, unfolded, with RFC 2047 encoded words
    /// (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) decoded.
    pub fn header_decoded(&self, name: &str) -> Option<String> {
        self.header(name).map(|value| decode_encoded_words(&value))
    }

    /// The Subject, decoded.
    pub fn subject(&self) -> Option<String> {
        self.header_decoded("Subject")
    }

    /// The leaf MIME parts (the message itself when it is not multipart),
    /// bodies decoded.
    pub fn parts(&self) -> Vec<MailPart> {
        let mut parts = Vec::new();
        leaf_parts(&self.data, 0, &mut parts);
        parts
    }

    /// The first part of media type `media` (e.g. `text/calendar`).
    pub fn part(&self, media: &str) -> Option<MailPart> {
        self.parts()
            .into_iter()
            .find(|part| part.content_type().eq_ignore_ascii_case(media))
    }

    /// The first text/plain part's decoded body.
    pub fn text_part(&self) -> Option<String> {
        self.part("text/plain").map(|part| part.body)
    }

    /// The first text/html part's decoded body.
    pub fn html_part(&self) -> Option<String> {
        self.part("text/html").map(|part| part.body)
    }

    /// Whether `needle` is in the raw message or in any part's decoded body
    /// (quoted-printable soft breaks and `=3D` escapes, base64 undone).
    pub fn body_contains(&self, needle: &str) -> bool {
        if self.data.contains(needle) {
            return true;
        }
        let unix = needle.replace("\r\n", "\n");
        self.parts()
            .iter()
            .any(|part| part.body.contains(needle) || part.body.contains(&unix))
    }
}

fn find_header(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.clone())
}

/// The headers of a MIME entity (unfolded) and its body: everything after
/// the first empty line.
fn split_entity(text: &str) -> (Vec<(String, String)>, &str) {
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut rest = text;
    loop {
        let (line, after, last) = match rest.find('\n') {
            Some(end) => (&rest[..end], &rest[end + 1..], false),
            None => (rest, "", true),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return (trimmed(headers), after);
        }
        if line.starts_with([' ', '\t']) {
            // A folded line: unfolding drops only the line break.
            if let Some((_, value)) = headers.last_mut() {
                value.push_str(line);
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim_start().to_owned()));
        }
        if last {
            return (trimmed(headers), "");
        }
        rest = after;
    }
}

fn trimmed(headers: Vec<(String, String)>) -> Vec<(String, String)> {
    headers
        .into_iter()
        .map(|(name, value)| (name, value.trim_end().to_owned()))
        .collect()
}

/// `text/plain` for `Some("Text/Plain; charset=utf-8")` or `None`.
fn media_type(content_type: Option<&str>) -> String {
    let media = content_type
        .and_then(|value| value.split(';').next())
        .map(|media| media.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if media.is_empty() {
        "text/plain".to_owned()
    } else {
        media
    }
}

/// A parameter (`boundary`, `charset`, `filename`…) of a header value,
/// unquoted.
fn parameter(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|param| {
        let (key, val) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case(name) {
            return None;
        }
        let val = val.trim();
        let val = val
            .strip_prefix('"')
            .and_then(|quoted| quoted.strip_suffix('"'))
            .unwrap_or(val);
        Some(val.to_owned())
    })
}

fn leaf_parts(entity: &str, depth: usize, out: &mut Vec<MailPart>) {
    let (headers, body) = split_entity(entity);
    let content_type = find_header(&headers, "Content-Type");
    if media_type(content_type.as_deref()).starts_with("multipart/") && depth < 16 {
        if let Some(boundary) = content_type
            .as_deref()
            .and_then(|value| parameter(value, "boundary"))
        {
            for part in split_multipart(body, &boundary) {
                leaf_parts(&part, depth + 1, out);
            }
            return;
        }
    }
    let encoding = find_header(&headers, "Content-Transfer-Encoding")
        .map(|value| value.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let decoded = match encoding.as_str() {
        "quoted-printable" => decode_quoted_printable(body),
        "base64" => decode_base64_body(body),
        _ => body.to_owned(),
    };
    out.push(MailPart {
        headers,
        body: decoded.replace("\r\n", "\n"),
    });
}

/// The parts of a multipart body, between `--boundary` lines (the line
/// break before a delimiter belongs to the delimiter).
fn split_multipart(body: &str, boundary: &str) -> Vec<String> {
    let delimiter = format!("--{boundary}");
    let mut parts = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in body.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(after) = line.strip_prefix(delimiter.as_str()) {
            let after = after.trim_end();
            if after.is_empty() || after == "--" {
                if let Some(lines) = current.take() {
                    parts.push(lines.join("\r\n"));
                }
                if after == "--" {
                    return parts;
                }
                current = Some(Vec::new());
                continue;
            }
        }
        if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    // No closing delimiter: keep what there is.
    if let Some(lines) = current.take() {
        parts.push(lines.join("\r\n"));
    }
    parts
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    match pair {
        [high, low] if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => {
            let digits = [*high, *low];
            u8::from_str_radix(std::str::from_utf8(&digits).ok()?, 16).ok()
        }
        _ => None,
    }
}

/// Quoted-printable (RFC 2045): `=XX` escapes, `=` soft line breaks.
fn decode_quoted_printable(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'=' {
            let rest = &bytes[i + 1..];
            // A soft break, possibly after trailing whitespace.
            let blanks = rest
                .iter()
                .take_while(|b| **b == b' ' || **b == b'\t')
                .count();
            let after_blanks = &rest[blanks..];
            if after_blanks.starts_with(b"\r\n") {
                i += 1 + blanks + 2;
                continue;
            }
            if after_blanks.starts_with(b"\n") {
                i += 1 + blanks + 1;
                continue;
            }
            if let Some(value) = rest.get(..2).and_then(hex_byte) {
                out.push(value);
                i += 3;
                continue;
            }
        }
        out.push(byte);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(&compact)
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(&compact))
        .ok()
}

/// A base64 body, as text; the body unchanged when it is not base64.
fn decode_base64_body(text: &str) -> String {
    match decode_base64(text) {
        Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        None => text.to_owned(),
    }
}

/// RFC 2047 encoded words in a header value decoded (as UTF-8; whitespace
/// between adjacent encoded words dropped, and their bytes joined before
/// decoding, so a character split across two words survives).
fn decode_encoded_words(value: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(value.len());
    let mut rest = value;
    let mut after_word = false;
    while let Some(start) = rest.find("=?") {
        let (before, candidate) = rest.split_at(start);
        match encoded_word(candidate) {
            Some((bytes, used)) => {
                if !(after_word && before.chars().all(char::is_whitespace)) {
                    out.extend_from_slice(before.as_bytes());
                }
                out.extend_from_slice(&bytes);
                rest = &candidate[used..];
                after_word = true;
            }
            None => {
                out.extend_from_slice(before.as_bytes());
                out.extend_from_slice(b"=?");
                rest = &candidate[2..];
                after_word = false;
            }
        }
    }
    out.extend_from_slice(rest.as_bytes());
    String::from_utf8_lossy(&out).into_owned()
}

/// The encoded word `=?charset?encoding?text?=` at the start of `text`:
/// its bytes and its length. The charset is assumed to be UTF-8 (or ASCII).
fn encoded_word(text: &str) -> Option<(Vec<u8>, usize)> {
    let inner = text.strip_prefix("=?")?;
    let (charset, inner) = inner.split_once('?')?;
    let (encoding, inner) = inner.split_once('?')?;
    let end = inner.find("?=")?;
    let payload = &inner[..end];
    if charset.is_empty()
        || charset.contains(char::is_whitespace)
        || payload.contains(char::is_whitespace)
    {
        return None;
    }
    let bytes = match encoding {
        "b" | "B" => decode_base64(payload)?,
        "q" | "Q" => decode_q(payload),
        _ => return None,
    };
    let used = 2 + charset.len() + 1 + encoding.len() + 1 + end + 2;
    Some((bytes, used))
}

/// The "Q" encoding of RFC 2047: `_` is a space, `=XX` a byte.
fn decode_q(payload: &str) -> Vec<u8> {
    let bytes = payload.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'_' => {
                out.push(b' ');
                i += 1;
            }
            b'=' => match bytes.get(i + 1..i + 3).and_then(hex_byte) {
                Some(value) => {
                    out.push(value);
                    i += 3;
                }
                None => {
                    out.push(b'=');
                    i += 1;
                }
            },
            other => {
                out.push(other);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(data: &str) -> ReceivedMail {
        ReceivedMail {
            mail_from: "from@example.com".into(),
            rcpt_tos: vec!["to@example.com".into()],
            data: data.into(),
            tls: false,
            authenticated: None,
        }
    }

    #[test]
    fn headers_unfold_and_decode() {
        let mail = mail(
            "From: a@example.com\r\nsubject: =?utf-8?b?SMOp?=\r\n =?utf-8?q?llo_=C3=A9t=C3=A9?= !\r\nX-Long: one\r\n\ttwo\r\n\r\nbody\r\n",
        );
        assert_eq!(mail.header("X-LONG").as_deref(), Some("one\ttwo"));
        assert_eq!(mail.subject().as_deref(), Some("Héllo été !"));
        assert_eq!(mail.header("to"), None);
    }

    #[test]
    fn multipart_bodies_are_decoded() {
        let mail = mail(concat!(
            "Subject: x\r\n",
            "Content-Type: multipart/mixed; boundary=\"outer\"\r\n",
            "\r\n",
            "--outer\r\n",
            "Content-Type: multipart/alternative;\r\n boundary=inner\r\n",
            "\r\n",
            "--inner\r\n",
            "Content-Type: text/plain; charset=utf-8\r\n",
            "Content-Transfer-Encoding: quoted-printable\r\n",
            "\r\n",
            "a =3D b and a very long line that is soft=\r\n",
            " broken, caf=C3=A9\r\n",
            "--inner\r\n",
            "Content-Type: text/html; charset=utf-8\r\n",
            "Content-Transfer-Encoding: base64\r\n",
            "\r\n",
            "PHAgY2xhc3M9ImEiPmNhZsOpPC9wPg==\r\n",
            "--inner--\r\n",
            "--outer\r\n",
            "Content-Type: text/calendar; method=REQUEST; charset=utf-8\r\n",
            "Content-Disposition: attachment; filename=\"invite.ics\"\r\n",
            "\r\n",
            "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
            "--outer--\r\n",
        ));
        assert!(mail.body_contains("a = b and a very long line that is soft broken, café"));
        assert!(mail.body_contains("<p class=\"a\">café</p>"));
        assert_eq!(
            mail.text_part().as_deref(),
            Some("a = b and a very long line that is soft broken, café")
        );
        let calendar = mail.part("text/calendar").unwrap();
        assert_eq!(calendar.parameter("method").as_deref(), Some("REQUEST"));
        assert_eq!(
            calendar.parameter("filename").as_deref(),
            Some("invite.ics")
        );
        assert_eq!(calendar.body, "BEGIN:VCALENDAR\nEND:VCALENDAR");
        assert!(!mail.body_contains("nowhere"));
    }
}
