//! What a message says: a digest of everything a channel has not been sent
//! yet, or one event. Plain text for push services and the text part of
//! an email, HTML for the email's other part; links into Tally by
//! `PUBLIC_BASE_URL`.

use crate::domain::notification::Event;
pub use crate::domain::text::escape_html as escape;

/// One line of a message, by event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// An event, or `None` for a test message.
    pub event: Option<Event>,
    pub line: String,
}

/// A message ready for any channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Stable across a repeat (`rules::message_id`).
    pub id: String,
    pub title: String,
    pub text: String,
    pub html: String,
    /// Where a click on it leads.
    pub click_url: String,
    /// Something went wrong or is late: push services show it louder.
    pub urgent: bool,
    pub items: Vec<Item>,
}

fn heading(event: Event) -> &'static str {
    match event {
        Event::Overdue => "Overdue",
        Event::DueSoon => "Due soon",
        Event::AutopayFailed => "Autopay failed",
        Event::PriceChanged => "Charged a different amount",
        Event::BankSyncFailed => "Bank sync stopped",
        Event::BankSyncRecovered => "Bank sync works again",
    }
}

/// Most pressing first.
const ORDER: [Event; 6] = [
    Event::Overdue,
    Event::AutopayFailed,
    Event::BankSyncFailed,
    Event::DueSoon,
    Event::PriceChanged,
    Event::BankSyncRecovered,
];

fn count_words(items: &[Item]) -> String {
    let mut parts = Vec::new();
    for event in ORDER {
        let n = items
            .iter()
            .filter(|item| item.event == Some(event))
            .count();
        if n > 0 {
            parts.push(format!("{n} {}", heading(event).to_lowercase()));
        }
    }
    parts.join(", ")
}

/// The message for `items` (one or many), grouped by event, most
/// pressing first.
pub fn message(id: String, items: Vec<Item>, base_url: &str) -> Message {
    let base = base_url.trim_end_matches('/');
    let click_url = format!("{base}/tracker");
    if items.iter().all(|item| item.event.is_none()) {
        let line = "This is a test from Tally: this channel works, and reminders will arrive here.";
        return Message {
            id,
            title: "Tally: test message".into(),
            text: format!("{line}\n\nOpen Tally: {click_url}\n"),
            html: format!(
                "<p>{}</p><p><a href=\"{}\">Open Tally</a></p>",
                escape(line),
                escape(&click_url)
            ),
            click_url,
            urgent: false,
            items,
        };
    }
    let title = if items.len() == 1 {
        format!("Tally: {}", items[0].line)
    } else {
        format!("Tally: {}", count_words(&items))
    };
    let mut text = String::new();
    let mut html = String::new();
    for event in ORDER {
        let lines: Vec<&Item> = items
            .iter()
            .filter(|item| item.event == Some(event))
            .collect();
        if lines.is_empty() {
            continue;
        }
        text.push_str(heading(event));
        text.push('\n');
        html.push_str(&format!("<h2>{}</h2><ul>", escape(heading(event))));
        for item in lines {
            text.push_str("• ");
            text.push_str(&item.line);
            text.push('\n');
            html.push_str(&format!("<li>{}</li>", escape(&item.line)));
        }
        text.push('\n');
        html.push_str("</ul>");
    }
    text.push_str(&format!("Open Tally: {click_url}\n"));
    html.push_str(&format!(
        "<p><a href=\"{}\">Open Tally</a></p>",
        escape(&click_url)
    ));
    let urgent = items.iter().any(|item| {
        matches!(
            item.event,
            Some(Event::Overdue | Event::AutopayFailed | Event::BankSyncFailed)
        )
    });
    Message {
        id,
        title: cut(&title, 250),
        text,
        html,
        click_url,
        urgent,
        items,
    }
}

/// `text` cut to at most `chars` characters, with an ellipsis when cut.
pub fn cut(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(event: Event, line: &str) -> Item {
        Item {
            event: Some(event),
            line: line.into(),
        }
    }

    #[test]
    fn a_digest_groups_by_event_most_pressing_first_and_links_into_tally() {
        let message = message(
            "abc".into(),
            vec![
                item(Event::DueSoon, "Rent: $1,200.00 due 2026-12-01 (in 3 days)"),
                item(
                    Event::Overdue,
                    "Water: $42.00 was due 2026-11-24 (1 day ago)",
                ),
                item(Event::DueSoon, "Gym <b>: $20.00 due 2026-11-26 (tomorrow)"),
            ],
            "https://tally.example/",
        );
        assert_eq!(message.title, "Tally: 1 overdue, 2 due soon");
        assert!(message.text.starts_with("Overdue\n• Water"));
        assert!(message.text.contains("Due soon\n• Rent"));
        assert!(message
            .text
            .ends_with("Open Tally: https://tally.example/tracker\n"));
        assert!(message.html.contains("Gym &lt;b&gt;"));
        assert!(message.urgent);
    }

    #[test]
    fn one_event_is_its_own_title() {
        let message = message(
            "x".into(),
            vec![item(Event::DueSoon, "Rent: $1.00 due 2026-12-01 (today)")],
            "http://localhost:3000",
        );
        assert_eq!(message.title, "Tally: Rent: $1.00 due 2026-12-01 (today)");
        assert!(!message.urgent);
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
