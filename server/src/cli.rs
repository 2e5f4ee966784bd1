use clap::{Parser, Subcommand};

/// Tally: a self-hosted tracker for bills, debts and subscriptions.
#[derive(Debug, Parser)]
#[command(name = "tally", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

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
