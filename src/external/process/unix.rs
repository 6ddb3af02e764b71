//! The Unix implementation: `sh -c` in its own process group, stdout on a pseudo-terminal
//! (or a pipe), poll(2), and `wait4` for each process's CPU time and peak memory.

use super::{Asked, Exchange, Skip, Skipped, Stderr, Take, Usage};
use rustix::event::{PollFd, PollFlags};
use rustix::process::Pid;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest answer line read; a program that writes more without a newline is refused.
const MAX_LINE: usize = 1 << 20;
/// The most of one unterminated stderr line kept (its end: what a message quotes).
const MAX_STDERR_LINE: usize = 64 << 10;
/// How long a program may take to exit once its input is closed at the end of a run.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long to keep reading stderr, and waiting for the exit status, after a program closed
/// its output without answering.
const DEATH_GRACE: Duration = Duration::from_millis(300);
/// How often a wait looks at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(50);
/// How often a pending case is looked at while part of a line without its end is waiting:
/// an answer printed without `\n` is taken once the program goes back to reading.
pub const UNTERMINATED_LOOK: Duration = Duration::from_millis(5);

/// Raised to stop every exchange in flight: their programs are killed at once.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Ends every exchange in flight and refuses new ones: the programs' process groups are
/// killed within `STOP_CHECK`. Called when the run is interrupted (SIGINT, SIGTERM).
pub fn stop_all() {
    STOPPED.store(true, Ordering::SeqCst);
}

/// Lets exchanges run again (a new run in the same process).
pub fn reset_stop() {
    STOPPED.store(false, Ordering::SeqCst);
}

/// A file descriptor read in chunks, split into lines. The search for a line end resumes
/// where the last one stopped, so a long line costs linear time.
struct Lines {
    src: File,
    buf: Vec<u8>,
    /// Bytes of `buf` known to hold no line end.
    scanned: usize,
    eof: bool,
    /// Keep at most this much of an unterminated line (its end), dropping the start.
    cap: Option<usize>,
    /// The last line returned had no line end (the rest at end of file).
    last_unterminated: bool,
}

impl Lines {
    fn new(src: File, cap: Option<usize>) -> Lines {
        Lines {
            src,
            buf: Vec::new(),
            scanned: 0,
            eof: false,
            cap,
            last_unterminated: false,
        }
    }
    fn fd(&self) -> BorrowedFd<'_> {
        self.src.as_fd()
    }
    /// One read (poll said it would not block). A pseudo-terminal whose other end closed
    /// reads as EIO: that is its end of file.
    fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 16384];
        match self.src.read(&mut chunk) {
            Ok(0) => self.eof = true,
            Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::IO.raw_os_error()) => {
                self.eof = true
            }
            Err(e) => return Err(e),
        }
        if let Some(cap) = self.cap {
            if self.buf.len() > 2 * cap && !self.buf[self.scanned..].contains(&b'\n') {
                let cut = self.buf.len() - cap;
                self.buf.drain(..cut);
                self.scanned = 0;
            }
        }
        Ok(())
    }
    /// The next complete line; at end of file, the unterminated rest.
    fn line(&mut self) -> Option<String> {
        let end = match self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
            Some(i) => self.scanned + i + 1,
            None if self.eof && !self.buf.is_empty() => self.buf.len(),
            None => {
                self.scanned = self.buf.len();
                return None;
            }
        };
        self.scanned = 0;
        self.last_unterminated = self.buf[end - 1] != b'\n';
        let text = String::from_utf8_lossy(&self.buf[..end])
            .trim_end_matches(['\n', '\r'])
            .to_string();
        self.buf.drain(..end);
        Some(text)
    }
    /// Whether unread output ends without a line end.
    fn unterminated(&self) -> bool {
        !self.buf.is_empty()
    }
    /// The next complete line, if one is waiting (never the unterminated rest).
    fn complete_line(&mut self) -> Option<String> {
        if self.buf[self.scanned..].contains(&b'\n') {
            self.line()
        } else {
            None
        }
    }
    /// The unterminated rest, taken as a line.
    fn take_rest(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.buf)
            .trim_end_matches(['\n', '\r'])
            .to_string();
        self.buf.clear();
        self.scanned = 0;
        text
    }
}

/// Which of `fds` are readable (or closed) within `timeout` (`None` = wait for ever).
fn poll(fds: &[BorrowedFd<'_>], timeout: Option<Duration>) -> io::Result<Vec<bool>> {
    let mut pfds: Vec<PollFd<'_>> = fds
        .iter()
        .map(|&fd| PollFd::from_borrowed_fd(fd, PollFlags::IN))
        .collect();
    // Whole milliseconds, rounded up, so a deadline is never polled past with a zero
    // timeout in a busy loop.
    let timeout = timeout.map(|t| {
        let ms = t.as_micros().div_ceil(1000).min(i32::MAX as u128) as i64;
        rustix::event::Timespec {
            tv_sec: ms / 1000,
            tv_nsec: ms % 1000 * 1_000_000,
        }
    });
    match rustix::event::poll(&mut pfds, timeout.as_ref()) {
        Ok(_) => Ok(pfds.iter().map(|p| !p.revents().is_empty()).collect()),
        Err(rustix::io::Errno::INTR) => Ok(vec![false; fds.len()]),
        Err(e) => Err(e.into()),
    }
}

/// Why no line came.
enum Stop {
    Timeout,
    Eof,
    TooLong,
    Stopped,
    Io(io::Error),
}

/// A pseudo-terminal for the program's stdout, in raw mode (no output processing: `\n`
/// stays `\n`): C stdio and Python line-buffer their output on a terminal, so a program that
/// never flushes still answers line by line. Returns (our end, the program's end).
fn pty() -> io::Result<(File, OwnedFd)> {
    use rustix::fs::{Mode, OFlags};
    use rustix::pty::OpenptFlags;
    use rustix::termios::{tcgetattr, tcsetattr, OptionalActions};
    // Both ends close on exec: the program gets its end as its stdout, as a copy.
    let master =
        rustix::pty::openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)?;
    rustix::pty::grantpt(&master)?;
    rustix::pty::unlockpt(&master)?;
    let name = rustix::pty::ptsname(&master, Vec::new())?;
    let slave = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    if let Ok(mut t) = tcgetattr(&slave) {
        t.make_raw();
        let _ = tcsetattr(&slave, OptionalActions::Now, &t);
    }
    Ok((File::from(master), slave))
}

