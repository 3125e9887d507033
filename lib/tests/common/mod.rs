//! What the lib's source-reading tests share: the workspace's `.rs` files.

use std::path::PathBuf;

/// Every `.rs` file below `folders`.
pub fn rust_files(folders: &[PathBuf]) -> Vec<PathBuf> {
    let (mut found, mut folders) = (Vec::new(), folders.to_vec());
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }
    found
}
