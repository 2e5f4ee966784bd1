use std::path::PathBuf;

use clap::{Parser, Subcommand};
use secrecy::SecretString;

/// Tally: a self-hosted tracker for bills, debts and subscriptions.
#[derive(Debug, Parser)]
#[command(name = "tally", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

// Parsed once at start-up and matched once: the size of the largest
// variant (`ops deploy`'s settings) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the web server (the default when no subcommand is given).
    Serve,
    /// Probe a running server's /api/health; exit 0 when healthy, 1 otherwise.
    Health {
        /// Base URL of the server to probe.
        #[arg(long, default_value = "http://127.0.0.1:3001")]
        url: String,
    },
    /// Apply pending database migrations (stop the server first).
    Migrate {
        /// List applied and pending migrations; change nothing.
        #[arg(long, conflicts_with = "rollback_latest")]
        status: bool,
        /// Undo the latest applied migration, when it has a rollback definition.
        #[arg(long)]
        rollback_latest: bool,
    },
    /// Create, list and restore database backups in DATA_DIR/backups.
    Backup {
        #[command(subcommand)]
        action: BackupAction,
    },
    /// Personal API tokens, for automation on the server host.
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
    /// Sign-in settings, for the server host (break-glass).
    Auth {
        #[command(subcommand)]
        action: AuthAction,
    },
    /// Write each area's WASM files of the split bundle into one download
    /// (run after `cargo leptos build --release --split`; the build
    /// scripts do). Pages preload an area's pack instead of its files.
    PackWasm,
    /// Look after a running Tally from your own machine, over HTTPS with an
    /// administrator's API token. Each setting is a flag or its environment
    /// variable (the flag wins), except secrets, which come from the
    /// environment only; nothing prompts.
    Ops {
        #[command(subcommand)]
        action: OpsAction,
    },
}

/// A secret someone put on the command line: kept only to refuse it (the
/// ops commands read secrets from the environment), never shown by
/// `Debug` or in clap's errors.
fn secret_flag(raw: &str) -> Result<SecretString, String> {
    Ok(SecretString::from(raw.to_owned()))
}

/// Whether the ops commands may call an API over plain http.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Transport {
    /// Accept http:// addresses for the APIs called (Portainer, the
    /// registry, the server's admin API): the key, the token and the
    /// stack's variables then cross the network readable. For a network
    /// you trust or a tunnel; refused otherwise.
    #[arg(long, env = "TALLY_OPS_ALLOW_HTTP",
          action = clap::ArgAction::SetTrue,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub allow_http: bool,
}

