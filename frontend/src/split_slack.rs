//! Room for the WASM splitter to give each lazy area its own data.
//!
//! `cargo leptos build --split` moves each area's constant data (its page
//! text, its templates) into that area's module, packing every module's
//! part of the read-only data segment one after another. Alignment padding
//! between those parts makes the packed segment a few hundred bytes longer
//! than the linker's, and then the splitter keeps the whole segment in the
//! main module: every page's text is downloaded on every first visit.
//!
//! This block sits in that segment, referenced by nothing, so the splitter
//! leaves it out and its bytes absorb the padding. It is never read and
//! never reaches the browser (the split modules are written without it).
//! `bundle_budget.spec.ts` fails if the data falls back into the main
//! module again.

/// Read-only (so in the same segment as the page text) and kept by the
/// linker although unused. Not zeros, so it is never moved to `.bss`.
#[used]
static SLACK: [u8; SLACK_BYTES] = [0x5a; SLACK_BYTES];

/// Comfortably more than the padding (221 bytes when this was written).
const SLACK_BYTES: usize = 4096;
