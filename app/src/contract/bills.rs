//! `/api/bills…`, `/api/payments…`, `/api/tracker`, `/api/reports/spending`
//! and `/api/catalog`. The bill form itself is `domain::bill::BillForm`.

use serde::{Deserialize, Serialize};

use crate::domain::bill::BillForm;
use crate::domain::cadence::Cadence;
use crate::domain::date::Date;
use crate::domain::money::Currency;
use crate::domain::tracker::{Status, Totals};
use crate::domain::validation::FieldViolation;

/// A bill as stored and as the API answers it (the server reads it from
/// `bills`); its rules are in `domain::bill`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BillRecord {
    pub id: i64,
    pub name: String,
    pub amount_minor: i64,
    pub currency: String,
    pub cadence: String,
    pub cadence_interval: i64,
    pub due_day: i64,
    pub anchor_date: String,
    pub category: String,
    pub notes: String,
    pub autopay: bool,
    pub subscription: bool,
    pub debt: bool,
    pub balance_minor: Option<i64>,
    pub apr_basis_points: Option<i64>,
    pub minimum_payment_minor: Option<i64>,
    pub interest_accrued_month: Option<String>,
    pub catalog_id: Option<i64>,
    /// The linked catalog service's name.
    pub catalog_name: Option<String>,
    pub active: bool,
    pub inactive_reason: Option<String>,
    pub inactivated_at: Option<String>,
    pub autopay_verified_at: Option<String>,
    pub sort_order: i64,
    pub created_at: String,
    pub updated_at: String,
    /// Filled in by the server from today in the user's time zone.
    pub next_due: Option<String>,
    /// A debt's interest not yet charged, as of today: charged with the
    /// next payment, or by the accrual when the month ends. Filled in by the
    /// server.
    pub interest_pending_minor: Option<i64>,
}

/// `GET /api/bills`: every bill, with the user's today and preferences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct BillList {
    pub today: String,
    pub locale: String,
    pub currency: String,
    pub bills: Vec<BillRecord>,
}

/// `POST /api/bills/{id}/deactivate`: why (may be left out, or the body
/// left empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Deactivation {
    #[serde(default)]
    pub reason: String,
}

/// What a payment row records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::Type))]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ssr", sqlx(rename_all = "lowercase"))]
pub enum PaymentKind {
    /// Money paid towards the bill.
    #[default]
    Payment,
    /// A month's interest charged by the monthly accrual.
    Interest,
}

impl PaymentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Payment => "payment",
            Self::Interest => "interest",
        }
    }
}

/// A payment as the API answers it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub id: i64,
    pub bill_id: i64,
    pub amount_minor: i64,
    pub paid_on: String,
    pub method: String,
    pub interest_delta_minor: i64,
    pub autopay_failure: bool,
    pub kind: PaymentKind,
    pub created_at: String,
    /// The due date it pays, when one was named (`YYYY-MM-DD`); otherwise
    /// the one whose cycle `paidOn` falls in.
    #[serde(default)]
    pub for_occurrence: Option<String>,
    /// The due date it pays, by the Tracker's one assignment over the
    /// bill's history (`YYYY-MM-DD`); `null` for a payment from before the
    /// bill's first due date (history: it pays none) and for an interest
    /// charge. Only the bill's list of payments fills it in.
    #[serde(default)]
    pub pays: Option<String>,
}

impl Payment {
    pub fn is_interest_charge(&self) -> bool {
        self.kind == PaymentKind::Interest
    }
}

/// `GET /api/bills/{id}/payments`, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Payments {
    pub payments: Vec<Payment>,
}

/// `POST /api/bills/{id}/payments`: the bill's amount and today when left
/// out ("mark paid").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordPayment {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_minor: Option<i64>,
    /// `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_on: Option<String>,
    #[serde(default)]
    pub method: String,
    /// The due date it pays (`YYYY-MM-DD`, one of the bill's): where the
    /// date could pay two, or pays one ahead. Left out, the due date whose
    /// cycle the date falls in; a date before the bill's first cycle is
    /// history and pays none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_occurrence: Option<String>,
}

