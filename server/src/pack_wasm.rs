//! `tally pack-wasm`: each area's WASM files of the split bundle written
//! one after another into one file, so a page's first load fetches one
//! answer instead of about fifteen (`app::backend::wasm_packs` says why and
//! serves them). Run after `cargo leptos build --release --split`; the
//! build scripts do.
//!
//! In a pack each file loses its custom sections (the toolchain's
//! `producers` and `target_features` notes, which nothing reads when a
//! module is instantiated), and the files go largest first: measured on
//! the Tracker's pack, 0.4 KB and 0.2 KB less with brotli.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

use app::backend::wasm_packs::{safe_name, Pack, PackIndex, INDEX_FILE};
use sha2::{Digest, Sha256};

/// What was written for one area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackReport {
    pub area: String,
    pub file: String,
    pub parts: usize,
    pub bytes: u64,
    pub brotli: u64,
    /// The area's files' own `.br` twins added up, when each has one.
    pub brotli_separately: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not the splitter's manifest: {source}")]
    Manifest {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("the manifest names {name:?} for {area}, which is not a bundle file name")]
    Name { area: String, name: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackError + '_ {
    move |source| PackError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The splitter's manifest of the build in `pkg`: named with its hash when
/// the build hashes names (`hash_file` holds `manifest: <hash>`).
pub fn manifest_path(pkg: &Path, hash_file: Option<&Path>) -> Result<PathBuf, PackError> {
    let Some(hash_file) = hash_file else {
        return Ok(pkg.join("__wasm_split_manifest.json"));
    };
    let hashes = std::fs::read_to_string(hash_file).map_err(io(hash_file))?;
    let hash = crate::config::recorded_hash(&hashes, "manifest").ok_or_else(|| PackError::Io {
        path: hash_file.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no `manifest:` line (was the build made with --split?)",
        ),
    })?;
    Ok(pkg.join(format!("__wasm_split_manifest.{hash}.json")))
}

/// Writes a pack (with `.br` and `.gz` twins) for every area of the
/// manifest, then the index; packs of earlier builds are removed.
pub fn pack(pkg: &Path, manifest: &Path) -> Result<Vec<PackReport>, PackError> {
    let text = std::fs::read(manifest).map_err(io(manifest))?;
    let areas: BTreeMap<String, Vec<String>> =
        serde_json::from_slice(&text).map_err(|source| PackError::Manifest {
            path: manifest.to_path_buf(),
            source,
        })?;
    for (area, names) in &areas {
        if let Some(name) = std::iter::once(area)
            .chain(names)
            .find(|name| !safe_name(name))
        {
            return Err(PackError::Name {
                area: area.clone(),
                name: name.clone(),
            });
        }
    }
    // One area per thread: brotli's best setting is the slow part.
    let built: Vec<Result<(String, Pack, PackReport), PackError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = areas
            .iter()
            .map(|(area, names)| scope.spawn(move || pack_area(pkg, area, names)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| {
                    Err(PackError::Io {
                        path: pkg.to_path_buf(),
                        source: std::io::Error::other("packing an area panicked"),
                    })
                })
            })
            .collect()
    });
    let mut index = PackIndex::new();
    let mut reports = Vec::new();
    for result in built {
        let (area, pack, report) = result?;
        index.insert(area, pack);
        reports.push(report);
    }
    remove_stale(pkg, &index)?;
    let json = serde_json::to_vec_pretty(&index).map_err(|source| PackError::Manifest {
        path: manifest.to_path_buf(),
        source,
    })?;
    let index_path = pkg.join(INDEX_FILE);
    let temporary = pkg.join(format!("{INDEX_FILE}.tmp"));
    std::fs::write(&temporary, json).map_err(io(&temporary))?;
    std::fs::rename(&temporary, &index_path).map_err(io(&index_path))?;
    Ok(reports)
}

fn pack_area(
    pkg: &Path,
    area: &str,
    names: &[String],
) -> Result<(String, Pack, PackReport), PackError> {
    let mut files = Vec::with_capacity(names.len());
    let mut separately = Some(0u64);
    for name in names {
        let path = pkg.join(format!("{name}.wasm"));
        let file = std::fs::read(&path).map_err(io(&path))?;
        files.push((name, without_custom_sections(file)));
        let twin = pkg.join(format!("{name}.wasm.br"));
        separately = separately
            .zip(std::fs::metadata(twin).ok())
            .map(|(sum, twin)| sum + twin.len());
    }
    files.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(b.0)));
    let mut bytes = Vec::new();
    let mut parts = Vec::with_capacity(files.len());
    for (name, file) in files {
        parts.push((name.clone(), file.len() as u64));
        bytes.extend_from_slice(&file);
    }
    let digest = Sha256::digest(&bytes);
    let hash: String = digest[..12]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let file = format!("area_{area}.{hash}.bin");
    let brotli = brotli_bytes(&bytes);
    let gzip = gzip_bytes(&bytes).map_err(io(pkg))?;
    for (name, content) in [
        (file.clone(), &bytes),
        (format!("{file}.br"), &brotli),
        (format!("{file}.gz"), &gzip),
    ] {
        let path = pkg.join(name);
        std::fs::write(&path, content).map_err(io(&path))?;
    }
    let report = PackReport {
        area: area.to_owned(),
        file: file.clone(),
        parts: parts.len(),
        bytes: bytes.len() as u64,
        brotli: brotli.len() as u64,
        brotli_separately: separately,
    };
    Ok((area.to_owned(), Pack { file, parts }, report))
}

