//! The layering of both crates, checked on their sources: no import circle
//! between top-level modules (`app::api` → `app::backend` → `app::api` would be
//! one), `domain` importing nothing of the app above it, and no service
//! under `backend/` answering in HTTP's terms (`ApiError`).
//!
//! A module's imports are the `crate::<module>` paths in its files (and
//! `server::<module>` in the server's binary), leaving out comments and
//! everything from a file's first `#[cfg(test)]` on: a test may reach for
//! any module without the code depending on it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// A file's code: no comments, nothing from its tests on.
fn code(text: &str) -> String {
    let mut kept = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        kept.push_str(line.split(" // ").next().unwrap_or(line));
        kept.push('\n');
    }
    kept
}

/// The top-level module `file` of the crate at `src` belongs to:
/// `routes` for `src/routes/bank.rs`, `state` for `src/state.rs`.
fn top_level_of(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    Some(
        first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned(),
    )
}

/// The top-level modules each top-level module of the crate at `src`
/// imports; `names` are how the crate names itself in paths.
fn graph(src: &Path, names: &[&str]) -> Graph {
    let mut files = Vec::new();
    sources(src, &mut files);
    let top_level: BTreeSet<String> = files
        .iter()
        .filter_map(|file| top_level_of(src, file))
        .collect();
    let mut graph = Graph::new();
    for file in &files {
        let Some(module) = top_level_of(src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = code(&text);
        for name in names {
            let prefix = format!("{name}::");
            for (at, _) in code.match_indices(&prefix) {
                let before = code[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let target: String = code[at + prefix.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if target != module && top_level.contains(&target) {
                    graph.entry(module.clone()).or_default().insert(target);
                }
            }
        }
    }
    graph
}

/// The circles of `graph`: each a path that comes back to where it began.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in graph.keys() {
        // Depth first from `start`, reporting paths back to it through
        // modules that sort after it (so each circle is reported once).
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((at, path)) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if next == start {
                    let mut circle = path.clone();
                    circle.push(start.clone());
                    found.push(circle);
                } else if next > start && !path.contains(next) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    found
}

fn crate_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

#[test]
fn no_import_circle_between_top_level_modules() {
    for (src, names) in [
        (crate_dir("app"), &["crate"][..]),
        (crate_dir("server"), &["crate", "server"][..]),
    ] {
        let graph = graph(&src, names);
        assert!(graph.len() > 3, "{}: sources read", src.display());
        let found = circles(&graph);
        assert!(
            found.is_empty(),
            "{}: import circles {found:?} in {graph:#?}",
            src.display()
        );
    }
}

#[test]
fn domain_imports_nothing_above_it() {
    let graph = graph(&crate_dir("app"), &["crate"]);
    assert!(graph.contains_key("pages"), "sources read");
    assert_eq!(
        graph.get("domain"),
        None,
        "domain imports {:?}",
        graph.get("domain")
    );
}

/// The files under `backend/` that may name `ApiError`: its one mapping, and
/// the REST routes' extractors (a door, kept in `app` by the orphan rule).
const HTTP_AWARE: &[&str] = &["api_error.rs", "auth/extractors.rs"];

/// The files under `backend` (relative paths) whose code names `ApiError`.
fn naming_api_error(backend: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(backend, &mut files);
    let mut found: Vec<String> = files
        .iter()
        .filter(|file| {
            std::fs::read_to_string(file).is_ok_and(|text| code(&text).contains("ApiError"))
        })
        .filter_map(|file| file.strip_prefix(backend).ok())
        .map(|file| file.to_string_lossy().replace('\\', "/"))
        .filter(|file| !HTTP_AWARE.contains(&file.as_str()))
        .collect();
    found.sort();
    found
}

#[test]
fn services_return_their_own_errors_not_http_ones() {
    let backend = crate_dir("app").join("backend");
    assert!(backend.join("api_error.rs").is_file(), "sources read");
    assert_eq!(
        naming_api_error(&backend),
        Vec::<String>::new(),
        "a service returns its feature's error enum; backend::api_error maps it to HTTP"
    );
}

/// The server's files that may run SQL of their own: the restore check
/// counts the rows of a replayed backup, table by table, by names it reads
/// from that copy (backups run their own statements, as
/// `docs/architecture.md` says). Every other statement is in a store of
/// `app::backend`.
const SERVER_SQL: &[&str] = &["ops/restore_check.rs"];

/// What a statement looks like in code: sqlx's functions and macros.
const STATEMENTS: &[&str] = &[
    "sqlx::query",
    "sqlx::raw_sql",
    "query!(",
    "query_as!(",
    "query_scalar!(",
];

/// The files under `src` (relative paths) whose code runs SQL, but those
/// allowed to.
fn running_sql(src: &Path, allowed: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut found: Vec<String> = files
        .iter()
        .filter(|file| {
            std::fs::read_to_string(file).is_ok_and(|text| {
                let code = code(&text);
                STATEMENTS.iter().any(|statement| code.contains(statement))
            })
        })
        .filter_map(|file| file.strip_prefix(src).ok())
        .map(|file| file.to_string_lossy().replace('\\', "/"))
        .filter(|file| !allowed.contains(&file.as_str()))
        .collect();
    found.sort();
    found
}

#[test]
fn the_servers_doors_run_no_sql_of_their_own() {
    let server = crate_dir("server");
    assert!(
        server.join("routes").join("metrics.rs").is_file(),
        "sources read"
    );
    assert_eq!(
        running_sql(&server, SERVER_SQL),
        Vec::<String>::new(),
        "a route asks a service or store in app::backend; the SQL lives there"
    );
}

#[test]
fn a_route_running_sql_is_found() {
    let dir = std::env::temp_dir().join(format!("tally-sql-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("routes")).unwrap();
    std::fs::write(
        dir.join("routes").join("metrics.rs"),
        "async fn f(pool: &P) { sqlx::query_as!(Row, \"SELECT 1\").fetch_all(pool).await; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("routes").join("bills.rs"),
        "// sqlx::query in a comment\nfn f() -> Result<(), sqlx::Error> { Ok(()) }\n",
    )
    .unwrap();
    let found = running_sql(&dir, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, ["routes/metrics.rs"]);
}

#[test]
fn a_service_naming_api_error_is_found() {
    let dir = std::env::temp_dir().join(format!("tally-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bills")).unwrap();
    std::fs::write(dir.join("api_error.rs"), "pub enum ApiError {}\n").unwrap();
    std::fs::write(
        dir.join("bills").join("service.rs"),
        "use crate::backend::api_error::ApiError;\n",
    )
    .unwrap();
    std::fs::write(dir.join("bills").join("rules.rs"), "// not ApiError here\n").unwrap();
    let found = naming_api_error(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, ["bills/service.rs"]);
}

#[test]
fn a_circle_is_found_and_comments_and_tests_are_not_imports() {
    let text = "use crate::b::X;\n// crate::c in a comment\nfn f() {}\n#[cfg(test)]\nmod tests { use crate::d; }\n";
    assert_eq!(code(text), "use crate::b::X;\nfn f() {}\n");
    let graph: Graph = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &["a"][..]),
    ]
    .into_iter()
    .map(|(from, to)| {
        (
            from.to_owned(),
            to.iter().map(|t| (*t).to_owned()).collect(),
        )
    })
    .collect();
    assert_eq!(circles(&graph), [["a", "b", "c", "a"]]);
    let mut no_circle = graph.clone();
    no_circle.remove("c");
    assert!(circles(&no_circle).is_empty());
}