/// A payment as typed into a bill page's form (`payment[…]` fields, posted
/// with or without JavaScript): the amount as written (empty: the bill's),
/// the date (empty: today) and the method.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentInput {
    #[serde(default)]
    pub amount: String,
    #[serde(default)]
    pub paid_on: String,
    #[serde(default)]
    pub method: String,
    /// The due date it pays; empty: worked out from the date.
    #[serde(default)]
    pub for_occurrence: String,
}

impl PaymentInput {
    /// The payment to record, for a bill whose currency has `digits`
    /// after the decimal point; a bad amount names `amountMinor`.
    pub fn to_payment(&self, digits: u8) -> Result<RecordPayment, FieldViolation> {
        let amount = self.amount.trim();
        let amount_minor = if amount.is_empty() {
            None
        } else {
            Some(
                crate::domain::money::parse_minor(amount, digits)
                    .map_err(|problem| FieldViolation::new("amountMinor", problem))?,
            )
        };
        let given = |text: &str| {
            let text = text.trim();
            (!text.is_empty()).then(|| text.to_owned())
        };
        Ok(RecordPayment {
            amount_minor,
            paid_on: given(&self.paid_on),
            method: self.method.clone(),
            for_occurrence: given(&self.for_occurrence),
        })
    }
}

/// `POST /api/payments/{id}/autopay-failure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AutopayFailure {
    pub failed: bool,
}

/// `PUT /api/bills/order`: the Custom sort.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BillOrder {
    pub ids: Vec<i64>,
}

/// The Subscriptions page's move up / move down, as its form posts it:
/// the pressed button is `shift[up]=<id>` or `shift[down]=<id>`, beside
/// the order the page showed (`ids[0]`, `ids[1]`…).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderShift {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub up: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down: Option<i64>,
}

impl OrderShift {
    /// `ids` with the chosen bill swapped with its neighbour; at either
    /// end it stays where it is. `None` unless exactly one button was
    /// pressed, for a bill in `ids`.
    pub fn applied(&self, mut ids: Vec<i64>) -> Option<Vec<i64>> {
        let (id, up) = match (self.up, self.down) {
            (Some(id), None) => (id, true),
            (None, Some(id)) => (id, false),
            _ => return None,
        };
        let at = ids.iter().position(|listed| *listed == id)?;
        let other = if up { at.checked_sub(1) } else { Some(at + 1) };
        if let Some(other) = other.filter(|other| *other < ids.len()) {
            ids.swap(at, other);
        }
        Some(ids)
    }
}

/// Whether the Tracker shows a calendar month, a pay period, or half a
/// month (the 1st to the 14th, the 15th to the end) for people without a
/// pay schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PeriodKind {
    Month,
    Pay,
    Half,
}

/// The dates the Tracker covers, both included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Period {
    pub kind: PeriodKind,
    pub first: String,
    pub last: String,
}

/// One due date of one bill in the period.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackerEntry {
    pub bill_id: i64,
    pub name: String,
    pub due: String,
    pub status: Status,
    pub amount_minor: i64,
    pub currency: String,
    pub autopay: bool,
    pub category: String,
    /// The bill's usual amount, when this time's differs (an override).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usual_amount_minor: Option<i64>,
    /// Skipped this time: listed, in no total.
    #[serde(default)]
    pub skipped: bool,
    /// The scheduled date of a snoozed occurrence (`due` is the new one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snoozed_from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `GET /api/tracker[?period=month|pay]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Tracker {
    pub today: String,
    pub locale: String,
    pub currency: String,
    /// `YYYY-MM` of the month shown (of the day a pay period was asked
    /// for, or today).
    pub month: String,
    pub period: Period,
    /// The user's pay schedule, when they set one.
    pub pay_schedule: Option<String>,
    pub entries: Vec<TrackerEntry>,
    /// The user keeps the "Pin due" order (missed, late, due within three
    /// days, upcoming, the rest); a `sort` in the page's address wins.
    #[serde(default)]
    pub pin_due: bool,
    /// What is due from today through 30 days ahead and not paid,
    /// whatever period is shown.
    #[serde(default)]
    pub upcoming: Vec<TrackerEntry>,
    /// One per currency, never added across: the person's own currency
    /// first (there even when nothing of it is due), then by code.
    pub totals: Vec<Totals>,
}

