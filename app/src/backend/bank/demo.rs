//! The demo bank (`BANK_SYNC_DEMO=true`): a made-up bank inside Tally, so a
//! new user on a fresh machine can connect a bank, sync and see what bank
//! sync does without a provider account. It is labelled as a demo
//! everywhere it shows. Its history is a pure function of the date, so
//! every sync of a day sees the same transactions (and dedup holds), and it
//! answers exactly what the provider would: the accounts with the window's
//! transactions and one pending charge.

use super::simplefin::{Account, Fetched, Transaction};
use crate::domain::bank::sync_window::SyncWindow;

/// What the page sends instead of a setup token to connect the demo bank.
pub use crate::contract::bank::DEMO_SETUP_TOKEN as SETUP_TOKEN;
/// The stored "access URL" of a demo connection (sealed like a real one).
pub const ACCESS: &str = "demo:";
/// How the demo bank is named wherever it shows.
pub const INSTITUTION: &str = "Demo Bank (not a real bank)";

const DAY: i64 = 86_400;

/// A charge on given days of each month.
struct Monthly {
    day: u8,
    amount: &'static str,
    description: &'static str,
}

const CHECKING_MONTHLY: &[Monthly] = &[
    Monthly {
        day: 1,
        amount: "-1450.00",
        description: "ACH DEBIT OAKWOOD APARTMENTS RENT",
    },
    Monthly {
        day: 5,
        amount: "-15.49",
        description: "NETFLIX.COM 866-579-7172 CA",
    },
    Monthly {
        day: 9,
        amount: "-11.99",
        description: "SPOTIFY USA",
    },
    Monthly {
        day: 12,
        amount: "-84.20",
        description: "CITY POWER & LIGHT AUTOPAY",
    },
    Monthly {
        day: 15,
        amount: "2500.00",
        description: "PAYROLL ACME CORP DIRECT DEP",
    },
    Monthly {
        day: 20,
        amount: "-65.00",
        description: "METRO WATER UTILITY AUTOPAY",
    },
    Monthly {
        day: 28,
        amount: "2500.00",
        description: "PAYROLL ACME CORP DIRECT DEP",
    },
];

const CARD_MONTHLY: &[Monthly] = &[
    Monthly {
        day: 3,
        amount: "-2.99",
        description: "APPLE.COM/BILL",
    },
    Monthly {
        day: 17,
        amount: "-49.99",
        description: "COMCAST XFINITY INTERNET",
    },
    Monthly {
        day: 22,
        amount: "-9.99",
        description: "AMAZON PRIME*2K4RT6",
    },
];

/// A day in the window, as (epoch noon UTC, day of month).
fn days(window: SyncWindow) -> impl Iterator<Item = (i64, u8, i64)> {
    let first = window.start.div_euclid(DAY);
    let last = (window.end - 1).div_euclid(DAY);
    (first..=last).filter_map(move |day| {
        let noon = day * DAY + 12 * 3600;
        let date = jiff::Timestamp::from_second(noon)
            .ok()?
            .to_zoned(jiff::tz::TimeZone::UTC);
        window
            .contains(noon)
            .then_some((noon, u8::try_from(date.day()).unwrap_or(1), day))
    })
}

fn transactions(window: SyncWindow, account: &str, monthly: &[Monthly]) -> Vec<Transaction> {
    let mut list = Vec::new();
    for (noon, day_of_month, day) in days(window) {
        for charge in monthly.iter().filter(|charge| charge.day == day_of_month) {
            list.push(Transaction {
                id: format!("{account}-{day}-{}", charge.day),
                posted: noon,
                amount: charge.amount.to_owned(),
                description: charge.description.to_owned(),
                payee: None,
                memo: None,
                transacted_at: Some(noon - 3600),
                pending: false,
            });
        }
        // Groceries on Saturdays (1970-01-01 was a Thursday).
        if account == "DEMO-CHECKING" && day.rem_euclid(7) == 2 {
            list.push(Transaction {
                id: format!("{account}-{day}-grocer"),
                posted: noon,
                amount: format!("-{}.{:02}", 60 + day.rem_euclid(40), day.rem_euclid(100)),
                description: "FRESHMART #0412".to_owned(),
                payee: None,
                memo: None,
                transacted_at: Some(noon - 7200),
                pending: false,
            });
        }
    }
    list
}

/// The demo bank's answer for a window at `now`.
pub fn fetch(now: i64, window: SyncWindow) -> Fetched {
    let mut checking = transactions(window, "DEMO-CHECKING", CHECKING_MONTHLY);
    checking.push(Transaction {
        id: format!("DEMO-CHECKING-{}-pending", now.div_euclid(DAY)),
        posted: 0,
        amount: "-4.75".to_owned(),
        description: "BLUE BOTTLE COFFEE".to_owned(),
        payee: None,
        memo: None,
        transacted_at: Some(now - 1800),
        pending: true,
    });
    let account = |id: &str, name: &str, balance: &str, transactions| Account {
        id: id.to_owned(),
        name: name.to_owned(),
        currency: "USD".to_owned(),
        institution: INSTITUTION.to_owned(),
        balance: balance.to_owned(),
        available_balance: None,
        balance_date: Some(now),
        transactions,
    };
    Fetched {
        accounts: vec![
            account("DEMO-CHECKING", "Demo Checking", "3120.55", checking),
            account(
                "DEMO-CARD",
                "Demo Credit Card",
                "-412.37",
                transactions(window, "DEMO-CARD", CARD_MONTHLY),
            ),
        ],
        messages: vec!["This is the demo bank: every transaction is made up.".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::bank::sync_window::SyncReason;

    #[test]
    fn the_same_window_gives_the_same_history_and_a_seed_holds_every_monthly_bill() {
        let now = 1_790_000_000;
        let window = SyncWindow::at(now, SyncReason::Seed);
        let first = fetch(now, window);
        assert_eq!(first, fetch(now, window));
        let checking = &first.accounts[0].transactions;
        for charge in CHECKING_MONTHLY {
            assert!(
                checking.iter().any(|t| t.description == charge.description),
                "{}",
                charge.description
            );
        }
        assert_eq!(checking.iter().filter(|t| t.pending).count(), 1);
        assert!(checking
            .iter()
            .all(|t| t.pending || window.contains(t.posted)));
    }
}
