//! A workbook's sheets as rows of cells, read with `calamine`, bounded
//! before anything is believed: an `.xlsx` file is a zip archive, so every
//! part is first unpacked with a cap (a "zip bomb" stops at the cap, not
//! in memory), and cells are streamed with their positions, so a sheet
//! that claims a cell at XFD1048576 costs nothing (calamine's whole-sheet
//! reader would allocate the full grid).

use std::io::{Cursor, Read};

use calamine::{DataRef, Reader, Xlsx};

use crate::domain::date::Date;

/// The largest workbook read.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// All parts of the archive unpacked, at most.
const MAX_UNPACKED: u64 = 100 * 1024 * 1024;
/// Parts in the archive, at most (a workbook has a few dozen).
const MAX_PARTS: usize = 1_000;
/// Rows read from a sheet (the heading included), at most.
pub const MAX_ROWS: usize = 10_001;
/// Columns read from a sheet, at most; cells to their right are ignored.
pub const MAX_COLUMNS: usize = 64;
/// Sheets listed, at most.
const MAX_SHEETS: usize = 64;
/// Longest text kept from a cell.
const MAX_TEXT: usize = 4_000;

/// A cell as Tally uses it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    Number(f64),
    Date(Date),
    Bool(bool),
}

impl Cell {
    /// The cell as a person reads it.
    pub fn text(&self) -> String {
        match self {
            Self::Empty => String::new(),
            Self::Text(text) => text.clone(),
            Self::Number(number) => {
                if number.fract() == 0.0 && number.abs() < 1e15 {
                    format!("{number:.0}")
                } else {
                    number.to_string()
                }
            }
            Self::Date(day) => day.to_string(),
            Self::Bool(true) => "TRUE".into(),
            Self::Bool(false) => "FALSE".into(),
        }
    }
}

/// One sheet: its rows, each padded to the same width.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    pub name: String,
    pub rows: Vec<Vec<Cell>>,
}

/// Checks the archive: at most [`MAX_PARTS`] parts, together at most
/// [`MAX_UNPACKED`] bytes when really unpacked.
fn check_archive(bytes: &[u8]) -> Result<(), String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|_| "the file is not an Excel workbook (.xlsx)".to_owned())?;
    if archive.len() > MAX_PARTS {
        return Err("the workbook has more parts than a spreadsheet has".into());
    }
    let mut unpacked = 0u64;
    let mut sink = std::io::sink();
    for index in 0..archive.len() {
        let part = archive
            .by_index(index)
            .map_err(|error| format!("the workbook is damaged ({error})"))?;
        let left = MAX_UNPACKED - unpacked;
        let read = std::io::copy(&mut part.take(left + 1), &mut sink)
            .map_err(|error| format!("the workbook is damaged ({error})"))?;
        unpacked += read;
        if unpacked > MAX_UNPACKED {
            return Err(format!(
                "the workbook unpacks to more than {} MB",
                MAX_UNPACKED / 1_000_000
            ));
        }
    }
    Ok(())
}

fn date_of(value: &calamine::ExcelDateTime) -> Option<Date> {
    if !value.is_datetime() || !(1.0..2_958_466.0).contains(&value.as_f64()) {
        return None;
    }
    let (year, month, day, ..) = value.to_ymd_hms_milli();
    Date::new(i32::from(year), month, day)
}

fn cell(value: &DataRef<'_>) -> Cell {
    let text = |text: &str| {
        let trimmed = text.trim();
        match trimmed.char_indices().nth(MAX_TEXT) {
            Some((end, _)) => Cell::Text(trimmed[..end].to_owned()),
            None if trimmed.is_empty() => Cell::Empty,
            None => Cell::Text(trimmed.to_owned()),
        }
    };
    match value {
        DataRef::Int(number) => Cell::Number(*number as f64),
        DataRef::Float(number) if number.is_finite() => Cell::Number(*number),
        DataRef::String(value) | DataRef::DateTimeIso(value) => text(value),
        DataRef::SharedString(value) => text(value),
        DataRef::Bool(value) => Cell::Bool(*value),
        DataRef::DateTime(value) => {
            date_of(value).map_or_else(|| Cell::Number(value.as_f64()), Cell::Date)
        }
        DataRef::Float(_) | DataRef::DurationIso(_) | DataRef::Error(_) | DataRef::Empty => {
            Cell::Empty
        }
    }
}

