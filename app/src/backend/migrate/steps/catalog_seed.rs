//! Seeding the subscription catalog from the reviewed data files.

use sqlx::SqliteConnection;

use crate::backend::catalog::{self, CatalogError};
use crate::backend::migrate::{StepError, StepFuture};

impl From<CatalogError> for StepError {
    fn from(error: CatalogError) -> Self {
        StepError::Data(error.to_string())
    }
}

fn checked() -> Result<(Vec<catalog::Service>, Vec<catalog::Descriptor>), StepError> {
    let services = catalog::services()?;
    let descriptors = catalog::descriptors()?;
    catalog::validate(&services, &descriptors).map_err(StepError::Data)?;
    Ok((services, descriptors))
}

/// v0.91: the catalog as v0.36 had it (name, category, website, cadence,
/// typical price).
pub fn seed_services(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let (services, _) = checked()?;
        for service in services {
            sqlx::query(
                "INSERT INTO subscription_catalog (slug, name, category, website, typical_cadence, typical_price_cents)
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(&service.slug)
            .bind(&service.name)
            .bind(&service.category)
            .bind(&service.website)
            .bind(&service.typical_cadence)
            .bind(service.starting_monthly_cents.or(service.starting_annual_cents))
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    })
}

/// v0.95: subcategory and starting prices for every service (adding any the
/// catalog did not have yet), and the 1,501 descriptors.
pub fn seed_descriptors(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let (services, descriptors) = checked()?;
        for service in &services {
            sqlx::query(
                "INSERT INTO subscription_catalog
                     (slug, name, category, website, typical_cadence, typical_price_cents,
                      subcategory, starting_monthly_usd, starting_annual_usd, price_notes)
                 VALUES (?1, ?2, ?3, ?4, ?5, coalesce(?6, ?7), ?8, ?6, ?7, ?9)
                 ON CONFLICT (slug) DO UPDATE SET
                     subcategory = excluded.subcategory,
                     starting_monthly_usd = excluded.starting_monthly_usd,
                     starting_annual_usd = excluded.starting_annual_usd,
                     price_notes = excluded.price_notes",
            )
            .bind(&service.slug)
            .bind(&service.name)
            .bind(&service.category)
            .bind(&service.website)
            .bind(&service.typical_cadence)
            .bind(service.starting_monthly_cents)
            .bind(service.starting_annual_cents)
            .bind(&service.subcategory)
            .bind(&service.price_notes)
            .execute(&mut *conn)
            .await?;
        }
        for descriptor in &descriptors {
            sqlx::query(
                "INSERT INTO subscription_catalog_descriptors (catalog_id, kind, descriptor, normalized)
                 SELECT id, ?, ?, ? FROM subscription_catalog WHERE slug = ?",
            )
            .bind(descriptor.kind.as_str())
            .bind(&descriptor.text)
            .bind(catalog::normalize(&descriptor.text))
            .bind(&descriptor.service_slug)
            .execute(&mut *conn)
            .await?;
        }
        let seeded: i64 =
            sqlx::query_scalar("SELECT count(*) FROM subscription_catalog_descriptors")
                .fetch_one(&mut *conn)
                .await?;
        if seeded as usize != descriptors.len() {
            return Err(StepError::Data(format!(
                "seeded {seeded} descriptors, expected {}",
                descriptors.len()
            )));
        }
        Ok(())
    })
}

/// v1.14: the plans of catalog services and their prices, in the file's
/// order (cheapest first).
pub fn seed_tiers(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let services = catalog::services()?;
        let tiers = catalog::tiers::tiers()?;
        catalog::tiers::validate(&services, &tiers).map_err(StepError::Data)?;
        for (position, tier) in (1_i64..).zip(&tiers) {
            sqlx::query(
                "INSERT INTO subscription_catalog_tiers
                     (catalog_id, position, name, monthly_usd, annual_usd)
                 SELECT id, ?, ?, ?, ? FROM subscription_catalog WHERE slug = ?",
            )
            .bind(position)
            .bind(&tier.name)
            .bind(tier.monthly_cents)
            .bind(tier.annual_cents)
            .bind(&tier.service_slug)
            .execute(&mut *conn)
            .await?;
        }
        let seeded: i64 = sqlx::query_scalar("SELECT count(*) FROM subscription_catalog_tiers")
            .fetch_one(&mut *conn)
            .await?;
        if seeded as usize != tiers.len() {
            return Err(StepError::Data(format!(
                "seeded {seeded} catalog plans, expected {}",
                tiers.len()
            )));
        }
        Ok(())
    })
}
