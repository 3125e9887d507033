//! A class of seats for the room's class tests: the fixture run as seat `i`'s pack, on a
//! machine of its own (CPU model, architecture and CPU count vary with `i`) and with its
//! false-sharing trials slowed by a factor of its own, so every seat has another figure.

use super::packs::{edit_manifest, file_mut, fixture_files};

/// CPU models the seats cycle through, with their architecture.
const MACHINES: [(&str, &str); 4] = [
    ("Intel(R) Core(TM) i7-1165G7", "x86_64"),
    ("Apple M2", "aarch64"),
    ("AMD Ryzen 7 5800U", "x86_64"),
    ("Apple M1 Pro", "aarch64"),
];

/// "seat-01".. for `index` 1..
pub fn seat_label(index: usize) -> String {
    format!("seat-{index:02}")
}

/// The factor seat `index`'s false-sharing trials are slowed by: each seat's is distinct.
pub fn slowdown(index: usize) -> f64 {
    1.0 + ((index * 7) % 25) as f64 * 0.2
}

/// Seat `index`'s pack.
pub fn seat_pack(index: usize) -> Vec<u8> {
    let mut files = fixture_files();
    let (model, arch) = MACHINES[index % MACHINES.len()];
    edit_manifest(&mut files, |manifest| {
        manifest["label"] = seat_label(index).into();
        manifest["machine"]["cpu_model"] = model.into();
        manifest["machine"]["arch"] = arch.into();
        manifest["machine"]["logical_cpus"] = (2 + 2 * (index % 3)).into();
    });
    let sharing = file_mut(&mut files, "sharing.csv");
    *sharing = slow_false_sharing(sharing, slowdown(index));
    contention::runs::pack::encode(&files).unwrap().into_bytes()
}

/// `sharing.csv` with the false-sharing trials' times multiplied by `factor`.
fn slow_false_sharing(text: &str, factor: f64) -> String {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|header| header == name).unwrap();
    let (case, elapsed, per_increment) = (column("case"), column("elapsed_ns"), column("ns_per_increment"));
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).unwrap();
    for record in reader.records() {
        let mut cells: Vec<String> = record.unwrap().iter().map(String::from).collect();
        if cells[case] == "false-sharing" {
            let slowed = (cells[elapsed].parse::<f64>().unwrap() * factor).round();
            let per = cells[per_increment].parse::<f64>().unwrap() * slowed / cells[elapsed].parse::<f64>().unwrap();
            cells[elapsed] = format!("{slowed}");
            cells[per_increment] = format!("{per}");
        }
        writer.write_record(&cells).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}
