//! The modules of the engine import each other in one direction only
//! (engine → job → kinds → context → store → record), so a change to a
//! leaf never needs the engine. This reads the `use super::…` lines of each
//! module and fails on a cycle.

use std::collections::{BTreeMap, BTreeSet};

const SOURCES: [(&str, &str); 13] = [
    ("context", include_str!("context.rs")),
    ("engine", include_str!("engine.rs")),
    ("filter", include_str!("filter.rs")),
    ("job", include_str!("job.rs")),
    ("page_token", include_str!("page_token.rs")),
    ("proto_json", include_str!("proto_json.rs")),
    ("record", include_str!("record.rs")),
    ("store", include_str!("store.rs")),
    ("kinds", include_str!("kinds/mod.rs")),
    ("kinds::backup", include_str!("kinds/backup.rs")),
    (
        "kinds::reencrypt_secrets",
        include_str!("kinds/reencrypt_secrets.rs"),
    ),
    (
        "kinds::restore_check",
        include_str!("kinds/restore_check.rs"),
    ),
    ("kinds::sleep", include_str!("kinds/sleep.rs")),
];

/// The sibling modules `source` imports (`use super::x` from the top
/// level, `use super::super::x` from a kind), tests left out.
fn imports(name: &str, source: &str) -> BTreeSet<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or(source);
    let prefix = if name.starts_with("kinds::") {
        "use super::super::"
    } else {
        "use super::"
    };
    code.lines()
        .filter_map(|line| line.trim().strip_prefix(prefix))
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
        // A kind counts as part of `kinds`.
        let node = if name.starts_with("kinds::") {
            "kinds"
        } else {
            name
        };
        graph
            .entry(node.to_owned())
            .or_default()
            .extend(imports(name, source));
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
