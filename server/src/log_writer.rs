//! The log file's writer: request threads never wait on the disk or wake a
//! thread.
//!
//! A request's access line is appended to a shared buffer (a copy under a
//! mutex: no system call). One thread writes the buffer to the file every
//! 50 ms. `tracing-appender`'s non-blocking writer did the same work through
//! a channel whose receiving thread slept between lines, so under load
//! nearly every line woke it: on two cores those wake-ups cost more than
//! formatting the line. Nothing is dropped: past `HIGH_WATER` unwritten
//! bytes the logging thread writes the buffer out itself. `flush` writes
//! whatever is buffered; the process calls it before every exit.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// How often the buffer goes to the file.
const INTERVAL: Duration = Duration::from_millis(50);
/// Unwritten bytes past which a logging thread writes them out itself.
const HIGH_WATER: usize = 8 * 1024 * 1024;

struct Shared<W> {
    buffer: Mutex<Vec<u8>>,
    file: Mutex<W>,
    stopped: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while logging must not silence the log for good.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<W: Write> Shared<W> {
    /// Writes out everything buffered. The file lock is taken first, so two
    /// writers cannot reorder their batches.
    fn write_out(&self) -> io::Result<()> {
        let mut file = lock(&self.file);
        let pending = std::mem::take(&mut *lock(&self.buffer));
        if !pending.is_empty() {
            file.write_all(&pending)?;
        }
        file.flush()
    }
}

/// Cheap to clone; every clone appends to the same buffer.
pub struct BatchedWriter<W> {
    shared: Arc<Shared<W>>,
}

impl<W> Clone for BatchedWriter<W> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<W: Write + Send + 'static> BatchedWriter<W> {
    /// Starts the thread that writes to `file` every `INTERVAL`.
    pub fn start(file: W) -> io::Result<Self> {
        let shared = Arc::new(Shared {
            buffer: Mutex::new(Vec::with_capacity(64 * 1024)),
            file: Mutex::new(file),
            stopped: AtomicBool::new(false),
        });
        let writer = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("tally-log-writer".into())
            .spawn(move || {
                while !writer.stopped.load(Ordering::Acquire) {
                    std::thread::sleep(INTERVAL);
                    if let Err(error) = writer.write_out() {
                        eprintln!("cannot write the log file: {error}");
                    }
                }
            })?;
        Ok(Self { shared })
    }

    /// Writes out everything logged so far.
    pub fn flush(&self) -> io::Result<()> {
        self.shared.write_out()
    }

    /// Writes out what is left and ends the writing thread.
    pub fn stop(&self) -> io::Result<()> {
        self.shared.stopped.store(true, Ordering::Release);
        self.flush()
    }
}

/// What one log event writes into.
pub struct LineSink<'a, W> {
    shared: &'a Shared<W>,
}

impl<W: Write> Write for LineSink<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let over = {
            let mut buffer = lock(&self.shared.buffer);
            buffer.extend_from_slice(bytes);
            buffer.len() > HIGH_WATER
        };
        if over {
            self.shared.write_out()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a, W: Write + 'a> MakeWriter<'a> for BatchedWriter<W> {
    type Writer = LineSink<'a, W>;

    fn make_writer(&'a self) -> Self::Writer {
        LineSink {
            shared: &self.shared,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file stand-in that counts write calls.
    #[derive(Clone, Default)]
    struct Recorder(Arc<Mutex<(Vec<u8>, usize)>>);

    impl Write for Recorder {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let mut inner = self.0.lock().unwrap();
            inner.0.extend_from_slice(bytes);
            inner.1 += 1;
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_arrive_whole_in_order_and_in_few_writes() {
        let file = Recorder::default();
        let writer = BatchedWriter::start(file.clone()).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for n in 0..1000 {
                        let mut sink = writer.make_writer();
                        sink.write_all(format!("{thread} {n}\n").as_bytes())
                            .unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        writer.stop().unwrap();
        let (bytes, writes) = file.0.lock().unwrap().clone();
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4000, "nothing lost");
        for thread in 0..4 {
            let mine: Vec<usize> = lines
                .iter()
                .filter_map(|line| line.split_once(' '))
                .filter(|(t, _)| *t == thread.to_string())
                .map(|(_, n)| n.parse().unwrap())
                .collect();
            assert_eq!(mine, (0..1000).collect::<Vec<_>>(), "in order");
        }
        assert!(writes < 100, "{writes} writes for 4000 lines");
    }

    #[test]
    fn past_the_high_water_mark_the_logging_thread_writes_itself() {
        let file = Recorder::default();
        let writer = BatchedWriter::start(file.clone()).unwrap();
        let line = vec![b'x'; HIGH_WATER + 1];
        writer.make_writer().write_all(&line).unwrap();
        assert_eq!(file.0.lock().unwrap().0.len(), HIGH_WATER + 1);
        writer.stop().unwrap();
    }
}
