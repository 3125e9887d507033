//! Reading runs back: the fixture run whole, folders and packs, the typed CSV reader over an
//! experiment's rows, and a run's resamples.

mod typed_rows {
    use std::path::Path;

    use crate::run_format::*;
    use crate::stride::Row;

    /// Format 6's header: its `verified` column (always true) is ignored on read.
    const HEADER: &str = "stride_bytes,threads,trial,trials_planned,iters_per_thread,elapsed_ns,ns_per_op,pinned,cpus,\
                          verified,cache_misses,snoop_hit_modified";

    #[test]
    fn reads_typed_rows_with_counter_readings() {
        let text = format!(
            "{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,unavailable,unavailable\n\
             64,2,0,5,100,900,4.5,true,\"2,3\",true,17,4\n"
        );
        let rows: Vec<Row> = parse_rows("stride.csv", &text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].snoop_hit_modified, crate::perf::CounterReading::Unavailable);
        assert_eq!(rows[1].cache_misses, crate::perf::CounterReading::Counted(17));
        assert_eq!(rows[1].snoop_hit_modified, crate::perf::CounterReading::Counted(4));
        assert_eq!((rows[1].trials_planned, rows[1].cpus.as_str()), (5, "2,3"));
    }

    #[test]
    fn a_bad_cell_is_named_by_file_line_and_column() {
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25.0,maybe,\"0,1\",true,unavailable,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'pinned': expected true or false, got 'maybe'");
        let text = format!("{HEADER}\n8,two,0,5,100,5000,25.0,true,\"0,1\",true,unavailable,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'threads': expected a whole number >= 0, got 'two'");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,lots,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert!(
            error.starts_with("stride.csv, line 2, column 'cache_misses': invalid value: string \"lots\""),
            "{error}"
        );
    }

    #[test]
    fn numbers_in_other_bases_or_with_a_plus_are_refused() {
        for (cell, column) in [("+2429", "elapsed_ns"), ("0x10", "elapsed_ns"), ("-0x1", "ns_per_op")] {
            let mut cells = ["8", "2", "0", "5", "100", "5000", "25.0", "true", "0", "true", "1", "2"];
            let index = HEADER.split(',').position(|header| header == column).unwrap();
            cells[index] = cell;
            let text = format!("{HEADER}\n{}\n", cells.join(","));
            let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
            let expected =
                format!("stride.csv, line 2, column '{column}': expected a number in decimal digits, got '{cell}'");
            assert_eq!(error, expected);
        }
    }

    #[test]
    fn missing_columns_and_ragged_lines_are_refused() {
        let error = parse_rows::<Row>("s.csv", "stride_bytes,threads\n8,2\n").unwrap_err().to_string();
        assert!(error.starts_with("s.csv, line 2: missing field"), "{error}");
        let error = parse_rows::<Row>("s.csv", &format!("{HEADER}\n8,2\n")).unwrap_err().to_string();
        assert_eq!(error, "s.csv, line 2: 2 fields, but the header has 12 columns");
    }

    #[test]
    fn values_no_measurement_gives_are_named_by_line_and_column() {
        let text =
            format!("{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,1,2\n8,0,1,5,100,5000,25.0,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 3, column 'threads': 0: a whole number from 1 to 4096");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,-25.0,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'ns_per_op': -25: 0, or a number from 1e-12 to 1e15");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,1e-320,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'ns_per_op': 1e-320: 0, or a number from 1e-12 to 1e15");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25,true,0-100000,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert!(
            error.starts_with("stride.csv, line 2, column 'cpus': '0-100000': CPU 100000 is above 4095"),
            "{error}"
        );
    }

    #[test]
    fn row_counts_are_checked_against_the_manifest() {
        let error = read_rows::<Row>(Path::new("/nonexistent/stride.csv"), None).unwrap_err().to_string();
        assert!(error.contains("is missing"), "{error}");
    }
}

mod resample {
    use crate::runs::Run;
    use crate::sharing;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    #[test]
    fn a_resample_draws_whole_rounds_of_the_runs_own_rows_and_repeats_with_its_seed() {
        let run = Run::load(FIXTURE).unwrap();
        let rows = run.rows::<sharing::Row>().unwrap();
        let first: Vec<Run> = run.bootstrap(7).take(5).collect();
        assert_eq!(first, run.bootstrap(7).take(5).collect::<Vec<_>>(), "the seed decides");
        let mut changed = false;
        for resample in &first {
            let drawn = resample.rows::<sharing::Row>().unwrap();
            assert_eq!(drawn.len(), rows.len(), "as many rounds as ran, each whole");
            assert!(drawn.iter().all(|row| rows.contains(row)), "only the run's own rows");
            for row in drawn {
                let round = drawn.iter().filter(|other| other.trial == row.trial).count();
                assert_eq!(round % 4, 0, "a round keeps its four cases together");
            }
            changed |= drawn != rows;
            assert!(resample.runtime_rows::<crate::gc::GoRow>().is_some_and(|go| !go.is_empty()), "Go's rows too");
        }
        assert!(changed, "five resamples are not all the run itself");
    }
}

mod folders {
    use super::super::*;

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures");

    #[test]
    fn reads_the_fixture_run_whole() {
        let run = Run::load(Path::new(FIXTURES).join("run-fixture")).unwrap();
        let stride = run.rows::<crate::stride::Row>().unwrap();
        assert_eq!(stride.len(), run.manifest.record("stride").unwrap().rows);
        assert!(stride.iter().all(|row| row.threads >= 1));
        let stride = Experiment::from_name(crate::stride::EXPERIMENT).unwrap();
        assert!(run.config_text(stride).unwrap().contains("strides_bytes="));
    }

    #[test]
    fn finds_run_folders_and_names_the_unreadable() {
        let found = find_runs(FIXTURES).unwrap();
        assert!(found.runs.iter().any(|run| run.dir.ends_with("run-fixture")));
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        assert_eq!(find_runs("/nonexistent/runs").unwrap(), FoundRuns::default());
        let parent = std::env::temp_dir().join(format!("contention-runs-skip-{}", std::process::id()));
        let broken = parent.join("broken-run");
        std::fs::create_dir_all(&broken).unwrap();
        std::fs::write(broken.join(MANIFEST), "{\"format_version\": 2}").unwrap();
        let found = find_runs(&parent).unwrap();
        std::fs::remove_dir_all(&parent).unwrap();
        assert!(found.runs.is_empty());
        assert!(found.skipped[0].contains("is from format version 2"), "{:?}", found.skipped);
    }

    #[test]
    fn runs_loaded_together_get_unique_labels() {
        let fixture = Path::new(FIXTURES).join("run-fixture");
        let found = load_all(&[fixture.clone(), fixture.clone(), "/nonexistent/run".into()]);
        let labels: Vec<String> = found.runs.iter().map(Run::label).collect();
        assert_eq!(labels, ["vm (2026-12-01 18:01 UTC)", "vm (2026-12-01 18:01 UTC) (2)"]);
        assert!(found.skipped[0].contains("does not exist"), "{:?}", found.skipped);
    }

    #[test]
    fn folders_that_are_not_runs_are_refused_by_name() {
        let missing = Run::load("/nonexistent/run").unwrap_err().to_string();
        assert!(missing.contains("does not exist"), "{missing}");
    }
}
