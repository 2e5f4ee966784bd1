//! The ops commands' secrets (Portainer's API key, Tally's API token) come
//! from the environment, either the value itself (`NAME`) or a file that
//! holds it (`NAME_FILE`, as Docker and systemd hand out secrets); never
//! from a flag, which every user of the machine can read in `ps` and the
//! shell keeps in its history.

use std::ffi::OsString;
use std::path::PathBuf;

use secrecy::SecretString;

use super::OpsError;

/// The administrator's API token for the server (`tally_pat_…`).
pub const TALLY_TOKEN: &str = "TALLY_TOKEN";
/// Portainer's API key, sent as `X-API-Key`.
pub const PORTAINER_API_KEY: &str = "PORTAINER_API_KEY";

/// The secret `name` from this process's environment.
pub fn read(name: &str) -> Result<SecretString, OpsError> {
    read_from(name, |key| std::env::var_os(key))
}

/// What a secret given as `--flag` gets instead of being used.
pub fn flag_refused(flag: &str, name: &str) -> String {
    format!(
        "{flag} is not taken on the command line, where other users of this machine can read it (ps) and the shell keeps it; set {name}, or {name}_FILE to a file holding it"
    )
}

fn read_from(
    name: &str,
    lookup: impl Fn(&str) -> Option<OsString>,
) -> Result<SecretString, OpsError> {
    let file_variable = format!("{name}_FILE");
    match (lookup(name), lookup(&file_variable)) {
        (Some(_), Some(_)) => Err(OpsError::Usage(format!(
            "{name} and {file_variable} are both set; keep one"
        ))),
        (None, None) => Err(OpsError::Usage(format!(
            "set {name}, or {file_variable} to a file holding it"
        ))),
        (Some(value), None) => {
            let value = value
                .into_string()
                .map_err(|_| OpsError::Usage(format!("{name} is not UTF-8")))?;
            nonempty(value, || format!("{name} is empty"))
        }
        (None, Some(path)) => {
            let path = PathBuf::from(path);
            let value = std::fs::read_to_string(&path).map_err(|error| {
                OpsError::Usage(format!(
                    "{file_variable}: cannot read {}: {error}",
                    path.display()
                ))
            })?;
            nonempty(value, || {
                format!("{file_variable}: {} is empty", path.display())
            })
        }
    }
}

/// The value without the whitespace around it (a file's final newline),
/// refused when nothing is left.
fn nonempty(value: String, empty: impl FnOnce() -> String) -> Result<SecretString, OpsError> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Err(OpsError::Usage(empty()));
    }
    if trimmed.len() == value.len() {
        return Ok(SecretString::from(value));
    }
    Ok(SecretString::from(trimmed.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;

    fn read_with(vars: &[(&str, &str)]) -> Result<SecretString, OpsError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        read_from("KEY", move |key| {
            vars.iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| OsString::from(value))
        })
    }

    #[test]
    fn the_value_or_a_file_holding_it_but_not_both() {
        assert_eq!(
            read_with(&[("KEY", " s3cret\n")]).unwrap().expose_secret(),
            "s3cret"
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, "from-file\r\n").unwrap();
        let path = file.to_str().unwrap();
        assert_eq!(
            read_with(&[("KEY_FILE", path)]).unwrap().expose_secret(),
            "from-file"
        );
        let said = |result: Result<SecretString, OpsError>| result.err().unwrap().to_string();
        assert!(said(read_with(&[("KEY", "a"), ("KEY_FILE", path)])).contains("both"));
        assert!(said(read_with(&[])).contains("KEY_FILE"));
        assert!(said(read_with(&[("KEY", "  ")])).contains("empty"));
        std::fs::write(&file, "\n").unwrap();
        assert!(said(read_with(&[("KEY_FILE", path)])).contains("empty"));
        let missing = said(read_with(&[("KEY_FILE", "/nonexistent/key")]));
        assert!(missing.contains("/nonexistent/key"), "{missing}");
    }
}