/// A descriptor that polls readable once process `pid` (our child) exits; `None` where the
/// kernel has no pidfd (before Linux 5.3, other systems): exits are then looked for between
/// waits.
fn pidfd_open(pid: Pid) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    return rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok();
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}

/// The environment variable that marks a program's processes, and a new mark.
#[cfg(target_os = "linux")]
use super::strays::{kill_marked, new_mark as mark, VAR as MARK_VAR};
#[cfg(not(target_os = "linux"))]
const MARK_VAR: &str = "TILEBENCH_PROGRAM";
#[cfg(not(target_os = "linux"))]
fn mark() -> String {
    String::new()
}
#[cfg(not(target_os = "linux"))]
fn kill_marked(_mark: &str, _leader: libc::pid_t, _all: bool) -> usize {
    0
}

/// A pipe: (read end, write end), both close-on-exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// A running program: `sh -c COMMAND` leading its own process group.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    /// A second read end of the program's stdin pipe: what is still unread there once the
    /// program has ended tells whether it read its case (it does not keep the program from
    /// seeing the end of its input).
    probe: OwnedFd,
    out: Lines,
    err: Lines,
    stderr: Stderr,
    /// Set once the process is reaped: its status and resource use.
    ended: Option<(ExitStatus, Usage)>,
    /// A descriptor that becomes readable when the leader exits (Linux's pidfd), so that an
    /// exit is seen at once, even while a background child holds the output pipes open.
    pidfd: Option<OwnedFd>,
    /// When the leader's exit was seen.
    exit_seen: Option<Instant>,
    /// The mark in the environment of everything the program starts ([`super::strays`]).
    mark: String,
    /// When it started.
    born: Instant,
}

impl Proc {
    fn start(command: &str, launch: Launch) -> Result<Proc, StartError> {
        let pty_out = launch.pty;
        let cannot = |source: io::Error| StartError {
            command: command.to_string(),
            source,
        };
        let (out_ours, out_theirs): (File, Stdio) = if pty_out {
            let (ours, theirs) = pty().map_err(cannot)?;
            (ours, Stdio::from(theirs))
        } else {
            let (r, w) = pipe().map_err(cannot)?;
            (File::from(r), Stdio::from(w))
        };
        let (in_theirs, in_ours) = pipe().map_err(cannot)?;
        let probe = in_theirs.try_clone().map_err(cannot)?;
        let mark = mark();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .env(MARK_VAR, &mark)
            .stdin(Stdio::from(in_theirs))
            .stdout(out_theirs)
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(bytes) = launch.max_memory {
            // SAFETY: the closure only calls setrlimit (one system call: no allocation, no
            // lock), which is async-signal-safe.
            unsafe {
                cmd.pre_exec(move || limit_address_space(bytes));
            }
        }
        let mut child = cmd.spawn().map_err(cannot)?;
        let stdin = Some(ChildStdin::from(in_ours));
        let err = File::from(OwnedFd::from(child.stderr.take().expect("piped stderr")));
        let pid = Pid::from_child(&child);
        Ok(Proc {
            child,
            stdin,
            probe,
            out: Lines::new(out_ours, None),
            err: Lines::new(err, Some(MAX_STDERR_LINE)),
            stderr: Stderr::default(),
            ended: None,
            pidfd: pidfd_open(pid),
            exit_seen: None,
            mark,
            born: Instant::now(),
        })
    }

    fn pid(&self) -> libc::pid_t {
        self.child.id() as libc::pid_t
    }

    fn take_stderr_lines(&mut self) {
        while let Some(l) = self.err.line() {
            self.stderr.push(l);
        }
    }

    /// Reads whatever stderr holds right now, without waiting.
    fn drain_stderr_now(&mut self) -> io::Result<()> {
        // At most 64 reads (1 MiB): a program that writes stderr without pause cannot hold
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
        self.next_line_or_part(deadline, false)
    }

