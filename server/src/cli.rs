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
    fn definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