/// Every sheet of the workbook (up to the bounds), or why it cannot be
/// read. CPU work: call it on a blocking thread.
pub fn read(bytes: &[u8]) -> Result<Vec<Sheet>, String> {
    if bytes.len() > MAX_BYTES {
        return Err(format!(
            "the workbook is larger than {} MB",
            MAX_BYTES / 1_000_000
        ));
    }
    check_archive(bytes)?;
    let mut workbook: Xlsx<_> = Xlsx::new(Cursor::new(bytes))
        .map_err(|error| format!("the file is not an Excel workbook (.xlsx): {error}"))?;
    let names: Vec<String> = workbook
        .sheet_names()
        .into_iter()
        .take(MAX_SHEETS)
        .collect();
    let mut sheets = Vec::new();
    for name in names {
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut reader = workbook
            .worksheet_cells_reader(&name)
            .map_err(|error| format!("sheet {name:?} cannot be read: {error}"))?;
        let start = reader.dimensions().start;
        while let Some(found) = reader
            .next_cell()
            .map_err(|error| format!("sheet {name:?} cannot be read: {error}"))?
        {
            let (row, column) = found.get_position();
            let row = row.saturating_sub(start.0) as usize;
            let column = column as usize;
            if row >= MAX_ROWS {
                break;
            }
            if column >= MAX_COLUMNS {
                continue;
            }
            let value = cell(found.get_value());
            if value == Cell::Empty {
                continue;
            }
            if rows.len() <= row {
                rows.resize_with(row + 1, Vec::new);
            }
            let cells = &mut rows[row];
            if cells.len() <= column {
                cells.resize(column + 1, Cell::Empty);
            }
            cells[column] = value;
        }
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        for cells in &mut rows {
            cells.resize(width, Cell::Empty);
        }
        sheets.push(Sheet { name, rows });
    }
    Ok(sheets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

    fn workbook(build: impl FnOnce(&mut Workbook)) -> Vec<u8> {
        let mut book = Workbook::new();
        build(&mut book);
        book.save_to_buffer().unwrap()
    }

    #[test]
    fn text_numbers_dates_and_flags_read_as_cells() {
        let bytes = workbook(|book| {
            let sheet = book.add_worksheet().set_name("Bills").unwrap();
            sheet.write_string(0, 0, "Name").unwrap();
            sheet.write_string(0, 2, "Due").unwrap();
            sheet.write_string(1, 0, "  Rent ").unwrap();
            sheet.write_number(1, 1, 1500.5).unwrap();
            let day = ExcelDateTime::from_ymd(2026, 1, 31).unwrap();
            sheet
                .write_datetime_with_format(1, 2, &day, &Format::new().set_num_format("yyyy-mm-dd"))
                .unwrap();
            sheet.write_boolean(2, 3, true).unwrap();
        });
        let sheets = read(&bytes).unwrap();
        assert_eq!(sheets.len(), 1);
        let rows = &sheets[0].rows;
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][0], Cell::Text("Name".into()));
        assert_eq!(rows[0][1], Cell::Empty);
        assert_eq!(rows[1][0], Cell::Text("Rent".into()));
        assert_eq!(rows[1][1], Cell::Number(1500.5));
        assert_eq!(rows[1][2], Cell::Date(Date::new(2026, 1, 31).unwrap()));
        assert_eq!(rows[2][3], Cell::Bool(true));
        assert!(rows.iter().all(|row| row.len() == 4));
        assert_eq!(Cell::Number(12.0).text(), "12");
        assert_eq!(Cell::Number(12.5).text(), "12.5");
    }

    #[test]
    fn a_far_away_cell_costs_nothing_and_rows_stop_at_the_bound() {
        let bytes = workbook(|book| {
            let sheet = book.add_worksheet();
            sheet.write_string(0, 0, "Name").unwrap();
            sheet.write_string(1_048_575, 16_383, "far").unwrap();
            sheet.write_string(5, 100, "wide").unwrap();
        });
        let sheets = read(&bytes).unwrap();
        assert_eq!(
            sheets[0].rows.len(),
            1,
            "the far cell is past the rows read"
        );
        assert_eq!(sheets[0].rows[0].len(), 1);
    }

    #[test]
    fn what_is_not_a_workbook_is_refused() {
        assert!(read(b"Name,Amount\nRent,1500\n")
            .unwrap_err()
            .contains("not an Excel workbook"));
        assert!(read(&[0x50, 0x4b, 0x03, 0x04, 0, 0]).is_err());
        assert!(read(&vec![0; MAX_BYTES + 1])
            .unwrap_err()
            .contains("larger"));
    }

    #[test]
    fn an_archive_that_unpacks_past_the_cap_is_refused() {
        use std::io::Write;
        let mut buffer = Cursor::new(Vec::new());
        {
            let mut zip = zip::ZipWriter::new(&mut buffer);
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            zip.start_file("xl/sharedStrings.xml", options).unwrap();
            let block = vec![b'a'; 1024 * 1024];
            for _ in 0..101 {
                zip.write_all(&block).unwrap();
            }
            zip.finish().unwrap();
        }
        let bytes = buffer.into_inner();
        assert!(bytes.len() < MAX_BYTES, "{}", bytes.len());
        assert!(read(&bytes).unwrap_err().contains("unpacks to more than"));
    }
}