    /// [`Proc::next_line`]; with `part`, also returns ([`Stop::Timeout`]) as soon as part of
    /// a line without its end has come.
    fn next_line_or_part(&mut self, deadline: Option<Instant>, part: bool) -> Result<String, Stop> {
        // At the deadline, one last look without waiting: what is already in the pipe came
        // in time, however late this thread got to run.
        let mut looked_last = false;
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
            if STOPPED.load(Ordering::Relaxed) {
                return Err(Stop::Stopped);
            }
            let wait = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        if looked_last {
                            return Err(Stop::Timeout);
                        }
                        looked_last = true;
                    }
                    left.min(STOP_CHECK)
                }
                None => STOP_CHECK,
            };
            if self.exit_seen.is_some() {
                // The leader has exited and the pipes hold nothing more: whatever a child
                // left running may still print is not its answer.
                self.drain_now().map_err(Stop::Io)?;
                if let Some(l) = self.out.complete_line() {
                    return Ok(l);
                }
                return Err(Stop::Eof);
            }
            self.wait_output(wait).map_err(Stop::Io)?;
            if part && self.out.unterminated() && !self.out.buf.contains(&b'\n') {
                return Err(Stop::Timeout);
            }
        }
    }

    /// Waits up to `wait` for output on stdout or stderr, or for the leader's exit; reads
    /// what came.
    fn wait_output(&mut self, wait: Duration) -> io::Result<()> {
        let mut fds = vec![self.out.fd()];
        let err_at = (!self.err.eof).then(|| {
            fds.push(self.err.fd());
            fds.len() - 1
        });
        let pid_at = self.pidfd.as_ref().map(|fd| {
            fds.push(fd.as_fd());
            fds.len() - 1
        });
        let ready = poll(&fds, Some(wait))?;
        if ready[0] {
            self.out.fill()?;
        }
        if err_at.is_some_and(|i| ready[i]) {
            self.err.fill()?;
            self.take_stderr_lines();
        }
        let gone = match pid_at {
            Some(i) => ready[i],
            // Without a pidfd, the exit is looked for when nothing came.
            None => !ready.contains(&true) && self.exited(),
        };
        if gone && self.exit_seen.is_none() {
            self.exit_seen = Some(Instant::now());
        }
        Ok(())
    }

    /// Reads what stdout and stderr hold right now, without waiting (at most 1 MiB each: a
    /// child that writes without pause cannot hold tilebench here).
    fn drain_now(&mut self) -> io::Result<()> {
        for _ in 0..64 {
            let mut fds = Vec::new();
            if !self.out.eof {
                fds.push(self.out.fd());
            }
            if !self.err.eof {
                fds.push(self.err.fd());
            }
            if fds.is_empty() {
                break;
            }
            let ready = poll(&fds, Some(Duration::ZERO))?;
            if !ready.contains(&true) {
                break;
            }
            let mut i = 0;
            if !self.out.eof {
                if ready[i] {
                    self.out.fill()?;
                }
                i += 1;
            }
            if !self.err.eof && ready[i] {
                self.err.fill()?;
                self.take_stderr_lines();
            }
        }
        Ok(())
    }

    /// Waits until the leader exits or `deadline`, reading stderr (and keeping stdout) as
    /// it comes; once it has exited, reads what the pipes hold and reaps it. The end of the
    /// pipes is not awaited: a child left running may hold them. `None` if it still runs.
    fn settle(&mut self, deadline: Instant) -> Option<(ExitStatus, Usage)> {
        while self.exit_seen.is_none() && self.ended.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || STOPPED.load(Ordering::Relaxed) {
                return None;
            }
            if self.out.eof && self.err.eof {
                // Nothing more can come: wait for the exit alone.
                return self.wait_until(deadline);
            }
            if self.wait_output(left.min(STOP_CHECK)).is_err() {
                break;
            }
        }
        let _ = self.drain_now();
        Some(self.reap())
    }

    /// When the leader was seen to exit, or now.
    fn exit_time(&self) -> Instant {
        self.exit_seen.unwrap_or_else(Instant::now)
    }

    /// Whether the group's leader has exited (not reaped yet: its id stays reserved).
    fn exited(&self) -> bool {
        use rustix::process::{WaitId, WaitIdOptions};
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        let leader = Pid::from_child(&self.child);
        matches!(
            rustix::process::waitid(WaitId::Pid(leader), options),
            Ok(Some(_))
        )
    }

    /// Kills what is left of the process group, then reaps the leader, recording its status,
    /// CPU time and peak memory. The leader is not reaped before the kill, so the group's id
    /// cannot have been taken by another process.
    fn reap(&mut self) -> (ExitStatus, Usage) {
        if let Some(done) = self.ended {
            return done;
        }
        let pid = self.pid();
        // A program that lived long may have started processes whose ids wrapped around past
        // its own: every process is looked at then.
        let all = self.born.elapsed() > Duration::from_secs(1);
        kill_marked(&self.mark, pid, all);
        let leader = Pid::from_child(&self.child);
        let _ = rustix::process::kill_process_group(leader, rustix::process::Signal::KILL);
        // wait4, the one wait that reports the process's resource use, is not in rustix.
        // SAFETY: `status` and `ru` are valid for wait4 to write into for the whole call.
        let done = unsafe {
            let mut status = 0;
            let mut ru: libc::rusage = std::mem::zeroed();
            while libc::wait4(pid, &mut status, 0, &mut ru) < 0
                && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
            {}
            let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
            (
                ExitStatus::from_raw(status),
                Usage {
                    cpu_us: us(ru.ru_utime) + us(ru.ru_stime),
                    max_rss_kb: ru.ru_maxrss.max(0) as u64,
                },
            )
        };
        self.ended = Some(done);
        done
    }

    /// Waits for the leader to exit until `deadline`, then kills the rest of its group and
    /// reaps it; `None` if it is still running (it is left running).
    fn wait_until(&mut self, deadline: Instant) -> Option<(ExitStatus, Usage)> {
        let mut nap = Duration::from_micros(20);
        loop {
            if self.ended.is_some() || self.exit_seen.is_some() || self.exited() {
                return Some(self.reap());
            }
            let now = Instant::now();
            if now >= deadline || STOPPED.load(Ordering::Relaxed) {
                return None;
            }
            std::thread::sleep(nap.min(deadline - now));
            nap = (nap * 2).min(Duration::from_millis(5));
        }
    }

    /// Whether the program, now ended, read (some of) the `sent` bytes of its case: fewer are
    /// left in its stdin pipe. A shell that could not find or run the command (status 127 or
    /// 126) read nothing, whatever the pipe says.
    fn read_input(&self, sent: usize) -> bool {
        if let Some((status, _)) = self.ended {
            if matches!(status.code(), Some(126 | 127)) {
                return false;
            }
        }
        // Where the pipe cannot tell, the case is taken as read: the program is restarted.
        rustix::io::ioctl_fionread(&self.probe).map_or(true, |left| left < sent as u64)
    }

    /// Kills the whole process group and reaps the program.
    fn kill(&mut self) {
        self.reap();
    }

    /// After stdout closed without an answer: how the program ended.
    fn ended(&mut self) -> String {
        match self.settle(Instant::now() + DEATH_GRACE) {
            Some((status, _)) => describe_exit(status),
            None => {
                self.kill();
                "closed its output but did not exit (killed)".into()
            }
        }
    }
}

