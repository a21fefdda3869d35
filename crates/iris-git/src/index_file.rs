//! git's index file (`.git/index`) read directly: its entries and its cache tree (the `TREE`
//! extension, which records the tree id of every directory whose entries did not change since
//! a tree was last written). libgit2 reads the same file, but hashes all of it first and does
//! not use the cache tree when diffing, so a staged diff of a large repository costs it a walk
//! of every entry and tree; git skips the directories the cache tree vouches for.
//!
//! Pure: bytes in, entries out. Anything this reader does not know (a split or sparse index,
//! another hash, an unknown version, a malformed file) gives `None`, and the caller falls back
//! to libgit2.

use git2::Oid;

/// An index file's bytes: read into memory (tests), or mapped in place as git maps it, which
/// copies nothing and leaves no anonymous memory behind. git replaces its index by renaming a
/// new file over it, never by writing into it, so a mapping stays whole.
pub(crate) enum Bytes {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Bytes {
    /// The index file at `path`, mapped; `None` when it cannot be opened or mapped.
    pub fn map(path: &std::path::Path) -> Option<Bytes> {
        let file = std::fs::File::open(path).ok()?;
        // SAFETY: git never writes into an index file in place (see above); a file changed
        // under the mapping anyway gives wrong bytes, which the parser bounds-checks.
        let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        Some(Bytes::Mapped(map))
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Read(bytes) => bytes,
            Bytes::Mapped(map) => map,
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Self {
        Bytes::Read(bytes)
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} index bytes", self.len())
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Bytes {}

/// One stage-0 entry of the index: its path, mode and blob (or gitlink) id, read through
/// [`IndexFile`] (the bytes stay where the file put them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    path: std::ops::Range<usize>,
    pub mode: u32,
    /// Where the id's bytes start in the file.
    id_at: usize,
}

/// A directory of the cache tree: its tree id when still valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheTree {
    pub name: Vec<u8>,
    /// `None` when the directory changed since its tree was written.
    pub id: Option<Oid>,
    pub children: Vec<CacheTree>,
}

impl CacheTree {
    pub fn child(&self, name: &[u8]) -> Option<&CacheTree> {
        self.children.iter().find(|c| c.name == name)
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) struct IndexFile {
    /// In the index's order (by path bytes).
    pub entries: Vec<Entry>,
    pub tree: Option<CacheTree>,
    /// The file.
    bytes: Bytes,
    /// Version 4 compresses paths against the previous one: they are written out here. In
    /// earlier versions each path stands whole in the file.
    paths: Option<Vec<u8>>,
}

impl IndexFile {
    pub fn path(&self, entry: &Entry) -> &[u8] {
        let all = self.paths.as_deref().unwrap_or(&self.bytes);
        &all[entry.path.clone()]
    }

