//! The Tracker's parts that only show (the calendar, the Upcoming list)
//! and its rows' "More" forms, written as HTML text by plain functions.
//! A `view!` of nested loops becomes a lot of typed rendering code in the
//! WASM; text built here is a few string writes, so these parts cost the
//! Tracker's download little. Every value from the user is escaped. The
//! forms are plain posts to `tracker/act` (they work without JavaScript;
//! with it the page reloads after one), so nothing here needs hydrating.

use std::fmt::Write as _;

use crate::contract::bills::TrackerEntry;
use crate::domain::bill_month::SNOOZE_MAX_DAYS;
use crate::domain::csrf::FIELD;
use crate::domain::date::{Date, YearMonth};
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::text::escape_html as esc;
use crate::domain::tracker::Status;

pub fn label(status: Status) -> &'static str {
    match status {
        Status::Overdue => "Overdue",
        Status::DueSoon => "Due soon",
        Status::Upcoming => "Upcoming",
        Status::Paid => "Paid",
        Status::Skipped => "Skipped",
    }
}

pub fn status_class(status: Status) -> String {
    format!("status--{}", label(status).to_lowercase().replace(' ', "-"))
}

fn money(entry: &TrackerEntry, locale: Locale) -> String {
    Money::new(
        entry.amount_minor,
        Currency::parse(&entry.currency).unwrap_or(Currency::USD),
    )
    .format(locale)
}

