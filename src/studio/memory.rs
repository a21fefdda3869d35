//! Memory a job freed, given back to the system. glibc's malloc keeps what a thread freed in
//! that thread's arena for its next allocation, so a job that reads a large index or diff on a
//! blocking thread leaves the studio holding its peak for good: the studio's resident memory
//! then grows with the repository's size, not with what it shows. Trimming after each job
//! keeps only what is still in use.

/// Returns the free memory of every malloc arena to the system (`malloc_trim`); nothing where
/// the allocator is not glibc's.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory malloc holds free; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
