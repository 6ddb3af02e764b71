//! The Unix implementation: `sh -c`, process groups, poll(2).

use super::{Asked, Exchange, Stderr};
use std::io::{self, Read, Write};
use std::os::unix::io::{AsRawFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The longest answer line read; a program that writes more without a newline is refused.
const MAX_LINE: usize = 1 << 20;
/// How long a program may take to exit once its input is closed at the end of a run.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long to keep reading stderr, and waiting for the exit status, after a program closed
/// its output without answering.
const DEATH_GRACE: Duration = Duration::from_millis(300);

/// A pipe read in chunks, split into lines.
struct Pipe<R> {
    src: R,
    buf: Vec<u8>,
    eof: bool,
}

impl<R: Read + AsRawFd> Pipe<R> {
    fn new(src: R) -> Pipe<R> {
        Pipe {
            src,
            buf: Vec::new(),
            eof: false,
        }
    }
    fn fd(&self) -> RawFd {
        self.src.as_raw_fd()
    }
    /// One read (poll said it would not block).
    fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 8192];
        match self.src.read(&mut chunk) {
            Ok(0) => self.eof = true,
            Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }
    /// The next complete line; at end of file, the unterminated rest.
    fn line(&mut self) -> Option<String> {
        let end = match self.buf.iter().position(|&b| b == b'\n') {
            Some(i) => i + 1,
            None if self.eof && !self.buf.is_empty() => self.buf.len(),
            None => return None,
        };
        let raw: Vec<u8> = self.buf.drain(..end).collect();
        let text = String::from_utf8_lossy(&raw);
        Some(text.trim_end_matches(['\n', '\r']).to_string())
    }
}

/// Which of `fds` are readable (or closed) within `timeout` (`None` = wait for ever).
fn poll(fds: &[RawFd], timeout: Option<Duration>) -> io::Result<Vec<bool>> {
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = match timeout {
        None => -1,
        // Round up, so a deadline is never polled past with a zero timeout in a busy loop.
        Some(t) => t.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int,
    };
    // SAFETY: `pfds` is a valid array of `pfds.len()` pollfd structures for the whole call.
    let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, ms) };
    if n < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(vec![false; fds.len()]);
        }
        return Err(e);
    }
    Ok(pfds.iter().map(|p| p.revents != 0).collect())
}

enum Stop {
    Timeout,
    Eof,
    TooLong,
    Io(io::Error),
}

/// A running program.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Pipe<ChildStdout>,
    err: Pipe<ChildStderr>,
    stderr: Stderr,
}

