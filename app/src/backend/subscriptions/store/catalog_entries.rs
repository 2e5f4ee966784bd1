//! SQL of the service catalog (`subscription_catalog`) and its plans
//! (`subscription_catalog_tiers`).

use sqlx::SqlitePool;

use crate::contract::bills::CatalogService;

/// A plan of a service, as stored.
pub struct TierRow {
    pub catalog_id: i64,
    pub name: String,
    pub monthly_minor: Option<i64>,
    pub annual_minor: Option<i64>,
}

/// Every service of the catalog, by name.
pub async fn all_services(pool: &SqlitePool) -> Result<Vec<CatalogService>, sqlx::Error> {
    sqlx::query_as!(
        CatalogService,
        r#"SELECT id AS "id!", name, category, website, typical_cadence,
             starting_monthly_usd AS starting_monthly_minor,
             starting_annual_usd AS starting_annual_minor
           FROM subscription_catalog ORDER BY name COLLATE NOCASE"#
    )
    .fetch_all(pool)
    .await
}

/// Every service's plans, by service, each service's in its order.
pub async fn tiers(pool: &SqlitePool) -> Result<Vec<TierRow>, sqlx::Error> {
    Ok(sqlx::query!(
        r#"SELECT catalog_id AS "catalog_id!: i64",
             name AS "name!: String",
             monthly_usd AS "monthly_usd: i64",
             annual_usd AS "annual_usd: i64"
         FROM subscription_catalog_tiers
         ORDER BY catalog_id, position"#,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|row| TierRow {
        catalog_id: row.catalog_id,
        name: row.name,
        monthly_minor: row.monthly_usd,
        annual_minor: row.annual_usd,
    })
    .collect())
}
