//! Benchmark: scoring 10,000 bank transactions against the full catalog
//! (1,069 bank descriptors, 432 slang terms, every service's name and web
//! address), beside the yardstick of a raw Aho-Corasick scan of the same
//! strings for the same patterns in the same run. Run with `cargo bench -p
//! server --bench subscriptions` (or `make bench-subscriptions`). Target:
//! scoring takes at most 2× the raw scan. Not a test: nothing asserts a
//! duration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use aho_corasick::{AhoCorasick, MatchKind};
use app::backend::catalog;
use app::domain::subscriptions::recommend::{recommend, Charge, Known};

const TRANSACTIONS: usize = 10_000;
const ROUNDS: usize = 20;

/// Realistic descriptions: catalog descriptors with the noise banks add,
/// and everyday merchants that match nothing.
fn descriptions() -> Vec<(String, i64)> {
    let descriptors = catalog::descriptors().unwrap();
    let bank: Vec<&str> = descriptors
        .iter()
        .filter(|d| d.kind == catalog::DescriptorKind::Bank)
        .map(|d| d.text.as_str())
        .collect();
    let everyday = [
        "FRESHMART #0412",
        "SHELL OIL 5734 AUSTIN TX",
        "TST* JOES DINER 0412 AUSTIN TX",
        "SQ *BLUE BOTTLE COFFEE",
        "AMZN MKTP US*2K4RT6",
        "ONLINE TRANSFER TO SAVINGS",
    ];
    (0..TRANSACTIONS)
        .map(|i| {
            let text = if i % 3 == 0 {
                everyday[i % everyday.len()].to_owned()
            } else {
                let base = bank[i % bank.len()];
                match i % 4 {
                    0 => format!("{base} 866-{:03}-{:04} CA", i % 1000, i % 10_000),
                    1 => format!("PAYPAL *{base}"),
                    2 => format!("{base} #{}", i % 9_999),
                    _ => base.to_owned(),
                }
            };
            (text, -((i as i64 % 5_000) + 99))
        })
        .collect()
}

fn best(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    let index = catalog::index(&[]).unwrap();
    let transactions = descriptions();

    // The yardstick: the same patterns (descriptors, slang, names,
    // addresses, upper-cased) found in the same strings, nothing else.
    let descriptors = catalog::descriptors().unwrap();
    let services = catalog::services().unwrap();
    let mut patterns: Vec<String> = descriptors.iter().map(|d| d.text.to_uppercase()).collect();
    patterns.extend(services.iter().map(|s| s.name.to_uppercase()));
    patterns.extend(services.iter().map(|s| s.website.to_uppercase()));
    let raw = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(&patterns)
        .unwrap();

    let mut raw_runs = Vec::new();
    let mut scored_runs = Vec::new();
    let mut found = (0, 0);
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let mut hits = 0;
        for (text, _) in &transactions {
            hits += raw.find_overlapping_iter(&text.to_uppercase()).count();
        }
        raw_runs.push(started.elapsed());
        let started = Instant::now();
        let mut resolved = 0;
        for (text, amount) in &transactions {
            if index.identify(text, *amount).is_some_and(|i| i.resolved()) {
                resolved += 1;
            }
        }
        scored_runs.push(started.elapsed());
        found = (hits, resolved);
    }
    let mut key_runs = Vec::new();
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let mut length = 0;
        for (text, _) in &transactions {
            length += app::domain::bank::merchant::normalize(text).len();
        }
        key_runs.push(started.elapsed());
        std::hint::black_box(length);
    }
    println!(
        "of which reading the merchant keys alone: {:.2?}",
        best(key_runs)
    );
    let (raw_time, scored_time) = (best(raw_runs), best(scored_runs));
    println!(
        "{TRANSACTIONS} transactions: raw Aho-Corasick scan {raw_time:.2?} ({} hits), catalog scoring {scored_time:.2?} ({} resolved): {:.2}× the raw scan (median of {ROUNDS})",
        found.0,
        found.1,
        scored_time.as_secs_f64() / raw_time.as_secs_f64()
    );

    // The whole engine on the same charges, grouped and explained.
    let today = app::domain::date::Date::parse("2026-11-23").unwrap();
    let charges: Vec<Charge> = transactions
        .iter()
        .enumerate()
        .map(|(i, (text, amount))| Charge {
            id: i as i64,
            day: today.add_days(-((i % 120) as i64)).unwrap(),
            amount_minor: *amount,
            description: text.clone(),
            currency: "USD".into(),
        })
        .collect();
    let tracked = Default::default();
    let started = Instant::now();
    let result = recommend(
        &index,
        &charges,
        &Known {
            today,
            tracked: &tracked,
            declined: &[],
        },
    );
    println!(
        "recommend() over the same {TRANSACTIONS} charges: {:.2?} ({} recommendations, {} unknown recurring)",
        started.elapsed(),
        result.recommendations.len(),
        result.unknown_recurring.len()
    );
}
