//! The platform layer holds every OS-specific call: outside `lib/src/platform/`, no file of
//! lib/src or report/src names `std::os::unix`, `std::os::windows`, `libc::`,
//! `windows_sys::` or `tokio::signal::unix` (test modules included), and none reads Linux's
//! `/proc` or `/sys` itself.

mod common;

use std::path::{Path, PathBuf};

use common::rust_files;

const FORBIDDEN: [&str; 7] =
    ["std::os::unix", "std::os::windows", "libc::", "windows_sys::", "tokio::signal::unix", "\"/proc/", "\"/sys/"];

/// Each forbidden name outside the layer, as "file:line: name".
fn platform_calls_outside_the_layer(roots: &[PathBuf], layer: &Path) -> Vec<String> {
    let files = rust_files(roots);
    let mut found = Vec::new();
    for file in files.iter().filter(|file| !file.starts_with(layer)) {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in FORBIDDEN.iter().filter(|name| code.contains(*name)) {
                found.push(format!("{}:{}: {name}", file.display(), number + 1));
            }
        }
    }
    found
}

#[test]
fn no_platform_call_outside_the_platform_layer() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let roots = [workspace.join("lib/src"), workspace.join("report/src")];
    let layer = workspace.join("lib/src/platform");
    assert!(layer.join("mod.rs").is_file(), "no platform layer at {}", layer.display());
    let found = platform_calls_outside_the_layer(&roots, &layer);
    assert!(found.is_empty(), "platform calls outside lib/src/platform:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_a_call_outside_the_layer() {
    let root = std::env::temp_dir().join(format!("contention-platform-check-{}", std::process::id()));
    let layer = root.join("platform");
    std::fs::create_dir_all(&layer).unwrap();
    std::fs::write(root.join("outside.rs"), "fn f() { unsafe { libc::getpid() }; } // libc:: in a comment\n").unwrap();
    std::fs::write(layer.join("mod.rs"), "use std::os::unix::fs::OpenOptionsExt;\n").unwrap();
    let found = platform_calls_outside_the_layer(std::slice::from_ref(&root), &layer);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("outside.rs:1: libc::"), "{found:?}");
}
