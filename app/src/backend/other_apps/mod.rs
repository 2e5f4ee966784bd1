//! Bills and subscriptions from other apps' exports (issue 32), read into
//! Tally's bill form so they take the same preview and all-or-nothing
//! import as Tally's own CSV (`/api/data/import…?from=`). Each reader maps
//! what it can and lists what it could not. The readers of text files are
//! pure; Actual's budget file is a SQLite database, read from a scratch
//! copy (`actual_budget`).
//!
//! Transactions from other apps (Firefly III's and Actual's CSV) go
//! through the statement import instead (`statements::parse`).

pub mod actual_budget;
mod firefly_bills;
mod wallos;

use crate::domain::bill::BillForm;
use crate::domain::validation::FieldViolation;

/// Where a bill file comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Tally's own CSV export.
    Tally,
    /// Wallos's subscription export, JSON or CSV.
    Wallos,
    /// Firefly III's bill export (CSV).
    Firefly,
    /// Actual Budget's budget file (`db.sqlite` or its export zip): its
    /// schedules.
    Actual,
}

impl Source {
    /// `from=` on the wire: `tally` (or nothing), `wallos`, `firefly`.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "tally" => Some(Self::Tally),
            "wallos" => Some(Self::Wallos),
            "firefly" | "firefly-iii" => Some(Self::Firefly),
            "actual" => Some(Self::Actual),
            _ => None,
        }
    }

    /// Its `from=` name, which [`Self::parse`] reads back.
    pub fn name(self) -> &'static str {
        match self {
            Self::Tally => "tally",
            Self::Wallos => "wallos",
            Self::Firefly => "firefly",
            Self::Actual => "actual",
        }
    }
}

/// One bill read from another app's file.
#[derive(Clone, Debug)]
pub struct Mapped {
    /// The line in a CSV file (the header is line 1), or for JSON the item's
    /// number plus one, so both count alike.
    pub line: usize,
    pub name: String,
    pub problems: Vec<FieldViolation>,
    pub form: BillForm,
}

/// What a reader made of a file.
#[derive(Clone, Debug, Default)]
pub struct Read {
    pub rows: Vec<Mapped>,
    /// What the file holds that Tally did not take, in words.
    pub not_mapped: Vec<String>,
}

/// Reads another app's bill file (`own`: the person's currency, for
/// symbols several currencies share); `Err` says why the file is not one.
pub fn read(source: Source, text: &str, own: &str) -> Result<Read, String> {
    match source {
        Source::Wallos => wallos::read(text, own),
        Source::Firefly => firefly_bills::read(text),
        Source::Tally => Err("Tally's own CSV is read by bills::transfer".into()),
        Source::Actual => Err("Actual's budget file is read by other_apps::actual_budget".into()),
    }
}

/// Text as Wallos stored it (HTML-escaped by its forms), as people wrote it.
fn html_text(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    text.replace("&quot;", "\"")
        .replace("&#039;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_read_from_the_wire() {
        assert_eq!(Source::parse(""), Some(Source::Tally));
        assert_eq!(Source::parse("Wallos"), Some(Source::Wallos));
        assert_eq!(Source::parse("firefly"), Some(Source::Firefly));
        assert_eq!(Source::parse("actual"), Some(Source::Actual));
        assert_eq!(Source::parse("ynab"), None);
    }

    #[test]
    fn escaped_text_reads_as_written_and_only_once() {
        assert_eq!(
            html_text("AT&amp;T &quot;Max&quot; Tom&#039;s"),
            "AT&T \"Max\" Tom's"
        );
        assert_eq!(html_text("&amp;quot;"), "&quot;");
        assert_eq!(html_text("plain"), "plain");
    }
}