/// `module` without its custom sections (id 0). Anything that does not
/// read as a WebAssembly module is kept whole.
fn without_custom_sections(module: Vec<u8>) -> Vec<u8> {
    const HEADER: usize = 8;
    if module.len() < HEADER || &module[..4] != b"\0asm" {
        return module;
    }
    let mut kept = module[..HEADER].to_vec();
    let mut at = HEADER;
    while at < module.len() {
        let start = at;
        let id = module[at];
        let Some((length, body)) = leb128(&module, at + 1) else {
            return module;
        };
        let Some(end) = body.checked_add(length).filter(|end| *end <= module.len()) else {
            return module;
        };
        if id != 0 {
            kept.extend_from_slice(&module[start..end]);
        }
        at = end;
    }
    kept
}

/// An unsigned LEB128 number at `at`: its value and where it ends.
fn leb128(bytes: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let mut value: usize = 0;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(at)?;
        at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some((value, at));
        }
    }
    None
}

/// Brotli at its best, with a window that holds a whole pack.
fn brotli_bytes(bytes: &[u8]) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 24,
        size_hint: bytes.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(bytes.len() / 3);
    let mut reader = bytes;
    // Reading a slice and writing a Vec cannot fail.
    let _ = brotli::BrotliCompress(&mut reader, &mut out, &params);
    out
}

fn gzip_bytes(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    encoder.finish()
}

