use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};
use server::cli::{Cli, Command};
use server::config::Settings;
use server::startup::Application;
use server::{commands, health_check, ops, panic_exit, shutdown, telemetry};

/// mimalloc rather than the system allocator: a request allocates and frees
/// dozens of small blocks (headers, span data, the log line), and glibc's
/// malloc and free were a tenth of a cheap route's profile.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    panic_exit::install();
    let cli = if std::env::args()
        .skip(1)
        .any(|arg| arg == "--version" || arg == "-V")
    {
        with_sqlite_version()
    } else {
        Cli::parse()
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Health { url } => runtime.block_on(health(&url)),
        Command::Ops { action } => runtime.block_on(ops::run(action)),
        command => match load_settings() {
            Ok(settings) => runtime.block_on(run(command, settings)),
            Err(code) => code,
        },
    }
}

/// `tally --version`: Tally's version and the SQLite it carries (asked of
/// SQLite itself, so it is the one actually linked). Prints and exits.
fn with_sqlite_version() -> Cli {
    let sqlite = tokio::runtime::Builder::new_current_thread()
        .build()
        .ok()
        .and_then(|runtime| runtime.block_on(app::backend::db::sqlite_version()).ok())
        .unwrap_or_else(|| "unknown".to_owned());
    // Leaked once: clap keeps a `&'static str`, and this process prints it
    // and exits.
    let line: &'static str =
        Box::leak(format!("{} (SQLite {sqlite})", env!("CARGO_PKG_VERSION")).into_boxed_str());
    let matches = Cli::command().version(line).get_matches();
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    }
}

/// The subcommands that work on the data directory.
async fn run(command: Command, settings: Settings) -> ExitCode {
    match command {
        Command::Serve => serve(settings).await,
        Command::Migrate {
            status,
            rollback_latest,
        } => {
            telemetry::init_stderr();
            commands::migrate(&settings, status, rollback_latest).await
        }
        Command::Backup { action } => {
            telemetry::init_stderr();
            commands::backup(&settings, action).await
        }
        Command::Token { action } => {
            telemetry::init_stderr();
            commands::token(&settings, action).await
        }
        Command::Auth { action } => {
            telemetry::init_stderr();
            commands::auth(&settings, action).await
        }
        Command::PackWasm => commands::pack_wasm(&settings),
        Command::Health { url } => health(&url).await,
        Command::Ops { action } => ops::run(action).await,
    }
}

/// Settings from `.env` and the environment; a bad value ends the process
/// with a message naming the variable.
fn load_settings() -> Result<Settings, ExitCode> {
    if let Err(error) = dotenvy::dotenv() {
        if !error.not_found() {
            eprintln!("cannot read .env: {error}");
            return Err(ExitCode::FAILURE);
        }
    }
    Settings::from_env().map_err(|error| {
        eprintln!("configuration error: {error}");
        ExitCode::FAILURE
    })
}

async fn serve(settings: Settings) -> ExitCode {
    if let Err(error) = telemetry::init(&settings.log_dir) {
        eprintln!("configuration error: {error}");
        return ExitCode::FAILURE;
    }
    let application = match Application::build(settings).await {
        Ok(application) => application,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            telemetry::flush();
            return ExitCode::FAILURE;
        }
    };
    // Handlers first: a signal from here on ends the server gracefully.
    let stop = shutdown::signal();
    match application.local_addr() {
        Ok(addr) => tracing::info!("listening on http://{addr}"),
        Err(error) => tracing::warn!(%error, "listening, but the bound address is unknown"),
    }
    let code = match application.run_until_stopped(stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "stopped with an error");
            ExitCode::FAILURE
        }
    };
    telemetry::flush();
    code
}

async fn health(url: &str) -> ExitCode {
    telemetry::init_stderr();
    match health_check::check(url).await {
        Ok(report) => {
            println!("healthy: status={} db={}", report.status, report.db);
            ExitCode::SUCCESS
        }
        Err(error) => {
            println!("unhealthy: {error}");
            ExitCode::FAILURE
        }
    }
}