/// One category's payments per month.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CategorySpending {
    pub name: String,
    /// ISO 4217: a category paid in two currencies is two entries.
    #[serde(default)]
    pub currency: String,
    /// One total per entry of [`Spending::months`].
    pub totals_minor: Vec<i64>,
}

/// Everything the Tracker page shows, in one answer
/// (`/api/fn/tracker/page`, the page's own read; not part of the REST
/// API): the period with its bills, and beside it the drifting bills, the
/// bank bar's accounts and the spending chart. Each of those three is
/// absent when it cannot be read (bank sync off, say); the page goes on
/// without it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackerPageData {
    pub tracker: Tracker,
    pub drifts: Option<super::drift::Drifts>,
    pub bank: Option<super::bank::BankConnections>,
    pub spending: Option<Spending>,
}

/// `GET /api/reports/spending`: the last six months, this one included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Spending {
    pub locale: String,
    pub currency: String,
    /// `YYYY-MM`, oldest first.
    pub months: Vec<String>,
    pub categories: Vec<CategorySpending>,
}

impl Spending {
    /// One chart's worth per currency paid in, the person's own first
    /// (alone, when nothing was paid), never two currencies in one.
    pub fn per_currency(&self) -> Vec<Spending> {
        let mut codes: Vec<&str> = Vec::new();
        for category in &self.categories {
            if !codes.contains(&category.currency.as_str()) {
                codes.push(&category.currency);
            }
        }
        codes.sort_by_key(|code| (*code != self.currency, *code));
        if codes.is_empty() {
            codes.push(&self.currency);
        }
        codes
            .into_iter()
            .map(|code| Spending {
                locale: self.locale.clone(),
                currency: code.to_owned(),
                months: self.months.clone(),
                categories: self
                    .categories
                    .iter()
                    .filter(|category| category.currency == code)
                    .cloned()
                    .collect(),
            })
            .collect()
    }
}

/// A known subscription service a bill can link to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct CatalogService {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub website: Option<String>,
    /// `weekly`, `monthly`, `quarterly` or `yearly`.
    pub typical_cadence: String,
    /// US cents.
    pub starting_monthly_minor: Option<i64>,
    pub starting_annual_minor: Option<i64>,
}

/// `GET /api/catalog[?q=]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Catalog {
    pub services: Vec<CatalogService>,
}

impl CatalogService {
    /// What the picker shows and the user types: "Netflix (Streaming)".
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.category)
    }
}

impl Catalog {
    /// The service a typed text names: its label, or its name alone when
    /// only one service has it (case does not matter).
    pub fn find(&self, text: &str) -> Option<i64> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Some(service) = self
            .services
            .iter()
            .find(|service| service.label().eq_ignore_ascii_case(text))
        {
            return Some(service.id);
        }
        let mut named = self
            .services
            .iter()
            .filter(|service| service.name.eq_ignore_ascii_case(text));
        match (named.next(), named.next()) {
            (Some(service), None) => Some(service.id),
            _ => None,
        }
    }
}

/// `GET /api/bills/{id}/autopay`: how an autopay bill has fared against
/// the bank over its last twelve due dates (spec v0.99).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AutopayTrust {
    pub autopay: bool,
    /// When a bank debit last confirmed the autopay.
    pub verified_at: Option<String>,
    /// Due dates without a failed autopay, of `dueDates` looked at.
    pub kept: u32,
    pub due_dates: u32,
    /// `✓ 12/12` or `⚠ 11/12`; empty until a payment or a failed autopay
    /// is behind one of its due dates (a new bill has no record).
    pub label: String,
}

/// A bill as the domain reads it.
impl BillRecord {
    pub fn currency(&self) -> Currency {
        Currency::parse(&self.currency).unwrap_or(Currency::USD)
    }

    pub fn cadence(&self) -> Option<Cadence> {
        Cadence::parse(&self.cadence, self.cadence_interval).ok()
    }

    /// The first due date on or after `from`.
    pub fn due_on_or_after(&self, from: Date) -> Option<Date> {
        let anchor = Date::parse(&self.anchor_date).ok()?;
        let due_day = u8::try_from(self.due_day).ok()?;
        self.cadence()?.next_due(anchor, due_day, from)
    }

