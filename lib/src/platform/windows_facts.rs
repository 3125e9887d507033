//! Windows' machine facts: cores, SMT siblings, efficiency classes, caches with their line
//! sizes and NUMA nodes from `GetLogicalProcessorInformationEx(RelationAll)`, the CPU's name
//! and vendor from the registry (`HARDWARE\DESCRIPTION\System\CentralProcessor\0`).
//! CPU ids are the processor group's bit numbers plus 64 per group before it.

use windows_sys::Win32::System::Registry::{RegGetValueW, HKEY_LOCAL_MACHINE, RRF_RT_REG_SZ};
use windows_sys::Win32::System::SystemInformation::{
    CacheData, CacheInstruction, CacheUnified, GetLogicalProcessorInformationEx, RelationAll, RelationCache,
    RelationNumaNode, RelationProcessorCore, CACHE_RELATIONSHIP, GROUP_AFFINITY, PROCESSOR_RELATIONSHIP,
};

use super::{Cache, CoreKinds, CpuFacts, Known, Unknown};

/// One core: its CPU ids and efficiency class (higher is faster).
struct Core {
    cpus: Vec<usize>,
    class: u8,
}

pub fn cpu_facts() -> CpuFacts {
    let records = records();
    let cores: Vec<Core> = records.iter().filter_map(as_core).collect();
    let fastest = cores.iter().map(|core| core.class).max();
    let count = |keep: &dyn Fn(&Core) -> bool| {
        cores.iter().filter(|core| keep(core)).map(|core| core.cpus.len()).sum::<usize>()
    };
    let online: usize = count(&|_| true);
    let performance: usize = count(&|core| Some(core.class) == fastest);
    let known = !cores.is_empty();
    CpuFacts {
        model: processor_value("ProcessorNameString"),
        vendor: processor_value("VendorIdentifier"),
        kernel: None,
        online_cpus: known.then_some(online),
        smt_sibling_groups: cores.iter().map(|core| cpu_list(&core.cpus)).collect(),
        physical_cores: known.then_some(cores.len()),
        performance_cpus: known.then_some(performance),
        efficiency_cpus: known.then_some(online - performance),
        numa_nodes: Some(records.iter().filter(|(kind, _)| *kind == RelationNumaNode).count()).filter(|&n| n > 0),
        caches: caches(&records),
        hypervisor: None,
    }
}

/// The cores of the highest efficiency class are performance cores; unknown where every
/// core has one class.
pub fn core_kinds() -> Known<CoreKinds> {
    let cores: Vec<Core> = records().iter().filter_map(as_core).collect();
    let fastest = cores.iter().map(|core| core.class).max();
    let of = |fast: bool| -> Vec<usize> {
        cores.iter().filter(|core| (Some(core.class) == fastest) == fast).flat_map(|core| core.cpus.clone()).collect()
    };
    let (performance, efficiency) = (of(true), of(false));
    if efficiency.is_empty() {
        return Err(Unknown("every core is alike here (one efficiency class)"));
    }
    Ok(CoreKinds { performance, efficiency })
}

/// Each record's relationship and its body (the bytes after the 8-byte header).
fn records() -> Vec<(i32, Vec<u8>)> {
    let mut length = 0u32;
    // SAFETY: a null buffer with length 0 asks for the length needed, written to `length`.
    unsafe { GetLogicalProcessorInformationEx(RelationAll, std::ptr::null_mut(), &mut length) };
    let mut buffer = vec![0u8; length as usize];
    // SAFETY: `buffer` is writable for `length` bytes, which the call does not exceed.
    if unsafe { GetLogicalProcessorInformationEx(RelationAll, buffer.as_mut_ptr().cast(), &mut length) } == 0 {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut at = 0usize;
    while at + 8 <= (length as usize).min(buffer.len()) {
        let relationship = i32::from_ne_bytes(buffer[at..at + 4].try_into().unwrap_or_default());
        let size = u32::from_ne_bytes(buffer[at + 4..at + 8].try_into().unwrap_or_default()) as usize;
        if size < 8 || at + size > buffer.len() {
            break;
        }
        found.push((relationship, buffer[at + 8..at + size].to_vec()));
        at += size;
    }
    found
}

/// The record's body as `T`, when it is long enough to hold one.
fn body<T>(bytes: &[u8]) -> Option<T> {
    // SAFETY: `bytes` holds at least size_of::<T>() bytes; T is a plain C struct (integers
    // and arrays of them), valid for any bit pattern, read without alignment.
    (bytes.len() >= std::mem::size_of::<T>()).then(|| unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<T>()) })
}

fn cpus_of(mask: &GROUP_AFFINITY) -> Vec<usize> {
    let base = usize::from(mask.Group) * 64;
    (0..usize::BITS as usize).filter(|bit| mask.Mask & (1 << bit) != 0).map(|bit| base + bit).collect()
}

fn as_core((kind, bytes): &(i32, Vec<u8>)) -> Option<Core> {
    let core: PROCESSOR_RELATIONSHIP = (*kind == RelationProcessorCore).then(|| body(bytes)).flatten()?;
    Some(Core { cpus: cpus_of(&core.GroupMask[0]), class: core.EfficiencyClass })
}

fn caches(records: &[(i32, Vec<u8>)]) -> Vec<Cache> {
    let mut found: Vec<Cache> = Vec::new();
    for (_, bytes) in records.iter().filter(|(kind, _)| *kind == RelationCache) {
        let Some(cache) = body::<CACHE_RELATIONSHIP>(bytes) else { continue };
        let kinds = [(CacheData, "Data"), (CacheInstruction, "Instruction"), (CacheUnified, "Unified")];
        let Some(&(_, kind)) = kinds.iter().find(|(type_, _)| *type_ == cache.Type) else { continue };
        // SAFETY: every member of the union is a GROUP_AFFINITY; the first is always there.
        let cpus = cpus_of(&unsafe { cache.Anonymous.GroupMask });
        match found.iter_mut().find(|known| known.level == cache.Level && known.kind == kind) {
            Some(known) => {
                known.instances += 1;
                if cpus.contains(&0) {
                    known.shared_by_cpus = cpu_list(&cpus);
                }
            }
            None => found.push(Cache {
                level: cache.Level,
                kind: kind.to_string(),
                size_bytes: Some(u64::from(cache.CacheSize)),
                line_bytes: Some(u64::from(cache.LineSize)),
                shared_by_cpus: cpu_list(&cpus),
                instances: 1,
            }),
        }
    }
    found
}

fn cpu_list(cpus: &[usize]) -> String {
    cpus.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

/// A string value of CPU 0's registry key.
fn processor_value(name: &str) -> Option<String> {
    let wide = |text: &str| text.encode_utf16().chain([0]).collect::<Vec<u16>>();
    let (key, value) = (wide(r"HARDWARE\DESCRIPTION\System\CentralProcessor\0"), wide(name));
    let mut text = [0u16; 256];
    let mut bytes = (text.len() * 2) as u32;
    // SAFETY: both names are NUL-terminated; `text` is writable for `bytes` bytes.
    let status = unsafe {
        RegGetValueW(
            HKEY_LOCAL_MACHINE,
            key.as_ptr(),
            value.as_ptr(),
            RRF_RT_REG_SZ,
            std::ptr::null_mut(),
            text.as_mut_ptr().cast(),
            &mut bytes,
        )
    };
    if status != 0 {
        return None;
    }
    let units = (bytes as usize / 2).min(text.len());
    let value = String::from_utf16_lossy(&text[..units]);
    let value = value.trim_end_matches('\0').trim();
    (!value.is_empty()).then(|| value.to_string())
}
