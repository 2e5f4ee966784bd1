//! Statement files read into accounts and transaction lines: OFX 1 (SGML)
//! and OFX 2 (XML), QFX (OFX with Intuit's extra tags), QIF, CAMT.053, and
//! the CSV transaction exports of Firefly III and Actual Budget (for people
//! moving their history over from those apps).
//!
//! Pure and bounded: no I/O, no database; a file larger than [`MAX_BYTES`],
//! with more than [`MAX_LINES`] transactions or nested deeper than
//! [`MAX_DEPTH`] is refused before it can cost much, and no input makes a
//! parser panic or recurse. A transaction that cannot be read is reported in
//! [`Statement::refused`] rather than failing the whole file, so one bad row
//! does not block an import the person can still check in the preview.

mod actual_csv;
mod amount;
mod camt;
mod charset;
mod dates;
mod detect;
mod firefly;
mod ofx;
mod ofx_markup;
mod qif;
mod qif_date;

pub use detect::detect;

/// Which kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ofx,
    Qif,
    Camt053,
    /// Firefly III's transaction export (v6.3 and later).
    FireflyCsv,
    /// Actual Budget's transaction export (the app's or the API's).
    ActualCsv,
}

impl Format {
    /// The name stored with an import and sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ofx => "ofx",
            Self::Qif => "qif",
            Self::Camt053 => "camt053",
            Self::FireflyCsv => "firefly",
            Self::ActualCsv => "actual",
        }
    }

    /// Reads [`Format::as_str`] back; `qfx` and `camt.053` are accepted too,
    /// because people type what their bank calls the file.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ofx" | "qfx" => Some(Self::Ofx),
            "qif" => Some(Self::Qif),
            "camt053" | "camt.053" => Some(Self::Camt053),
            "firefly" => Some(Self::FireflyCsv),
            "actual" => Some(Self::ActualCsv),
            _ => None,
        }
    }
}

/// How a QIF file writes dates when its numbers cannot tell (both parts ≤ 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateOrder {
    MonthFirst,
    DayFirst,
}

/// What the person told us about the file that the file cannot say itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub date_order: Option<DateOrder>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountKind {
    Bank,
    Card,
    Cash,
}

