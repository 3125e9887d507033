//! The command line's clap types, and nothing else: its parent module turns them into plain
//! settings, so no other module sees clap. Each experiment's own flags, described in its
//! folder of the lib, become clap arguments in [`super::ExperimentFlags`].

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::flag_values;
use crate::output::Format;
use contention::Experiment;

/// Where `report` puts the run it measures unless `--runs` says otherwise.
pub const DEFAULT_RUNS: &str = "data/runs";

#[derive(Debug, Parser)]
#[command(name = "contention", version, about = "Make hardware contention visible on this machine.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure experiments and save them under <OUT>/<label>-<utc>/ (CSV + manifest.json).
    Run(RunArgs),
    /// Write the report (HTML, markdown or JSON): measure first, or render saved runs.
    Report(ReportArgs),
    /// Put a saved run (manifest + CSVs) into one text file, to mail or upload.
    Pack(PackArgs),
    /// The live room of a workshop: one page that fills in as laptops send their runs.
    #[command(subcommand)]
    Room(RoomCommand),
    /// Is this laptop ready for the workshop? One line per check, then "ready" or what to fix.
    Check(CheckArgs),
    /// A notebook's experiments to the workshop's room: a quick run under $CONTENTION_LABEL,
    /// sent to $CONTENTION_ROOM with $CONTENTION_CODE (without a room, nothing is measured).
    Send(SendCellArgs),
    /// A notebook's guesses to the workshop's room, before it measures: sent for
    /// $CONTENTION_LABEL to $CONTENTION_ROOM with $CONTENTION_CODE (without a room, nothing is sent).
    Guess(GuessCellArgs),
    /// A fix-it-yourself challenge: the built-in baseline against the lab's reference fix,
    /// checked and judged as a student's fix is (edit challenges/NAME.rs and run it with
    /// `cargo run --release --example challenge-NAME` to check your own).
    Challenge(ChallengeArgs),
}

#[derive(Debug, Args)]
pub struct SendCellArgs {
    /// Experiments to run and send, in order.
    #[arg(required = true, value_enum)]
    pub experiments: Vec<ExperimentArg>,
    /// Folder that receives the run's folder.
    #[arg(long, default_value = "data/runs")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct GuessCellArgs {
    /// The guesses, e.g. false-over-true=0.9 (the room's quantities, in their units).
    #[arg(value_name = "QUANTITY=VALUE", required = true)]
    pub guesses: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ChallengeArgs {
    /// The challenge: false-sharing (article A), allocation (B) or lock-across-wait (C).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Five smaller trials a side, in seconds (ten by default).
    #[arg(long)]
    pub quick: bool,
    /// Send a result a challenge file or notebook saved (data/challenges/NAME.json) instead of
    /// checking the reference fix: to --send's room, else to the room CONTENTION_ROOM names (as
    /// `contention send` finds it), else nowhere, saying so.
    #[arg(long, value_name = "FILE")]
    pub result: Option<PathBuf>,
    /// Send the result to a live room, e.g. http://192.168.1.20:8765 (with --code, and --seat
    /// unless --result names a saved result).
    #[arg(long, value_name = "URL", requires = "code")]
    pub send: Option<String>,
    /// The room's code, as `contention room serve` printed it.
    #[arg(long, value_name = "CODE", requires = "send")]
    pub code: Option<String>,
    /// Whose fix this is: the seat's label (the reference fix's result, sent for a demonstration;
    /// with --result, the seat it is sent as).
    #[arg(long, value_name = "SEAT", requires = "send")]
    pub seat: Option<String>,
    /// What the fix changed, in a line (at most 120 characters).
    #[arg(long, value_name = "TEXT", default_value = "the lab's reference fix")]
    pub description: String,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Also check that the workshop's room answers at this URL, e.g. http://192.168.1.20:8765.
    #[arg(long, value_name = "URL")]
    pub room: Option<String>,
    /// The room's code: with --label, the verdict is sent to the room as this seat's, so the
    /// teacher sees the class's readiness on the roster.
    #[arg(long, value_name = "CODE", requires_all = ["room", "label"])]
    pub code: Option<String>,
    /// This laptop's seat (with --code), e.g. seat-12.
    #[arg(long, value_name = "SEAT", requires = "code")]
    pub label: Option<String>,
    /// Folder of kept runs the quick report's time here is estimated from.
    #[arg(long, value_name = "DIR", default_value = "data/examples")]
    pub examples: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum RoomCommand {
    /// Serve the room's page and take runs sent with `--send` (Ctrl-C stops it; its runs stay in DIR).
    Serve(ServeArgs),
    /// Send this seat's guesses to a live room before its results are shown, e.g.
    /// `contention room predict --send URL --code CODE --seat seat-12 false-sharing=3`.
    Predict(PredictArgs),
}

/// A seat's guesses, one `EFFECT=VALUE` per effect, in the effect's unit.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The room, as `contention room serve` printed it, e.g. http://192.168.1.20:8765.
    #[arg(long, value_name = "URL", required = true)]
    pub send: String,
    /// The room's code, as `contention room serve` printed it.
    #[arg(long, value_name = "CODE", required = true)]
    pub code: String,
    /// Whose guesses these are: the seat's --label.
    #[arg(long, value_name = "SEAT", required = true)]
    pub seat: String,
    /// The guesses, e.g. false-sharing=3 padded=2 (the effects' ids as the room's form lists them).
    #[arg(value_name = "EFFECT=VALUE", required = true)]
    pub guesses: Vec<String>,
}

/// Where the room listens is `--bind`'s address and `--port`; the runs live in `--dir`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on: 127.0.0.1 keeps the room on this machine; 0.0.0.0 (or one
    /// interface's address) opens it to the local network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0: any free port, printed on start).
    #[arg(long, value_name = "N", default_value_t = 8765)]
    pub port: u16,
    /// Folder that keeps the room's runs, one pack per run; restarting restores the room from it.
    #[arg(long, value_name = "DIR", default_value = "data/room")]
    pub dir: PathBuf,
    /// The code every upload must carry, 4 to 32 letters, digits, - or _ (default: a random
    /// code, printed on start).
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,
    /// The teacher's own key, 4 to 32 letters, digits, - or _ (default: a random key, printed
    /// on start): only it removes runs, frees seats, reveals, opens parts and downloads the class.
    #[arg(long, value_name = "KEY")]
    pub teacher_key: Option<String>,
    /// The largest upload taken, in bytes (default 16 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    pub max_upload: u64,
    /// The most bytes of packs the room's folder holds, superseded and removed ones too
    /// (default 256 MiB); printed on start, and on the class page as used.
    #[arg(long, value_name = "BYTES", default_value_t = crate::room::DEFAULT_ROOM_BYTES)]
    pub max_room_bytes: u64,
    /// Each seat's share of it: the most bytes of packs one label may have sent, superseded
    /// and removed ones too, until the teacher's purge (default 32 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = crate::room::DEFAULT_SEAT_BYTES)]
    pub max_seat_bytes: u64,
    /// Uploads taken from one client address per minute; more are refused with 429.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub max_uploads_per_minute: u32,
    /// The class's roster: a count (25: seats seat-01 to seat-25) or a file of names, one a
    /// line, each a seat's --label; the page shows who has sent and who is missing.
    #[arg(long, value_name = "N|FILE")]
    pub seats: Option<String>,
}

