//! Each server function asks its own declaration who may call it
//! (`signed_in::as_declared::<ItsType>()`), checked on the sources: none
//! looks the signed-in user up without asking, and the type a function
//! names is the one `#[server]` makes of its name, so no function can
//! borrow another's (laxer) declaration by a slip.

use std::path::Path;

/// `get_kept_sheets` → `GetKeptSheets`, as `#[server]` names the type.
fn type_of(function: &str) -> String {
    function
        .split('_')
        .map(|word| {
            let mut letters = word.chars();
            letters
                .next()
                .map(|first| first.to_uppercase().chain(letters).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// Every server function in `text` with the types its body asks about,
/// and whether it also looks the user up without asking.
fn asked(text: &str) -> Vec<(String, Vec<String>, bool)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("#[server(prefix") {
        let rest = &text[at..];
        let Some(name_at) = rest.find("pub async fn ") else {
            continue;
        };
        let named = &rest[name_at + "pub async fn ".len()..];
        let name: String = named
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let body = &named[..named.find("\n}\n").unwrap_or(named.len())];
        let types = body
            .match_indices("as_declared::<")
            .map(|(at, marker)| {
                body[at + marker.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect()
            })
            .collect();
        let unasked = body.contains("signed_in::signed_in()");
        found.push((name, types, unasked));
    }
    found
}

#[test]
fn a_function_is_named_as_its_server_type() {
    assert_eq!(type_of("get_kept_sheets"), "GetKeptSheets");
    assert_eq!(type_of("tracker_act"), "TrackerAct");
}

#[test]
fn every_server_function_asks_its_own_declaration() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("app/src/api").flatten() {
        let text = std::fs::read_to_string(entry.path()).expect("a source file");
        for (function, types, unasked) in asked(&text) {
            assert!(
                !unasked,
                "{function} in {} looks the user up without asking its declaration",
                entry.path().display()
            );
            for named in types {
                assert_eq!(
                    named,
                    type_of(&function),
                    "{function} in {} asks about another function's declaration",
                    entry.path().display()
                );
                checked += 1;
            }
        }
    }
    // Most server functions serve a signed-in person; if none asked, the
    // check above would have nothing to hold.
    assert!(
        checked > 90,
        "only {checked} functions ask their declaration"
    );
}

#[test]
fn a_borrowed_declaration_is_found() {
    let text = "#[server(prefix = \"/api/fn\", endpoint = \"x\")]\n\
                pub async fn delete_all() -> Result<(), E> {\n    \
                let me = as_declared::<GetBills>().await?;\n    \
                let again = signed_in::signed_in().await?;\n}\n";
    assert_eq!(
        asked(text),
        vec![("delete_all".to_owned(), vec!["GetBills".to_owned()], true)]
    );
}
