//! What `contention report` and `contention pack` write, and where: a regular file (or a
//! new name) whose folder exists and is writable, never a folder, a FIFO or a device, and
//! never a file that the same command reads (a run folder's manifest or CSVs, the pack
//! being rendered). Each refusal is a bad flag (exit 2), decided before anything is measured.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::bad_flag::bad_flag;

/// The report's output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One standalone page.
    Html,
    /// For pasting into an issue or a chat.
    Markdown,
    /// Every summary number, for scripts (shape in `json.rs`).
    Json,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Json => "json",
        }
    }

    /// Where the report goes when `--out` is not given.
    pub fn default_file(self) -> &'static str {
        match self {
            Format::Html => "report.html",
            Format::Markdown => "report.md",
            Format::Json => "report.json",
        }
    }
}

/// Where to write `out`: `out` itself, or the file a symbolic link at `out` points to (the
/// link stays, its target is replaced atomically). Refused: a name ending in '/', a folder,
/// a FIFO, a socket, a device, a folder that does not exist or is not writable, and a file
/// that one of `inputs` (run folders and packs the command reads) is or holds. `what` is
/// written ("report", "pack"); `example` is a file name to suggest ("report.html").
pub fn resolve_out(out: &Path, inputs: &[PathBuf], what: &str, example: &str) -> Result<PathBuf> {
    let shown = contention::runs::shown(out);
    let fail = |reason: &str| bad_flag(format!("invalid out = {shown}: {reason}"));
    if out.as_os_str().as_encoded_bytes().ends_with(b"/") && !out.is_dir() {
        return Err(fail(&format!("it ends in '/', as a folder's name does; give a file name such as {example}")));
    }
    let target = match std::fs::symlink_metadata(out) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => out.to_path_buf(),
        Err(error) => return Err(fail(&format!("it cannot be inspected ({error})"))),
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(out)
            .map_err(|error| fail(&format!("it is a symbolic link that does not lead to a file ({error})")))?,
        Ok(_) => out.to_path_buf(),
    };
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(fail(&format!("it is a folder; give a file name such as {example}"))),
        Ok(meta) if !meta.is_file() => {
            return Err(fail(&format!("it is a {}; the {what} is written only to regular files", kind(&meta))))
        }
        _ => {}
    }
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(fail("its folder does not exist"));
    }
    if let Some(reason) = names_an_input(parent, &target, inputs) {
        return Err(fail(&format!("{reason}, which this command reads; write elsewhere (e.g. {example})")));
    }
    let probe = parent.join(format!(".contention-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(&format!("its folder is not writable ({e})")))?;
    let _ = std::fs::remove_file(probe);
    Ok(target)
}

/// Whether writing `target` (in the existing folder `parent`) would replace what one of
/// `inputs` reads: the pack itself, or a run folder's manifest or CSV.
fn names_an_input(parent: &Path, target: &Path, inputs: &[PathBuf]) -> Option<String> {
    let folder = std::fs::canonicalize(parent).ok()?;
    let name = target.file_name()?;
    let written = folder.join(name);
    let run_file = name == contention::runs::MANIFEST || Path::new(name).extension().is_some_and(|ext| ext == "csv");
    inputs.iter().find_map(|input| {
        let input_path = std::fs::canonicalize(input).ok()?;
        if input_path == written {
            return Some(format!("it is {}", contention::runs::shown(input)));
        }
        (input_path.is_dir() && input_path == folder && run_file)
            .then(|| format!("it is a file of the run folder {}", contention::runs::shown(input)))
    })
}

/// What a file that is neither a regular file nor a folder is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    contention::platform::special_kind(meta).unwrap_or("special file")
}