/// Everything read from one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub format: Format,
    pub accounts: Vec<Account>,
    pub refused: Vec<Refused>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The file's own id for the account: OFX ACCTID, CAMT IBAN (or Othr/Id),
    /// QIF account name, Firefly asset account IBAN (else its name), Actual
    /// account name; "" when the file names none.
    pub id: String,
    pub kind: AccountKind,
    /// A name for a new account, when the file says one (OFX: the account
    /// type and the last digits of ACCTID, QIF `!Account` N, CAMT Acct/Nm,
    /// the Firefly or Actual account name).
    pub name: Option<String>,
    /// ISO 4217 code when the file says (OFX CURDEF, CAMT Ccy, Firefly
    /// currency_code); None for QIF and Actual.
    pub currency: Option<String>,
    /// The statement's own opening balance (CAMT Bal of type OPBD, else
    /// PRCD); None for the other formats, which do not write one.
    pub opening_balance: Option<Balance>,
    /// The statement's own closing balance (OFX LEDGERBAL, CAMT Bal of type
    /// CLBD), so the preview can check the import against the bank's sum.
    pub closing_balance: Option<Balance>,
    pub lines: Vec<Line>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balance {
    pub amount_minor: i64,
    /// YYYY-MM-DD.
    pub day: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Where in the file, for messages: "line 42" (OFX, QIF and CSV: the
    /// line where the transaction starts), "Ntry 7" (CAMT).
    pub position: String,
    /// OFX FITID; CAMT NtryRef, else AcctSvcrRef; Firefly `firefly-<journal
    /// id>` (`-out`/`-in` on a transfer's sides); None for QIF and Actual.
    pub fitid: Option<String>,
    /// Posted (booking) day, YYYY-MM-DD.
    pub day: String,
    /// Minor units of the account's currency; negative is money out.
    pub amount_minor: i64,
    /// Who the money went to or came from, as the file says it; "" when it
    /// says nothing.
    pub name: String,
    pub memo: Option<String>,
}

/// A part of the file left out, and why, for the preview to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub position: String,
    pub reason: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ParseError {
    #[error("the file is larger than {MAX_BYTES} bytes")]
    TooLarge,
    #[error("the file has more than {MAX_LINES} transactions")]
    TooMany,
    #[error("this is not an OFX, QFX, QIF or CAMT.053 statement, nor a Firefly III or Actual CSV export")]
    NotRecognized,
    #[error("{position}: {reason}")]
    Malformed { position: String, reason: String },
    /// QIF dates that read both ways, and no [`Options::date_order`].
    #[error("the dates read both as month/day and day/month: choose which")]
    AmbiguousDates,
}

impl ParseError {
    fn malformed(position: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Malformed {
            position: position.into(),
            reason: reason.into(),
        }
    }
}

/// Larger than any real statement (a year of a busy account is well under
/// a megabyte), small enough to hold in memory during an upload.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Transactions per file, across all its accounts.
pub const MAX_LINES: usize = 100_000;
/// Deepest XML/SGML nesting accepted; real statements nest about ten deep.
pub const MAX_DEPTH: usize = 64;

/// Parses. A transaction that cannot be read (bad amount, bad date) goes to
/// `refused` with its position and reason, the rest is kept; a file that
/// cannot be read at all is an error with where and why. Never panics,
/// whatever the bytes.
pub fn parse(bytes: &[u8], format: Format, options: &Options) -> Result<Statement, ParseError> {
    if bytes.len() > MAX_BYTES {
        return Err(ParseError::TooLarge);
    }
    let text = charset::decode(bytes);
    match format {
        Format::Ofx => ofx::parse(&text),
        Format::Qif => qif::parse(&text, options),
        Format::Camt053 => camt::parse(&text),
        Format::FireflyCsv => firefly::parse(&text),
        Format::ActualCsv => actual_csv::parse(&text),
    }
}

/// "line N" for a byte offset into `text`, for messages about XML errors.
fn line_at(text: &str, offset: usize) -> String {
    let end = offset.min(text.len());
    let line = 1 + text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    format!("line {line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Format; 5] = [
        Format::Ofx,
        Format::Qif,
        Format::Camt053,
        Format::FireflyCsv,
        Format::ActualCsv,
    ];

    #[test]
    fn formats_read_back_their_names() {
        for format in ALL {
            assert_eq!(Format::parse(format.as_str()), Some(format));
        }
        assert_eq!(Format::parse("QFX"), Some(Format::Ofx));
        assert_eq!(Format::parse(" Firefly "), Some(Format::FireflyCsv));
        assert_eq!(Format::parse("ACTUAL"), Some(Format::ActualCsv));
        assert_eq!(Format::parse("csv"), None);
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_reading() {
        let mut big = b"OFXHEADER:100\n<OFX>".to_vec();
        big.resize(MAX_BYTES + 1, b' ');
        for format in ALL {
            assert_eq!(
                parse(&big, format, &Options::default()),
                Err(ParseError::TooLarge)
            );
        }
        assert_eq!(
            ParseError::TooLarge.to_string(),
            "the file is larger than 10485760 bytes"
        );
    }

    #[test]
    fn not_recognized_names_every_format() {
        let message = ParseError::NotRecognized.to_string();
        assert!(message.starts_with("this is not an OFX, QFX, QIF or CAMT.053 statement"));
        assert!(message.contains("Firefly III") && message.contains("Actual"));
    }

    #[test]
    fn line_numbers_count_from_one() {
        assert_eq!(line_at("a\nb\nc", 0), "line 1");
        assert_eq!(line_at("a\nb\nc", 4), "line 3");
        assert_eq!(line_at("a", 99), "line 1");
    }
}
