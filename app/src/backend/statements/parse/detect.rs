//! Which format a file is, by what it says first and only then by its name:
//! banks name files loosely (`.txt`, `.dat`, `.xml` for OFX 2), while each
//! format announces itself in its first lines.

use super::{actual_csv, charset, firefly, Format};

/// How much of the start of a file is looked at: OFX and QIF announce
/// themselves in their first line, CAMT in its root element.
const HEAD_BYTES: usize = 64 * 1024;

/// The format by content (OFX header `OFXHEADER:` or `<OFX>`/`<?OFX`, QIF
/// `!Type:`/`!Account`/`!Option`, CAMT `<Document` with a `camt.053`
/// namespace or `<BkToCstmrStmt>`, the CSV header of Firefly III's or
/// Actual's export), falling back to the file name's extension (.ofx .qfx
/// .qif .xml). `.csv` alone says nothing: any app writes it.
pub fn detect(bytes: &[u8], file_name: Option<&str>) -> Option<Format> {
    by_content(bytes).or_else(|| file_name.and_then(by_extension))
}

fn by_content(bytes: &[u8]) -> Option<Format> {
    let head = bytes.get(..HEAD_BYTES).unwrap_or(bytes);
    let text = charset::decode(head);
    // The CSV exports first, as their header is the whole first line, while
    // OFX is looked for anywhere in the head (where a CSV's notes could
    // mention it).
    let header: Vec<&str> = text
        .trim_start()
        .lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .map(|name| name.trim().trim_matches('"'))
        .collect();
    if firefly::is_header(&header) {
        return Some(Format::FireflyCsv);
    }
    if actual_csv::is_header(&header) {
        return Some(Format::ActualCsv);
    }
    let start = text.trim_start().to_ascii_uppercase();
    let start = start.as_str();
    if ["!TYPE:", "!ACCOUNT", "!OPTION"]
        .iter()
        .any(|mark| start.starts_with(mark))
    {
        return Some(Format::Qif);
    }
    if start.starts_with("OFXHEADER:") || start.contains("<OFX>") || start.contains("<?OFX") {
        return Some(Format::Ofx);
    }
    let camt_document = start.contains("<DOCUMENT") && start.contains("CAMT.053");
    if camt_document || start.contains("BKTOCSTMRSTMT>") {
        return Some(Format::Camt053);
    }
    None
}

fn by_extension(file_name: &str) -> Option<Format> {
    let (_, extension) = file_name.trim().rsplit_once('.')?;
    match extension.to_ascii_lowercase().as_str() {
        "ofx" | "qfx" => Some(Format::Ofx),
        "qif" => Some(Format::Qif),
        "xml" => Some(Format::Camt053),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_decides_before_the_name() {
        let ofx1 = b"OFXHEADER:100\r\nDATA:OFXSGML\r\n\r\n<OFX>";
        assert_eq!(detect(ofx1, Some("export.qif")), Some(Format::Ofx));
        let ofx2 = b"<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?><OFX>";
        assert_eq!(detect(ofx2, Some("statement.xml")), Some(Format::Ofx));
        assert_eq!(detect(b"\n!Type:Bank\nD1/2/24", None), Some(Format::Qif));
        assert_eq!(detect(b"!Account\nNChecking", None), Some(Format::Qif));
        assert_eq!(detect(b"!option:AutoSwitch", None), Some(Format::Qif));
        let camt = br#"<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">"#;
        assert_eq!(detect(camt, None), Some(Format::Camt053));
        assert_eq!(
            detect(b"<x:Document><x:BkToCstmrStmt>", None),
            Some(Format::Camt053)
        );
    }

    #[test]
    fn csv_exports_are_known_by_their_header() {
        let firefly = include_bytes!(
            "../../../../../server/tests/fixtures/other_apps/firefly_transactions.csv"
        );
        assert_eq!(
            detect(firefly, Some("2026_01_20_transaction_export.csv")),
            Some(Format::FireflyCsv)
        );
        assert_eq!(
            detect(
                b"user_id,group_id,journal_id,type
",
                Some("a.qif")
            ),
            Some(Format::FireflyCsv)
        );
        let actual = include_bytes!(
            "../../../../../server/tests/fixtures/other_apps/actual_transactions.csv"
        );
        assert_eq!(
            detect(actual, Some("Checking.csv")),
            Some(Format::ActualCsv)
        );
        let api = b"\xef\xbb\xbfAccount,Date,Payee,Notes,Category,Amount,Cleared,Reconciled\n";
        assert_eq!(detect(api, None), Some(Format::ActualCsv));
        let before_26_3 = b"Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared\n";
        assert_eq!(detect(before_26_3, None), Some(Format::ActualCsv));
        // A note that mentions <OFX> does not make the export OFX.
        let noted = b"Account,Date,Payee,Notes,Amount\nA,2026-01-01,P,see <OFX>,1\n";
        assert_eq!(detect(noted, None), Some(Format::ActualCsv));
        // Other CSV files, Firefly's bills among them, are none of these.
        let bills =
            include_bytes!("../../../../../server/tests/fixtures/other_apps/firefly_bills.csv");
        assert_eq!(detect(bills, Some("bills.csv")), None);
        let wallos = include_bytes!("../../../../../server/tests/fixtures/other_apps/wallos.csv");
        assert_eq!(detect(wallos, Some("subscriptions.csv")), None);
        assert_eq!(detect(b"Date,Payee,Amount\n", Some("a.csv")), None);
        assert_eq!(detect(b"Account,Date,Payee,Notes\n", Some("a.csv")), None);
    }

    #[test]
    fn the_name_decides_when_the_content_cannot() {
        assert_eq!(detect(b"", Some("Statement.QFX")), Some(Format::Ofx));
        assert_eq!(detect(b"??", Some("a.qif")), Some(Format::Qif));
        assert_eq!(detect(b"<a/>", Some("a.xml")), Some(Format::Camt053));
        assert_eq!(detect(b"<a/>", Some("a.csv")), None);
        assert_eq!(detect(b"", Some("export.CSV")), None);
        assert_eq!(detect(b"\xff\xfe\x00", None), None);
        let camt052 = br#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02">"#;
        assert_eq!(detect(camt052, None), None);
    }
}
