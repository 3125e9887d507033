//! Issue 25, items 1, 2, 3, 5 and 9: hostile cells, CPU lists, terminal bytes and files
//! outside the run. Each reproducer exits 0 or 2 within seconds with a reason naming the
//! value, and the good run beside it renders whole. Bounds are generous (a loaded two-CPU
//! machine): what they catch is a hang of minutes or an abort.

mod common;

use std::path::Path;
use std::time::Duration;

use common::packs::*;
use common::*;

/// Seconds any reproducer may take here; each takes a fraction of one when the machine is
/// idle, and one took 13.6 s beside a clippy build on two CPUs: the bound catches a hang.
const FEW_SECONDS: Duration = Duration::from_secs(30);

/// A pack of the fixture with `value` in `column` of `file`'s first row, in `dir`.
fn pack_with_cell(dir: &Path, file: &str, column: &str, value: &str) -> String {
    let mut files = fixture_files();
    let text = file_mut(&mut files, file);
    *text = set_cell(text, 2, column, value);
    write_pack(dir, "hostile.contention-pack", &files).to_str().unwrap().to_string()
}

#[test]
fn cells_no_measurement_gives_are_named_quickly_and_the_good_run_renders_whole() {
    let dir = scratch("hostile-cells");
    let fixture = fixture();
    let cases = [
        ("stride.csv", "ns_per_op", "1e-320"),
        ("stride.csv", "ns_per_op", "5e-324"),
        ("stride.csv", "ns_per_op", "1e308"),
        ("counters.csv", "ns_per_increment", "1e-320"),
        ("stride.csv", "cpus", "0-4294967295"),
        ("stride.csv", "cpus", "0-18446744073709551615"),
        ("sharing.csv", "cpus", "0-100000"),
        ("stride.csv", "elapsed_ns", "0x10"),
        ("stride.csv", "elapsed_ns", "+2429"),
        ("c2c.csv", "cpu_b", "4294967295"),
    ];
    for (file, column, value) in cases {
        let pack = pack_with_cell(&dir, file, column, value);
        let reason = format!("{file}, line 2, column '{column}'");
        for format in ["html", "markdown", "json"] {
            let args = ["report", "--compare", fixture.to_str().unwrap(), &pack, "--format", format, "--out", "-"];
            let (output, took) = timed(&args);
            assert_eq!(output.status.code(), Some(0), "{value} ({format}): {}", stderr(&output));
            assert!(took < FEW_SECONDS, "{value} ({format}) took {took:?}");
            assert!(stderr(&output).contains(&reason) && stderr(&output).contains(value), "{}", stderr(&output));
            if format == "html" {
                // The good run beside it is whole: every chart it has, the hostile one's other sections too.
                assert!(html_section(&stdout(&output), "stride").contains("<svg"), "{value}");
            }
        }
        let (output, took) = timed(&["report", "--from", &pack, "--out", "-"]);
        assert_eq!(output.status.code(), Some(0), "{value}: {}", stderr(&output));
        assert!(took < FEW_SECONDS && stderr(&output).contains(&reason), "{value}: {took:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cpu_ranges_are_bounded_before_anything_is_expanded() {
    let out = scratch("hostile-cpus");
    let out_arg = out.to_str().unwrap();
    for list in ["0-4294967295", "0-18446744073709551615", "0-100000", "0,,1"] {
        for command in [&["run", "c2c"][..], &["run", "stride"], &["report", "--quick", "--runs"]] {
            let mut args = command.to_vec();
            if command[0] == "report" {
                args.extend([out_arg, "--out", "-"]);
            } else {
                args.extend(["--out", out_arg]);
            }
            args.extend(["--cpus", list]);
            let (output, took) = timed(&args);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
            assert!(took < FEW_SECONDS, "{args:?} took {took:?}");
            let expected = format!("invalid cpus = {list}: ");
            assert!(stderr(&output).contains(&expected), "{args:?}: {}", stderr(&output));
        }
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured");
    // A folder whose row holds such a list is not packed.
    let mut files = fixture_files();
    let text = file_mut(&mut files, "stride.csv");
    *text = set_cell(text, 3, "cpus", "0-4294967295");
    let folder = write_folder(&out, "run", &files);
    let pack = out.join("run.contention-pack");
    let output = contention(&["pack", folder.to_str().unwrap(), "-o", pack.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("stride.csv, line 3, column 'cpus': '0-4294967295'"), "{}", stderr(&output));
    assert!(!pack.exists());
    std::fs::remove_dir_all(&out).unwrap();
}

/// No byte of `output`'s stderr is a control character but the line breaks.
fn sends_no_control_bytes(output: &std::process::Output) -> bool {
    output.stderr.iter().all(|&byte| byte == b'\n' || !(byte < 0x20 || byte == 0x7f))
}

#[test]
fn terminal_lines_show_control_characters_and_never_send_them() {
    let dir = scratch("hostile-terminal");
    let mut files = fixture_files();
    edit_manifest(&mut files, |manifest| manifest["label"] = "seat\u{1b}[2J\u{7}".into());
    let label = write_pack(&dir, "label.contention-pack", &files);
    let mut files = fixture_files();
    edit_manifest(&mut files, |manifest| {
        let record = &mut manifest["experiments"][1];
        record["state"] = "failed".into();
        record["failure"] = "boom\nerror: forged line".into();
    });
    let failure = write_pack(&dir, "failure.contention-pack", &files);
    let named = write_pack(&dir, "evil\u{1b}[31m.contention-pack", &fixture_files());
    std::fs::write(&named, "not a pack \u{1b}[31m").unwrap();
    let paths: Vec<&str> = [&label, &failure, &named].iter().map(|path| path.to_str().unwrap()).collect();
    let mut args = vec!["report", "--compare", fixture().to_str().unwrap().to_string().leak()];
    args.extend(&paths);
    args.extend(["--out", "-", "--format", "markdown"]);
    let output = contention(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(sends_no_control_bytes(&output), "{:?}", stderr(&output));
    let said = stderr(&output);
    assert!(said.contains("seat\\u{1b}[2J\\u{7}") && said.contains("evil\\u{1b}[31m"), "{said}");
    assert!(said.contains("failed: boom\\nerror: forged line") && !said.contains("\nerror: forged"), "{said}");
    // With nothing readable the reasons still come one per line, escaped.
    let output = contention(&["report", "--compare", paths[0], paths[2], "--out", "-"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(sends_no_control_bytes(&output), "{:?}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg(unix)] // a symbolic link made as Unix makes one
fn a_run_s_files_are_read_only_as_regular_files_inside_its_folder() {
    let dir = scratch("hostile-symlink");
    let secret = dir.join("secret.csv");
    std::fs::write(&secret, "stride_bytes,threads\nSECRET-CELL,2\n").unwrap();
    let run = write_folder(&dir, "run", &fixture_files());
    std::fs::remove_file(run.join("stride.csv")).unwrap();
    std::os::unix::fs::symlink(&secret, run.join("stride.csv")).unwrap();
    let pack = dir.join("run.contention-pack");
    let output = contention(&["pack", run.to_str().unwrap(), "-o", pack.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let named = format!("{} is a symbolic link", run.join("stride.csv").display());
    assert!(stderr(&output).contains(&named), "{}", stderr(&output));
    assert!(!pack.exists());
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", "-"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains(&named), "{}", stderr(&output));
    assert!(!stdout(&output).contains("SECRET") && !stderr(&output).contains("SECRET"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_experiment_of_more_cases_than_a_page_shows_is_named_and_the_rest_renders_quickly() {
    let dir = scratch("hostile-cases");
    let mut files = fixture_files();
    let text = file_mut(&mut files, "stride.csv");
    let (header, first) = (text.lines().next().unwrap().to_string(), text.lines().nth(1).unwrap().to_string());
    let rest = first.split_once(',').unwrap().1;
    let rows: Vec<String> = (1..=8193u64).map(|stride| format!("{},{rest}", stride * 8)).collect();
    *text = format!("{header}\n{}\n", rows.join("\n"));
    let pack = write_pack(&dir, "cases.contention-pack", &files);
    let (output, took) = timed(&["report", "--from", pack.to_str().unwrap(), "--out", "-"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(took < FEW_SECONDS, "{took:?}");
    let expected = "stride.csv, line 8194: more than 8192 cases: at most 8192 per experiment";
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    assert!(html_section(&stdout(&output), "sharing").contains("<svg"), "the rest of the run renders");
    std::fs::remove_dir_all(&dir).unwrap();
}