/// `--send`: post the run's pack to a live room (`contention room serve`).
#[derive(Debug, Clone, Default, Args)]
pub struct SendArgs {
    /// Send the run's pack to a live room once it is saved, e.g. http://192.168.1.20:8765
    /// (plain http://, as `contention room serve` prints it).
    #[arg(long, value_name = "URL")]
    pub send: Option<String>,
    /// The room's code, as `contention room serve` printed it (with --send).
    #[arg(long, value_name = "CODE", requires = "send")]
    pub code: Option<String>,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    /// The run folder to pack.
    pub run_dir: PathBuf,
    /// The pack to write, `-` for standard output (default: <run folder's name>.contention-pack
    /// in this folder; with --send, no file unless --out is given).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub send: SendArgs,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Experiments to run, in order.
    #[arg(required = true, value_enum)]
    pub experiments: Vec<ExperimentArg>,
    #[command(flatten)]
    pub measure: MeasureArgs,
    /// Folder that receives the run's folder.
    #[arg(long, default_value = "data/runs")]
    pub out: PathBuf,
    #[command(flatten)]
    pub send: SendArgs,
}

/// Sizes of the experiments; unset values take the experiment's defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct MeasureArgs {
    /// How pages name this run (default: the hostname and a short random suffix).
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    /// Small sizes that finish in seconds (the notebooks' sizes).
    #[arg(long)]
    pub quick: bool,
    /// Worker threads (stride, sharing, counters: one count; gc: a list, e.g. 1,2,4,8).
    #[arg(long, value_delimiter = ',', value_name = "N", value_parser = flag_values::threads)]
    pub threads: Vec<usize>,
    /// Increments per thread.
    #[arg(long, value_name = "N", value_parser = flag_values::increments)]
    pub iters: Option<u64>,
    /// Measured trials per case.
    #[arg(long, value_name = "N", value_parser = flag_values::trials)]
    pub trials: Option<usize>,
    /// Sharing and counters: increments in total, split evenly over the threads.
    #[arg(long, value_name = "N", value_parser = flag_values::increments)]
    pub total: Option<u64>,
    /// GC sweep: seconds each trial runs (e.g. 0.5). Pool sizing: seconds of arrivals per run.
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = flag_values::seconds)]
    pub seconds: Option<Duration>,
    /// Each experiment's own flags, as the lib describes them.
    #[command(flatten)]
    pub experiments: super::ExperimentFlags,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub measure: MeasureArgs,
    /// Render this saved run (a run folder or a pack) instead of measuring; measuring flags
    /// (sizes, --quick, --label, --runs) are refused beside it.
    #[arg(long, value_name = "RUN_DIR", conflicts_with = "compare")]
    pub from: Option<PathBuf>,
    /// Render several saved runs (folders or packs, e.g. a workshop's machines) side by side;
    /// one that cannot be read is skipped and named on the page. Measuring flags are refused.
    #[arg(long, value_name = "RUN_DIR", num_args = 1..)]
    pub compare: Vec<PathBuf>,
    /// What to write: a standalone page, markdown for an issue or a chat, JSON for scripts, or
    /// csv: every run's rows, one tidy file per experiment with the machine's columns.
    #[arg(long, value_enum, default_value_t = Format::Html)]
    pub format: Format,
    /// Where to write it, `-` for standard output (default: report.html, report.md or report.json;
    /// with csv, the folder that receives the files, default tables).
    /// Only regular files are written (a folder, FIFO, socket or device is refused); through a
    /// symbolic link the link's target is replaced atomically and the link kept.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Folder that receives the measured run (when measuring; default data/runs).
    #[arg(long, value_name = "FOLDER")]
    pub runs: Option<PathBuf>,
}

/// `report --format`: named as in [`Format::name`].
impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[Format::Html, Format::Markdown, Format::Json, Format::Csv]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// Experiments are named on the command line as in run folders, with a line of help each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExperimentArg(pub Experiment);

impl ValueEnum for ExperimentArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<ExperimentArg>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| Experiment::ALL.iter().map(|&experiment| ExperimentArg(experiment)).collect())
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.about()))
    }
}