impl Proc {
    fn start(command: &str) -> Result<Proc, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start `sh -c {command}`: {e}"))?;
        let stdin = child.stdin.take();
        let out = Pipe::new(child.stdout.take().expect("piped stdout"));
        let err = Pipe::new(child.stderr.take().expect("piped stderr"));
        Ok(Proc {
            child,
            stdin,
            out,
            err,
            stderr: Stderr::default(),
        })
    }

    fn take_stderr_lines(&mut self) {
        while let Some(l) = self.err.line() {
            self.stderr.push(l);
        }
    }

    /// Reads whatever stderr holds right now, without waiting.
    fn drain_stderr_now(&mut self) -> io::Result<()> {
        // At most 64 reads (512 KiB): a program that writes stderr without pause cannot hold
        // tilebench here.
        for _ in 0..64 {
            if self.err.eof || !poll(&[self.err.fd()], Some(Duration::ZERO))?[0] {
                break;
            }
            self.err.fill()?;
            self.take_stderr_lines();
        }
        Ok(())
    }

    /// Waits for the next stdout line, reading stderr meanwhile.
    fn next_line(&mut self, deadline: Option<Instant>) -> Result<String, Stop> {
        loop {
            if let Some(l) = self.out.line() {
                // Whatever was written to stderr before the answer is in the pipe by now.
                self.drain_stderr_now().map_err(Stop::Io)?;
                return Ok(l);
            }
            if self.out.eof {
                return Err(Stop::Eof);
            }
            if self.out.buf.len() > MAX_LINE {
                return Err(Stop::TooLong);
            }
            let wait = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(Stop::Timeout);
                    }
                    Some(left)
                }
                None => None,
            };
            let mut fds = vec![self.out.fd()];
            if !self.err.eof {
                fds.push(self.err.fd());
            }
            let ready = poll(&fds, wait).map_err(Stop::Io)?;
            if ready[0] {
                self.out.fill().map_err(Stop::Io)?;
            }
            if ready.get(1) == Some(&true) {
                self.err.fill().map_err(Stop::Io)?;
                self.take_stderr_lines();
            }
        }
    }

    /// Reads stdout and stderr to their ends (stdout is discarded), until `deadline`.
    fn drain_to_eof(&mut self, deadline: Instant) -> io::Result<bool> {
        while !(self.out.eof && self.err.eof) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(false);
            }
            let pipes: Vec<RawFd> = [(!self.out.eof).then(|| self.out.fd())]
                .into_iter()
                .chain([(!self.err.eof).then(|| self.err.fd())])
                .flatten()
                .collect();
            let ready = poll(&pipes, Some(left))?;
            let mut i = 0;
            if !self.out.eof {
                if ready[i] {
                    self.out.fill()?;
                    self.out.buf.clear();
                }
                i += 1;
            }
            if !self.err.eof && ready[i] {
                self.err.fill()?;
                self.take_stderr_lines();
            }
        }
        Ok(true)
    }

    /// Waits for the process to exit until `deadline`; `None` if it is still running.
    fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        let mut nap = Duration::from_micros(20);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep(nap.min(deadline - now));
            nap = (nap * 2).min(Duration::from_millis(5));
        }
    }

    /// Kills the whole process group and reaps the program.
    fn kill(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: plain syscall. The group is led by our child, which is not reaped yet (this is
        // called before any successful wait), so the id cannot name another process group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }

    /// After stdout closed without an answer: how the program ended.
    fn ended(&mut self) -> String {
        let deadline = Instant::now() + DEATH_GRACE;
        let _ = self.drain_to_eof(deadline);
        match self.wait_until(deadline) {
            Some(status) => describe_exit(status),
            None => {
                self.kill();
                "closed its output but did not exit (killed)".into()
            }
        }
    }
}

/// `exited with status 3`, `was killed by signal 11 (SIGSEGV)`.
fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        let hint = match code {
            0 => " (if it solves one case per run, use --solver-spawn per-case)",
            127 => " (the shell could not find the command)",
            126 => " (the command is not executable)",
            _ => "",
        };
        return format!("exited with status {code}{hint}");
    }
    match status.signal() {
        Some(sig) => {
            let name = match sig {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGPIPE => " (SIGPIPE)",
                libc::SIGTERM => " (SIGTERM)",
                _ => "",
            };
            format!("was killed by signal {sig}{name}")
        }
        None => format!("ended ({status})"),
    }
}

/// A program that reads case after case (persistent mode).
pub struct Session {
    proc: Proc,
}

impl Session {
    pub fn start(command: &str) -> Result<Session, String> {
        Proc::start(command).map(|proc| Session { proc })
    }

