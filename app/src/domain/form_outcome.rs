//! How an account form posted without JavaScript came back: the server's
//! form routes redirect to the page with `?form=<code>`, never with a field
//! the person typed, and the page words the code; so do the password,
//! second-factor and import server functions when they succeed. One vocabulary for
//! both sides, so a code the server sends always has words on the page.

/// What happened to a form posted without JavaScript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormOutcome {
    PasswordChanged,
    TwoFactorOff,
    PersonalDataImported,
    StatementImportStarted,
    StatementImportDiscarded,
    BillsImported,
    HistoryImported,
    WrongPassword,
    WrongCode,
    WeakPassword,
    InvalidEmail,
    MissingField,
    Throttled,
    RegistrationClosed,
    Refused,
    Unavailable,
}

use FormOutcome::*;

const ALL: [FormOutcome; 16] = [
    PasswordChanged,
    TwoFactorOff,
    PersonalDataImported,
    StatementImportStarted,
    StatementImportDiscarded,
    BillsImported,
    HistoryImported,
    WrongPassword,
    WrongCode,
    WeakPassword,
    InvalidEmail,
    MissingField,
    Throttled,
    RegistrationClosed,
    Refused,
    Unavailable,
];

impl FormOutcome {
    /// The query parameter the code travels in.
    pub const PARAMETER: &'static str = "form";

    pub fn code(self) -> &'static str {
        match self {
            PasswordChanged => "password-changed",
            TwoFactorOff => "two-factor-off",
            PersonalDataImported => "personal-data-imported",
            StatementImportStarted => "statement-import-started",
            StatementImportDiscarded => "statement-import-discarded",
            BillsImported => "bills-imported",
            HistoryImported => "history-imported",
            WrongPassword => "wrong-password",
            WrongCode => "wrong-code",
            WeakPassword => "weak-password",
            InvalidEmail => "invalid-email",
            MissingField => "missing",
            Throttled => "throttled",
            RegistrationClosed => "registration-closed",
            Refused => "refused",
            Unavailable => "unavailable",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        ALL.into_iter().find(|outcome| outcome.code() == code)
    }

    /// Whether the form did not do what was asked.
    pub fn is_error(self) -> bool {
        !matches!(
            self,
            PasswordChanged
                | TwoFactorOff
                | PersonalDataImported
                | StatementImportStarted
                | StatementImportDiscarded
                | BillsImported
                | HistoryImported
        )
    }

    /// The words the page shows.
    pub fn message(self) -> &'static str {
        match self {
            PasswordChanged => "Password changed; your other sessions were signed out.",
            TwoFactorOff => "Two-factor sign-in is off.",
            PersonalDataImported => {
                "Your data was added to this account. Your locale, currency and time zone are the file's now."
            }
            StatementImportStarted => {
                "Importing the new transactions. Operations shows how far it has got; they are in Transactions when it is done."
            }
            StatementImportDiscarded => "Preview discarded. Nothing was imported.",
            BillsImported => "The bills were imported.",
            HistoryImported => "The checked rows were imported.",
            WrongPassword => "Your current password is wrong.",
            WrongCode => {
                "That code did not match: set up two-factor sign-in again and type the newest code from the app."
            }
            WeakPassword => {
                "That new password is too short or too easy to guess: use at least 12 characters, a few unusual words work well."
            }
            InvalidEmail => "That email address is not valid, or another account uses it.",
            MissingField => "Fill in every field and try again.",
            Throttled => "Too many attempts; try again in a few minutes.",
            RegistrationClosed => {
                "Accounts on this Tally are by invitation, or this invitation link is no longer valid."
            }
            Refused => "That needs you signed in with your password, in this browser.",
            Unavailable => "That did not work; try again in a moment.",
        }
    }

    /// `path?form=<code>`, keeping what `path` already carried.
    pub fn address(self, path: &str) -> String {
        let joint = if path.contains('?') { '&' } else { '?' };
        format!("{path}{joint}{}={}", Self::PARAMETER, self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_as_itself() {
        for outcome in ALL {
            assert_eq!(FormOutcome::from_code(outcome.code()), Some(outcome));
            assert!(!outcome.message().is_empty());
        }
        assert_eq!(FormOutcome::from_code("<script>"), None);
    }

    #[test]
    fn the_address_adds_the_code_to_what_was_there() {
        assert_eq!(
            WrongPassword.address("/profile"),
            "/profile?form=wrong-password"
        );
        assert_eq!(
            RegistrationClosed.address("/register?invitation=abc"),
            "/register?invitation=abc&form=registration-closed"
        );
    }
}
