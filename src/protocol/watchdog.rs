//! The engine's output, watched while the engine works: when no one can read it any more (the
//! pipe's reader has gone, the terminal has hung up), nothing the engine computes can be told,
//! so it exits at once, whatever it is doing. A failed write would say so too, but only at the
//! next write, which a deep search or perft may not make for hours.

use std::thread;

/// Watches stdout on a thread of its own, which sleeps in `poll` until stdout is gone, then
/// calls `gone`. Does nothing where there is no `poll` (not Unix).
pub fn watch_stdout(gone: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    thread::Builder::new()
        .name("stdout-watch".into())
        .spawn(move || {
            if wait_until_gone(&std::io::stdout()) {
                gone();
            }
        })?;
    Ok(())
}

/// Blocks until `fd` reports an error or a hang-up (true), or polling it fails (false: nothing
/// to watch). Asking for no event at all, only those two wake it: no time is spent polling.
#[cfg(unix)]
fn wait_until_gone(fd: &impl std::os::fd::AsFd) -> bool {
    use rustix::event::{poll, PollFd, PollFlags};
    let gone = PollFlags::ERR | PollFlags::HUP | PollFlags::NVAL;
    loop {
        let mut fds = [PollFd::new(fd, PollFlags::empty())];
        match poll(&mut fds, None) {
            Ok(_) if fds[0].revents().intersects(gone) => return true,
            // Woken for nothing that ends the output: not expected, never a busy loop.
            Ok(_) => thread::sleep(std::time::Duration::from_millis(100)),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => {
                log::warn!("cannot watch stdout: {e}");
                return false;
            }
        }
    }
}

#[cfg(not(unix))]
fn wait_until_gone<T>(_: &T) -> bool {
    false
}
