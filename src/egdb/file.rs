//! The slice file: a header (magic, version, game, material, size, CRC-32 of the data) and one
//! byte per index. Written to a temporary file and renamed, so a file in place is complete.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{EgdbError, Material};

const MAGIC: &[u8; 8] = b"TETRADEG";
const VERSION: u32 = 1;
const GAME: &[u8; 8] = b"poddavki";
const HEADER: usize = 8 + 4 + 8 + 4 + 8 + 4;

pub(crate) fn file_name(m: Material) -> String {
    format!("poddavki-{m}.egdb")
}

/// The material a file name names, if it is a slice file's.
pub(crate) fn material_of(name: &str) -> Option<Material> {
    Material::parse(name.strip_prefix("poddavki-")?.strip_suffix(".egdb")?)
}

const fn crc_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static CRC: [u32; 256] = crc_table();

/// The slices whose files a directory holds (other files are ignored), in directory order.
pub(crate) fn slices_in(dir: &Path) -> Result<Vec<Material>, EgdbError> {
    let io = |source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        if let Some(m) = material_of(&entry.map_err(io)?.file_name().to_string_lossy()) {
            found.push(m);
        }
    }
    Ok(found)
}

/// CRC-32 (IEEE 802.3, as zip and PNG use).
pub(crate) fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |c, &b| {
        CRC[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a slice atomically: a temporary file beside the final one, synced, then renamed.
pub(crate) fn write(dir: &Path, m: Material, data: &[u8]) -> Result<PathBuf, EgdbError> {
    let path = dir.join(file_name(m));
    let tmp = dir.join(format!("{}.tmp{}", file_name(m), std::process::id()));
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(GAME);
    header.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    header.extend_from_slice(&(data.len() as u64).to_le_bytes());
    header.extend_from_slice(&crc32(data).to_le_bytes());
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&header)?;
        f.write_all(data)?;
        f.sync_all()
    })();
    written.map_err(io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok(path)
}

/// Reads and checks a slice file: every header field and the data's checksum.
pub(crate) fn read(path: &Path, m: Material) -> Result<Vec<u8>, EgdbError> {
    let mut bytes = std::fs::read(path).map_err(io(path))?;
    let bad = |why: String| EgdbError::BadFile {
        path: path.to_path_buf(),
        why,
    };
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(bad("not a tetrad endgame database file".into()));
    }
    let field = |at: usize, len: usize| &bytes[at..at + len];
    let u32_at = |at| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = u32_at(8);
    if version != VERSION {
        return Err(bad(format!("format version {version}, expected {VERSION}")));
    }
    if field(12, 8) != GAME {
        return Err(bad("not a Poddavki database".into()));
    }
    let got = Material::new(bytes[20], bytes[21], bytes[22], bytes[23]);
    if got != m {
        return Err(bad(format!("holds slice {got}, expected {m}")));
    }
    let mut n = [0u8; 8];
    n.copy_from_slice(field(24, 8));
    let n = u64::from_le_bytes(n);
    let crc = u32_at(32);
    let data = &bytes[HEADER..];
    if n != m.size() || data.len() as u64 != n {
        return Err(bad(format!(
            "{} bytes of data, the header says {n}, the slice has {}",
            data.len(),
            m.size()
        )));
    }
    if crc32(data) != crc {
        return Err(bad("checksum mismatch: the file is corrupt".into()));
    }
    bytes.drain(..HEADER);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn names_round_trip() {
        let m = Material::new(1, 0, 2, 1);
        assert_eq!(material_of(&file_name(m)), Some(m));
        assert_eq!(material_of("poddavki-10x1.egdb"), None);
    }
}
