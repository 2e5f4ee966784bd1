//! The notifications section: the email server (`SMTP_*`, which wins over
//! Admin → Notifications), the daily run's hour (`REMINDER_HOUR`), whether
//! channels may use plain http (`NOTIFY_ALLOW_HTTP`) and Telegram's API
//! base (`TELEGRAM_API_URL`), as the app's own `NotifySettings`.

use secrecy::SecretString;

use app::backend::notifications::transport::MailServer;
use app::backend::notifications::NotifySettings;
use app::contract::notifications::SmtpSecurity;

use super::env::{parse_bool, parse_path, parse_url, Env};
use super::ConfigError;

pub(super) fn notifications<F>(env: &Env<F>) -> Result<NotifySettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    let ca_file = env.parse_or("SMTP_CA_FILE", None, |raw| parse_path(raw).map(Some))?;
    let smtp_ca_pem = match ca_file {
        Some(path) => Some(std::fs::read(&path).map_err(|error| {
            ConfigError::new(
                "SMTP_CA_FILE",
                format!("{} cannot be read: {error}", path.display()),
            )
        })?),
        None => None,
    };
    let host = env.parse_or("SMTP_HOST", None, |raw| {
        let valid = raw.len() <= 253
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '[' | ']'));
        if valid {
            Ok(Some(raw.to_owned()))
        } else {
            Err("expected the mail server's host name or address, e.g. smtp.example.com".into())
        }
    })?;
    let smtp = match host {
        None => None,
        Some(host) => {
            let password = match env.secret("SMTP_PASSWORD", |_| Ok(()))? {
                Some(password) => Some(password),
                None => match env
                    .parse_or("SMTP_PASSWORD_FILE", None, |raw| parse_path(raw).map(Some))?
                {
                    Some(path) => {
                        let text = std::fs::read_to_string(&path).map_err(|error| {
                            ConfigError::new(
                                "SMTP_PASSWORD_FILE",
                                format!("{} cannot be read: {error}", path.display()),
                            )
                        })?;
                        Some(SecretString::from(
                            text.trim_end_matches(['\r', '\n']).to_owned(),
                        ))
                    }
                    None => None,
                },
            };
            let from = env.parse_or("SMTP_FROM", String::new(), |raw| {
                if raw.contains('@') {
                    Ok(raw.to_owned())
                } else {
                    Err(
                        "expected the address mail is sent from, e.g. Tally <tally@example.com>"
                            .into(),
                    )
                }
            })?;
            if from.is_empty() {
                return Err(ConfigError::new(
                    "SMTP_FROM",
                    "is needed with SMTP_HOST: the address mail is sent from",
                ));
            }
            Some(MailServer {
                host,
                port: env.parse_or("SMTP_PORT", 587, |raw| {
                    raw.parse::<u16>()
                        .ok()
                        .filter(|port| *port > 0)
                        .ok_or_else(|| "expected a port from 1 to 65535".to_owned())
                })?,
                security: env.parse_or("SMTP_SECURITY", SmtpSecurity::Starttls, |raw| {
                    SmtpSecurity::parse(raw)
                        .ok_or_else(|| "expected starttls, tls or none".to_owned())
                })?,
                username: env.parse_or("SMTP_USERNAME", String::new(), |raw| Ok(raw.to_owned()))?,
                password,
                from,
                ca_pem: smtp_ca_pem.clone(),
            })
        }
    };
    Ok(NotifySettings {
        smtp,
        smtp_ca_pem,
        reminder_hour: env.parse_or("REMINDER_HOUR", 6, |raw| {
            raw.parse::<u8>()
                .ok()
                .filter(|hour| *hour <= 23)
                .ok_or_else(|| "expected an hour from 0 to 23".to_owned())
        })?,
        allow_http: env.parse_or("NOTIFY_ALLOW_HTTP", false, parse_bool)?,
        telegram_api: env.parse_or(
            "TELEGRAM_API_URL",
            "https://api.telegram.org".to_owned(),
            |raw| parse_url(raw).map(|url| url.trim_end_matches('/').to_owned()),
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{settings, settings_error};

    #[test]
    fn email_is_off_until_smtp_host_is_set_and_then_needs_a_sender() {
        let none = settings(&[]).unwrap().notifications;
        assert!(none.smtp.is_none());
        assert_eq!(none.reminder_hour, 6);
        assert!(!none.allow_http);
        let on = settings(&[
            ("SMTP_HOST", "smtp.example.com"),
            ("SMTP_FROM", "Tally <tally@example.com>"),
            ("SMTP_PASSWORD", "s3cret"),
        ])
        .unwrap()
        .notifications;
        let smtp = on.smtp.unwrap();
        assert_eq!((smtp.port, smtp.security.name()), (587, "starttls"));
        assert!(smtp.password.is_some());
        let error = settings_error("SMTP_HOST", "smtp.example.com");
        assert!(error.contains("SMTP_FROM"), "{error}");
        let error = settings_error("REMINDER_HOUR", "24");
        assert!(error.starts_with("REMINDER_HOUR is invalid"), "{error}");
        let error = settings(&[
            ("SMTP_HOST", "smtp.example.com"),
            ("SMTP_FROM", "tally@example.com"),
            ("SMTP_SECURITY", "ssl"),
        ])
        .unwrap_err()
        .to_string();
        assert!(error.contains("starttls, tls or none"), "{error}");
    }
}
