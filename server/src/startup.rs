//! Building and running the application: `Application::build` opens the
//! database and binds the listener (port 0 in tests), `run_until_stopped`
//! serves until the shutdown future completes, lets in-flight requests finish
//! within the grace period, and closes the database cleanly.

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderValue, Method};
use axum::response::IntoResponse;
use axum::Router;
use leptos::config::LeptosOptions;
use leptos::context::provide_context;
use leptos_axum::{generate_route_list, AxumRouteListing, LeptosRoutes};
use sqlx::SqlitePool;
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use app::backend::auth::geolocation::Geolocator;
use app::backend::auth::login_history::LoginHistory;
use app::backend::auth::security_keys::{RelyingPartyError, SecurityKeys};
use app::backend::auth::throttle::SignInThrottle;
use app::backend::auth::{invitations, users, AuthError};
use app::backend::contact::bot_check::BotCheck;
use app::backend::contact::crm::Crm;
use app::backend::contact::group_commit::SubmissionWriter;
use app::backend::contact::outbox::Outbox;
use app::backend::contact::rate_limit::form_rate_limit;
use app::backend::csp::ThirdPartySources;
use app::backend::data_dir_lock::{DataDirLock, LockError};
use app::backend::db::{self, DbError};
use app::backend::db_health::DbHealth;
use app::backend::instance::Instance;
use app::backend::migrate::{MigrateError, Migrator};
use app::backend::operations::Engine;
use app::backend::secrets::{self, Key, SecretsError};
use app::backend::write_gate::WriteGate;
use secrecy::ExposeSecret;

