//! Tests of hostile input run their cases here: on a thread with a 256 KiB
//! stack, far less than the 2 MiB of a server worker, so recursion that
//! input can deepen overflows in the test long before it could in
//! production. An overflow aborts the test binary, which fails the run.

/// Runs `case` on a 256 KiB stack and returns what it returned; a panic in
/// `case` is re-raised here.
pub fn on_small_stack<T: Send + 'static>(case: impl FnOnce() -> T + Send + 'static) -> T {
    let thread = std::thread::Builder::new()
        .name("small-stack".into())
        .stack_size(256 * 1024)
        .spawn(case)
        .expect("spawning a test thread");
    match thread.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
