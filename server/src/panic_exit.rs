//! Process rule: an uncaught panic anywhere (a request handler, a spawned
//! task, a worker thread) is logged and ends the process with exit code 1, so
//! the container's restart policy starts a clean one instead of a process
//! that limps on with a dead task.

/// Exit code after an uncaught panic.
pub const PANIC_EXIT_CODE: i32 = 1;

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|location| location.to_string())
            .unwrap_or_else(|| "unknown location".to_owned());
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|message| (*message).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-text panic payload".to_owned());
        let backtrace = std::backtrace::Backtrace::force_capture();
        if tracing::dispatcher::has_been_set() {
            tracing::error!(%location, panic = %message, %backtrace, "uncaught panic; exiting with code 1");
        } else {
            println!("uncaught panic at {location}: {message}; exiting with code 1\n{backtrace}");
        }
        crate::telemetry::flush();
        std::process::exit(PANIC_EXIT_CODE);
    }));
}