/// Removes `area_*.bin` files (and twins) that the new index does not name.
fn remove_stale(pkg: &Path, index: &PackIndex) -> Result<(), PackError> {
    let keep: HashMap<&str, ()> = index
        .values()
        .map(|pack| (pack.file.as_str(), ()))
        .collect();
    for entry in std::fs::read_dir(pkg).map_err(io(pkg))? {
        let entry = entry.map_err(io(pkg))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(base) = ["", ".br", ".gz"].iter().find_map(|suffix| {
            name.strip_suffix(suffix)
                .filter(|base| base.ends_with(".bin"))
        }) else {
            continue;
        };
        if name.starts_with("area_") && !keep.contains_key(base) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn write(dir: &Path, name: &str, bytes: &[u8]) {
        std::fs::write(dir.join(name), bytes).expect("write");
    }

    fn build(dir: &Path) {
        write(dir, "chunk_1.AA.wasm", b"\0asm shared by both areas");
        write(dir, "chunk_1.AA.wasm.br", b"123456");
        write(dir, "split_tracker.BB.wasm", b"\0asm the tracker");
        write(dir, "split_tracker.BB.wasm.br", b"1234");
        write(dir, "split_bills.CC.wasm", b"\0asm the bills");
        write(
            dir,
            "__wasm_split_manifest.json",
            br#"{"tracker":["chunk_1.AA","split_tracker.BB"],"bills":["chunk_1.AA","split_bills.CC"]}"#,
        );
    }

    #[test]
    fn each_area_is_its_files_in_order_with_an_index() {
        let dir = tempfile::tempdir().expect("tempdir");
        build(dir.path());
        let manifest = manifest_path(dir.path(), None).expect("manifest");
        let reports = pack(dir.path(), &manifest).expect("pack");
        assert_eq!(
            reports
                .iter()
                .map(|r| (r.area.as_str(), r.parts))
                .collect::<Vec<_>>(),
            [("bills", 2), ("tracker", 2)]
        );
        let index: PackIndex =
            serde_json::from_slice(&std::fs::read(dir.path().join(INDEX_FILE)).expect("index"))
                .expect("json");
        let tracker = &index["tracker"];
        // Largest first.
        assert_eq!(
            tracker.parts,
            [
                ("chunk_1.AA".to_owned(), 25),
                ("split_tracker.BB".to_owned(), 16)
            ]
        );
        let whole = std::fs::read(dir.path().join(&tracker.file)).expect("pack");
        assert_eq!(whole, b"\0asm shared by both areas\0asm the tracker");
        let bills = &index["bills"];
        assert_eq!(
            bills.parts,
            [
                ("chunk_1.AA".to_owned(), 25),
                ("split_bills.CC".to_owned(), 14)
            ]
        );
        // The twins hold the same bytes.
        let mut unbrotli = Vec::new();
        brotli::Decompressor::new(
            std::fs::File::open(dir.path().join(format!("{}.br", tracker.file))).expect("br"),
            4096,
        )
        .read_to_end(&mut unbrotli)
        .expect("brotli");
        assert_eq!(unbrotli, whole);
        let mut ungzip = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(dir.path().join(format!("{}.gz", tracker.file))).expect("gz"),
        )
        .read_to_end(&mut ungzip)
        .expect("gzip");
        assert_eq!(ungzip, whole);
        let report = reports
            .iter()
            .find(|r| r.area == "tracker")
            .expect("report");
        assert_eq!(report.brotli_separately, Some(10));
        // Bills' module has no `.br` twin, so there is no sum to compare.
        let bills = reports.iter().find(|r| r.area == "bills").expect("report");
        assert_eq!(bills.brotli_separately, None);
    }

    /// A module of a type section and two custom sections.
    fn module_with_custom_sections() -> Vec<u8> {
        let mut module = b"\0asm\x01\0\0\0".to_vec();
        module.extend_from_slice(b"\0\x0a\x09producers"); // custom, 10 bytes
        module.extend_from_slice(b"\x01\x04\x01\x60\0\0"); // type: () -> ()
        module.extend_from_slice(b"\0\x03\x02ab"); // custom "ab", 3 bytes
        module
    }

    #[test]
    fn custom_sections_are_left_out_of_a_pack() {
        assert_eq!(
            without_custom_sections(module_with_custom_sections()),
            b"\0asm\x01\0\0\0\x01\x04\x01\x60\0\0"
        );
        // What does not read as a module is kept as it is.
        for odd in [b"not wasm".to_vec(), b"\0asm\x01\0\0\0\x01\x7f".to_vec()] {
            assert_eq!(without_custom_sections(odd.clone()), odd);
        }
    }

    #[test]
    fn a_rebuild_replaces_the_packs_of_the_build_before() {
        let dir = tempfile::tempdir().expect("tempdir");
        build(dir.path());
        let manifest = manifest_path(dir.path(), None).expect("manifest");
        let before = pack(dir.path(), &manifest).expect("pack");
        write(
            dir.path(),
            "split_tracker.BB.wasm",
            b"\0asm the tracker, changed",
        );
        write(dir.path(), "area_other.keep", b"not a pack");
        let after = pack(dir.path(), &manifest).expect("pack");
        let old = &before
            .iter()
            .find(|r| r.area == "tracker")
            .expect("tracker")
            .file;
        let new = &after
            .iter()
            .find(|r| r.area == "tracker")
            .expect("tracker")
            .file;
        assert_ne!(old, new, "the name follows the content");
        for suffix in ["", ".br", ".gz"] {
            assert!(!dir.path().join(format!("{old}{suffix}")).exists());
            assert!(dir.path().join(format!("{new}{suffix}")).exists());
        }
        assert!(dir.path().join("area_other.keep").exists());
        // The bills' pack did not change and is still there.
        let bills = &after
            .iter()
            .find(|r| r.area == "bills")
            .expect("bills")
            .file;
        assert!(dir.path().join(bills).exists());
    }

    #[test]
    fn the_hashed_manifest_is_found_through_the_hash_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let hash_file = dir.path().join("hash.txt");
        write(dir.path(), "hash.txt", b"js: a\nmanifest: 37oh\nsplit: b\n");
        assert_eq!(
            manifest_path(Path::new("/site/pkg"), Some(&hash_file)).expect("path"),
            Path::new("/site/pkg/__wasm_split_manifest.37oh.json")
        );
        write(dir.path(), "hash.txt", b"js: a\n");
        assert!(manifest_path(Path::new("/site/pkg"), Some(&hash_file)).is_err());
    }

    #[test]
    fn a_missing_file_or_a_strange_name_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        build(dir.path());
        std::fs::remove_file(dir.path().join("split_bills.CC.wasm")).expect("remove");
        let manifest = manifest_path(dir.path(), None).expect("manifest");
        let error = pack(dir.path(), &manifest)
            .expect_err("missing file")
            .to_string();
        assert!(error.contains("split_bills.CC.wasm"), "{error}");
        write(
            dir.path(),
            "__wasm_split_manifest.json",
            br#"{"tracker":["../../etc/passwd"]}"#,
        );
        let error = pack(dir.path(), &manifest)
            .expect_err("bad name")
            .to_string();
        assert!(error.contains("../../etc/passwd"), "{error}");
        assert!(!dir.path().join(INDEX_FILE).exists());
    }
}
