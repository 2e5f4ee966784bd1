//! Each area's WASM files of the split bundle, downloaded as one answer.
//!
//! `cargo leptos build --split` gives each area of the app
//! (`pages::split_route!`) a module, and the code areas share chunks of
//! their own: the Tracker opened first fetched its module and 13 chunks,
//! each compressed alone, 26 KB (brotli) more than the same bytes
//! compressed as one stream. `tally pack-wasm`, run after the build, writes
//! each area's files one after another into `pkg/area_<area>.<hash>.bin`
//! (with `.br` and `.gz` twins) and lists them in `pkg/wasm_packs.json`.
//! A page showing an area then preloads that one file, and a small script
//! (`wasm_pack_loader.js`) hands the splitter's loader each file cut from
//! it. Files fetched later (another area, after a navigation) come one by
//! one as before.
//!
//! Without an index (a development build) or where it does not match the
//! manifest the page is served with (a build not followed by `pack-wasm`),
//! the page preloads the area's files as Leptos does.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// The index's name under `pkg/`.
pub const INDEX_FILE: &str = "wasm_packs.json";

/// The loader, called with the pack's address and its parts.
const LOADER: &str = include_str!("wasm_pack_loader.js");

/// One area's pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    /// The pack's file name under `pkg/`.
    pub file: String,
    /// Its files in the order they are packed: each the splitter's name
    /// for it (without `.wasm`, as in its manifest) and its length in the
    /// pack in bytes.
    pub parts: Vec<(String, u64)>,
}

/// The packs of one build, by area, as `pkg/wasm_packs.json` holds them.
pub type PackIndex = BTreeMap<String, Pack>;

/// The packs this server hands out, read once at start.
#[derive(Debug, Clone, Default)]
pub struct WasmPacks(Arc<PackIndex>);

impl WasmPacks {
    /// Reads `pkg_dir/wasm_packs.json`. No index is no packs; an index
    /// that cannot be read is no packs too, said in the log, because pages
    /// still work without them.
    pub fn load(pkg_dir: &Path) -> Self {
        let path = pkg_dir.join(INDEX_FILE);
        let index = match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<PackIndex>(&bytes) {
                Ok(index) => index,
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "WASM pack index ignored");
                    PackIndex::new()
                }
            },
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => PackIndex::new(),
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "WASM pack index ignored");
                PackIndex::new()
            }
        };
        Self(Arc::new(index))
    }

    pub fn from_index(index: PackIndex) -> Self {
        Self(Arc::new(index))
    }

    /// The pack for `area` when it holds exactly the files the manifest
    /// lists for it, each with a name safe to write into a script.
    pub fn usable(&self, area: &str, manifest: &HashMap<String, Vec<String>>) -> Option<&Pack> {
        let pack = self.0.get(area)?;
        let mut packed: Vec<&str> = pack.parts.iter().map(|(name, _)| name.as_str()).collect();
        let mut listed: Vec<&str> = manifest.get(area)?.iter().map(String::as_str).collect();
        packed.sort_unstable();
        listed.sort_unstable();
        (packed == listed && safe_name(&pack.file) && packed.iter().all(|name| safe_name(name)))
            .then_some(pack)
    }
}

/// Letters, digits, `.`, `_` and `-`: what the splitter and cargo-leptos
/// name files with, and nothing that could end a `<script>`.
pub fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The script that serves `pack`'s files, for a page whose bundle is at
/// `pkg_path` (such as `/pkg`).
pub fn loader_script(pkg_path: &str, pack: &Pack) -> String {
    let parts: Vec<(String, u64)> = pack
        .parts
        .iter()
        .map(|(name, length)| (format!("{pkg_path}/{name}.wasm"), *length))
        .collect();
    let address = serde_json::Value::String(format!("{pkg_path}/{}", pack.file));
    let parts = serde_json::to_string(&parts).unwrap_or_else(|_| "[]".to_owned());
    let code: Vec<&str> = LOADER
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect();
    format!("{}({address}, {parts});", code.join("\n"))
}

