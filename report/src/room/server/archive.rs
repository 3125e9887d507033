//! The class's one download (`GET /class.tar`), written by the `tar` crate (ustar headers),
//! and a strict reader of it, written by hand: it takes only what the room writes, so it
//! refuses a hostile archive by construction (the crate's reader follows long-name and pax
//! extensions, and takes an archive cut short at a header as whole).
//!
//! The reader takes regular files only, each named as `allowed` says (so no path can climb
//! out of a folder, and no name is absolute), each at most `max_bytes`, at most
//! `max_entries` of them, every header's checksum right, every size within the archive.
//! Links, devices, folders other than the top one, long-name and pax extensions are refused
//! with their name. Nothing is written: the caller gets the files' bytes.

/// A tar block: headers and data are counted in these.
const BLOCK: usize = 512;
/// `ustar\0` then version `00`, as POSIX writes it.
const MAGIC: &[u8; 8] = b"ustar\x0000";

/// A tar written file by file, each a plain file (mode 644, owner 0) stamped `mtime`
/// (seconds since 1970), so a file's bytes need not be held beside the archive.
pub struct Writer {
    tar: tar::Builder<Vec<u8>>,
    mtime: u64,
}

impl Writer {
    pub fn new(mtime: u64) -> Self {
        Self { tar: tar::Builder::new(Vec::new()), mtime }
    }

    /// Adds the file `name` (at most ustar's 100 bytes: the reader takes no name prefix)
    /// holding `bytes`.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), String> {
        if name.len() > 100 {
            return Err(format!("{name:?} is longer than a tar name's 100 bytes"));
        }
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_mode(0o644);
        header.set_uid(0);
        header.set_gid(0);
        header.set_size(bytes.len() as u64);
        header.set_mtime(self.mtime);
        let adding = |error: std::io::Error| format!("adding {name:?} to the archive: {error}");
        header.set_path(name).map_err(adding)?;
        // Its checksum ended as the downloads always had it (six digits, NUL, space), so a
        // class download's bytes stay as before; the crate's own ends seven digits with NUL.
        sign(header.as_mut_bytes());
        self.tar.append(&header, bytes).map_err(adding)
    }

    /// The archive, ended by its two empty blocks.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        self.tar.into_inner().map_err(|error| format!("ending the archive: {error}"))
    }
}

/// Writes the checksum of the header `block` into it: six octal digits, NUL, space.
fn sign(block: &mut [u8]) {
    let digits = format!("{:06o}\0 ", checksum(block));
    block[148..156].copy_from_slice(digits.as_bytes());
}

/// A header's checksum: the sum of its bytes, its checksum field counted as spaces.
fn checksum(block: &[u8]) -> u64 {
    block.iter().enumerate().map(|(at, &byte)| if (148..156).contains(&at) { 32 } else { u64::from(byte) }).sum()
}

/// Whether `bytes` start as a ustar archive does.
pub fn is_tar(bytes: &[u8]) -> bool {
    bytes.get(257..262) == Some(&MAGIC[..5])
}

/// What [`read`] takes.
pub struct Rules<'a> {
    /// Whether a file of this name is taken (names are compared whole).
    pub allowed: &'a dyn Fn(&str) -> bool,
    /// The one folder entry taken ("class/"), if any.
    pub folder: &'a str,
    /// What an allowed name is, in words, for the refusal.
    pub names: &'a str,
    pub max_bytes: u64,
    pub max_entries: usize,
}

/// The regular files of `tar`, in order; `Err` names the first entry refused and why.
pub fn read(tar: &[u8], rules: &Rules) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut at = 0;
    loop {
        let block = tar.get(at..at + BLOCK).ok_or("it ends before its end blocks: the archive is truncated")?;
        if block.iter().all(|&byte| byte == 0) {
            return Ok(files);
        }
        let (name, kind, size) = parse_header(block)?;
        let shown = contention::runs::visible(&name);
        at += BLOCK;
        match kind {
            b'5' if name == rules.folder => continue,
            b'0' | 0 if (rules.allowed)(&name) => {}
            b'0' | 0 | b'5' => {
                return Err(format!("it holds {shown:?}: an archive of the class holds {} only", rules.names))
            }
            b'1' | b'2' => return Err(format!("{shown:?} is a link: an archive of the class holds plain files only")),
            other => {
                let kind = char::from(other).escape_default();
                return Err(format!(
                    "{shown:?} is of tar type '{kind}': an archive of the class holds plain files only"
                ));
            }
        }
        if size > rules.max_bytes {
            return Err(format!("{shown:?} is {size} bytes; an archive's file holds at most {}", rules.max_bytes));
        }
        let size = size as usize;
        let bytes =
            tar.get(at..at + size).ok_or_else(|| format!("{shown:?} is cut short: the archive is truncated"))?;
        if files.iter().any(|(other, _)| *other == name) {
            return Err(format!("it holds {shown:?} twice"));
        }
        if files.len() == rules.max_entries {
            return Err(format!("it holds more than {} files", rules.max_entries));
        }
        files.push((name, bytes.to_vec()));
        at += size.div_ceil(BLOCK) * BLOCK;
    }
}

