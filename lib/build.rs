//! Records how this crate was built, so every run can say whether its timings mean anything.
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=CONTENTION_RUSTC_VERSION={version}");
    for (key, name) in [
        ("TARGET", "CONTENTION_TARGET"),
        ("PROFILE", "CONTENTION_PROFILE"),
        ("OPT_LEVEL", "CONTENTION_OPT_LEVEL"),
        ("CARGO_CFG_TARGET_FEATURE", "CONTENTION_TARGET_FEATURES"),
    ] {
        let value = std::env::var(key).unwrap_or_else(|_| "unknown".into());
        println!("cargo:rustc-env={name}={value}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
