//! The modules of the engine import each other in one direction only
//! (engine → job → context → store → record), so a change to a leaf never
//! needs the engine; and the engine knows no feature: each feature brings
//! its own jobs (its `jobs` module) and registers how to resume them. This
//! reads the modules' `use` lines and fails on a cycle or on a feature.

use std::collections::{BTreeMap, BTreeSet};

const SOURCES: [(&str, &str); 11] = [
    ("context", include_str!("context.rs")),
    ("engine", include_str!("engine.rs")),
    ("filter", include_str!("filter.rs")),
    ("job", include_str!("job.rs")),
    ("messages", include_str!("messages.rs")),
    ("mod", include_str!("mod.rs")),
    ("page_token", include_str!("page_token.rs")),
    ("proto_json", include_str!("proto_json.rs")),
    ("proto_schema", include_str!("proto_schema.rs")),
    ("record", include_str!("record.rs")),
    ("store", include_str!("store.rs")),
];

/// What of the rest of `backend` the engine may use: the database and the
/// instance's settings, nothing of a feature.
const ALLOWED_BACKEND: [&str; 2] = ["db", "settings"];

/// `source` without its tests.
fn code(source: &str) -> &str {
    source.split("#[cfg(test)]").next().unwrap_or(source)
}

/// The modules of `backend` outside the engine that `source` names
/// (`crate::backend::x`), tests left out.
fn backend_modules(source: &str) -> BTreeSet<String> {
    code(source)
        .split("crate::backend::")
        .skip(1)
        .map(|rest| {
            rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .filter(|module| module != "operations")
        .collect()
}

/// The sibling modules `source` imports (`use super::x`), tests left out.
fn imports(source: &str) -> BTreeSet<String> {
    code(source)
        .lines()
        .filter_map(|line| line.trim().strip_prefix("use super::"))
        .map(|rest| {
            rest.split([':', ';', ' ', '{'])
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .filter(|module| !module.is_empty() && module != "*")
        .collect()
}

#[test]
fn the_operations_modules_import_each_other_without_a_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, source) in SOURCES {
        graph
            .entry(name.to_owned())
            .or_default()
            .extend(imports(source));
    }
    // Depth-first search for a back edge.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(node) {
            return;
        }
        if let Some(start) = path.iter().position(|seen| seen == node) {
            panic!("import cycle: {} -> {node}", path[start..].join(" -> "));
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if next != node {
                visit(next, graph, path, done);
            }
        }
        path.pop();
        done.insert(node.to_owned());
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done);
    }
    assert!(graph["engine"].contains("job"), "the engine runs jobs");
    assert!(!graph["job"].contains("engine"), "a job never reaches back");
    assert!(!graph["context"].contains("engine"));
}

#[test]
fn the_engine_knows_no_feature() {
    for (name, source) in SOURCES {
        let named: Vec<String> = backend_modules(source)
            .into_iter()
            .filter(|module| !ALLOWED_BACKEND.contains(&module.as_str()))
            .collect();
        assert!(
            named.is_empty(),
            "operations::{name} uses {named:?}: a feature's jobs belong in its own folder"
        );
    }
}

#[test]
fn a_feature_named_by_the_engine_is_found() {
    let probe = "use crate::backend::backup::Backups;\nfn f() { crate::backend::settings::get(); }";
    assert_eq!(
        backend_modules(probe),
        BTreeSet::from(["backup".to_owned(), "settings".to_owned()])
    );
    assert!(backend_modules("#[cfg(test)]\nuse crate::backend::bank;").is_empty());
}