impl Drop for Proc {
    /// No process of the program outlives it: closes its input (end of file: a
    /// `while (scanf(…) == …)` loop ends), gives it a moment to exit, then kills its whole
    /// process group, background children included.
    fn drop(&mut self) {
        self.stdin = None;
        if self.ended.is_none() {
            let grace = if STOPPED.load(Ordering::Relaxed) {
                Duration::ZERO
            } else {
                EXIT_GRACE
            };
            if self.wait_until(Instant::now() + grace).is_none() {
                self.kill();
            }
        }
    }
}

/// `exited with status 3`, `was killed by signal 11 (SIGSEGV)`; a shell's status 128 + N
/// says its command was killed by signal N: `exited with status 139 (its command was killed
/// by signal 11 (SIGSEGV))`.
fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        let hint = match code {
            127 => " (the shell could not find the command)".to_string(),
            126 => " (the command is not executable)".to_string(),
            129..=159 => format!(
                " (its command was killed by signal {})",
                signal_name(code - 128)
            ),
            _ => String::new(),
        };
        return format!("exited with status {code}{hint}");
    }
    match status.signal() {
        Some(sig) => format!("was killed by signal {}", signal_name(sig)),
        None => format!("ended ({status})"),
    }
}

/// `11 (SIGSEGV)`, or the number alone for a signal without a common name.
fn signal_name(sig: i32) -> String {
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
    format!("{sig}{name}")
}

/// Whether the processes of group `pgid` that read our pipe (inode `stdin`) as their stdin
/// are all asleep (reading it, or a shell waiting for its child), and at least one reads: the
/// program wants more input while a case is pending, so its answer is in a buffer it has not
/// flushed, or it reads all of its input first. Processes with another stdin (a background
/// job's is /dev/null) do not count. Read from /proc; `false` where /proc cannot tell.
///
/// With `threads`, every thread of those processes is looked at, and each must be reading,
/// waiting for a child or for a lock (an idle worker): a thread in any other call (asleep in
/// `nanosleep`, writing) may still print the rest of an answer.
fn all_reading(pgid: libc::pid_t, stdin: u64, threads: bool) -> bool {
    let Some(group) = group_processes(pgid) else {
        return false;
    };
    let ours = format!("pipe:[{stdin}]");
    let (read_nr, wait_nr) = (libc::SYS_read.to_string(), libc::SYS_wait4.to_string());
    let mut reading = 0;
    for (pid, f) in group {
        if f.first().map(String::as_str) == Some("Z") {
            continue;
        }
        let fd0 = std::fs::read_link(format!("/proc/{pid}/fd/0"));
        if fd0.map_or(true, |t| t.to_string_lossy() != ours) {
            continue;
        }
        let Ok(syscall) = std::fs::read_to_string(format!("/proc/{pid}/syscall")) else {
            return false;
        };
        let mut s = syscall.split_whitespace();
        let (nr, fd) = (s.next().unwrap_or(""), s.next());
        if nr == read_nr && fd == Some("0x0") {
            reading += 1;
        } else if nr != wait_nr {
            return false;
        }
        if threads && !threads_waiting(pid, &read_nr, &wait_nr) {
            return false;
        }
    }
    reading > 0
}

/// The processes of group `pgid`, each with the fields of its `/proc/PID/stat` after the
/// command (state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
/// stime …; the command may hold spaces and parentheses); `None` where `/proc` cannot be
/// listed.
fn group_processes(pgid: libc::pid_t) -> Option<Vec<(u32, Vec<String>)>> {
    let mut group = Vec::new();
    for pid in proc_pids()? {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let f: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        if f.get(2).and_then(|g| g.parse::<libc::pid_t>().ok()) == Some(pgid) {
            group.push((pid, f));
        }
    }
    Some(group)
}

/// The ids of the processes `/proc` lists; `None` where it cannot be read.
pub(super) fn proc_pids() -> Option<impl Iterator<Item = u32>> {
    let dir = std::fs::read_dir("/proc").ok()?;
    Some(
        dir.flatten()
            .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse::<u32>().ok())),
    )
}

