//! The workshop guide's "what each platform shows" (docs/workshop.md): every run the lab
//! keeps under `data/examples`, its machine named from its manifest, its key effects (the
//! room's, [`KeyEffects`]) beside the articles' own figures, marked as theirs. The guide holds
//! this text between markers; `lib/tests/workshop_guide.rs` fails when it and the kept runs
//! disagree, and rewrites it when asked.

use super::room::{effects, EffectValue, KeyEffects};
use super::{Cell, Column, Table};
use crate::format;
use crate::reference::ClaimReference;
use crate::runs::{Profile, Run};
use crate::stride::present::{StrideReference, KNEE};

/// Seconds a run measured for, its real runtimes beside (Go, the JVM) included: what a
/// student waits.
pub fn run_seconds(run: &Run) -> f64 {
    run.manifest
        .experiments
        .iter()
        .map(|record| {
            let conditions = record.conditions();
            conditions.elapsed_s.unwrap_or(0.0) + conditions.runtime_elapsed.map_or(0.0, |(_, seconds)| seconds)
        })
        .sum()
}

fn profile_name(profile: Profile) -> &'static str {
    match profile {
        Profile::Quick => "quick",
        Profile::Default => "default",
        Profile::Custom => "custom",
    }
}

/// "128 B (A's stride table)": the smallest stride the article measured at its fastest.
fn article_knee(article_stride: &[StrideReference]) -> String {
    let fastest = article_stride.iter().map(|row| row.relative_to_fastest).fold(f64::INFINITY, f64::min);
    let knee = article_stride.iter().filter(|row| row.relative_to_fastest <= fastest).map(|row| row.stride_bytes).min();
    knee.map_or("-".into(), |bytes| format!("{} (A's stride table)", format::bytes(bytes)))
}

/// One line naming a kept run's machine, as its manifest describes it, how long it took and
/// its verdict (the room's: [`KeyEffects::verdict`]).
pub fn machine_line(run: &Run) -> String {
    let machine = &run.manifest.machine;
    let cores = machine.physical_cores.map_or(String::new(), |cores| format!(", {cores} physical cores"));
    let virtual_machine = match machine.hypervisor {
        Some(true) => ", a virtual machine",
        _ => "",
    };
    format!(
        "{}: {}, {} logical CPUs{cores}{virtual_machine}, {} {}; a {} run of {}, measured for {}; verdict: {}",
        run.label(),
        machine.cpu_model.as_deref().unwrap_or("CPU model unknown"),
        machine.logical_cpus,
        machine.os,
        machine.arch,
        profile_name(run.manifest.profile),
        run.manifest.started_utc,
        format::seconds(run_seconds(run)),
        KeyEffects::of(run).verdict
    )
}

/// One row per effect the room compares: the article's figure (its claim), then each
/// kept run's value with its interval; first the stride knee, the article's being the
/// smallest stride of its table as fast as the fastest.
pub fn platforms_table(runs: &[Run], claims: &[ClaimReference], article_stride: &[StrideReference]) -> Table {
    let machines: Vec<KeyEffects> = runs.iter().map(KeyEffects::of).collect();
    let mut columns = vec![Column::text("effect"), Column::text("the article's figure (claim)")];
    columns.extend(machines.iter().map(|machine| Column::number(machine.label.clone())));
    let claim_text = |id: Option<&str>| {
        let claim = id.and_then(|id| claims.iter().find(|claim| claim.id == id));
        claim.map_or("-".to_string(), |claim| format!("{} ({})", claim.figure, claim.id))
    };
    let plain = |text: String| Cell::noisy(text, false);
    let knees =
        machines.iter().map(|m| plain(m.effect(KNEE.id).map_or(format::NOT_AVAILABLE.into(), EffectValue::text)));
    let mut rows =
        vec![[vec![plain("stride knee".into()), plain(article_knee(article_stride))], knees.collect()].concat()];
    for effect in effects() {
        let values = machines
            .iter()
            .map(|machine| plain(machine.effect(effect.id).map_or(format::NOT_AVAILABLE.into(), |value| value.text())));
        rows.push([vec![plain(effect.name.into()), plain(claim_text(effect.claim))], values.collect()].concat());
    }
    Table {
        id: "platforms",
        caption: "What each kept run showed, beside the articles' own figures (theirs, on their machines)".into(),
        columns,
        rows,
    }
}
