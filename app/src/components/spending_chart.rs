//! Spending by category per month, as stacked SVG bars drawn by the app,
//! each month labelled under its bar with its total above, a legend, and
//! the same numbers as a table for screen readers. Colours are SVG
//! attributes, never `style`, so the Content-Security-Policy (no inline
//! styles) has nothing to refuse.

use leptos::prelude::*;

use crate::contract::bills::Spending;
use crate::domain::money::{Currency, Locale, Money};

const COLOURS: [&str; 8] = [
    "#1f6f5c", "#c0841a", "#3b6fb6", "#a34a7b", "#5d8a2f", "#8a5a3b", "#6b5fb0", "#b33b3b",
];
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 160.0;
/// Room above the bars for each month's total, and below for its name.
const TOP: f64 = 16.0;
const BOTTOM: f64 = 18.0;

/// `2026-05` as "May".
fn month_label(month: &str) -> String {
    crate::domain::date::YearMonth::parse(month)
        .map(|m| m.long_name().chars().take(3).collect())
        .unwrap_or_else(|| month.to_owned())
}

/// The chart of `spending`, read with the rest of the Tracker page (so it
/// is in the server-rendered page, and follows each write with it): one
/// currency's ([`Spending::per_currency`]), named when `named` (the page
/// shows more than one; the first keeps the plain test id).
#[component]
pub fn SpendingChart(
    spending: Spending,
    #[prop(optional)] named: bool,
    #[prop(optional)] first: bool,
) -> impl IntoView {
    let locale = Locale::parse(&spending.locale);
    let currency = Currency::parse(&spending.currency).unwrap_or(Currency::USD);
    let money = move |minor: i64| Money::new(minor, currency).format(locale);
    let months = spending.months.len().max(1);
    let per_month: Vec<i64> = (0..months)
        .map(|m| {
            spending
                .categories
                .iter()
                .map(|c| c.totals_minor.get(m).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    let top = per_month.iter().copied().max().unwrap_or(0).max(1) as f64;
    let slot = WIDTH / months as f64;
    let bar = slot * 0.6;
    let mut rects = Vec::new();
    let mut labels = Vec::new();
    for month in 0..months {
        let centre = month as f64 * slot + slot / 2.0;
        let total = per_month.get(month).copied().unwrap_or(0);
        let bar_top = HEIGHT - total as f64 / top * (HEIGHT - 4.0);
        labels.push(view! {
            <text x=format!("{centre:.1}") y=format!("{:.1}", HEIGHT + TOP + 13.0) text-anchor="middle" class="chart__month">
                {spending.months.get(month).map(|m| month_label(m)).unwrap_or_default()}
            </text>
            {(total > 0).then(|| view! {
                <text x=format!("{centre:.1}") y=format!("{:.1}", bar_top + TOP - 4.0) text-anchor="middle" class="chart__value">
                    {money(total)}
                </text>
            })}
        });
        let mut y = HEIGHT;
        for (index, category) in spending.categories.iter().enumerate() {
            let value = category.totals_minor.get(month).copied().unwrap_or(0);
            if value <= 0 {
                continue;
            }
            let height = value as f64 / top * (HEIGHT - 4.0);
            y -= height;
            let title = format!(
                "{} {}: {}",
                spending.months[month],
                category.name,
                money(value)
            );
            rects.push(view! {
                <rect x=format!("{:.1}", month as f64 * slot + (slot - bar) / 2.0) y=format!("{:.1}", y + TOP)
                    width=format!("{bar:.1}") height=format!("{height:.1}") fill=COLOURS[index % COLOURS.len()]>
                    <title>{title}</title>
                </rect>
            });
        }
    }
    let empty = spending.categories.is_empty();
    let title = if named {
        format!("Spending by category in {}", spending.currency)
    } else {
        "Spending by category".to_owned()
    };
    let test_id = if first || !named {
        "spending-chart".to_owned()
    } else {
        format!("spending-chart-{}", spending.currency.to_lowercase())
    };
    view! {
        <figure class="chart chart--spending" data-testid=test_id>
            <figcaption><strong>{title}</strong>{empty.then_some(" · no payments in the last six months")}</figcaption>
            <svg viewBox=format!("0 0 {WIDTH} {}", HEIGHT + TOP + BOTTOM) role="img" aria-label="Payments per month by category; the table below has the numbers">
                {rects}
                <line x1="0" y1=HEIGHT + TOP x2=WIDTH y2=HEIGHT + TOP stroke="currentColor" stroke-opacity="0.3"/>
                {labels}
            </svg>
            <ul class="legend">
                {spending.categories.iter().enumerate().map(|(index, category)| view! {
                    <li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill=COLOURS[index % COLOURS.len()]/></svg>{category.name.clone()}</li>
                }).collect_view()}
            </ul>
            // A table is sized by its content whatever its width, so
            // the hidden copy sits in a box that can be clipped.
            <div class="visually-hidden"><table>
                <caption>"Payments per month by category"</caption>
                <thead><tr><th scope="col">"Category"</th>
                    {spending.months.iter().map(|m| view! { <th scope="col">{m.clone()}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {spending.categories.iter().map(|category| view! {
                        <tr><th scope="row">{category.name.clone()}</th>
                            {category.totals_minor.iter().map(|v| view! { <td>{money(*v)}</td> }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table></div>
        </figure>
    }
}