use crate::config::{Settings, HASH_FILE_NAME};
use crate::middleware;
use crate::middleware::edge::Edge;
use crate::page_cache::PageCache;
use crate::routes;
use crate::state::{AppState, ServerState};
use crate::static_assets::{self, StaticAssets};
use app::backend::services::Services;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Database(#[from] DbError),
    #[error(transparent)]
    Migrate(#[from] MigrateError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
    #[error("bootstrap admin: {0}")]
    Bootstrap(#[from] AuthError),
    #[error(transparent)]
    WebAuthn(#[from] RelyingPartyError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot read the bundle in {path}: {source}")]
    Assets {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("operations: {0}")]
    Operations(String),
    #[error("the server stopped with an error: {0}")]
    Serve(#[source] std::io::Error),
}

pub struct Application {
    listener: TcpListener,
    router: Edge<Router>,
    pool: SqlitePool,
    shutdown_grace: Duration,
    _lock: DataDirLock,
}

/// Removes what a stopped server left in the scratch directory (a personal
/// export or import cut short by a crash); the lock makes this server the
/// only one using it. A failure is logged, not fatal: scratch files are
/// made fresh each time.
fn clear_scratch(scratch: &std::path::Path) {
    match std::fs::remove_dir_all(scratch) {
        Ok(()) => {
            tracing::info!(path = %scratch.display(), "cleared scratch files left by an earlier run")
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => {
            tracing::warn!(path = %scratch.display(), %error, "scratch files could not be cleared")
        }
    }
}

/// Opens the database and brings it up to date: takes the data directory
/// lock, applies pending migrations (or, with `RUN_DB_MIGRATIONS=false`,
/// refuses to start while any are pending), and prepares the secrets.
pub async fn open_database(
    settings: &Settings,
) -> Result<(DataDirLock, SqlitePool, secrets::Keyring), StartupError> {
    let lock = DataDirLock::acquire(&settings.data_dir)?;
    clear_scratch(&settings.scratch_dir());
    let pool = db::connect(&settings.database_path()).await?;
    let migrator = Migrator::default();
    if settings.run_db_migrations {
        migrator.run(&pool).await?;
    } else {
        migrator.ensure_current(&pool).await?;
    }
    // Config already checked the key's format, so this parse cannot fail.
    let environment_key = settings
        .token_encryption_key
        .as_ref()
        .and_then(|key| Key::parse(key.expose_secret()).ok());
    let (keyring, _) = secrets::prepare(&pool, &settings.data_dir, environment_key).await?;
    // An import the last run stopped half way is taken out again.
    app::backend::personal_data::service::drop_unfinished(&pool, "start").await;
    bootstrap(settings, &pool).await?;
    Ok((lock, pool, keyring))
}

/// On an empty database, creates the admin from `BOOTSTRAP_ADMIN_EMAIL` and
/// `BOOTSTRAP_ADMIN_PASSWORD`, or says how to.
async fn bootstrap(settings: &Settings, pool: &SqlitePool) -> Result<(), StartupError> {
    let made = users::bootstrap_admin(
        pool,
        settings.accounts.bootstrap_admin_email.as_deref(),
        settings.accounts.bootstrap_admin_password.clone(),
    )
    .await?;
    if let Some(admin) = made {
        tracing::info!(email = %admin.email, "created the bootstrap admin");
    } else if users::count(pool).await? == 0 {
        let setup = invitations::create_setup_link(pool).await?;
        let link = invitations::link(&settings.public_base_url, &setup.token);
        // Printed (not only logged as a field) so it is easy to copy from a
        // terminal or `docker logs`.
        tracing::warn!(
            "no accounts yet: open {link} to create the first admin (the link works once, for {} days; or set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD and restart)",
            invitations::LIFETIME_DAYS
        );
    }
    Ok(())
}

impl Application {
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let (lock, pool, keyring) = open_database(&settings).await?;
        let listener = TcpListener::bind(settings.listen_addr)
            .await
            .map_err(|source| StartupError::Bind {
                addr: settings.listen_addr,
                source,
            })?;
        let shutdown_grace = settings.shutdown_grace;
        let geolocation_url = settings.accounts.geolocation_url.clone();
        let limits = settings.limits.clone();
        let security_keys = SecurityKeys::new(
            &settings.webauthn_rp_id,
            &settings.webauthn_origin.url,
            settings.webauthn_origin.any_port,
        )?;
        if let Some(mismatch) = settings.webauthn_mismatch() {
            tracing::warn!("{mismatch}");
        }
        let db_health = DbHealth::new(&settings.database_path()).map_err(|source| {
            StartupError::Database(DbError::Stat {
                path: settings.database_path(),
                source,
            })
        })?;
        let write_gate = Arc::new(WriteGate::default());
        let (bot_check, outbox) = contact_services(&settings, &pool, &write_gate);
        if bot_check.site_key().is_none() {
            tracing::info!(
                "bot check off (CAPTCHA_* unset): the public forms accept submissions without one"
            );
        }
        if !outbox.is_configured() {
            tracing::info!(
                "CRM off (CRM_LEAD_URL unset): submissions are stored with crm_state 'skipped'"
            );
        }
        tokio::spawn(outbox.clone().run());
        let submissions =
            SubmissionWriter::spawn(pool.clone(), write_gate.clone(), outbox.is_configured());
        let form_rate_limit = form_rate_limit(limits.submissions_per_minute).spawn_pruning();
        let keyring = Arc::new(keyring);
        let notifier = Arc::new(app::backend::notifications::Notifier::new(
            settings.notifications.clone(),
            app::backend::outbound::Outbound::from_settings(&settings.outbound),
            Arc::clone(&keyring),
            &settings.public_base_url,
        ));
        let login_history = LoginHistory::new(Geolocator::new(geolocation_url));
        let sso = Arc::new(app::backend::sso::Sso::new(
            settings.sso.clone(),
            app::backend::outbound::Outbound::from_settings(&settings.outbound),
            &settings.public_base_url,
            pool.clone(),
            Arc::clone(&keyring),
            login_history.clone(),
        ));
        let backups = app::backend::backup::Backups::new(
            pool.clone(),
            settings.backups_dir(),
            settings.backups,
        );
        let reencrypt =
            app::backend::secrets::ReencryptSecrets::new(pool.clone(), Arc::clone(&keyring));
        let operations =
            operations_engine(&settings, &pool, &notifier, &backups, &reencrypt).await?;
        let bank = app::backend::bank::service::Bank::new(
            &settings.bank,
            app::backend::outbound::Outbound::from_settings(&settings.outbound),
            pool.clone(),
            Arc::clone(&keyring),
            Arc::clone(&operations),
        );
        let imports = app::backend::statements::service::Imports::new(
            pool.clone(),
            Arc::clone(&operations),
            Arc::clone(&keyring),
            settings.scratch_dir(),
        );
        resume_operations(&operations).await?;
        app::backend::notifications::run::spawn_scheduler(
            Arc::clone(&operations),
            Arc::clone(&notifier),
            pool.clone(),
        );
        bank.spawn_worker(settings.bank.user_budget);
        app::backend::bills::spawn_accrual(pool.clone());
        let pkg = settings.site_root.join("pkg");
        let assets = StaticAssets::load(&pkg, settings.hash_files)
            .map_err(|source| StartupError::Assets { path: pkg, source })?;
        let router = router(
            AppState::new(ServerState {
                leptos_options: leptos_options(&settings),
                page_cache: PageCache::default(),
                metrics: Arc::new(crate::metrics::HttpMetrics::new(
                    routes::api_routes(settings.diagnostics)
                        .iter()
                        .map(|route| route.path)
                        .chain(["/api/fn/{*name}", "/metrics"]),
                )),
                services: Arc::new(Services {
                    public_base_url: settings.public_base_url.clone(),
                    trusted_proxies: settings.trusted_proxies.clone(),
                    pool: pool.clone(),
                    db_health: Arc::new(db_health),
                    auth: app::backend::auth::Auth {
                        pool: pool.clone(),
                        keyring: Arc::clone(&keyring),
                        sign_in_throttle: SignInThrottle::new(
                            limits.sign_in_attempts_per_minute,
                            limits.sign_in_account_burst,
                        )
                        .spawn_pruning(),
                        login_history,
                        security_keys,
                        sso: Arc::clone(&sso),
                        public_base_url: settings.public_base_url.clone(),
                    },
                    keyring,
                    write_gate,
                    contact: app::backend::contact::Contact {
                        pool: pool.clone(),
                        rate_limit: form_rate_limit,
                        bot_check,
                        submissions,
                        outbox,
                    },
                    operations,
                    bank,
                    notifier,
                    sso,
                    page_callers: |path| {
                        middleware::server_fns::caller(path).map(|caller| caller.at_a_browser())
                    },
                    backups,
                    reencrypt,
                    imports,
                    personal_imports: Default::default(),
                    instance: Instance {
                        started: std::time::Instant::now(),
                        image_version: settings.image_version.clone(),
                        database: settings.database_path(),
                        backups_dir: settings.backups_dir(),
                        scratch_dir: settings.scratch_dir(),
                        log_dir: settings.log_dir.clone(),
                        crm_configured: settings.crm.is_some(),
                    },
                }),
                settings: Arc::new(settings),
            }),
            assets,
        );
        Ok(Self {
            listener,
            router,
            pool,
            shutdown_grace,
            _lock: lock,
        })
    }

    /// The address actually bound (the real port when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), StartupError> {
        let (begin_shutdown, shutdown_begun) = tokio::sync::oneshot::channel::<()>();
        let server = axum::serve(
            self.listener,
            axum::ServiceExt::<axum::extract::Request>::into_make_service_with_connect_info::<
                SocketAddr,
            >(self.router),
        )
        .with_graceful_shutdown(async {
            let _ = shutdown_begun.await;
        })
        .into_future();
        tokio::pin!(server);

        tokio::select! {
            result = &mut server => {
                self.pool.close().await;
                return result.map_err(StartupError::Serve);
            }
            () = shutdown => {
                let _ = begin_shutdown.send(());
            }
        }
        let result = match tokio::time::timeout(self.shutdown_grace, &mut server).await {
            Ok(result) => result.map_err(StartupError::Serve),
            Err(_) => {
                tracing::warn!(grace = ?self.shutdown_grace, "requests still running after the grace period; stopping anyway");
                Ok(())
            }
        };
        self.pool.close().await;
        tracing::info!("database closed; goodbye");
        result
    }
}

/// The operations engine, with the kinds of the features built before it
/// registered (statement imports and bank sync, which start operations
/// themselves, register theirs when built). [`resume_operations`] runs once all are.
async fn operations_engine(
    settings: &Settings,
    pool: &SqlitePool,
    notifier: &Arc<app::backend::notifications::Notifier>,
    backups: &app::backend::backup::Backups,
    reencrypt: &app::backend::secrets::ReencryptSecrets,
) -> Result<Arc<Engine>, StartupError> {
    let engine = Engine::new(pool.clone(), settings.operations_retention)
        .await
        .map_err(|error| StartupError::Operations(error.to_string()))?;
    backups.register(&engine);
    reencrypt.register(&engine);
    app::backend::notifications::jobs::NotificationsRun::new(Arc::clone(notifier), pool.clone())
        .register(&engine);
    Ok(engine)
}

/// Once every feature registered its kinds: resumes or aborts what the last
/// run left unfinished, and expires old operations from now on.
async fn resume_operations(engine: &Arc<Engine>) -> Result<(), StartupError> {
    let (resumed, aborted) = engine
        .recover()
        .await
        .map_err(|error| StartupError::Operations(error.to_string()))?;
    if resumed + aborted > 0 {
        tracing::info!(
            resumed,
            aborted,
            "operations left unfinished by the last run"
        );
    }
    engine.spawn_expiry();
    Ok(())
}

/// The bot check and the CRM outbox, from their settings (each off when
/// unconfigured).
fn contact_services(
    settings: &Settings,
    pool: &SqlitePool,
    write_gate: &Arc<WriteGate>,
) -> (Arc<BotCheck>, Arc<Outbox>) {
    let bot_check = BotCheck::new(settings.captcha.clone());
    let crm = settings.crm.clone().map(Crm::new);
    let outbox = Outbox::new(
        pool.clone(),
        write_gate.clone(),
        crm,
        settings.crm_outbox.clone(),
    );
    (Arc::new(bot_check), outbox)
}

fn leptos_options(settings: &Settings) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("tally")
        .site_root(settings.site_root.to_string_lossy().as_ref())
        .site_pkg_dir("pkg")
        .site_addr(settings.listen_addr)
        .hash_files(settings.hash_files)
        .hash_file(std::sync::Arc::<str>::from(HASH_FILE_NAME))
        .build()
}

/// The app's routes, worked out once per process. Leptos works them out by
/// running the app with resource loading suppressed through a
/// process-global flag, and a resource that any render polls for the first
/// time while the flag is up waits forever (leptos-rs/leptos#4773). One
/// server in a process never overlaps the two; the integration tests start
/// many servers in one process, and one of them starting used to hang
/// another's page until its deadline (a 504).
fn route_list() -> Vec<AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(app::App)).clone()
}