/// Whether every thread of process `pid` is in read(2), wait4(2) or futex(2).
fn threads_waiting(pid: u32, read_nr: &str, wait_nr: &str) -> bool {
    let futex_nr = libc::SYS_futex.to_string();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().all(|t| {
        std::fs::read_to_string(t.path().join("syscall")).is_ok_and(|s| {
            let nr = s.split_whitespace().next().unwrap_or("");
            nr == read_nr || nr == wait_nr || nr == futex_nr
        })
    })
}

/// What a program's process group is doing, from `/proc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Its processes used CPU time while they were watched.
    Computing,
    /// None used CPU time: asleep (waiting for its input, a lock, a child, a timer).
    Asleep,
    /// `/proc` cannot tell.
    Unknown,
}

/// The CPU time (clock ticks) used so far by the processes of group `pgid`.
fn group_ticks(pgid: libc::pid_t) -> Option<u64> {
    let group = group_processes(pgid)?;
    let field = |f: &[String], i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let ticks = group.iter().map(|(_, f)| field(f, 11) + field(f, 12)).sum();
    (!group.is_empty()).then_some(ticks)
}

/// Whether the program led by `pid` computes: its group's CPU time is read twice,
/// `watch` apart.
pub fn activity(pid: libc::pid_t, watch: Duration) -> Activity {
    if pid <= 0 {
        return Activity::Unknown;
    }
    let Some(before) = group_ticks(pid) else {
        return Activity::Unknown;
    };
    std::thread::sleep(watch);
    match group_ticks(pid) {
        Some(after) if after > before => Activity::Computing,
        Some(_) => Activity::Asleep,
        None => Activity::Unknown,
    }
}

/// The inode of the pipe behind `fd`.
// `st_ino` is not 64 bits on every Unix.
#[allow(clippy::unnecessary_cast)]
fn inode(fd: impl AsFd) -> Option<u64> {
    rustix::fs::fstat(fd).ok().map(|st| st.st_ino as u64)
}

/// How a program is run: stdout on a pseudo-terminal or a pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Stdout on a pseudo-terminal (the default), so stdio line-buffers.
    pub pty: bool,
    /// `--max-memory`: the address space the program may map (`RLIMIT_AS`, set in the
    /// child before it runs the shell, and inherited by what the shell starts).
    pub max_memory: Option<u64>,
}

/// Sets the address-space limit of the calling process (a child between fork and exec).
fn limit_address_space(bytes: u64) -> io::Result<()> {
    let limit = rustix::process::Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    Ok(rustix::process::setrlimit(
        rustix::process::Resource::As,
        limit,
    )?)
}

/// Resets the peak resident memory (VmHWM) of every process of group `pgid` (a program
/// and what its `sh -c` started) to what each holds now, by writing `5` to
/// `/proc/PID/clear_refs` (Linux 4.0 and later); false where that cannot be done.
pub fn reset_peak_rss(pgid: libc::pid_t) -> bool {
    let Some(group) = group_processes(pgid) else {
        return false;
    };
    let mut done = false;
    for (pid, _) in group {
        done |= std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok();
    }
    done
}

/// The largest peak resident memory of group `pgid`'s processes since their start or the
/// last [`reset_peak_rss`], in kilobytes (as `wait4`'s `ru_maxrss`, the largest process's);
/// `None` where it cannot be read.
pub fn peak_rss_kb(pgid: libc::pid_t) -> Option<u64> {
    group_processes(pgid)?
        .into_iter()
        .filter_map(|(pid, _)| process_peak_kb(pid))
        .max()
}

/// One process's `VmHWM` from `/proc/PID/status`, in kilobytes.
fn process_peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// A program that reads case after case (persistent mode).
pub struct Session {
    proc: Proc,
    /// A case has been sent before.
    asked: bool,
    /// The text of the last answer taken: printed again before the next case is sent, it
    /// is a repeat, not the next answer.
    last_answer: Option<String>,
}

/// How long a pending case may sit with the program asleep reading its input before the
/// program is taken for one that does not answer until its input ends.
const BLOCKED_AFTER: Duration = Duration::from_millis(300);

/// A program that cannot be started ([`Session::start`]): the command, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot start `sh -c {command}`: {source}")]
#[non_exhaustive]
pub struct StartError {
    /// The command given to `sh -c`.
    pub command: String,
    /// What the system said.
    pub source: io::Error,
}

impl Session {
    /// Starts the program.
    ///
    /// # Errors
    /// The shell cannot be started ([`StartError`]: the command, and what the system said).
    pub fn start(command: &str, launch: Launch) -> Result<Session, StartError> {
        Proc::start(command, launch).map(|proc| Session {
            proc,
            asked: false,
            last_answer: None,
        })
    }

    /// The leader's process id (for a look at what it is doing).
    pub fn pid(&self) -> libc::pid_t {
        self.proc.pid()
    }

