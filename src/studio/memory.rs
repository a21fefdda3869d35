//! Memory a job freed, given back to the system. glibc's malloc keeps what a thread freed in
//! that thread's arena for its next allocation, so a job that reads a large index or diff on a
//! blocking thread leaves the studio holding its peak for good: the studio's resident memory
//! then grows with the repository's size, not with what it shows. Trimming after each job
//! keeps only what is still in use; fewer arenas and a fixed threshold for mapping large
//! blocks keep less of it scattered in the first place.

/// Sets the studio's allocator up, before its threads allocate: two arenas at most (the
/// studio's threads mostly wait), and blocks of 256 KiB or more mapped on their own and
/// unmapped when freed. glibc raises that threshold each time such a block is freed, up to
/// 32 MiB, after which a large index or diff read once stays in the heap.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt changes allocator parameters; it has no memory-safety preconditions.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

/// Returns the free memory of every malloc arena to the system (`malloc_trim`); nothing where
/// the allocator is not glibc's.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory malloc holds free; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
