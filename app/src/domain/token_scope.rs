//! What a personal API token may do, chosen when it is made and shown in
//! the token list. Shared by the browser (the choices in Profile), the
//! server (which checks them) and `tally token create --scopes`.
//!
//! A token never does what needs a person at a browser: making tokens,
//! changing the password or second factors, and the administrator's
//! account-level actions (invitations, registration, enabling or disabling
//! users, resetting second factors, restoring the database). Those take a
//! session and the password, asked again; no scope grants them.

use std::fmt;

/// One thing a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Read the owner's own data (GET), list and wait on operations.
    Read,
    /// Change the owner's own data (every other method).
    Write,
    /// The administrator's API (status, submissions, bank sync settings),
    /// for an administrator's token; never the account-level actions.
    Admin,
    /// Take, list and download backups (what `tally ops backup` and
    /// `ops deploy` need), and follow the backup's operation.
    AdminBackup,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::Read, Scope::Write, Scope::Admin, Scope::AdminBackup];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Write => "write",
            Scope::Admin => "admin",
            Scope::AdminBackup => "admin:backup",
        }
    }

    /// What Profile says about the choice.
    pub fn explained(self) -> &'static str {
        match self {
            Scope::Read => "read your bills, payments and operations",
            Scope::Write => "change your bills and payments",
            Scope::Admin => "the administrator's status and settings (administrators only)",
            Scope::AdminBackup => "take and download backups (administrators only)",
        }
    }

    /// Whether only an administrator's token may carry it.
    pub fn needs_admin(self) -> bool {
        matches!(self, Scope::Admin | Scope::AdminBackup)
    }

    pub fn parse(text: &str) -> Result<Self, UnknownScope> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == text.trim())
            .ok_or_else(|| UnknownScope(text.trim().chars().take(40).collect()))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a scope; use read, write, admin or admin:backup")]
pub struct UnknownScope(pub String);

/// A token's scopes: a non-empty set, kept in [`Scope::ALL`]'s order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scopes(u8);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScopesProblem {
    #[error(transparent)]
    Unknown(#[from] UnknownScope),
    #[error("choose at least one scope")]
    Empty,
}

impl Scopes {
    /// What a token made without naming scopes may do, and what tokens made
    /// before scopes existed (v1.10) were given: the owner's own data,
    /// nothing of the administrator's.
    pub const DEFAULT: Scopes = Scopes(0b0011);

    fn bit(scope: Scope) -> u8 {
        match scope {
            Scope::Read => 1,
            Scope::Write => 2,
            Scope::Admin => 4,
            Scope::AdminBackup => 8,
        }
    }

    pub fn of(scopes: impl IntoIterator<Item = Scope>) -> Result<Self, ScopesProblem> {
        let bits = scopes
            .into_iter()
            .fold(0u8, |bits, scope| bits | Self::bit(scope));
        if bits == 0 {
            return Err(ScopesProblem::Empty);
        }
        Ok(Self(bits))
    }

    /// `read,write` (as stored and as `--scopes` takes it); spaces around
    /// names are ignored, repeats count once.
    pub fn parse(text: &str) -> Result<Self, ScopesProblem> {
        let scopes = text
            .split(',')
            .filter(|part| !part.trim().is_empty())
            .map(Scope::parse)
            .collect::<Result<Vec<_>, _>>()?;
        Self::of(scopes)
    }

    /// From the names a request lists.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Self, ScopesProblem> {
        let scopes = names
            .iter()
            .map(|name| Scope::parse(name.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Self::of(scopes)
    }

    pub fn contains(self, scope: Scope) -> bool {
        self.0 & Self::bit(scope) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL
            .into_iter()
            .filter(move |scope| self.contains(*scope))
    }

    /// The names, in order.
    pub fn names(self) -> Vec<String> {
        self.iter().map(|scope| scope.as_str().to_owned()).collect()
    }

    /// Whether any scope needs an administrator.
    pub fn needs_admin(self) -> bool {
        self.iter().any(Scope::needs_admin)
    }
}

impl Default for Scopes {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Scope::as_str).collect();
        f.write_str(&names.join(","))
    }
}

impl fmt::Debug for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scopes({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_in_one_order() {
        let scopes = Scopes::parse(" admin:backup, read ,read").unwrap();
        assert_eq!(scopes.to_string(), "read,admin:backup");
        assert!(scopes.contains(Scope::Read));
        assert!(!scopes.contains(Scope::Write));
        assert!(scopes.needs_admin());
        assert_eq!(Scopes::parse(&scopes.to_string()), Ok(scopes));
        assert_eq!(Scopes::DEFAULT.to_string(), "read,write");
        assert!(!Scopes::DEFAULT.needs_admin());
    }

    #[test]
    fn refuses_unknown_and_empty() {
        assert_eq!(Scopes::parse(""), Err(ScopesProblem::Empty));
        assert_eq!(Scopes::parse(" , "), Err(ScopesProblem::Empty));
        assert!(matches!(
            Scopes::parse("read,root"),
            Err(ScopesProblem::Unknown(UnknownScope(name))) if name == "root"
        ));
        assert!(Scopes::from_names(&["Read"]).is_err(), "names are exact");
        assert_eq!(
            Scopes::from_names(&["write", "admin"]).map(Scopes::names),
            Ok(vec!["write".to_owned(), "admin".to_owned()])
        );
    }
}