fn router(state: AppState, assets: StaticAssets) -> Edge<Router> {
    let routes = route_list();
    let settings = state.settings.clone();
    let leptos_options = state.leptos_options.clone();
    let sources = ThirdPartySources(
        settings
            .captcha
            .as_ref()
            .map(|captcha| captcha.csp_sources.clone())
            .unwrap_or_default(),
    );
    let page_sources = sources.clone();
    let page_services = state.services.clone();
    let wasm_packs = app::backend::wasm_packs::WasmPacks::load(
        &settings.site_root.join(&*leptos_options.site_pkg_dir),
    );
    let metrics = state.metrics.clone();
    let router = routes::api_router(&state, cors(&settings))
        .route("/metrics", axum::routing::get(routes::metrics::serve))
        .route(
            "/api/fn/{*name}",
            axum::routing::get(server_functions).post(server_functions),
        )
        // The account forms without JavaScript; the pages are Leptos's.
        .merge(routes::page_form_router())
        // Calendar apps fetch the feed; the link in a confirmation email.
        .route(
            "/calendar/{file}",
            axum::routing::get(routes::notifications::feed),
        )
        .route(
            "/notifications/confirm/{token}",
            axum::routing::get(routes::notifications::confirm),
        )
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(page_sources.clone());
                provide_context(page_services.clone());
                provide_context(wasm_packs.clone());
            },
            move || app::shell(leptos_options.clone()),
        )
        .fallback(
            move |axum::extract::State(state): axum::extract::State<AppState>,
                  request: axum::extract::Request| {
                crate::site_files::fallback(state, sources.clone(), request)
            },
        )
        .with_state(state.clone())
        .layer(axum::middleware::map_response(
            middleware::server_fns::status,
        ))
        .layer(axum::middleware::from_fn(
            middleware::server_fns::limit_body,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::server_fns::gate,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state,
            middleware::front_door::apply,
        ))
        .layer(CompressionLayer::new().br(true).gzip(true))
        // Added after the page layers, so the bundle skips them (it sets
        // its own cache policy and is precompressed); security headers and
        // request ids below still apply.
        .route(
            "/pkg/{*path}",
            axum::routing::get(static_assets::serve).with_state(assets),
        );
    Edge::new(router, metrics)
}

/// Server functions under `/api/fn/` that no page defines (Leptos routes
/// the defined ones itself, with the pages' context).
async fn server_functions(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let services = state.services.clone();
    leptos_axum::handle_server_fns_with_context(move || provide_context(services.clone()), request)
        .await
        .into_response()
}

/// Cross-origin access for `CORS_ORIGIN` only (preflight answered here);
/// without it, no origin gets a grant. Applied to the public forms' routes
/// only (the use cases declared `cross_origin`): nothing else is meant to be called from
/// another site.
fn cors(settings: &Settings) -> CorsLayer {
    let layer = CorsLayer::new()
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(Duration::from_secs(3600));
    match settings
        .cors_origin
        .as_deref()
        .and_then(|origin| HeaderValue::from_str(origin).ok())
    {
        Some(origin) => layer.allow_origin(AllowOrigin::list([origin])),
        None => layer.allow_origin(AllowOrigin::list(Vec::<HeaderValue>::new())),
    }
}
