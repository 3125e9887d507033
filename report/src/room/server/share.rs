//! What the server prints on start: the room's runs, its code, and the addresses to share,
//! saying whether the room is open to the network or to this machine only.

use std::net::{IpAddr, SocketAddr, UdpSocket};

use super::state::Room;

/// The lines printed on start: the room's runs, its code beside the connections its file
/// limit leaves (`limits`), where it listens, and the [`shared`] addresses.
pub fn banner(room: &Room, address: SocketAddr, secrets: (&str, &str), limits: &str) -> String {
    let (code, teacher_key) = secrets;
    let skipped = room.skipped().len();
    let mut lines = vec![format!(
        "room: {} runs restored from {}{}",
        room.runs().len(),
        room.dir().display(),
        if skipped > 0 { format!(" ({skipped} skipped, named on the page)") } else { String::new() }
    )];
    lines.push(format!("room code: {code} (the class code, for the students; {limits})"));
    lines.push(format!(
        "teacher key: {teacher_key} (yours alone: it removes runs, frees seats, reveals, opens parts and downloads \
         the class; keep it off the projector)"
    ));
    lines.push(format!("space: {}", room.space().text(room.used())));
    let ip = address.ip();
    lines.push(if ip.is_loopback() {
        format!("listening on {address}: this machine only (open the room to the network with --bind 0.0.0.0)")
    } else if ip.is_unspecified() {
        format!(
            "listening on {address}: OPEN to every network this machine is on; anyone who reaches it with the code \
             can send runs"
        )
    } else {
        format!(
            "listening on {address}: open to the network of {ip}; anyone who reaches it with the code can send runs"
        )
    });
    for shared in shared(address) {
        let url = format!("http://{shared}");
        lines.push(format!("page: {url}/"));
        lines.push(format!("send: contention run stride --quick --label seat-N --send {url} --code {code}"));
        lines.push(format!("teacher: {url}/?key={teacher_key} and {url}/projector?key={teacher_key}"));
    }
    lines.push(format!("Ctrl-C stops the room; its runs stay in {}.", room.dir().display()));
    lines.join("\n")
}

/// The addresses the room prints for others to use, listening on `address`: itself, or
/// for every network, the one other machines reach this one at and loopback.
pub fn shared(address: SocketAddr) -> Vec<SocketAddr> {
    let ip = address.ip();
    let ips: Vec<IpAddr> =
        if ip.is_unspecified() { primary_address(ip).into_iter().chain([loopback(ip)]).collect() } else { vec![ip] };
    ips.into_iter().map(|ip| SocketAddr::new(ip, address.port())).collect()
}

/// The address other machines reach this one at: the one the system would send from
/// (connecting a UDP socket sends nothing).
fn primary_address(unspecified: IpAddr) -> Option<IpAddr> {
    let (bind, probe): (SocketAddr, SocketAddr) = match unspecified {
        IpAddr::V4(_) => (([0, 0, 0, 0], 0).into(), ([192, 0, 2, 1], 9).into()),
        IpAddr::V6(_) => (("::".parse::<IpAddr>().ok()?, 0).into(), ("2001:db8::1".parse::<IpAddr>().ok()?, 9).into()),
    };
    let socket = UdpSocket::bind(bind).ok()?;
    socket.connect(probe).ok()?;
    socket.local_addr().ok().map(|local| local.ip()).filter(|ip| !ip.is_unspecified())
}

fn loopback(unspecified: IpAddr) -> IpAddr {
    match unspecified {
        IpAddr::V4(_) => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(_) => IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1u16]),
    }
}