/// A header's name, type and size, its checksum and magic checked.
fn parse_header(block: &[u8]) -> Result<(String, u8, u64), String> {
    if block[257..262] != MAGIC[..5] {
        return Err("an entry's header is not ustar: not an archive of the class (GET /class.tar writes one)".into());
    }
    let recorded = octal(&block[148..156]).ok_or("an entry's checksum is not a number: the archive is corrupt")?;
    let sum = checksum(block);
    if sum != recorded {
        return Err(format!("an entry's checksum is {recorded}, its header sums to {sum}: the archive is corrupt"));
    }
    if block[345..500].iter().any(|&byte| byte != 0) {
        return Err("an entry's name has a prefix: an archive of the class names its files in 100 bytes".into());
    }
    let name_bytes = &block[..100];
    let name = &name_bytes[..name_bytes.iter().position(|&byte| byte == 0).unwrap_or(100)];
    let name = String::from_utf8(name.to_vec()).map_err(|_| "an entry's name is not UTF-8: the archive is corrupt")?;
    let size =
        octal(&block[124..136]).ok_or_else(|| format!("{name:?}'s size is not a number: the archive is corrupt"))?;
    Ok((name, block[156], size))
}

/// An octal field: digits, ended by NUL or space (leading spaces allowed, as old tars write).
fn octal(field: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(field).ok()?.trim_matches(|c| c == ' ' || c == '\0');
    if text.is_empty() || text.len() > 12 || !text.bytes().all(|byte| (b'0'..=b'7').contains(&byte)) {
        return None;
    }
    u64::from_str_radix(text, 8).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(allowed: &dyn Fn(&str) -> bool) -> Rules<'_> {
        Rules { allowed, folder: "class/", names: "class/NNNN.contention-pack files", max_bytes: 100, max_entries: 3 }
    }

    fn plain(name: &str) -> bool {
        name.starts_with("class/") && name.ends_with(".txt") && !name[6..].contains('/')
    }

    fn files(names: &[&str]) -> Vec<(String, Vec<u8>)> {
        names.iter().map(|name| (name.to_string(), format!("{name} holds this").into_bytes())).collect()
    }

    fn write(files: &[(String, Vec<u8>)], mtime: u64) -> Result<Vec<u8>, String> {
        let mut writer = Writer::new(mtime);
        files.iter().try_for_each(|(name, bytes)| writer.add(name, bytes))?;
        writer.finish()
    }

    /// An archive holding one file named `name` as it is: a climbing or absolute name, which
    /// the crate's writer refuses to write, as a hostile client would write it.
    fn hostile(name: &str) -> Vec<u8> {
        let mut header = tar::Header::new_ustar();
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(4);
        header.set_cksum();
        let mut tar = tar::Builder::new(Vec::new());
        tar.append(&header, &b"evil"[..]).unwrap();
        tar.into_inner().unwrap()
    }

    #[test]
    fn what_is_written_reads_back_and_tar_reads_it_too() {
        let written = files(&["class/a.txt", "class/b.txt"]);
        let tar = write(&written, 1_700_000_000).unwrap();
        assert!(is_tar(&tar) && tar.len() % BLOCK == 0);
        assert_eq!(&tar[148..156], format!("{:06o}\0 ", checksum(&tar[..BLOCK])).as_bytes(), "checksum as before");
        assert_eq!(read(&tar, &rules(&plain)).unwrap(), written);
        let dir = std::env::temp_dir().join(format!("contention-archive-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.tar"), &tar).unwrap();
        if let Ok(listed) = std::process::Command::new("tar").arg("tf").arg(dir.join("t.tar")).output() {
            assert_eq!(String::from_utf8_lossy(&listed.stdout), "class/a.txt\nclass/b.txt\n", "tar lists it");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hostile_archives_are_refused_with_the_entry_named() {
        let refused = |tar: &[u8]| read(tar, &rules(&plain)).unwrap_err();
        let climbing = hostile("class/../../etc/x.txt");
        assert!(refused(&climbing).starts_with("it holds \"class/../../etc/x.txt\": an archive of the class holds"));
        assert!(refused(&hostile("/etc/passwd")).starts_with("it holds \"/etc/passwd\""));
        let mut link = write(&files(&["class/l.txt"]), 0).unwrap();
        link[156] = b'2';
        sign(&mut link[..BLOCK]);
        assert_eq!(refused(&link), "\"class/l.txt\" is a link: an archive of the class holds plain files only");
        let mut corrupt = write(&files(&["class/a.txt"]), 0).unwrap();
        corrupt[0] = b'd';
        assert!(refused(&corrupt).contains("the archive is corrupt"), "{}", refused(&corrupt));
        let huge = write(&[("class/h.txt".to_string(), vec![b'x'; 101])], 0).unwrap();
        assert_eq!(refused(&huge), "\"class/h.txt\" is 101 bytes; an archive's file holds at most 100");
        let whole = write(&files(&["class/a.txt"]), 0).unwrap();
        assert_eq!(refused(&whole[..BLOCK + 4]), "\"class/a.txt\" is cut short: the archive is truncated");
        assert_eq!(refused(&whole[..2 * BLOCK]), "it ends before its end blocks: the archive is truncated");
        let twice = write(&files(&["class/a.txt", "class/a.txt"]), 0).unwrap();
        assert_eq!(refused(&twice), "it holds \"class/a.txt\" twice");
        let many = write(&files(&["class/a.txt", "class/b.txt", "class/c.txt", "class/d.txt"]), 0).unwrap();
        assert_eq!(refused(&many), "it holds more than 3 files");
        assert!(refused(&[0u8; 100]).contains("truncated"));
    }
}
