//! Hand-made runs for the hostile tests: the fixture's files, altered, written as a pack
//! (through the lib's encoder, which checks only names and sizes: a hostile pack need not
//! come from `contention pack`) or as a folder.

use std::path::{Path, PathBuf};

/// The fixture run's files, manifest first, then the CSVs by name.
pub fn fixture_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(super::fixture())
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            (path.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort_by_key(|(name, _)| (name != "manifest.json", name.clone()));
    files
}

/// The text of `name` in `files`, to change.
pub fn file_mut<'a>(files: &'a mut [(String, String)], name: &str) -> &'a mut String {
    &mut files.iter_mut().find(|(file, _)| file == name).unwrap_or_else(|| panic!("no {name}")).1
}

/// Sets `column` of the data row on `line` (line 1 is the header) of CSV `text`.
pub fn set_cell(text: &str, line: usize, column: &str, value: &str) -> String {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let index = headers.iter().position(|header| header == column).unwrap_or_else(|| panic!("no column {column}"));
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).unwrap();
    for (row, record) in reader.records().enumerate() {
        let record = record.unwrap();
        let cells: Vec<&str> = record
            .iter()
            .enumerate()
            .map(|(i, cell)| if row + 2 == line && i == index { value } else { cell })
            .collect();
        writer.write_record(cells).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

/// The manifest of `files` with `change` applied to its JSON.
pub fn edit_manifest(files: &mut [(String, String)], change: impl FnOnce(&mut serde_json::Value)) {
    let text = file_mut(files, "manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_str(text).unwrap();
    change(&mut manifest);
    *text = serde_json::to_string_pretty(&manifest).unwrap();
}

/// `files` as the pack `dir/name`.
pub fn write_pack(dir: &Path, name: &str, files: &[(String, String)]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contention::runs::pack::encode(files).unwrap()).unwrap();
    path
}

/// `files` as the run folder `dir/name`.
pub fn write_folder(dir: &Path, name: &str, files: &[(String, String)]) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    for (file, text) in files {
        std::fs::write(folder.join(file), text).unwrap();
    }
    folder
}
