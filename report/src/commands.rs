//! What each command does with its options: measure and save (through [`crate::store`]),
//! then render (page, markdown, JSON, terminal). Nothing here reads clap.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::present::room::class::Seat;
use contention::runs::{load_all, shown, visible, FoundRuns, Run};

use crate::bad_flag::bad_flag;
use crate::console::{say, warn};
use crate::options::{Options, PackOut, Prediction, ReportOptions, SendTo, Source};
use crate::output::{resolve_out, Format};
use crate::room::class_page;
use crate::store::{self, MeasureOptions};
use crate::write::write_atomic;
use crate::{json, markdown, page, terminal};

pub fn execute(options: Options) -> Result<()> {
    match options {
        Options::Run { measure, out, send } => {
            let dir = measure_and_print(&measure, &out)?;
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
        Options::Pack { run, out, default_name, send } => {
            let target = match &out {
                PackOut::File(out) => Some(resolve_out(out, std::slice::from_ref(&run), "pack", &default_name)?),
                PackOut::Stdout | PackOut::Nowhere => None,
            };
            // A run that would not load is bad input: it is not packed.
            let pack = contention::runs::pack::pack_run(&run).map_err(|error| bad_flag(error.to_string()))?;
            match (&out, &target) {
                (PackOut::File(out), Some(target)) => {
                    write_atomic(target, pack.as_bytes())?;
                    say(&format!("run packed into {}", shown(out)));
                }
                (PackOut::Stdout, _) => write_stdout(pack.as_bytes(), "the pack")?,
                _ => {}
            }
            match send {
                Some(send) => send_pack(&send, &run, pack.as_bytes()),
                None => Ok(()),
            }
        }
        Options::Room(options) => crate::room::serve(&options),
        Options::Predict(prediction) => predict(&prediction),
        Options::Check(options) => crate::check::run(&options),
        Options::NotSent(why) => {
            say(&why);
            Ok(())
        }
        Options::Challenge(options) => crate::challenge::run(&options),
    }
}

/// Posts the pack of the run at `run` to the room `send` names; a refusal or a failure
/// says why and how to send again (the run stays on disk either way).
fn send_pack(send: &SendTo, run: &Path, pack: &[u8]) -> Result<()> {
    let seat = Run::load(run).map(|run| run.label).ok();
    let token = seat.as_deref().and_then(|seat| crate::seat_tokens::kept(&send.room.url, seat));
    let secrets = (send.code.as_deref(), token.as_deref());
    match crate::room::client::post_pack(&send.room, secrets, pack, &mut |note| warn(note)) {
        Ok(answer) if answer.status == 201 => {
            say(&format!("sent to {}: {}", send.room.url, answer.line));
            crate::seat_tokens::keep_and_say(&send.room.url, seat.as_deref(), answer.token.as_deref());
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

/// Posts a seat's guesses to the room, as the room page's form does.
fn predict(prediction: &Prediction) -> Result<()> {
    let url = &prediction.room.url;
    let token = crate::seat_tokens::kept(url, &prediction.seat);
    let (room, code, seat) = (&prediction.room, &prediction.code, &prediction.seat);
    let answer = crate::room::client::post_guesses(room, code, seat, &prediction.body(), token.as_deref())
        .map_err(|why| anyhow::anyhow!("the guesses were not sent to {url}: {why}"))?;
    match answer.status {
        200 => {
            say(&format!("sent to {url}: {}", answer.line));
            crate::seat_tokens::keep_and_say(url, Some(seat), answer.token.as_deref());
            Ok(())
        }
        status => Err(anyhow::anyhow!("the guesses were not kept: {url} answered {status}: {}", answer.line)),
    }
}

/// Measures into a new run folder, printing each experiment's findings as it finishes, then,
/// when the machine was measured, the verdict over the whole run, and the articles'
/// headlines with this machine's counterparts, and where the run is saved.
fn measure_and_print(measure: &MeasureOptions, out: &Path) -> Result<PathBuf> {
    let started = std::time::Instant::now();
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
    if let Some(headline) = terminal::headline(&run)? {
        say(&format!("\n{headline}\n"));
    }
    let took = contention::format::seconds(started.elapsed().as_secs_f64());
    say(&format!("run saved in {} (measured in {took})", shown(&dir)));
    Ok(dir)
}

fn write_report(report: ReportOptions) -> Result<()> {
    let inputs = match &report.source {
        Source::Saved(dirs) => dirs.clone(),
        Source::Measure(..) => Vec::new(),
    };
    if report.format == Format::Csv {
        return write_tables(report, &inputs);
    }
    let example = report.format.default_file();
    let out = report.out.as_deref().map(|out| resolve_out(out, &inputs, "report", example)).transpose()?;
    let dirs = match report.source {
        Source::Saved(dirs) if dirs.len() == 1 && crate::room::class_file::is_class(&dirs[0]) => {
            return write_class(&dirs[0], report.format, out.as_deref());
        }
        Source::Saved(dirs) => dirs,
        Source::Measure(measure, runs) => {
            vec![measure_and_print(&measure, &runs)?]
        }
    };
    // A run that cannot be read is skipped and named on the page; with none readable the
    // input is bad: one message, exit 2 (each reason on a line of its own, shown escaped).
    let FoundRuns { runs, skipped } = load_all(&dirs);
    if runs.is_empty() {
        return Err(bad_flag(skipped.iter().map(|why| visible(why)).collect::<Vec<_>>().join("\n")));
    }
    skipped.iter().for_each(|why| warn(&format!("not read: {why}")));
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
        // Written above, into a folder: a file per experiment (write_tables).
        Format::Csv => return write_tables(ReportOptions { source: Source::Saved(dirs), ..report }, &inputs),
    };
    write_out(out.as_deref(), &text)
}

/// Every run's rows as tidy CSV files (`report --format csv`), from saved runs, a class
/// (its archive or folder) or a run measured now; a class refused is bad input (exit 2).
fn write_tables(report: ReportOptions, inputs: &[PathBuf]) -> Result<()> {
    let folder = crate::tables::resolve_folder(report.out.as_deref(), inputs)?;
    let (runs, skipped) = match report.source {
        Source::Saved(dirs) if dirs.len() == 1 && crate::room::class_file::is_class(&dirs[0]) => {
            let class = crate::room::class_file::read(&dirs[0])
                .map_err(|why| bad_flag(format!("invalid from = {}: {why}", shown(&dirs[0]))))?;
            (class.runs, class.skipped)
        }
        Source::Saved(dirs) => runs_and_skipped(load_all(&dirs)),
        Source::Measure(measure, runs) => runs_and_skipped(load_all(&[measure_and_print(&measure, &runs)?])),
    };
    if runs.is_empty() {
        return Err(bad_flag(skipped.iter().map(|why| visible(why)).collect::<Vec<_>>().join("\n")));
    }
    skipped.iter().for_each(|why| warn(&format!("not read: {why}")));
    let written = crate::tables::write(&runs, &folder)?;
    say(&format!("{} tables of {} runs written to {}", written.len(), runs.len(), shown(&folder)));
    Ok(())
}

fn runs_and_skipped(found: FoundRuns) -> (Vec<Run>, Vec<String>) {
    (found.runs, found.skipped)
}

/// The report's text written to `out`, or to standard output.
fn write_out(out: Option<&Path>, text: &str) -> Result<()> {
    match out {
        Some(out) => {
            write_atomic(out, text.as_bytes())?;
            say(&format!("report written to {}", shown(out)));
        }
        None => write_stdout(text.as_bytes(), "the report")?,
    }
    Ok(())
}

/// The room's class page rebuilt from its archive (`GET /class.tar`) or the folder it
/// unpacks to; an archive or folder refused is bad input (exit 2).
fn write_class(from: &Path, format: Format, out: Option<&Path>) -> Result<()> {
    if format != Format::Html {
        return Err(bad_flag(format!(
            "invalid format = {}: a class ({}) renders as html only",
            format.name(),
            shown(from)
        )));
    }
    let class = crate::room::class_file::read(from)
        .map_err(|why| bad_flag(format!("invalid from = {}: {why}", shown(from))))?;
    class.skipped.iter().for_each(|why| warn(&format!("not read: {why}")));
    let seats: Vec<Seat> = class.runs.iter().map(Seat::of).collect();
    let text = class_page::render_class(class_page::ClassInputs {
        seat_hrefs: vec![None; seats.len()],
        roster: class.roster.map(|roster| roster.status(seats.iter().map(Seat::label))),
        seats: &seats,
        skipped: class.skipped,
        generated_utc: contention::machine::utc_timestamp(std::time::SystemTime::now()),
        live: None,
        // A class's archive holds its runs, not the room's ledger: no fixes to show.
        challenges: class_page::ChallengeInputs { results: &[], roster: None },
    })?;
    write_out(out, &text)
}

/// Writes `bytes` to standard output; a reader that stopped reading (`| head`, `| grep -q`)
/// ends the output, as it does for any command-line tool, and is not a failure.
fn write_stdout(bytes: &[u8], what: &str) -> Result<()> {
    match std::io::stdout().write_all(bytes) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        written => written.with_context(|| format!("writing {what} to standard output")),
    }
}
