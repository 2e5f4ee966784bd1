//! A debt's payoff curve, drawn as SVG by the app (no charting library):
//! the balance month by month at a fixed payment, with interest.

use leptos::prelude::*;

use crate::domain::bill::payoff_schedule;

const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 160.0;

#[component]
pub fn PayoffChart(balance: i64, apr: i64, payment: i64) -> impl IntoView {
    let schedule = payoff_schedule(balance, apr, payment);
    if balance <= 0 {
        return view! { <p class="hint">"Paid off."</p> }.into_any();
    }
    if schedule.is_empty() {
        return view! {
            <p class="hint" data-testid="payoff">"At this payment the debt is never paid off: the payment does not cover the monthly interest."</p>
        }
        .into_any();
    }
    let months = schedule.len();
    let top = balance.max(1) as f64;
    let step = WIDTH / months as f64;
    // The curve starts at the full balance (the top) and ends at zero.
    let mut points = String::from("0,0.0");
    for (month, left) in &schedule {
        let x = f64::from(*month) * step;
        let y = HEIGHT - (*left as f64 / top) * HEIGHT;
        points.push_str(&format!(" {x:.1},{y:.1}"));
    }
    let years = months / 12;
    let rest = months % 12;
    let summary = match (years, rest) {
        (0, m) => format!("Paid off in {m} months at this payment."),
        (y, 0) => format!("Paid off in {y} years at this payment."),
        (y, m) => format!("Paid off in {y} years and {m} months at this payment."),
    };
    view! {
        <figure class="chart" data-testid="payoff">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=summary.clone() preserveAspectRatio="none">
                <polyline points=points fill="none" stroke="currentColor" stroke-width="2"/>
                <line x1="0" y1=HEIGHT x2=WIDTH y2=HEIGHT stroke="currentColor" stroke-opacity="0.3"/>
            </svg>
            <figcaption>{summary}</figcaption>
        </figure>
    }
    .into_any()
}
