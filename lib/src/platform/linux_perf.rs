//! Linux's hardware counters: the `perf_event_open(2)` system call, its attribute block and
//! the counter's file.

use std::sync::OnceLock;

use super::CounterEvent as Event;

/// `struct perf_event_attr` up to `PERF_ATTR_SIZE_VER5` (112 bytes); the kernel accepts
/// any published size and zero-fills the rest.
#[repr(C)]
#[derive(Default)]
struct EventAttr {
    kind: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    /// Bit flags: disabled, inherit, pinned, exclusive, exclude_user, exclude_kernel, ...
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
    config2: u64,
    branch_sample_type: u64,
    sample_regs_user: u64,
    sample_stack_user: u32,
    clockid: i32,
    sample_regs_intr: u64,
    aux_watermark: u32,
    sample_max_stack: u16,
    reserved: u16,
}

const PERF_TYPE_HARDWARE: u32 = 0;
const PERF_TYPE_RAW: u32 = 4;
const PERF_COUNT_HW_CACHE_MISSES: u64 = 3;
/// Event 0xD2, umask 0x04: MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM (Haswell to Skylake; the
/// same encoding is XSNP_FWD, hit-modified forwards included, on later cores).
const INTEL_XSNP_HITM: u64 = 0x04d2;
const FLAG_DISABLED: u64 = 1;
const FLAG_EXCLUDE_KERNEL: u64 = 1 << 5;
const FLAG_EXCLUDE_HV: u64 = 1 << 6;
const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;
/// `_IO('$', 0)` and `_IO('$', 1)`.
const PERF_EVENT_IOC_ENABLE: libc::c_ulong = 0x2400;
const PERF_EVENT_IOC_DISABLE: libc::c_ulong = 0x2401;

/// The raw config of the hit-modified event on this CPU: Intel family 6 only.
/// The name of this CPU's snoop hit-modified event, when the lab knows one.
pub fn hit_modified_event_name() -> Option<&'static str> {
    hit_modified_raw_config().map(|_| "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM (Intel, raw 0x04d2)")
}

fn hit_modified_raw_config() -> Option<u64> {
    static CONFIG: OnceLock<Option<u64>> = OnceLock::new();
    *CONFIG.get_or_init(|| {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        let field = |name: &str| {
            cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then(|| value.trim().to_string())
            })
        };
        let intel_core = field("vendor_id")? == "GenuineIntel" && field("cpu family")? == "6";
        intel_core.then_some(INTEL_XSNP_HITM)
    })
}

/// Opens `event` for the calling thread only, disabled until [`enable`].
pub fn counter_open(event: Event) -> Result<i32, String> {
    let (kind, config) = match event {
        Event::LlcMisses => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES),
        Event::SnoopHitModified => (
            PERF_TYPE_RAW,
            hit_modified_raw_config().ok_or_else(|| "no snoop hit-modified event on this CPU".to_string())?,
        ),
    };
    let attr = EventAttr {
        kind,
        size: std::mem::size_of::<EventAttr>() as u32,
        config,
        flags: FLAG_DISABLED | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV,
        ..EventAttr::default()
    };
    let (this_thread, any_cpu, no_group) = (0 as libc::pid_t, -1 as libc::c_int, -1 as libc::c_int);
    // SAFETY: `attr` is a valid, fully initialised perf_event_attr whose `size` field
    // matches its layout; the kernel only reads it during the call.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_perf_event_open,
            &attr as *const EventAttr,
            this_thread,
            any_cpu,
            no_group,
            PERF_FLAG_FD_CLOEXEC,
        )
    };
    if fd < 0 {
        let error = std::io::Error::last_os_error();
        let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid").unwrap_or_default();
        return Err(format!(
            "the kernel refused perf_event_open for {event:?} ({error}; perf_event_paranoid = {})",
            if paranoid.trim().is_empty() { "unknown" } else { paranoid.trim() }
        ));
    }
    Ok(fd as i32)
}

fn control(fd: i32, request: libc::c_ulong) {
    // SAFETY: `fd` is an open perf counter owned by the caller; the request takes no
    // argument. A failure leaves the counter as it was, which `read` then reports.
    unsafe { libc::ioctl(fd, request as _, 0) };
}

pub fn counter_enable(fd: i32, on: bool) {
    control(fd, if on { PERF_EVENT_IOC_ENABLE } else { PERF_EVENT_IOC_DISABLE });
}

/// The counter's value: one native-endian u64 (no read_format flags were set).
pub fn counter_read(fd: i32) -> Option<u64> {
    let mut value = [0u8; 8];
    // SAFETY: `value` is 8 writable bytes and `fd` is an open perf counter owned by
    // the caller.
    let got = unsafe { libc::read(fd, value.as_mut_ptr().cast(), value.len()) };
    (got == 8).then(|| u64::from_ne_bytes(value))
}

pub fn counter_close(fd: i32) {
    // SAFETY: `fd` was returned by perf_event_open and is closed exactly once (the
    // caller takes it out of its Option first).
    unsafe { libc::close(fd) };
}