    /// Sends one case and waits for its answer line.
    pub fn ask(&mut self, input: &str, timeout: Option<Duration>) -> Asked {
        let p = &mut self.proc;
        // Stderr lines left from the previous case belong to no case.
        if p.drain_stderr_now().is_err() {
            return Asked::Gone;
        }
        // Stdout must be empty between cases: anything there would be taken as this case's
        // answer, and every later answer would be one case late.
        if p.out.buf.is_empty() && !p.out.eof {
            match poll(&[p.out.fd()], Some(Duration::ZERO)) {
                Ok(ready) if ready[0] => {
                    if p.out.fill().is_err() {
                        return Asked::Gone;
                    }
                }
                Ok(_) => {}
                Err(_) => return Asked::Gone,
            }
        }
        if !p.out.buf.is_empty() {
            return Asked::Extra(String::from_utf8_lossy(&p.out.buf).into_owned());
        }
        if p.out.eof {
            return Asked::Gone;
        }
        p.stderr = Stderr::default();
        let t0 = Instant::now();
        let deadline = timeout.map(|t| t0 + t);
        let stdin = p
            .stdin
            .as_mut()
            .expect("stdin open while the session lives");
        if let Err(e) = stdin
            .write_all(input.as_bytes())
            .and_then(|_| stdin.flush())
        {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Asked::Gone;
            }
            return Asked::Done(Exchange::Failed(format!("cannot write its input: {e}")));
        }
        Asked::Done(match p.next_line(deadline) {
            Ok(line) => Exchange::Answer {
                line,
                stderr: std::mem::take(&mut p.stderr),
                elapsed: t0.elapsed(),
            },
            Err(Stop::Timeout) => {
                let elapsed = t0.elapsed();
                p.kill();
                Exchange::Timeout {
                    stderr: std::mem::take(&mut p.stderr),
                    elapsed,
                }
            }
            Err(Stop::Eof) => {
                let how = p.ended();
                Exchange::Died {
                    how,
                    stderr: std::mem::take(&mut p.stderr),
                }
            }
            Err(Stop::TooLong) => Exchange::Failed(format!(
                "wrote more than {MAX_LINE} bytes without a newline"
            )),
            Err(Stop::Io(e)) => Exchange::Failed(format!("cannot read its output: {e}")),
        })
    }
}

impl Drop for Session {
    /// Closes the program's input (end of file: a `while (scanf(…) == …)` loop ends) and gives
    /// it a moment to exit, then kills what is left.
    fn drop(&mut self) {
        let p = &mut self.proc;
        p.stdin = None;
        if p.wait_until(Instant::now() + EXIT_GRACE).is_none() {
            p.kill();
        }
    }
}

/// Runs one process for one case (per-case mode): writes the input, closes stdin, takes the
/// first stdout line as the answer and waits for the exit. `elapsed` is the process's wall time,
/// from start to exit.
pub fn run_once(command: &str, input: &str, timeout: Option<Duration>) -> Exchange {
    let t0 = Instant::now();
    let mut p = match Proc::start(command) {
        Ok(p) => p,
        Err(e) => return Exchange::Failed(e),
    };
    let deadline = timeout.map(|t| t0 + t);
    if let Some(mut stdin) = p.stdin.take() {
        // A program may exit without reading its input; that is for its answer to show.
        let _ = stdin.write_all(input.as_bytes());
    }
    let timed_out = |mut p: Proc| {
        p.kill();
        Exchange::Timeout {
            stderr: std::mem::take(&mut p.stderr),
            elapsed: t0.elapsed(),
        }
    };
    let line = match p.next_line(deadline) {
        Ok(line) => line,
        Err(Stop::Timeout) => return timed_out(p),
        Err(Stop::Eof) => {
            let how = match deadline {
                // Reads stderr to its end and waits for the exit, within the timeout.
                Some(d) => match (p.drain_to_eof(d), p.wait_until(d)) {
                    (Ok(true), Some(status)) => describe_exit(status),
                    _ => return timed_out(p),
                },
                None => p.ended(),
            };
            return Exchange::Died {
                how,
                stderr: std::mem::take(&mut p.stderr),
            };
        }
        Err(Stop::TooLong) => {
            p.kill();
            return Exchange::Failed(format!(
                "wrote more than {MAX_LINE} bytes without a newline"
            ));
        }
        Err(Stop::Io(e)) => {
            p.kill();
            return Exchange::Failed(format!("cannot read its output: {e}"));
        }
    };
    // The case ends when the process does: read the rest of its output, then reap it.
    let far = deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365));
    match p.drain_to_eof(far) {
        Ok(true) => {}
        Ok(false) => return timed_out(p),
        Err(e) => {
            p.kill();
            return Exchange::Failed(format!("cannot read its output: {e}"));
        }
    }
    if p.wait_until(far).is_none() {
        return timed_out(p);
    }
    Exchange::Answer {
        line,
        stderr: std::mem::take(&mut p.stderr),
        elapsed: t0.elapsed(),
    }
}
