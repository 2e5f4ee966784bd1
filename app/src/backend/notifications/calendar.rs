//! The private calendar feed (RFC 5545): one all-day event per bill
//! occurrence from a month back to twelve months ahead, with stable UIDs,
//! the amount and whether it is paid in the summary, autopay noted. Paid is
//! decided as the Tracker decides it.

use sqlx::SqlitePool;

use super::jobs::occurrences;
use super::notifier::Notifier;
use super::rules::amount;
use super::store;
use crate::backend::auth::token::sha256_hex;
use crate::domain::date::Date;
use crate::domain::tracker::Status;

/// Escapes a TEXT value (RFC 5545 §3.3.11).
fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Folds a content line at 75 octets (never inside a character), CRLF.
fn fold(line: &str, out: &mut String) {
    let mut width = 0;
    for c in line.chars() {
        let len = c.len_utf8();
        if width + len > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
}

fn compact(date: Date) -> String {
    format!("{:04}{:02}{:02}", date.year(), date.month(), date.day())
}

/// The feed of the user whose token is `token`; `None` when no feed has
/// that token (revoked, replaced, never made).
pub async fn feed(
    notifier: &Notifier,
    pool: &SqlitePool,
    token: &str,
) -> Result<Option<String>, sqlx::Error> {
    let Some(user) = store::feed_owner(pool, &sha256_hex(token)).await? else {
        return Ok(None);
    };
    let today = crate::backend::bills::today_for(pool, user).await?;
    let (locale, _) = crate::backend::preferences::locale_and_currency(pool, user).await?;
    let first = Date::clamped(
        if today.month() == 1 {
            today.year() - 1
        } else {
            today.year()
        },
        if today.month() == 1 {
            12
        } else {
            today.month() - 1
        },
        1,
    )
    .unwrap_or(today);
    let last = Date::clamped(today.year() + 1, today.month(), 31).unwrap_or(today);
    let found = occurrences(pool, user, today, first, last).await?;
    let host = &notifier.transports.message_host;
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let mut out = String::new();
    for line in [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Tally//Bills//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-CALNAME:Tally bills",
        "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
        "X-PUBLISHED-TTL:PT6H",
    ] {
        fold(line, &mut out);
    }
    for occurrence in found {
        let state = match occurrence.status {
            Status::Paid => "paid",
            Status::Overdue => "overdue",
            Status::DueSoon | Status::Upcoming => "due",
            Status::Skipped => "skipped",
        };
        let summary = format!(
            "{}: {} ({state})",
            occurrence.name,
            amount(occurrence.amount_minor, &occurrence.currency, &locale)
        );
        let end = occurrence.due.add_days(1).unwrap_or(occurrence.due);
        fold("BEGIN:VEVENT", &mut out);
        fold(
            &format!(
                "UID:bill-{}-{}@{host}",
                occurrence.bill_id,
                compact(occurrence.scheduled)
            ),
            &mut out,
        );
        fold(&format!("DTSTAMP:{stamp}"), &mut out);
        fold(
            &format!("DTSTART;VALUE=DATE:{}", compact(occurrence.due)),
            &mut out,
        );
        fold(&format!("DTEND;VALUE=DATE:{}", compact(end)), &mut out);
        fold(&format!("SUMMARY:{}", text(&summary)), &mut out);
        if occurrence.autopay {
            fold("DESCRIPTION:Paid by autopay.", &mut out);
        }
        fold(
            &format!(
                "URL:{}/bills/{}",
                notifier.public_base_url, occurrence.bill_id
            ),
            &mut out,
        );
        fold("TRANSP:TRANSPARENT", &mut out);
        fold("END:VEVENT", &mut out);
    }
    fold("END:VCALENDAR", &mut out);
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_long_lines_fold_at_75_octets() {
        assert_eq!(text("a,b;c\\d\ne"), "a\\,b\\;c\\\\d\\ne");
        let mut out = String::new();
        fold(&format!("SUMMARY:{}", "é".repeat(60)), &mut out);
        for line in out.split("\r\n").filter(|line| !line.is_empty()) {
            assert!(line.len() <= 75, "{} octets", line.len());
        }
        assert!(out.contains("\r\n "));
        assert!(out.ends_with("\r\n"));
    }
}