#[derive(Debug, Subcommand)]
pub enum OpsAction {
    /// Take a verified online backup on the server and download it into
    /// DIR (mode 700); the newest BACKUP_KEEP are kept. Exit 1, leaving
    /// nothing behind, when the copy fails its integrity check.
    ///
    /// The API token (an administrator's, or one with the `admin:backup`
    /// scope) comes from TALLY_TOKEN, or TALLY_TOKEN_FILE naming a file
    /// that holds it; never from a flag, which `ps` shows to everyone.
    Backup {
        /// The server's base URL, https:// (http:// only with --allow-http).
        #[arg(long, env = "TALLY_URL")]
        url: String,
        /// Refused: set TALLY_TOKEN or TALLY_TOKEN_FILE.
        #[arg(long = "token", hide = true, value_parser = secret_flag)]
        token_flag: Option<SecretString>,
        /// Where backups are kept on this machine.
        #[arg(long, env = "TALLY_BACKUP_DIR")]
        dir: PathBuf,
        /// How many backups to keep.
        #[arg(long, env = "BACKUP_KEEP", default_value_t = 7)]
        keep: usize,
        #[command(flatten)]
        transport: Transport,
    },
    /// Replay a backup into a scratch database and count the rows of each
    /// table; exit 1 below RESTORE_MIN_ROWS rows in all.
    RestoreCheck {
        /// The backup file.
        file: PathBuf,
        /// The fewest rows (over all tables) to accept; 0 accepts an empty
        /// snapshot, with a warning.
        #[arg(long, env = "RESTORE_MIN_ROWS", default_value_t = 0)]
        min_rows: i64,
    },
    /// Up, down (the container is not running or unhealthy) or unreachable
    /// (the container-management API or the service's address does not
    /// answer), with the restart count, the image digest and version, and
    /// the last log lines. Exit 0 up, 3 down, 4 unreachable, 1 when it
    /// cannot tell.
    ///
    /// Portainer's API key (sent as `X-API-Key`) comes from
    /// PORTAINER_API_KEY, or PORTAINER_API_KEY_FILE naming a file that
    /// holds it; never from a flag.
    Status {
        /// Portainer's base URL, without `/api`; https:// (http:// only
        /// with --allow-http).
        #[arg(long, env = "PORTAINER_URL")]
        api_url: String,
        /// Refused: set PORTAINER_API_KEY or PORTAINER_API_KEY_FILE.
        #[arg(long = "api-key", hide = true, value_parser = secret_flag)]
        api_key_flag: Option<SecretString>,
        /// The stack's name (also its compose project label).
        #[arg(long, env = "PORTAINER_STACK", default_value = "tally")]
        stack: String,
        /// The Docker endpoint; read from the stack when absent.
        #[arg(long, env = "PORTAINER_ENDPOINT_ID")]
        endpoint_id: Option<i64>,
        /// The public base URLs to probe.
        #[arg(long, env = "TALLY_URL")]
        url: Option<String>,
        #[arg(long, env = "TALLY_ALT_URL")]
        alt_url: Option<String>,
        /// Also print the last N log lines.
        #[arg(long, value_name = "N")]
        logs: Option<u32>,
        /// Print only the deployed version ("unknown" without a version
        /// label); exit 1 when it cannot be read.
        #[arg(long)]
        deployed_version: bool,
        #[command(flatten)]
        transport: Transport,
    },
    /// Build the image from the repository's Dockerfile with its version
    /// label, tag it `<registry host>/<repository>:vX.Y.Z` and push it,
    /// through the docker CLI. Refuses anything but v<major>.<minor>.<patch>
    /// and a version the registry already holds.
    Release {
        /// The version to publish, `v<major>.<minor>.<patch>`.
        #[arg(long)]
        version: String,
        /// The registry's base URL, scheme included.
        #[arg(long, env = "TALLY_REGISTRY")]
        registry: String,
        /// The image repository in the registry, e.g. `acme/tally`.
        #[arg(long, env = "TALLY_REPOSITORY")]
        repository: String,
        /// The docker CLI to run.
        #[arg(long, env = "TALLY_DOCKER", default_value = "docker")]
        docker: PathBuf,
        /// The build context, holding the Dockerfile.
        #[arg(long, default_value = ".")]
        context: PathBuf,
        /// Make every check and print the commands; build and push nothing.
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        transport: Transport,
    },
    /// Move the stack to a published image (the newest numbered version
    /// when no --tag): every stack variable is counted, sent back and
    /// counted again; a verified backup comes first; the container's health
    /// check and /api/health on both hostnames must pass afterwards.
    /// Rollback is a deploy of an earlier numbered tag.
    ///
    /// The Tally service's image is pinned to the digest the registry
    /// gave for the tag (`registry/repository:tag@sha256:…`): in the stack
    /// file where the file names it (nothing else in the file changes), in
    /// the TALLY_IMAGE variable where the file reads it from there.
    ///
    /// Secrets come from the environment, never flags: PORTAINER_API_KEY
    /// (or PORTAINER_API_KEY_FILE) and TALLY_TOKEN (or TALLY_TOKEN_FILE;
    /// an administrator's token or one with the `admin:backup` scope).
    Deploy {
        /// The image tag; numbered versions only unless --allow-floating.
        #[arg(long)]
        tag: Option<String>,
        /// Accept a floating tag (latest, dev, …), with a warning.
        #[arg(long)]
        allow_floating: bool,
        /// Make every read and check; change nothing, take no backup.
        #[arg(long)]
        dry_run: bool,
        #[arg(long, env = "PORTAINER_URL")]
        api_url: String,
        /// Refused: set PORTAINER_API_KEY or PORTAINER_API_KEY_FILE.
        #[arg(long = "api-key", hide = true, value_parser = secret_flag)]
        api_key_flag: Option<SecretString>,
        #[arg(long, env = "PORTAINER_STACK", default_value = "tally")]
        stack: String,
        #[arg(long, env = "PORTAINER_ENDPOINT_ID")]
        endpoint_id: Option<i64>,
        #[arg(long, env = "TALLY_REGISTRY")]
        registry: String,
        #[arg(long, env = "TALLY_REPOSITORY")]
        repository: String,
        /// The two public base URLs.
        #[arg(long, env = "TALLY_URL")]
        url: String,
        #[arg(long, env = "TALLY_ALT_URL")]
        alt_url: Option<String>,
        /// Refused: set TALLY_TOKEN or TALLY_TOKEN_FILE.
        #[arg(long = "token", hide = true, value_parser = secret_flag)]
        token_flag: Option<SecretString>,
        /// Where the verified backup goes (as `ops backup`).
        #[arg(long, env = "TALLY_BACKUP_DIR")]
        dir: PathBuf,
        #[arg(long, env = "BACKUP_KEEP", default_value_t = 7)]
        keep: usize,
        /// Seconds the new container and both hostnames may take to answer
        /// healthy after the update (1-3600).
        #[arg(long, env = "TALLY_DEPLOY_HEALTH_SECONDS", default_value_t = 180,
              value_parser = clap::value_parser!(u64).range(1..=3600))]
        health_timeout: u64,
        #[command(flatten)]
        transport: Transport,
    },
    /// `/api/health` on both public hostnames; exit 1 unless all are healthy.
    Health {
        /// The first public base URL, scheme included.
        #[arg(long, env = "TALLY_URL")]
        url: String,
        /// The second public base URL.
        #[arg(long, env = "TALLY_ALT_URL")]
        alt_url: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuthAction {
    /// `local-login on`: let email and password sign in again, whatever
    /// Admin → Authentication or LOCAL_LOGIN_ENABLED say (the way back in
    /// when the identity provider is unusable). Works with the server
    /// stopped or running, and takes effect at once.
    LocalLogin {
        #[arg(value_enum)]
        state: LocalLoginState,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LocalLoginState {
    On,
}

#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Mint a token for a user and print it once.
    Create {
        /// The user's email address.
        #[arg(long)]
        email: String,
        /// A label for the token, shown in Profile.
        #[arg(long)]
        name: String,
        /// Days until the token stops working (1 to 365).
        #[arg(long, default_value_t = app::domain::token_lifetime::DEFAULT_DAYS.into())]
        days: i64,
        /// What the token may do, comma-separated: read, write, admin,
        /// admin:backup (`tally ops backup` and `ops deploy` need
        /// admin:backup).
        #[arg(long, default_value = "read,write")]
        scopes: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum BackupAction {
    /// Take a checked online backup (works while the server runs).
    Create,
    /// List backups, newest first.
    List,
    /// Replace the database with a backup (stop the server first); the
    /// replaced database is kept aside.
    Restore {
        /// The backup's file name, as `tally backup list` shows it.
        name: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_subcommand_means_serve_and_health_has_a_default_url() {
        assert!(Cli::try_parse_from(["tally"]).unwrap().command.is_none());
        match Cli::try_parse_from(["tally", "health"]).unwrap().command {
            Some(Command::Health { url }) => assert_eq!(url, "http://127.0.0.1:3001"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn migrate_and_backup_parse() {
        match Cli::try_parse_from(["tally", "migrate", "--status"])
            .unwrap()
            .command
        {
            Some(Command::Migrate {
                status: true,
                rollback_latest: false,
            }) => {}
            other => panic!("unexpected {other:?}"),
        }
        assert!(
            Cli::try_parse_from(["tally", "migrate", "--status", "--rollback-latest"]).is_err()
        );
        match Cli::try_parse_from(["tally", "backup", "restore", "bills-1.db"])
            .unwrap()
            .command
        {
            Some(Command::Backup {
                action: BackupAction::Restore { name },
            }) => assert_eq!(name, "bills-1.db"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn token_create_defaults_to_the_shared_lifetime() {
        let parse = |extra: &[&str]| {
            let mut args = vec![
                "tally", "token", "create", "--email", "a@b.c", "--name", "ci",
            ];
            args.extend_from_slice(extra);
            match Cli::try_parse_from(args).unwrap().command {
                Some(Command::Token {
                    action: TokenAction::Create { days, .. },
                }) => days,
                other => panic!("unexpected {other:?}"),
            }
        };
        assert_eq!(
            parse(&[]),
            i64::from(app::domain::token_lifetime::DEFAULT_DAYS)
        );
        assert_eq!(parse(&["--days", "7"]), 7);
    }

    #[test]
    fn definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