    /// On an active debt, the interest owed through `today`'s month and not
    /// yet charged (an ended debt is not charged).
    pub fn interest_pending(&self, today: Date) -> Option<i64> {
        if !self.debt || !self.active {
            return None;
        }
        let accrued = self
            .interest_accrued_month
            .as_deref()
            .and_then(crate::domain::date::YearMonth::parse);
        let charges = crate::domain::interest::charges_due(
            self.balance_minor.unwrap_or(0),
            self.apr_basis_points.unwrap_or(0),
            accrued,
            today.year_month(),
        );
        Some(charges.iter().map(|charge| charge.interest).sum())
    }

    /// The form holding this bill, for editing.
    pub fn to_form(&self) -> BillForm {
        BillForm {
            name: self.name.clone(),
            amount_minor: self.amount_minor,
            currency: self.currency.clone(),
            cadence: self.cadence.clone(),
            cadence_interval: Some(self.cadence_interval),
            due_day: self.due_day,
            anchor_date: self.anchor_date.clone(),
            category: self.category.clone(),
            notes: self.notes.clone(),
            autopay: self.autopay,
            subscription: self.subscription,
            debt: self.debt,
            balance_minor: self.balance_minor,
            apr_basis_points: self.apr_basis_points,
            minimum_payment_minor: self.minimum_payment_minor,
            catalog_id: self.catalog_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_swaps_one_bill_with_its_neighbour_and_stops_at_the_ends() {
        let up = |id| OrderShift {
            up: Some(id),
            down: None,
        };
        let down = |id| OrderShift {
            up: None,
            down: Some(id),
        };
        assert_eq!(up(3).applied(vec![1, 2, 3]), Some(vec![1, 3, 2]));
        assert_eq!(down(1).applied(vec![1, 2, 3]), Some(vec![2, 1, 3]));
        assert_eq!(up(1).applied(vec![1, 2, 3]), Some(vec![1, 2, 3]));
        assert_eq!(down(3).applied(vec![1, 2, 3]), Some(vec![1, 2, 3]));
        assert_eq!(up(9).applied(vec![1, 2, 3]), None, "not in the list");
        let both = OrderShift {
            up: Some(1),
            down: Some(2),
        };
        assert_eq!(both.applied(vec![1, 2]), None);
        assert_eq!(OrderShift::default().applied(vec![1, 2]), None);
    }

    #[test]
    fn a_typed_payment_becomes_minor_units_and_empty_fields_mean_the_defaults() {
        let typed = PaymentInput {
            amount: " 12.50 ".into(),
            paid_on: "2026-11-27".into(),
            method: "card".into(),
            for_occurrence: " 2026-12-01 ".into(),
        };
        let payment = typed.to_payment(2).unwrap();
        assert_eq!(payment.amount_minor, Some(1250));
        assert_eq!(payment.paid_on.as_deref(), Some("2026-11-27"));
        assert_eq!(payment.method, "card");
        assert_eq!(payment.for_occurrence.as_deref(), Some("2026-12-01"));
        let empty = PaymentInput::default().to_payment(2).unwrap();
        assert_eq!((empty.amount_minor, empty.paid_on), (None, None));
        let bad = PaymentInput {
            amount: "12.505".into(),
            ..PaymentInput::default()
        };
        assert_eq!(bad.to_payment(2).unwrap_err().field, "amountMinor");
    }

    fn service(id: i64, name: &str, category: &str) -> CatalogService {
        CatalogService {
            id,
            name: name.into(),
            category: category.into(),
            website: None,
            typical_cadence: "monthly".into(),
            starting_monthly_minor: None,
            starting_annual_minor: None,
        }
    }

    #[test]
    fn a_typed_service_is_found_by_label_or_by_a_unique_name() {
        let catalog = Catalog {
            services: vec![
                service(1, "Netflix", "Streaming"),
                service(2, "Proton", "Email"),
                service(3, "Proton", "VPN"),
            ],
        };
        assert_eq!(catalog.find("Netflix (Streaming)"), Some(1));
        assert_eq!(catalog.find("  netflix "), Some(1));
        assert_eq!(catalog.find("Proton (VPN)"), Some(3));
        assert_eq!(catalog.find("Proton"), None, "two services have that name");
        assert_eq!(catalog.find("Netfl"), None);
        assert_eq!(catalog.find(""), None);
    }
}
