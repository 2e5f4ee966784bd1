//! Subscription intelligence over real HTTP and SQLite: the demo bank's
//! charges (plus older history written beside them) become explained
//! recommendations; tracking, linking, declining, relinking and unlinking
//! each change what is offered next and are recorded as feedback; the
//! catalog is searchable and trackable; own descriptors are kept per user.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::bills::{BillRecord, Catalog};
use app::contract::error::ErrorBody;
use app::contract::operations::Operation;
use app::contract::subscriptions::{
    CatalogLink, DeclineRecommendation, LinkRecommendation, NewDescriptor, OwnDescriptor,
    OwnDescriptors, Recommendation, Recommendations, RelinkRecommendation, TrackCatalog, Tracked,
    TrackedBills, TrackedServices,
};
use app::domain::bill::BillForm;
use reqwest::Method;
use serde_json::json;
use sqlx::SqlitePool;
use support::bank::{connect_demo, DEMO};
use support::browser::Browser;
use support::operations::finished;
use support::{with_admin, TestApp};

/// An admin with the demo bank connected and synced, and the database.
async fn with_demo_bank() -> (TestApp, Browser, SqlitePool, i64) {
    let (app, admin) = with_admin(DEMO).await;
    let connected = connect_demo(&admin).await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    (app, admin, pool, connected.connection.id)
}

/// Writes charges into the demo checking account as if older syncs had
/// brought them: `(days ago, amount, description)`, only where the demo's
/// own 44-day window does not reach.
async fn history(pool: &SqlitePool, charges: &[(i64, i64, &str)]) {
    for (index, (days_ago, amount, description)) in charges.iter().enumerate() {
        sqlx::query(
            "INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at,
                 amount_cents, description)
             SELECT a.user_id, a.id, ?, strftime('%Y-%m-%dT12:00:00Z', ?, '-' || ? || ' days'),
                    ?, ?
             FROM bank_accounts a WHERE a.name = 'Demo Checking'",
        )
        .bind(format!("history-{index}"))
        .bind(app::backend::clock::now_sql())
        .bind(days_ago)
        .bind(amount)
        .bind(description)
        .execute(pool)
        .await
        .unwrap();
    }
}

/// Netflix at 13.99 on the 5th of the months before the demo's window.
async fn netflix_history(pool: &SqlitePool) {
    for months in 1..=5 {
        sqlx::query(
            "INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at,
                 amount_cents, description)
             SELECT a.user_id, a.id, 'netflix-' || ?1,
                    strftime('%Y-%m-%dT12:00:00Z', ?2, 'start of month', '-' || ?1 || ' months', '+4 days'),
                    -1399, 'NETFLIX.COM 866-579-7172 CA'
             FROM bank_accounts a WHERE a.name = 'Demo Checking'
               AND strftime('%Y-%m-%dT12:00:00Z', ?2, 'start of month', '-' || ?1 || ' months', '+4 days')
                   < strftime('%Y-%m-%dT%H:%M:%SZ', ?2, '-45 days')",
        )
        .bind(months)
        .bind(app::backend::clock::now_sql())
        .execute(pool)
        .await
        .unwrap();
    }
}

async fn recommendations(browser: &Browser) -> Recommendations {
    browser.get("/api/subscriptions/recommendations").await
}

fn named<'r>(found: &'r Recommendations, service: &str) -> Option<&'r Recommendation> {
    found
        .recommendations
        .iter()
        .find(|r| r.service_name == service)
}

/// The recommendation whose charges start with `description`.
fn charging<'r>(found: &'r Recommendations, description: &str) -> &'r Recommendation {
    found
        .recommendations
        .iter()
        .find(|r| {
            r.transactions
                .iter()
                .any(|t| t.description.starts_with(description))
        })
        .unwrap_or_else(|| panic!("nothing recommended for {description}: {found:?}"))
}

