//! The command-line subcommands that work on the data directory (`migrate`,
//! `backup`, `token` and `auth`) or on the built site (`pack-wasm`). Each
//! prints a short report and returns the exit code.

use std::process::ExitCode;

use app::backend::backup;
use app::backend::data_dir_lock::DataDirLock;
use app::backend::db;
use app::backend::migrate::Migrator;

use app::backend::auth::{api_tokens, users};
use app::domain::token_lifetime::TokenLifetime;
use app::domain::token_scope::Scopes;

use crate::cli::{AuthAction, BackupAction, LocalLoginState, TokenAction};
use crate::config::Settings;
use crate::pack_wasm;

fn fail(error: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

pub async fn migrate(settings: &Settings, status: bool, rollback_latest: bool) -> ExitCode {
    // Migrations change the schema under a running server: refuse while one
    // runs. Looking (`--status`) reads only, so it works beside one.
    let _lock = if status {
        None
    } else {
        match DataDirLock::acquire(&settings.data_dir) {
            Ok(lock) => Some(lock),
            Err(error) => return fail(error),
        }
    };
    let opened = if status {
        db::open_read_only(&settings.database_path()).await
    } else {
        db::connect(&settings.database_path()).await
    };
    let pool = match opened {
        Ok(pool) => pool,
        Err(error) => return fail(error),
    };
    let migrator = Migrator::default();
    let code = if status {
        match migrator.status(&pool).await {
            Ok(lines) => {
                for line in lines {
                    let state = line
                        .applied_at
                        .map_or_else(|| "pending".to_owned(), |at| format!("applied {at}"));
                    println!("{}  {:<28}  {}", line.version, state, line.description);
                }
                ExitCode::SUCCESS
            }
            Err(error) => fail(error),
        }
    } else if rollback_latest {
        match migrator.rollback_latest(&pool).await {
            Ok(version) => {
                println!("rolled back {version}");
                ExitCode::SUCCESS
            }
            Err(error) => fail(error),
        }
    } else {
        match migrator.run(&pool).await {
            Ok(applied) if applied.is_empty() => {
                println!("the database is up to date");
                ExitCode::SUCCESS
            }
            Ok(applied) => {
                for version in applied {
                    println!("applied {version}");
                }
                ExitCode::SUCCESS
            }
            Err(error) => fail(error),
        }
    };
    pool.close().await;
    code
}

pub async fn backup(settings: &Settings, action: BackupAction) -> ExitCode {
    let dir = settings.backups_dir();
    match action {
        BackupAction::Create => {
            let pool = match db::connect(&settings.database_path()).await {
                Ok(pool) => pool,
                Err(error) => return fail(error),
            };
            let result = backup::create(&pool, &dir, settings.backups.keep).await;
            pool.close().await;
            match result {
                Ok((info, verified)) => {
                    println!(
                        "created {} ({} bytes, {} tables, {} rows; integrity ok)",
                        info.name, info.bytes, verified.tables, verified.rows
                    );
                    ExitCode::SUCCESS
                }
                Err(error) => fail(error),
            }
        }
        BackupAction::List => match backup::list(&dir) {
            Ok(backups) => {
                if backups.is_empty() {
                    println!("no backups in {}", dir.display());
                }
                for info in backups {
                    println!("{}  {} bytes", info.name, info.bytes);
                }
                ExitCode::SUCCESS
            }
            Err(error) => fail(error),
        },
        BackupAction::Restore { name } => {
            match backup::restore(&settings.data_dir, &settings.database_path(), &dir, &name).await
            {
                Ok(report) => {
                    println!(
                        "restored {name} ({} tables, {} rows)",
                        report.restored.tables, report.restored.rows
                    );
                    if let Some(aside) = report.replaced_kept_at {
                        println!("the replaced database is kept in {}", aside.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => fail(error),
            }
        }
    }
}

pub async fn token(settings: &Settings, action: TokenAction) -> ExitCode {
    let TokenAction::Create {
        email,
        name,
        days,
        scopes,
    } = action;
    let path = settings.database_path();
    if !path.exists() {
        return fail(format!(
            "no database at {}: run this where the server runs, with its DATA_DIR",
            path.display()
        ));
    }
    let pool = match db::connect(&path).await {
        Ok(pool) => pool,
        Err(error) => return fail(error),
    };
    let result = async {
        let user = users::by_email(&pool, &email).await?.ok_or_else(|| {
            app::backend::auth::AuthError::field(
                "email",
                format!("no user has the address {email}"),
            )
        })?;
        let lifetime = TokenLifetime::parse(days)
            .map_err(|error| app::backend::auth::AuthError::field("days", error))?;
        let scopes = Scopes::parse(&scopes)
            .map_err(|error| app::backend::auth::AuthError::field("scopes", error))?;
        api_tokens::create(&pool, &user, &name, lifetime, scopes).await
    }
    .await;
    pool.close().await;
    match result {
        Ok((info, token)) => {
            eprintln!(
                "created token {:?} (id {}, scopes {}, expires {}); it is shown only this once:",
                info.name,
                info.id,
                info.scopes.join(","),
                info.expires_at
            );
            println!("{token}");
            ExitCode::SUCCESS
        }
        Err(error) => fail(error),
    }
}

/// `tally auth local-login on`: the break-glass. It writes the database
/// the server reads at every sign-in, so a running server takes it at once.
pub async fn auth(settings: &Settings, action: AuthAction) -> ExitCode {
    let AuthAction::LocalLogin {
        state: LocalLoginState::On,
    } = action;
    let path = settings.database_path();
    if !path.exists() {
        return fail(format!(
            "no database at {}: run this where the server runs, with its DATA_DIR",
            path.display()
        ));
    }
    let pool = match db::connect(&path).await {
        Ok(pool) => pool,
        Err(error) => return fail(error),
    };
    let result = app::backend::sso::authentication::break_glass(&pool).await;
    pool.close().await;
    match result {
        Ok(()) => {
            tracing::warn!("local sign-in turned on from the command line (break-glass)");
            println!(
                "local sign-in is on: email and password sign in again, until an administrator changes it in Admin → Authentication"
            );
            ExitCode::SUCCESS
        }
        Err(error) => fail(error),
    }
}

/// `tally pack-wasm`: one pack per area of the split bundle under
/// `LEPTOS_SITE_ROOT/pkg`, each line saying what it weighs against the
/// area's files compressed one by one.
pub fn pack_wasm(settings: &Settings) -> ExitCode {
    let pkg = settings.site_root.join("pkg");
    let hash_file = settings.hash_files.then(|| {
        crate::config::hash_file_path().unwrap_or_else(|| crate::config::HASH_FILE_NAME.into())
    });
    let reports = pack_wasm::manifest_path(&pkg, hash_file.as_deref())
        .and_then(|manifest| pack_wasm::pack(&pkg, &manifest));
    match reports {
        Ok(reports) => {
            for report in reports {
                let separately = report
                    .brotli_separately
                    .map(|bytes| format!(" (its files one by one: {bytes} bytes)"))
                    .unwrap_or_default();
                println!(
                    "{}: {} files, {} bytes, {} with brotli{separately}",
                    report.file, report.parts, report.bytes, report.brotli
                );
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(error),
    }
}
