//! A notice by email outside anyone's channels: what the instance must
//! tell its administrators whatever they chose to be reminded of (a change
//! of the sign-in settings or of the mail server, `backend::settings_changes`).
//! It goes out through the mail server the caller names, once per address;
//! a failure is logged and counted, never the caller's error, because the
//! change it tells of is already made and kept.

use super::notifier::Notifier;
use super::render::{escape, Message};
use super::transport::{email, MailServer};
use crate::backend::auth::token::{random_token, sha256_hex};
use crate::domain::notification::ChannelKind;

/// What a notice says: its subject, its paragraphs (plain text, escaped
/// for the HTML part here), and the page it points to (a path of Tally's).
pub struct Notice {
    pub title: String,
    pub paragraphs: Vec<String>,
    pub path: &'static str,
}

impl Notice {
    fn message(&self, base_url: &str) -> Message {
        let link = format!("{}{}", base_url.trim_end_matches('/'), self.path);
        let mut text = self.paragraphs.join("\n\n");
        text.push_str(&format!("\n\n{link}\n"));
        let mut html: String = self
            .paragraphs
            .iter()
            .map(|paragraph| format!("<p>{}</p>", escape(paragraph)))
            .collect();
        html.push_str(&format!(
            "<p><a href=\"{}\">{}</a></p>",
            escape(&link),
            escape(&link)
        ));
        Message {
            // Random: two notices of the same words are two messages.
            id: sha256_hex(&random_token())[..32].to_owned(),
            title: self.title.clone(),
            text,
            html,
            click_url: link,
            urgent: true,
            items: Vec::new(),
        }
    }
}

/// Sends `notice` to each of `to` through `server`; answers how many went
/// out.
pub async fn send(
    notifier: &Notifier,
    server: &MailServer,
    to: &[String],
    notice: &Notice,
) -> usize {
    let message = notice.message(&notifier.public_base_url);
    let mut sent = 0;
    for address in to {
        let result = email::send(
            &notifier.transports.outbound,
            server,
            address,
            &message,
            &notifier.transports.message_host,
        )
        .await;
        notifier.count(ChannelKind::Email, result.is_ok());
        match result {
            Ok(_) => sent += 1,
            Err(failed) => {
                tracing::warn!(
                    error = %failed.error,
                    "a notice to an administrator could not be sent"
                );
            }
        }
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_are_escaped_in_html_and_the_link_is_tallys() {
        let notice = Notice {
            title: "Tally: changed".into(),
            paragraphs: vec!["<b>Ada</b> changed it.".into(), "Second.".into()],
            path: "/admin/status",
        };
        let message = notice.message("https://bills.example/");
        assert_eq!(message.click_url, "https://bills.example/admin/status");
        assert!(message
            .text
            .starts_with("<b>Ada</b> changed it.\n\nSecond."));
        assert!(message.html.contains("&lt;b&gt;Ada"), "{}", message.html);
        assert!(!message.html.contains("<b>"));
        assert_ne!(message.id, notice.message("https://bills.example/").id);
    }
}