    pub fn id(&self, entry: &Entry) -> Oid {
        self.bytes
            .get(entry.id_at..entry.id_at + HASH_LEN)
            .and_then(|raw| Oid::from_bytes(raw).ok())
            .unwrap_or(Oid::ZERO_SHA1)
    }
}

const HASH_LEN: usize = 20;
/// ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each, times 8), id, flags.
const FIXED_LEN: usize = 40 + HASH_LEN + 2;
const EXTENDED: u16 = 0x4000;
const STAGE_MASK: u16 = 0x3000;
const INTENT_TO_ADD: u16 = 0x2000;

/// The index's entries and cache tree; `None` for anything but a plain index of version 2,
/// 3 or 4 with SHA-1 ids, only stage-0 entries and no intent-to-add entry (conflicts and
/// intent-to-add have their own rules in a diff; libgit2 keeps them).
pub(crate) fn parse(file: impl Into<Bytes>) -> Option<IndexFile> {
    let file = file.into();
    let bytes: &[u8] = &file;
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != b"DIRC" {
        return None;
    }
    let version = r.u32()?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = usize::try_from(r.u32()?).ok()?;
    let mut entries = Vec::with_capacity(count.min(bytes.len() / FIXED_LEN));
    let mut paths: Vec<u8> = Vec::new();
    let mut previous = 0..0;
    for _ in 0..count {
        let start = r.at;
        let fixed = r.take(FIXED_LEN)?;
        let mode = u32::from_be_bytes(fixed[24..28].try_into().ok()?);
        let id_at = start + 40;
        let flags = u16::from_be_bytes(fixed[FIXED_LEN - 2..].try_into().ok()?);
        if flags & STAGE_MASK != 0 {
            return None;
        }
        if flags & EXTENDED != 0 {
            if version < 3 {
                return None;
            }
            let extended = u16::from_be_bytes(r.take(2)?.try_into().ok()?);
            if extended & INTENT_TO_ADD != 0 {
                return None;
            }
        }
        let path = if version == 4 {
            let from = paths.len();
            let strip = r.varint()?;
            let keep = previous.len().checked_sub(strip)?;
            paths.extend_from_within(previous.start..previous.start + keep);
            paths.extend_from_slice(r.until_nul()?);
            from..paths.len()
        } else {
            let from = r.at;
            let len = r.until_nul()?.len();
            // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
            let entry_len = r.at - start;
            r.take((8 - entry_len % 8) % 8)?;
            from..from + len
        };
        // A sparse index stores whole directories as entries; a gitlink is a file here.
        if mode == 0o040000 {
            return None;
        }
        previous = path.clone();
        entries.push(Entry { path, mode, id_at });
    }
    let mut tree = None;
    // Extensions, then the trailing hash.
    while bytes.len() - r.at > HASH_LEN {
        let signature = r.take(4)?;
        let size = usize::try_from(r.u32()?).ok()?;
        let data = r.take(size)?;
        match signature {
            b"TREE" => tree = Some(cache_tree(data)?),
            // Optional extensions start with a capital (resolve-undo, the untracked cache,
            // ...); the others change what the entries mean (`link`: a split index, `sdir`: a
            // sparse one).
            [first, ..] if first.is_ascii_uppercase() => {}
            _ => return None,
        }
    }
    Some(IndexFile {
        entries,
        tree,
        paths: (version == 4).then_some(paths),
        bytes: file,
    })
}

/// The `TREE` extension: each directory's name, entry count (-1 when invalid), subtree
/// count and, when valid, its id; children follow their parent.
fn cache_tree(data: &[u8]) -> Option<CacheTree> {
    let mut r = Reader { bytes: data, at: 0 };
    let root = tree_node(&mut r)?;
    (r.at == data.len()).then_some(root)
}

fn tree_node(r: &mut Reader) -> Option<CacheTree> {
    let name = r.until_nul()?.to_vec();
    let count: i64 = std::str::from_utf8(r.until(b' ')?).ok()?.parse().ok()?;
    let subtrees: usize = std::str::from_utf8(r.until(b'\n')?).ok()?.parse().ok()?;
    let id = if count >= 0 {
        Some(Oid::from_bytes(r.take(HASH_LEN)?).ok()?)
    } else {
        None
    };
    let mut children = Vec::with_capacity(subtrees.min(r.bytes.len()));
    for _ in 0..subtrees {
        children.push(tree_node(r)?);
    }
    Some(CacheTree { name, id, children })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }

    /// The bytes up to `stop`, which is consumed.
    fn until(&mut self, stop: u8) -> Option<&'a [u8]> {
        let len = self.bytes.get(self.at..)?.iter().position(|&b| b == stop)?;
        let out = self.take(len)?;
        self.at += 1;
        Some(out)
    }

    fn until_nul(&mut self) -> Option<&'a [u8]> {
        self.until(0)
    }

    /// git's offset varint (index v4 path prefixes): 7 bits a byte, each continuation adds one.
    fn varint(&mut self) -> Option<usize> {
        let mut byte = *self.take(1)?.first()?;
        let mut value = usize::from(byte & 0x7f);
        while byte & 0x80 != 0 {
            byte = *self.take(1)?.first()?;
            value = value
                .checked_add(1)?
                .checked_mul(128)?
                .checked_add(usize::from(byte & 0x7f))?;
        }
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_bytes_are_refused_not_misread() {
        assert_eq!(parse(Vec::new()), None);
        assert_eq!(parse(b"DIRC\0\0\0\x05\0\0\0\0".to_vec()), None, "version 5");
        assert_eq!(
            parse(b"DIRC\0\0\0\x02\0\0\0\x01".to_vec()),
            None,
            "an entry missing"
        );
        let mut huge = b"DIRC\0\0\0\x02\xff\xff\xff\xff".to_vec();
        huge.extend([0u8; 20]);
        assert_eq!(parse(huge), None, "four billion entries claimed");
    }

    #[test]
    fn varints_are_read_as_git_writes_them() {
        let read = |bytes: &[u8]| Reader { bytes, at: 0 }.varint();
        assert_eq!(read(&[0x05]), Some(5));
        assert_eq!(read(&[0x80, 0x00]), Some(128));
        assert_eq!(read(&[0x81, 0x7f]), Some(383));
        assert_eq!(read(&[0x80]), None);
    }
}