async fn feedback(pool: &SqlitePool) -> Vec<(String, Option<i64>, Option<String>)> {
    sqlx::query_as(
        "SELECT f.action, f.bill_id, c.slug FROM subscription_recommendation_feedback f
         LEFT JOIN subscription_catalog c ON c.id = f.catalog_id ORDER BY f.id",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

async fn catalog_id(pool: &SqlitePool, slug: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM subscription_catalog WHERE slug = ?")
        .bind(slug)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn bank_charges_become_explained_recommendations_and_never_groceries_or_pay() {
    let (_app, admin, pool, _) = with_demo_bank().await;
    netflix_history(&pool).await;
    // A dog walker every week at the same price: recurring, but no service.
    history(
        &pool,
        &[
            (3, -2500, "WAGS DOG WALKING JAMIE"),
            (10, -2500, "WAGS DOG WALKING JAMIE"),
            (17, -2500, "WAGS DOG WALKING JAMIE"),
            (24, -2500, "WAGS DOG WALKING JAMIE"),
        ],
    )
    .await;
    let found = recommendations(&admin).await;
    assert!(found.bank_connected);

    let netflix = named(&found, "Netflix").expect("Netflix is recommended");
    assert_eq!(netflix.catalog_id, catalog_id(&pool, "netflix").await);
    assert_eq!(netflix.id, format!("{}-USD", netflix.catalog_id));
    assert_eq!(netflix.cadence, "monthly");
    assert_eq!(netflix.amount_minor, 1549);
    assert_eq!(netflix.yearly_minor, 1549 * 12);
    assert_eq!(netflix.evidence.identity.kind, "bank");
    assert!(netflix.evidence.identity.score >= 90);
    assert_eq!(netflix.evidence.amount.pattern, "changed");
    assert!(netflix.evidence.amount.price_rise);
    assert_eq!(netflix.evidence.amount.from_minor, Some(1399));
    assert!(
        netflix
            .evidence
            .amount
            .summary
            .contains("rose from $13.99 to $15.49"),
        "{}",
        netflix.evidence.amount.summary
    );
    assert_eq!(netflix.evidence.cadence.source, "charges");
    assert!(netflix.evidence.cadence.charges >= 5);
    assert!(netflix.confidence >= 80, "{}", netflix.confidence);
    assert_eq!(netflix.transactions.len(), netflix.transaction_ids.len());
    assert!(netflix
        .transactions
        .iter()
        .all(|t| t.description.starts_with("NETFLIX.COM")));

    // Spotify has only the demo's month or two: still offered, and if it
    // is one charge, labelled as such with the catalog's cadence.
    let spotify = named(&found, "Spotify").expect("Spotify is recommended");
    assert_eq!(spotify.amount_minor, 1199);
    if spotify.evidence.cadence.charges == 1 {
        assert_eq!(spotify.evidence.cadence.source, "catalog");
        assert!(spotify.confidence < netflix.confidence);
    }

    // Groceries, rent, pay and the water bill are none of these.
    for (word, r) in found
        .recommendations
        .iter()
        .flat_map(|r| ["FRESHMART", "PAYROLL", "OAKWOOD", "WATER"].map(|w| (w, r)))
    {
        assert!(
            r.transactions.iter().all(|t| !t.description.contains(word)),
            "{word} in {r:?}"
        );
    }
    let walker = found
        .unknown_recurring
        .iter()
        .find(|u| u.description.contains("DOG WALKING"))
        .expect("the dog walker is unknown recurring");
    assert_eq!(walker.cadence_label, "Weekly");
    assert_eq!(walker.charges, 4);
    assert!(found
        .unknown_recurring
        .iter()
        .all(|u| !u.description.contains("FRESHMART")));
    // Both pages arrive with their data in the HTML.
    let html = admin.text("/subscriptions").await;
    assert!(html.contains("Recommended from your bank"), "{html}");
    assert!(html.contains(r#"data-service="Netflix""#), "{html}");
    assert!(html.contains("WAGS DOG WALKING JAMIE"));
    let html = admin.text("/subscriptions/catalog?q=disney").await;
    assert!(html.contains("Disney+"), "{html}");
    let disney: Catalog = admin.get("/api/catalog?q=disney").await;
    assert!(
        html.contains(&format!("{} services", disney.services.len())),
        "{html}"
    );

    // Most confident first.
    assert!(found
        .recommendations
        .windows(2)
        .all(|pair| pair[0].confidence >= pair[1].confidence));

    // Tracked as a bill named like the payee, at its price, the walker is
    // no longer "Recurring, not a known service" (issue 53, rule 5).
    let _: BillRecord = admin
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: "Wags dog walking".into(),
                amount_minor: 2500,
                cadence: "weekly".into(),
                due_day: 3,
                anchor_date: "2026-01-05".into(),
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    let found = recommendations(&admin).await;
    assert!(
        found
            .unknown_recurring
            .iter()
            .all(|u| !u.description.contains("DOG WALKING")),
        "{:?}",
        found.unknown_recurring
    );
}

#[tokio::test]
async fn track_link_decline_relink_and_unlink_change_what_is_offered_and_are_recorded() {
    let (_app, admin, pool, connection) = with_demo_bank().await;
    netflix_history(&pool).await;
    // A bill for Spotify the person already keeps by hand.
    let spotify_bill: BillRecord = admin
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: "Spotify family".into(),
                amount_minor: 1199,
                cadence: "monthly".into(),
                due_day: 9,
                anchor_date: "2026-01-09".into(),
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap();
    let found = recommendations(&admin).await;
    let netflix = named(&found, "Netflix").unwrap().clone();
    let spotify = named(&found, "Spotify").unwrap().clone();
    assert_eq!(spotify.suggested_bill_id, Some(spotify_bill.id));
    assert_eq!(
        spotify.suggested_bill_name.as_deref(),
        Some("Spotify family")
    );
    assert_eq!(netflix.suggested_bill_id, None);
    // The demo's AMAZON PRIME*… at 9.99 is Prime Video by its price.
    let prime = charging(&found, "AMAZON PRIME*").clone();
    assert_eq!(prime.service_name, "Prime Video");

    // Track: a subscription bill at the found amount and cadence, the
    // charges its payments, and Netflix no longer offered.
    let tracked: Tracked = admin
        .call_expecting(
            201,
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/track", netflix.id),
            &json!({}),
        )
        .await;
    assert_eq!(tracked.bill.name, "Netflix");
    assert_eq!(tracked.bill.amount_minor, 1549);
    assert_eq!(tracked.bill.catalog_id, Some(netflix.catalog_id));
    assert!(tracked.bill.subscription);
    assert_eq!(tracked.bill.cadence, "monthly");
    assert_eq!(tracked.matched as usize, netflix.transaction_ids.len());
    let payments: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM payments WHERE bill_id = ? AND transaction_id IS NOT NULL",
    )
    .bind(tracked.bill.id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(payments as usize, netflix.transaction_ids.len());
    assert!(named(&recommendations(&admin).await, "Netflix").is_none());
    // Gone, so a second track says so.
    let (status, error) = admin
        .call::<_, Tracked>(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/track", netflix.id),
            &json!({}),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 404, "{error:?}");

    // Link: the existing bill becomes Spotify's.
    let linked: Tracked = admin
        .call(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/link", spotify.id),
            &LinkRecommendation {
                bill_id: spotify_bill.id,
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(linked.bill.id, spotify_bill.id);
    assert_eq!(linked.bill.catalog_id, Some(spotify.catalog_id));
    assert!(linked.bill.subscription);
    assert!(named(&recommendations(&admin).await, "Spotify").is_none());

    // Decline Prime: gone, and still gone after another sync.
    let too_long = "x".repeat(201);
    let (status, error) = admin
        .call::<_, ()>(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/decline", prime.id),
            &DeclineRecommendation {
                reason: Some(too_long),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "reason");
    let _: Option<()> = admin
        .call(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/decline", prime.id),
            &DeclineRecommendation {
                reason: Some("not_a_subscription".into()),
            },
        )
        .await
        .unwrap();
    assert!(named(&recommendations(&admin).await, "Prime Video").is_none());
    let operation: Operation = admin
        .call(
            Method::POST,
            &format!("/api/bank/connections/{connection}/sync"),
            &json!({}),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(finished(&admin, &operation).await.error.is_none());
    assert!(named(&recommendations(&admin).await, "Prime Video").is_none());

    // Relink: the APPLE.COM/BILL charges are iCloud+ for this person.
    let apple = charging(&recommendations(&admin).await, "APPLE.COM/BILL").clone();
    assert!(apple.ambiguous, "2.99 is none of Apple's prices: {apple:?}");
    assert!(!apple.alternatives.is_empty());
    let icloud = catalog_id(&pool, "icloud-plus").await;
    let other = if apple.catalog_id == icloud {
        catalog_id(&pool, "apple-one").await
    } else {
        icloud
    };
    let _: Option<()> = admin
        .call(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/relink", apple.id),
            &RelinkRecommendation { catalog_id: other },
        )
        .await
        .unwrap();
    let after = recommendations(&admin).await;
    let relinked = after
        .recommendations
        .iter()
        .find(|r| r.catalog_id == other)
        .expect("now read as the service chosen");
    assert_eq!(relinked.evidence.identity.kind, "own");
    assert!(!relinked.ambiguous);
    let own: OwnDescriptors = admin.get("/api/catalog/descriptors").await;
    assert_eq!(own.descriptors.len(), 1);
    assert_eq!(own.descriptors[0].catalog_id, other);

    // Unlink the Netflix bill: it tracks nothing now, and Netflix is not
    // offered again straight away (an unlink counts as a decline).
    let unlinked: BillRecord = admin
        .call(
            Method::PUT,
            &format!("/api/bills/{}/catalog-link", tracked.bill.id),
            &CatalogLink { catalog_id: None },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(unlinked.catalog_id, None);
    assert!(named(&recommendations(&admin).await, "Netflix").is_none());
    // And linked again by hand: a relink.
    let relinked_bill: BillRecord = admin
        .call(
            Method::PUT,
            &format!("/api/bills/{}/catalog-link", tracked.bill.id),
            &CatalogLink {
                catalog_id: Some(netflix.catalog_id),
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(relinked_bill.catalog_name.as_deref(), Some("Netflix"));
    let (status, error) = admin
        .call::<_, BillRecord>(
            Method::PUT,
            &format!("/api/bills/{}/catalog-link", tracked.bill.id),
            &CatalogLink {
                catalog_id: Some(999_999),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "catalogId");

    let slug = |s: &str| Some(s.to_owned());
    assert_eq!(
        feedback(&pool).await,
        vec![
            ("accept".into(), Some(tracked.bill.id), slug("netflix")),
            (
                "link_existing".into(),
                Some(spotify_bill.id),
                slug("spotify")
            ),
            ("decline".into(), None, slug("prime-video")),
            (
                "relink_catalog".into(),
                None,
                sqlx::query_scalar("SELECT slug FROM subscription_catalog WHERE id = ?")
                    .bind(other)
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            ),
            ("unlink".into(), Some(tracked.bill.id), slug("netflix")),
            (
                "relink_catalog".into(),
                Some(tracked.bill.id),
                slug("netflix")
            ),
        ]
    );
    let reason: Option<String> = sqlx::query_scalar(
        "SELECT reason FROM subscription_recommendation_feedback WHERE action = 'decline'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(reason.as_deref(), Some("not_a_subscription"));
}

#[tokio::test]
async fn a_declined_service_comes_back_when_it_charges_a_new_amount() {
    let (_app, admin, pool, _) = with_demo_bank().await;
    let spotify = named(&recommendations(&admin).await, "Spotify")
        .unwrap()
        .clone();
    let _: Option<()> = admin
        .call(
            Method::POST,
            &format!("/api/subscriptions/recommendations/{}/decline", spotify.id),
            &DeclineRecommendation::default(),
        )
        .await
        .unwrap();
    assert!(named(&recommendations(&admin).await, "Spotify").is_none());
    // A price rise today.
    history(&pool, &[(0, -1299, "SPOTIFY USA")]).await;
    let back = recommendations(&admin).await;
    let again = named(&back, "Spotify").expect("a new amount brings it back");
    assert_eq!(again.amount_minor, 1299);
}

#[tokio::test]
async fn the_catalog_is_searchable_and_trackable_and_own_descriptors_are_checked() {
    let (_app, admin) = with_admin(&[]).await;
    let all: Catalog = admin.get("/api/catalog").await;
    assert_eq!(all.services.len(), 309);
    let found: Catalog = admin.get("/api/catalog?q=NETFLIX").await;
    assert_eq!(found.services.len(), 1);
    let netflix = &found.services[0];
    assert_eq!(netflix.name, "Netflix");
    assert_eq!(netflix.starting_monthly_minor, Some(799));
    assert_eq!(netflix.typical_cadence, "monthly");
    let music: Catalog = admin.get("/api/catalog?q=music%20apple").await;
    assert!(music.services.iter().any(|s| s.name == "Apple Music"));
    assert!(music.services.iter().all(|s| s.name != "Spotify"));
    let response = admin
        .request(Method::GET, &format!("/api/catalog?q={}", "a".repeat(101)))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: ErrorBody = response.json().await.unwrap();
    assert_eq!(body.field_violations()[0].field, "q");

    // Two at once, at their starting prices.
    let disney = all.services.iter().find(|s| s.name == "Disney+").unwrap();
    let tracked: TrackedBills = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/catalog/track",
            &TrackCatalog {
                catalog_ids: vec![netflix.id, disney.id],
            },
        )
        .await;
    assert_eq!(tracked.bills.len(), 2);
    assert_eq!(tracked.bills[0].amount_minor, 799);
    assert!(tracked.bills.iter().all(|b| b.subscription));
    // All or none: one unknown id tracks nothing.
    let (status, error) = admin
        .call::<_, TrackedBills>(
            Method::POST,
            "/api/catalog/track",
            &TrackCatalog {
                catalog_ids: vec![disney.id, 999_999],
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(error.field_violations()[0].field, "catalogIds");
    let (status, _) = admin
        .call::<_, TrackedBills>(
            Method::POST,
            "/api/catalog/track",
            &TrackCatalog {
                catalog_ids: vec![],
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);

    // Price drift against the plan nearest the bill's price: Netflix at
    // 15.49 is 14 % under Standard (17.99), not 94 % over the cheapest
    // plan (7.99, Standard with ads); at 24.99 it is at Premium's price.
    let mut form = BillForm {
        name: "Netflix".into(),
        amount_minor: 1549,
        cadence: "monthly".into(),
        due_day: tracked.bills[0].due_day,
        anchor_date: tracked.bills[0].anchor_date.clone(),
        subscription: true,
        catalog_id: Some(netflix.id),
        ..BillForm::default()
    };
    form.currency = "USD".into();
    let netflix_bill = tracked.bills[0].id;
    // The bill at `form`'s amount, then how each tracked service compares.
    let compare = |form: BillForm| {
        let admin = &admin;
        async move {
            let _: BillRecord = admin
                .call(Method::PUT, &format!("/api/bills/{netflix_bill}"), &form)
                .await
                .unwrap()
                .unwrap();
            let services: TrackedServices = admin.get("/api/catalog/tracked").await;
            services.services
        }
    };
    let services = compare(form.clone()).await;
    let service = |name: &str| services.iter().find(|s| s.service_name == name).unwrap();
    let drift = service("Netflix");
    assert_eq!(drift.drift_percent, Some(-14));
    assert_eq!(drift.catalog_tier.as_deref(), Some("Standard"));
    assert_eq!(drift.catalog_monthly_minor, Some(1799));
    let disney_drift = service("Disney+");
    assert_eq!(disney_drift.drift_percent, Some(0));
    assert_eq!(disney_drift.catalog_tier.as_deref(), Some("Basic"));
    form.amount_minor = 2499;
    let services = compare(form).await;
    let premium = services
        .iter()
        .find(|s| s.service_name == "Netflix")
        .unwrap();
    assert_eq!(
        (premium.catalog_tier.as_deref(), premium.drift_percent),
        (Some("Premium"), Some(0))
    );

    // Own descriptors: checked, one per text, deleted by id.
    let added: OwnDescriptor = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/catalog/descriptors",
            &NewDescriptor {
                catalog_id: disney.id,
                descriptor: "  DISNEYPLUS 888-905-7888 CA ".into(),
            },
        )
        .await;
    assert_eq!(added.descriptor, "DISNEYPLUS 888-905-7888 CA");
    assert_eq!(added.service_name, "Disney+");
    for (descriptor, catalog, field) in [
        ("", disney.id, "descriptor"),
        ("ACH", disney.id, "descriptor"),
        ("disneyplus 888-905-7888 ca", netflix.id, "descriptor"),
        ("SOMETHING ELSE", 999_999, "catalogId"),
    ] {
        let (status, error) = admin
            .call::<_, OwnDescriptor>(
                Method::POST,
                "/api/catalog/descriptors",
                &NewDescriptor {
                    catalog_id: catalog,
                    descriptor: descriptor.into(),
                },
            )
            .await
            .unwrap_err();
        assert_eq!(status, 400, "{descriptor}");
        assert_eq!(error.field_violations()[0].field, field, "{descriptor}");
    }
    assert_eq!(
        admin
            .status(
                Method::DELETE,
                &format!("/api/catalog/descriptors/{}", added.id)
            )
            .await,
        204
    );
    assert_eq!(
        admin
            .status(
                Method::DELETE,
                &format!("/api/catalog/descriptors/{}", added.id)
            )
            .await,
        404
    );
}