/// The month as a calendar: one row per week (Monday first), each bill on
/// its day with its status.
pub fn calendar(month: YearMonth, entries: &[TrackerEntry], today: &str) -> String {
    let Some(first) = Date::new(month.year, month.month, 1) else {
        return String::new();
    };
    let last = month.last_day().map_or(28, Date::day);
    let mut cells: Vec<Option<u8>> = vec![None; usize::from(first.weekday())];
    cells.extend((1..=last).map(Some));
    while !cells.len().is_multiple_of(7) {
        cells.push(None);
    }
    let mut out = format!(
        "<table class=\"calendar\" data-testid=\"calendar\"><caption>{} as a calendar</caption><thead><tr>",
        esc(&month.long_name())
    );
    for day in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] {
        let _ = write!(out, "<th scope=\"col\">{day}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for week in cells.chunks(7) {
        out.push_str("<tr>");
        for cell in week {
            let Some(day) = cell else {
                out.push_str("<td class=\"calendar__blank\"></td>");
                continue;
            };
            let date = format!("{month}-{day:02}");
            if date == today {
                out.push_str("<td class=\"calendar__today\" aria-current=\"date\">");
            } else {
                out.push_str("<td>");
            }
            let _ = write!(out, "<span class=\"calendar__day\">{day}</span><ul>");
            for entry in entries.iter().filter(|entry| entry.due == date) {
                let _ = write!(
                    out,
                    "<li class=\"{}\" data-status=\"{}\"><a href=\"/bills/{}\">{}</a><span class=\"visually-hidden\">, {}</span></li>",
                    status_class(entry.status),
                    label(entry.status),
                    entry.bill_id,
                    esc(&entry.name),
                    label(entry.status)
                );
            }
            out.push_str("</ul></td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// What is coming: due date, bill, amount and status, one line each.
pub fn upcoming(entries: &[TrackerEntry], locale: Locale) -> String {
    if entries.is_empty() {
        return "<p>Nothing is due in the next 30 days.</p>".into();
    }
    let mut out = String::from("<ul class=\"upcoming\">");
    for entry in entries {
        let _ = write!(
            out,
            "<li data-status=\"{}\"><span class=\"upcoming__due\">{}</span><a href=\"/bills/{}\">{}</a><span>{}</span><span class=\"status {}\">{}</span></li>",
            label(entry.status),
            esc(&entry.due),
            entry.bill_id,
            esc(&entry.name),
            esc(&money(entry, locale)),
            status_class(entry.status),
            label(entry.status)
        );
    }
    out.push_str("</ul>");
    out
}

/// A row's "More": skip (or undo), snooze, this time's amount and a note.
/// `csrf` is the page's CSRF token: these are plain form posts, with
/// JavaScript too.
pub fn more(entry: &TrackerEntry, csrf: &str) -> String {
    let bill = entry.bill_id;
    let occurrence = entry.snoozed_from.as_deref().unwrap_or(&entry.due);
    let scheduled = Date::parse(occurrence).ok();
    let day = |days: i64| {
        scheduled
            .and_then(|d| d.add_days(days))
            .map(|d| d.to_string())
            .unwrap_or_default()
    };
    let id = format!("{bill}-{}", esc(occurrence));
    let hidden = |act: &str| {
        format!(
            "<input type=\"hidden\" name=\"{FIELD}\" value=\"{}\"><input type=\"hidden\" name=\"act\" value=\"{act}\"><input type=\"hidden\" name=\"bill\" value=\"{bill}\"><input type=\"hidden\" name=\"occurrence\" value=\"{}\">",
            esc(csrf),
            esc(occurrence)
        )
    };
    let form = "<form method=\"post\" action=\"/api/fn/tracker/act\"";
    let snoozed_to = if entry.snoozed_from.is_some() {
        esc(&entry.due)
    } else {
        String::new()
    };
    let amount = entry
        .usual_amount_minor
        .map(|_| {
            format!(
                "{}.{:02}",
                entry.amount_minor / 100,
                entry.amount_minor % 100
            )
        })
        .unwrap_or_default();
    format!(
        "<details class=\"row-more\"><summary>More<span class=\"visually-hidden\"> for {name} on {due}</span></summary>\
         {form} class=\"inline-form\">{skip}<button type=\"submit\" class=\"button button--quiet\">{skip_label}</button></form>\
         {form}>{snooze}<label for=\"snooze-{id}\">Snooze to</label><input id=\"snooze-{id}\" name=\"to\" type=\"date\" min=\"{min}\" max=\"{max}\" value=\"{snoozed_to}\"><button type=\"submit\" class=\"button button--quiet\">Snooze</button></form>\
         {form}>{this_time}<label for=\"amount-{id}\">This time&#39;s amount</label><input id=\"amount-{id}\" name=\"amount\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" placeholder=\"usual\" value=\"{amount}\">\
         <label for=\"note-{id}\">Note</label><input id=\"note-{id}\" name=\"note\" type=\"text\" maxlength=\"500\" value=\"{note}\"><button type=\"submit\" class=\"button button--quiet\">Save</button></form></details>",
        name = esc(&entry.name),
        due = esc(&entry.due),
        skip = hidden(if entry.skipped { "unskip" } else { "skip" }),
        skip_label = if entry.skipped { "Undo skip" } else { "Skip this time" },
        snooze = hidden("snooze"),
        min = day(1),
        max = day(SNOOZE_MAX_DAYS),
        this_time = hidden("this-time"),
        amount = esc(&amount),
        note = esc(entry.note.as_deref().unwrap_or("")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, due: &str) -> TrackerEntry {
        TrackerEntry {
            bill_id: 7,
            name: name.into(),
            due: due.into(),
            status: Status::Upcoming,
            amount_minor: 1234,
            currency: "USD".into(),
            autopay: false,
            category: String::new(),
            usual_amount_minor: None,
            skipped: false,
            snoozed_from: None,
            note: Some("<b>\"hi\"</b>".into()),
        }
    }

    #[test]
    fn what_a_user_typed_is_escaped_everywhere() {
        let hostile = entry("<script>alert(1)</script>", "2026-11-09");
        let month = YearMonth {
            year: 2026,
            month: 11,
        };
        for html in [
            calendar(month, std::slice::from_ref(&hostile), "2026-11-09"),
            upcoming(std::slice::from_ref(&hostile), Locale::parse("en-US")),
            more(&hostile, "\"><script>"),
        ] {
            assert!(!html.contains("<script>"), "{html}");
            assert!(!html.contains("<b>"), "{html}");
        }
        let drawn = calendar(month, &[hostile], "2026-11-09");
        // November 2026 starts on a Sunday: six blank days first.
        assert!(drawn.contains(&"<td class=\"calendar__blank\"></td>".repeat(6)));
        assert!(drawn.contains("aria-current=\"date\""));
        assert_eq!(drawn.matches("<tr>").count(), 1 + 6);
    }

    #[test]
    fn each_of_a_rows_forms_carries_the_csrf_token() {
        let row = entry("Rent", "2026-11-01");
        let token = "a".repeat(43);
        let html = more(&row, &token);
        let forms = html.matches("<form ").count();
        assert_eq!(forms, 3);
        assert_eq!(
            html.matches(&format!("name=\"csrf_token\" value=\"{token}\""))
                .count(),
            forms
        );
    }
}
