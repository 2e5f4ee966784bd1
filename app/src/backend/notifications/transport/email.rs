//! Email through the administrator's mail server, with `lettre`: STARTTLS
//! (the default), implicit TLS, or no TLS for a server on this machine or
//! an allowed private address. The server's host goes through the outbound
//! guard and the connection goes to the vetted address (TLS still checks
//! the host name). A plain text and an HTML part; `Message-ID` is the
//! message's stable id, so a repeat after a crash can be dropped.

use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use secrecy::{ExposeSecret, SecretString};

use super::super::render::Message;
use super::super::rules::AttemptFailure;
use super::{Failed, Sent};
use crate::backend::outbound::{classify, Outbound};
use crate::contract::notifications::SmtpSecurity;

const TIMEOUT: Duration = Duration::from_secs(10);

/// The mail server Tally sends through. Not `Debug`: it holds a password.
#[derive(Clone)]
pub struct MailServer {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub username: String,
    pub password: Option<SecretString>,
    pub from: String,
    /// Extra trusted certificates (PEM), for a mail server with a
    /// certificate of its own (`SMTP_CA_FILE`).
    pub ca_pem: Option<Vec<u8>>,
}

impl std::fmt::Debug for MailServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailServer")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password_set", &self.password.is_some())
            .field("from", &self.from)
            .finish_non_exhaustive()
    }
}

fn failed(message: impl Into<String>, permanent: bool) -> Failed {
    Failed {
        failure: AttemptFailure {
            status: None,
            retry_after: None,
            permanent,
        },
        error: message.into(),
    }
}

/// Checks an address as a mailbox.
pub fn mailbox(text: &str) -> Option<Mailbox> {
    text.trim().parse().ok()
}

fn email(
    server: &MailServer,
    to: &str,
    message: &Message,
    message_host: &str,
) -> Result<lettre::Message, Failed> {
    let from = mailbox(&server.from).ok_or_else(|| {
        failed(
            "the sender address (SMTP_FROM) is not a valid address",
            true,
        )
    })?;
    let to = mailbox(to).ok_or_else(|| failed("the recipient address is not valid", true))?;
    lettre::Message::builder()
        .from(from)
        .to(to)
        .subject(message.title.clone())
        .message_id(Some(format!("<{}@{message_host}>", message.id)))
        .multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(message.text.clone()),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(format!(
                            "<!DOCTYPE html><html><body>{}</body></html>",
                            message.html
                        )),
                ),
        )
        .map_err(|_| failed("the message could not be built", true))
}

fn tls(server: &MailServer, name: &str) -> Result<Tls, Failed> {
    if server.security == SmtpSecurity::None {
        return Ok(Tls::None);
    }
    let mut builder = TlsParameters::builder(name.to_owned());
    if let Some(pem) = &server.ca_pem {
        let certificate = Certificate::from_pem(pem)
            .map_err(|_| failed("the mail server's CA file (SMTP_CA_FILE) is not PEM", true))?;
        builder = builder.add_root_certificate(certificate);
    }
    let parameters = builder
        .build_rustls()
        .map_err(|_| failed("TLS could not be set up", true))?;
    Ok(match server.security {
        SmtpSecurity::Tls => Tls::Wrapper(parameters),
        _ => Tls::Required(parameters),
    })
}

/// Sends `message` to `to` through `server`.
pub async fn send(
    outbound: &Outbound,
    server: &MailServer,
    to: &str,
    message: &Message,
    message_host: &str,
) -> Result<Sent, Failed> {
    let mail = email(server, to, message, message_host)?;
    let (name, addresses) =
        outbound
            .vet_host(&server.host, server.port)
            .await
            .map_err(|refused| {
                failed(
                    format!("Tally does not send to that mail server: {refused}"),
                    true,
                )
            })?;
    if server.security == SmtpSecurity::None
        && addresses
            .iter()
            .any(|address| classify(address.ip()).is_none())
    {
        return Err(failed(
            "SMTP_SECURITY=none is only for a mail server on this machine or an allowed private address; use starttls or tls",
            true,
        ));
    }
    let Some(address) = addresses.first() else {
        return Err(failed("the mail server could not be resolved", false));
    };
    let tls_name = name.unwrap_or_else(|| server.host.clone());
    let mut transport =
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(address.ip().to_string())
            .port(server.port)
            .timeout(Some(TIMEOUT))
            .hello_name(ClientId::Domain(message_host.to_owned()))
            .tls(tls(server, &tls_name)?);
    if !server.username.is_empty() {
        transport = transport.credentials(Credentials::new(
            server.username.clone(),
            server
                .password
                .as_ref()
                .map(|password| password.expose_secret().to_owned())
                .unwrap_or_default(),
        ));
    }
    let sent = tokio::time::timeout(TIMEOUT * 3, transport.build().send(mail)).await;
    match sent {
        Err(_) => Err(failed("the mail server did not answer in time", false)),
        Ok(Ok(response)) => Ok(Sent {
            status: response.code().to_string().parse().ok(),
        }),
        Ok(Err(error)) => {
            let code = error.status().map(|code| code.to_string());
            tracing::info!(host = %server.host, port = server.port, code = ?code, "email send failed");
            let words = match &code {
                Some(code) => format!("the mail server refused it ({code})"),
                None if error.is_timeout() => "the mail server did not answer in time".to_owned(),
                None => "the mail server could not be reached, or the TLS or sign-in to it failed"
                    .to_owned(),
            };
            Err(failed(words, error.is_permanent()))
        }
    }
}