/// Asks the page being rendered to preload `area`'s WASM: its pack and the
/// loader when this server has a usable one, the area's files otherwise.
pub fn preload(area: &'static str) {
    use leptos::prelude::*;
    use leptos_meta::{Link, Script};

    let packs = use_context::<WasmPacks>();
    let manifest = use_context::<leptos::WasmSplitManifest>();
    let chosen = packs.zip(manifest).and_then(|(packs, manifest)| {
        let manifest = manifest.0.try_read_value()?;
        let (pkg_path, files, split_js) = &*manifest;
        let pack = packs.usable(area, files)?;
        Some((
            format!("{pkg_path}/{}", pack.file),
            format!("{pkg_path}/{split_js}"),
            loader_script(pkg_path, pack),
        ))
    });
    let Some((pack_url, split_js, script)) = chosen else {
        leptos::prefetch_lazy_fn_on_server(area);
        return;
    };
    // As Leptos does for the area's files: rendered for the side effect of
    // registering each tag with the page's <head>. `Script` takes the
    // page's nonce itself.
    _ = view! {
        <Link rel="preload" href=pack_url as_="fetch" crossorigin="anonymous"/>
        <Link rel="modulepreload" href=split_js crossorigin="anonymous"/>
        <Script>{script}</Script>
    }
    .to_html();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack() -> Pack {
        Pack {
            file: "area_tracker.abc.bin".into(),
            parts: vec![("chunk_9.X1".into(), 10), ("split_tracker.Y2".into(), 20)],
        }
    }

    fn manifest(files: &[&str]) -> HashMap<String, Vec<String>> {
        HashMap::from([(
            "tracker".to_owned(),
            files.iter().map(|f| (*f).to_owned()).collect(),
        )])
    }

    #[test]
    fn a_pack_is_used_only_when_it_matches_the_manifest() {
        let packs = WasmPacks::from_index(PackIndex::from([("tracker".to_owned(), pack())]));
        assert_eq!(
            packs.usable("tracker", &manifest(&["chunk_9.X1", "split_tracker.Y2"])),
            Some(&pack())
        );
        // The order of the pack is its own.
        assert_eq!(
            packs.usable("tracker", &manifest(&["split_tracker.Y2", "chunk_9.X1"])),
            Some(&pack())
        );
        // Another build's files, a file missing or added.
        for stale in [
            &["chunk_9.X0", "split_tracker.Y2"][..],
            &["split_tracker.Y2"],
            &["chunk_9.X1", "chunk_10.Z", "split_tracker.Y2"],
        ] {
            assert_eq!(packs.usable("tracker", &manifest(stale)), None, "{stale:?}");
        }
        assert_eq!(packs.usable("bills", &manifest(&["chunk_9.X1"])), None);
    }

    #[test]
    fn a_name_that_could_leave_the_script_is_refused() {
        let mut bad = pack();
        bad.parts[0].0 = "x</script><script>alert(1)".into();
        let packs = WasmPacks::from_index(PackIndex::from([("tracker".to_owned(), bad)]));
        let listed = manifest(&["x</script><script>alert(1)", "split_tracker.Y2"]);
        assert_eq!(packs.usable("tracker", &listed), None);
    }

    #[test]
    fn the_script_lists_each_file_by_its_path_and_length() {
        let script = loader_script("/pkg", &pack());
        assert!(
            script.starts_with("((pack, parts) => {"),
            "comments left out"
        );
        assert!(script.ends_with(
            r#"})("/pkg/area_tracker.abc.bin", [["/pkg/chunk_9.X1.wasm",10],["/pkg/split_tracker.Y2.wasm",20]]);"#
        ));
        assert!(!script.contains('<'), "nothing may end the <script> early");
    }

    #[test]
    fn a_missing_or_broken_index_is_no_packs() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(WasmPacks::load(dir.path()).0.is_empty());
        std::fs::write(dir.path().join(INDEX_FILE), b"{not json").expect("write");
        assert!(WasmPacks::load(dir.path()).0.is_empty());
        let index = PackIndex::from([("tracker".to_owned(), pack())]);
        std::fs::write(
            dir.path().join(INDEX_FILE),
            serde_json::to_vec(&index).expect("json"),
        )
        .expect("write");
        assert_eq!(*WasmPacks::load(dir.path()).0, index);
    }
}