    /// Waits, at most `within`, until the program is back to reading its input, taking in what
    /// it prints meanwhile: a line printed after its answer (a stray debug line, an answer
    /// twice) is then seen as the previous case's before the next case is sent, not read as
    /// that case's answer. A fresh process's first answer is followed by the same case again,
    /// which such a late line would answer.
    pub fn settle(&mut self, within: Duration) {
        let deadline = Instant::now() + within;
        let p = &mut self.proc;
        let ino = p.stdin.as_ref().and_then(inode);
        while Instant::now() < deadline {
            if p.drain_now().is_err() || p.out.eof || p.exited() {
                return;
            }
            if ino.is_none_or(|ino| all_reading(p.pid(), ino, true)) {
                let _ = p.drain_now();
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// After [`Asked::Gone`]: how the program ended (its exit status, and what it printed on
    /// stderr), waiting a moment for it to exit.
    pub fn gone(&mut self) -> Exchange {
        let how = self.proc.ended();
        Exchange::Died {
            how,
            stderr: std::mem::take(&mut self.proc.stderr),
            read: false,
            max_rss_kb: None,
        }
    }

    /// Looks at what the program printed since its last answer, before a case is sent: every
    /// complete line there belongs to the previous case, and is skipped and counted in
    /// `skipped` (a repeat of the last answer, a line `take` skips, or a further answer).
    /// `None` when the case may be sent.
    fn leftover(&mut self, take: &dyn Fn(&str) -> Take, skipped: &mut Skipped) -> Option<Asked> {
        let p = &mut self.proc;
        // Stderr lines left from the previous case belong to no case.
        if p.drain_stderr_now().is_err() {
            return Some(Asked::Gone);
        }
        if !p.out.eof {
            match poll(&[p.out.fd()], Some(Duration::ZERO)) {
                Ok(ready) if ready[0] => {
                    if p.out.fill().is_err() {
                        return Some(Asked::Gone);
                    }
                }
                Ok(_) => {}
                Err(_) => return Some(Asked::Gone),
            }
        }
        while let Some(line) = p.out.complete_line() {
            let why = if self.last_answer.as_deref() == Some(line.as_str()) {
                Take::Skip(Skip::Repeat)
            } else {
                take(&line)
            };
            match why {
                Take::Skip(why) => skipped.add(why, &line),
                // Taken as this case's answer, it would put every later answer one case late.
                Take::Answer => skipped.add(Skip::Extra, &line),
            }
        }
        if p.out.eof || p.exited() {
            return Some(Asked::Gone);
        }
        None
    }

    /// Sends one case and waits for its answer line. `take` says which lines are the
    /// answer; the others are skipped and counted in the exchange.
    pub fn ask(
        &mut self,
        input: &str,
        timeout: Option<Duration>,
        take: &dyn Fn(&str) -> Take,
    ) -> Asked {
        let mut skipped = Skipped::default();
        if let Some(early) = self.leftover(take, &mut skipped) {
            return early;
        }
        let p = &mut self.proc;
        // What a fresh program wrote before its first case (a start-up error) is kept for
        // that case's message; later, what came after the last answer belongs to no case.
        if std::mem::replace(&mut self.asked, true) {
            p.stderr = Stderr::default();
        }
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
        // While no answer comes, look every so often whether the program sleeps reading
        // more input (it will not answer before its input ends).
        let mut unterminated = false;
        let mut soon = UNTERMINATED_LOOK;
        let result = loop {
            // With part of a line, or a line skipped, waiting, the program may be back to
            // reading already: look soon, then less and less often (each look reads /proc).
            let pending =
                p.out.unterminated() || skipped.last.is_some() || skipped.last_repeat.is_some();
            let look = if pending {
                let now = soon;
                soon = (soon * 2).min(BLOCKED_AFTER);
                now
            } else {
                BLOCKED_AFTER
            };
            let slice = Instant::now() + look;
            let until = deadline.map_or(slice, |d| d.min(slice));
            let got = match p.next_line_or_part(Some(until), !pending) {
                Err(Stop::Timeout) if deadline.is_none_or(|d| Instant::now() < d) => {
                    let ino = p.stdin.as_ref().and_then(inode);
                    // Every thread must be waiting before what it printed is taken as done
                    // (a thread may still be writing the rest of the line).
                    let part = p.out.unterminated()
                        || skipped.last.is_some()
                        || skipped.last_repeat.is_some();
                    if !ino.is_some_and(|ino| all_reading(p.pid(), ino, part)) {
                        continue;
                    }
                    // Reading again may mean it answered after the wait ended and before
                    // the look (a loaded machine descheduled this thread): an answer
                    // waiting in the pipe is the answer, not a sign of a held-back one.
                    match p.next_line(Some(Instant::now())) {
                        Err(Stop::Timeout) => match went_back_to_reading(p, &mut skipped) {
                            Some(line) => {
                                unterminated = line.1;
                                break Ok(line.0);
                            }
                            None => return Asked::Blocked,
                        },
                        other => other,
                    }
                }
                other => other,
            };
            match got {
                Ok(line) => match take(&line) {
                    Take::Skip(why) => skipped.add(why, &line),
                    Take::Answer => break Ok(line),
                },
                Err(Stop::Eof) if skipped.last.is_some() || skipped.last_repeat.is_some() => {
                    // It ended after printing lines that are not answers: the last is what it
                    // said about this case.
                    break Ok(skipped.take_last().unwrap_or_default());
                }
                Err(e) => break Err(e),
            }
        };
        if let Ok(line) = &result {
            self.last_answer = Some(line.clone());
        }
        Asked::Done(finish_ask(
            p,
            result,
            t0,
            input.len(),
            skipped,
            unterminated,
        ))
    }
}

/// A program asleep reading its input with a case pending and no answer line: what it
/// printed without a line end is its answer (`true`), or else the last line it printed that
/// is not an answer, or the previous case's answer printed again (its answers are late);
/// `None` when it printed nothing (its answer is held in a buffer).
fn went_back_to_reading(p: &mut Proc, skipped: &mut Skipped) -> Option<(String, bool)> {
    // A prompt for the next input (`Enter board: `) is not an answer: the line before it is.
    let prompt = p.out.unterminated() && {
        let rest = String::from_utf8_lossy(&p.out.buf);
        rest.trim_end().ends_with([':', '>', '?'])
    };
    if p.out.unterminated() && !(prompt && skipped.last.is_some()) {
        return Some((p.out.take_rest(), true));
    }
    skipped.take_last().map(|line| (line, false))
}

/// The exchange a persistent ask ended in.
fn finish_ask(
    p: &mut Proc,
    result: Result<String, Stop>,
    t0: Instant,
    sent: usize,
    skipped: Skipped,
    unterminated: bool,
) -> Exchange {
    match result {
        Ok(line) => Exchange::Answer {
            line,
            stderr: std::mem::take(&mut p.stderr),
            elapsed: t0.elapsed(),
            usage: None,
            peak_rss_kb: None,
            skipped,
            unterminated,
        },
        Err(Stop::Timeout) => {
            let elapsed = t0.elapsed();
            let unterminated = p.out.unterminated();
            p.kill();
            Exchange::Timeout {
                stderr: std::mem::take(&mut p.stderr),
                elapsed,
                unterminated,
            }
        }
        Err(Stop::Eof) => {
            let how = p.ended();
            Exchange::Died {
                how,
                stderr: std::mem::take(&mut p.stderr),
                read: p.read_input(sent),
                // Over the process's life: every case it answered before, and this one.
                max_rss_kb: p.ended.map(|(_, u)| u.max_rss_kb),
            }
        }
        Err(Stop::Stopped) => {
            p.kill();
            Exchange::Stopped
        }
        Err(Stop::TooLong) => Exchange::Failed(format!(
            "wrote more than {MAX_LINE} bytes without a newline"
        )),
        Err(Stop::Io(e)) => Exchange::Failed(format!("cannot read its output: {e}")),
    }
}

/// Runs one process for `input` and closes its stdin: per-case mode (one case), and batch
/// mode (every case, `lines` answers; `take` says which lines are answers). Returns the
/// answer lines as they came, or how it ended without them; `elapsed` is the process's wall
/// time, from start to the exit of `sh -c` (a child it left running is not waited for).
pub fn run_once(
    command: &str,
    input: &str,
    lines: usize,
    timeout: Option<Duration>,
    launch: Launch,
    take: &dyn Fn(&str) -> Take,
) -> Exchange {
    let t0 = Instant::now();
    let mut p = match Proc::start(command, launch) {
        Ok(p) => p,
        Err(e) => return Exchange::Failed(e.to_string()),
    };
    let deadline = timeout.map(|t| t0 + t);
    let mut writer = None;
    if let Some(mut stdin) = p.stdin.take() {
        // A program may exit without reading its input; that is for its answer to show.
        // Large inputs are written by a thread, so a program that answers as it reads
        // cannot deadlock against a full pipe.
        let input = input.to_string();
        writer = Some(std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        }));
    }
    let mut got = Vec::with_capacity(lines);
    let mut skipped = Skipped::default();
    while got.len() < lines {
        match p.next_line(deadline) {
            Ok(line) => match take(&line) {
                Take::Skip(why) => skipped.add(why, &line),
                Take::Answer => got.push(line),
            },
            Err(Stop::Eof)
                if got.is_empty() && (skipped.last.is_some() || skipped.last_repeat.is_some()) =>
            {
                // It ended after lines that are not answers: the last is its answer.
                got.extend(skipped.take_last());
                break;
            }
            Err(stop) => {
                let fed = Fed {
                    writer,
                    sent: input.len(),
                };
                return ended_early(p, stop, got, deadline, t0, fed);
            }
        }
    }
    // The case ends when the process does: it may print counters on stderr after its answer
    // and exit. A process that lingers after answering is ended: its answer is in.
    let linger = Instant::now() + EXIT_GRACE;
    let until = deadline.map_or(linger, |d| d.min(linger));
    let done = p.settle(until);
    let elapsed = p.exit_time() - t0;
    let (_, usage) = done.unwrap_or_else(|| p.reap());
    Exchange::Answer {
        line: got.join("\n"),
        stderr: std::mem::take(&mut p.stderr),
        elapsed,
        usage: Some(usage),
        peak_rss_kb: None,
        skipped,
        unterminated: p.out.last_unterminated,
    }
}

/// What a one-process run was given: the thread writing its input, and how many bytes.
struct Fed {
    writer: Option<std::thread::JoinHandle<()>>,
    sent: usize,
}

impl Fed {
    /// Whether the ended program `p` read (some of) its input; the writer is given a moment
    /// to finish first, so that input not yet written is not taken for input read.
    fn read_by(self, p: &Proc) -> bool {
        if let Some(w) = self.writer {
            let until = Instant::now() + DEATH_GRACE;
            while !w.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        p.read_input(self.sent)
    }
}

/// A one-process run that did not give all its answer lines.
fn ended_early(
    mut p: Proc,
    stop: Stop,
    got: Vec<String>,
    deadline: Option<Instant>,
    t0: Instant,
    fed: Fed,
) -> Exchange {
    let timed_out = |mut p: Proc, unterminated: bool| {
        p.kill();
        Exchange::Timeout {
            stderr: std::mem::take(&mut p.stderr),
            elapsed: t0.elapsed(),
            unterminated,
        }
    };
    match stop {
        Stop::Timeout => {
            let u = p.out.unterminated();
            timed_out(p, u)
        }
        Stop::Eof => {
            let how = match deadline {
                // Waits for the exit, within the timeout.
                Some(d) => match p.settle(d) {
                    Some((status, _)) => describe_exit(status),
                    None => return timed_out(p, false),
                },
                None => p.ended(),
            };
            let max_rss_kb = p.ended.map(|(_, u)| u.max_rss_kb);
            let answered = if got.is_empty() {
                String::new()
            } else {
                format!(" after {} answer line(s)", got.len())
            };
            Exchange::Died {
                how: format!("{how}{answered}"),
                stderr: std::mem::take(&mut p.stderr),
                read: fed.read_by(&p),
                max_rss_kb,
            }
        }
        Stop::Stopped => {
            p.kill();
            Exchange::Stopped
        }
        Stop::TooLong => {
            p.kill();
            Exchange::Failed(format!(
                "wrote more than {MAX_LINE} bytes without a newline"
            ))
        }
        Stop::Io(e) => {
            p.kill();
            Exchange::Failed(format!("cannot read its output: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::io::{fcntl_getfd, FdFlags};

    /// The pseudo-terminal is raw (a `\n` written by the program arrives as `\n`, not the
    /// terminal's `\r\n`, and a `\r` stays), and neither end leaks into other programs.
    #[test]
    fn the_pty_is_raw_and_closes_on_exec() {
        let (mut ours, theirs) = pty().unwrap();
        assert!(fcntl_getfd(&ours).unwrap().contains(FdFlags::CLOEXEC));
        assert!(fcntl_getfd(&theirs).unwrap().contains(FdFlags::CLOEXEC));
        let mut program = File::from(theirs);
        program.write_all(b"7 moves\nx\ry\n").unwrap();
        let want = b"7 moves\nx\ry\n";
        let mut got = Vec::new();
        while got.len() < want.len() {
            assert!(poll(&[ours.as_fd()], Some(Duration::from_secs(5))).unwrap()[0]);
            let mut chunk = [0u8; 64];
            let n = ours.read(&mut chunk).unwrap();
            got.extend_from_slice(&chunk[..n]);
        }
        assert_eq!(got, want);
        // The program's end closed: ours reads as the end of the output (EIO on a pty).
        drop(program);
        let mut lines = Lines::new(ours, None);
        while !lines.eof {
            lines.fill().unwrap();
        }
        assert!(lines.buf.is_empty());
    }

    /// poll waits out its timeout on a silent pipe, sees what was written, and sees the end
    /// of a pipe whose writer closed; the pipe's ends close on exec.
    #[test]
    fn poll_sees_data_and_the_end_of_a_pipe() {
        let (r, w) = pipe().unwrap();
        assert!(fcntl_getfd(&r).unwrap().contains(FdFlags::CLOEXEC));
        assert!(fcntl_getfd(&w).unwrap().contains(FdFlags::CLOEXEC));
        let t0 = Instant::now();
        assert_eq!(
            poll(&[r.as_fd()], Some(Duration::from_millis(30))).unwrap(),
            [false]
        );
        assert!(t0.elapsed() >= Duration::from_millis(30));
        assert_eq!(poll(&[r.as_fd()], Some(Duration::ZERO)).unwrap(), [false]);
        let mut w = File::from(w);
        w.write_all(b"1 2 3\n").unwrap();
        assert_eq!(
            rustix::io::ioctl_fionread(&r).unwrap(),
            6,
            "FIONREAD counts the bytes waiting"
        );
        let (r2, w2) = pipe().unwrap();
        drop(w2);
        assert_eq!(
            poll(&[r2.as_fd(), r.as_fd()], None).unwrap(),
            [true, true],
            "a closed writer and waiting bytes both wake poll"
        );
        drop(w);
    }

    /// A program that cannot start: the command and the system's reason, in one sentence.
    #[test]
    fn a_start_error_names_the_command_and_the_reason() {
        let e = StartError {
            command: "./eight".into(),
            source: io::Error::from_raw_os_error(libc::EMFILE),
        };
        assert_eq!(e.command, "./eight");
        assert_eq!(e.source.raw_os_error(), Some(libc::EMFILE));
        assert_eq!(
            e.to_string(),
            format!(
                "cannot start `sh -c ./eight`: {}",
                io::Error::from_raw_os_error(libc::EMFILE)
            )
        );
        assert!(e.to_string().contains("Too many open files"), "{e}");
    }

    /// A program's exit is seen (waitid without reaping it), its pidfd wakes poll, and the
    /// reap gives its status.
    #[test]
    fn an_exit_is_seen_before_the_reap_and_the_reap_gives_its_status() {
        let mut p = Proc::start(
            "read line; exit 3",
            Launch {
                pty: false,
                max_memory: None,
            },
        )
        .unwrap();
        assert!(!p.exited());
        p.stdin = None;
        let until = Instant::now() + Duration::from_secs(10);
        while !p.exited() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(p.exited());
        if let Some(fd) = &p.pidfd {
            assert_eq!(poll(&[fd.as_fd()], Some(Duration::ZERO)).unwrap(), [true]);
        }
        let (status, _) = p.reap();
        assert_eq!(status.code(), Some(3));
    }
}
