//! What each command does with its options: measure and save (through [`crate::store`]),
//! then render (page, markdown, JSON, terminal). Nothing here reads clap.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::runs::{load_all, FoundRuns, Run};

use crate::options::{MeasureOptions, Options, ReportOptions, SendTo, Source};
use crate::output::Format;
use crate::store;
use crate::usage::usage;
use crate::write::write_atomic;
use crate::{json, markdown, page, terminal};

pub fn execute(options: Options) -> Result<()> {
    match options {
        Options::Run { measure, out, send } => {
            let dir = measure_and_print(&measure, &out)?;
            say(&format!("run saved in {}", dir.display()));
            match send {
                Some(send) => {
                    let pack = contention::runs::pack::pack_run(&dir)
                        .map_err(|error| send_failed(&send, &dir, &error.to_string()))?;
                    send_pack(&send, &dir, pack.as_bytes())
                }
                None => Ok(()),
            }
        }
        Options::Report(report) => write_report(report),
        Options::Pack { run, out, send } => {
            let target = out.as_deref().map(resolve_out).transpose()?;
            // A run that would not load is bad input: it is not packed.
            let pack = contention::runs::pack::pack_run(&run).map_err(|error| usage(error.to_string()))?;
            if let (Some(target), Some(out)) = (&target, &out) {
                write_atomic(target, pack.as_bytes())?;
                say(&format!("run packed into {}", out.display()));
            }
            match send {
                Some(send) => send_pack(&send, &run, pack.as_bytes()),
                None => Ok(()),
            }
        }
        Options::Room(options) => crate::room::serve(&options),
    }
}

/// Posts the pack of the run at `run` to the room `send` names; a refusal or a failure
/// says why and how to send again (the run stays on disk either way).
fn send_pack(send: &SendTo, run: &Path, pack: &[u8]) -> Result<()> {
    match crate::send::post_pack(&send.room, send.code.as_deref(), pack) {
        Ok(answer) if answer.status == 201 => {
            say(&format!("sent to {}: {}", send.room.url, answer.line));
            Ok(())
        }
        Ok(answer) => Err(send_failed(send, run, &format!("the room answered {}: {}", answer.status, answer.line))),
        Err(why) => Err(send_failed(send, run, &why)),
    }
}

fn send_failed(send: &SendTo, run: &Path, why: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the run is saved in {} but was not sent to {}: {why}\nsend it again with: {}",
        run.display(),
        send.room.url,
        send.retry_command(run)
    )
}

/// Measures into a new run folder, printing each experiment's findings as it finishes and,
/// when the machine was measured, the verdict over the whole run.
fn measure_and_print(measure: &MeasureOptions, out: &Path) -> Result<PathBuf> {
    let dir = store::measure_into(out, measure, &mut |dir, experiment| {
        let run = Run::load(dir)?;
        if let Some(text) = terminal::finished(&run, experiment)? {
            say(&format!("\n{text}\n"));
        }
        Ok(())
    })?;
    let run = Run::load(&dir)?;
    if terminal::checked_machine(&run) {
        store::save_verdict(&run)?;
        say(&format!("\n{}\n", terminal::machine(&run)?));
    }
    Ok(dir)
}

fn write_report(report: ReportOptions) -> Result<()> {
    let out = report.out.as_deref().map(resolve_out).transpose()?;
    let dirs = match report.source {
        Source::Saved(dirs) => dirs,
        Source::Measure(measure, runs) => {
            let dir = measure_and_print(&measure, &runs)?;
            say(&format!("run saved in {}", dir.display()));
            vec![dir]
        }
    };
    // A run that cannot be read is skipped and named on the page; with none readable the
    // input is bad: one message, exit 2.
    let FoundRuns { runs, skipped } = load_all(&dirs);
    if runs.is_empty() {
        return Err(usage(skipped.join("\n")));
    }
    for run in &runs {
        run.notes.iter().for_each(|note| warn(&format!("{}: {}", run.label, note.text)));
    }
    let sections = contention::present::sections(&runs)?;
    let generated_utc = contention::machine::utc_timestamp(std::time::SystemTime::now());
    let text = match report.format {
        Format::Html => page::render(&runs, &skipped, &sections, generated_utc)?,
        Format::Markdown => {
            let labels: Vec<String> = runs.iter().map(Run::label).collect();
            markdown::render(&page::title(&runs), &labels, &skipped, &sections)
        }
        Format::Json => json::render(&runs, &skipped, &sections, generated_utc)?,
    };
    match &out {
        Some(out) => {
            write_atomic(out, text.as_bytes())?;
            say(&format!("report written to {}", out.display()));
        }
        None => std::io::stdout().write_all(text.as_bytes()).context("writing the report to standard output")?,
    }
    Ok(())
}

/// Where the report goes: `out` itself, or the file a symbolic link at `out` points to (the
/// link stays, its target is replaced atomically). Anything but a regular file or a new
/// name is refused as bad usage, before measuring: a folder, a FIFO, a socket, a device.
fn resolve_out(out: &Path) -> Result<PathBuf> {
    let fail = |reason: &str| usage(format!("invalid out = {}: {reason}", out.display()));
    let target = match std::fs::symlink_metadata(out) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => out.to_path_buf(),
        Err(error) => return Err(fail(&format!("it cannot be inspected ({error})"))),
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(out)
            .map_err(|error| fail(&format!("it is a symbolic link that does not lead to a file ({error})")))?,
        Ok(_) => out.to_path_buf(),
    };
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(fail("it is a folder; give a file name such as report.html")),
        Ok(meta) if !meta.is_file() => {
            return Err(fail(&format!("it is a {}; the report is written only to regular files", kind(&meta))))
        }
        _ => {}
    }
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(fail("its folder does not exist"));
    }
    let probe = parent.join(format!(".contention-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(&format!("its folder is not writable ({e})")))?;
    let _ = std::fs::remove_file(probe);
    Ok(target)
}

/// What a file that is neither a regular file nor a folder is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let file_type = meta.file_type();
    if file_type.is_fifo() {
        "FIFO (named pipe)"
    } else if file_type.is_socket() {
        "socket"
    } else if file_type.is_block_device() || file_type.is_char_device() {
        "device"
    } else {
        "special file"
    }
}

/// What a saved run holds otherwise than whole goes to stderr: stdout may be the report.
#[allow(clippy::print_stderr)]
fn warn(message: &str) {
    eprintln!("note: {message}");
}

/// Messages and findings go to stdout so scripts can read them (progress goes to stderr).
#[allow(clippy::print_stdout)]
fn say(message: &str) {
    println!("{message}");
}
