"""The process every session is forked from, with the tracker already imported.

The table server starts one zygote, isolated (``python -I``: no folder, user site or
``PYTHON*`` variable decides what is imported; the root folder as its working folder; an
environment of the few variables named in :data:`KEPT`). It imports the tracker, the
apps and every ruleset once, moves all of it out of the collector's way, and then only
forks: each session's process starts with the interpreter's pages shared with the zygote
and every other session, and draws its first screen without importing anything.

The server asks over a socket pair (one packet a request: the command line, the
environment, the working folder, and the pty's end as an attached file descriptor); the
zygote answers with the process id, and later with its exit status once it has reaped it.
"""

from __future__ import annotations

import array
import asyncio
import ctypes
import fcntl
import importlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import termios
import traceback
from collections.abc import Callable
from typing import Any

from tracker import cli, rules, startup

KEPT = ("HOME", "USER", "LOGNAME", "TZ", "TRACKER_HOME", "TRACKER_CONFIG",
        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
"""The server's variables a session keeps (where the tracker's files are); a path among
them is made absolute, as sessions run in other folders."""

PATH = "/usr/local/bin:/usr/bin:/bin"


def clean_env() -> dict[str, str]:
    """The environment every session starts from."""
    env = {"PATH": PATH, "LANG": "C.UTF-8"}
    for name in KEPT:
        value = os.environ.get(name)
        if value:
            env[name] = os.path.abspath(value) if name.startswith(("TRACKER_", "XDG_")) \
                else value
    return env


class Zygote:
    """The server's end: :meth:`spawn` forks a session; exits are told to ``on_exit``."""

    def __init__(self) -> None:
        self.waiting: dict[int, Callable[[int], None]] = {}
        """Each running session's process id, and whom to tell its end."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-m", "tracker.table.zygote", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), cwd="/", env=clean_env(),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
        )
        theirs.close()
        self.sock = ours
        self._loop: asyncio.AbstractEventLoop | None = None

    def listen(self) -> None:
        """Hear exits from now on (in the running event loop)."""
        self._loop = asyncio.get_running_loop()
        self.sock.setblocking(False)
        self._loop.add_reader(self.sock.fileno(), self._readable)

    def _readable(self) -> None:
        while True:
            try:
                packet = self.sock.recv(65536)
            except BlockingIOError:
                return
            if not packet:  # the zygote is gone: no session can start any more
                if self._loop is not None:
                    self._loop.remove_reader(self.sock.fileno())
                return
            self._told(json.loads(packet))

    def _told(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if "exit" in message:
            told = self.waiting.pop(int(message["exit"]), None)
            if told is not None:
                told(int(message["status"]))
            return None
        return message

    def spawn(self, argv: list[str], env: dict[str, str], cwd: str, tty: int,
              on_exit: Callable[[int], None]) -> int:
        """Fork a session running ``tracker ARGV`` on ``tty``; its process id. Its exit
        status goes to ``on_exit``."""
        request = json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode()
        self.sock.setblocking(True)
        try:
            self.sock.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                           array.array("i", [tty]))])
            while True:  # exits told meanwhile are passed on; the answer is the next other
                packet = self.sock.recv(65536)
                if not packet:
                    raise OSError("the session starter has stopped")
                answer = self._told(json.loads(packet))
                if answer is not None:
                    break
        finally:
            self.sock.setblocking(False)
        if "error" in answer:
            raise OSError(answer["error"])
        pid = int(answer["pid"])
        self.waiting[pid] = on_exit
        return pid

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.remove_reader(self.sock.fileno())
        self.sock.close()
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- the zygote's own side ------------------------------------------------------------------


PRELOADED = ("tracker.ui.app", "tracker.ui.watch")
"""What every session runs, imported by name: the server itself loads no app."""


def preload() -> None:
    """Import what every session runs: the CLI, both apps, every ruleset and its actions."""
    for module in PRELOADED:
        importlib.import_module(module)
    for ruleset_id in rules.RULESETS:
        ruleset = rules.get(ruleset_id)
        for name in ruleset.actions:
            ruleset.action(name)


def _child(request: dict[str, Any], tty: int) -> None:
    """In the forked process: take the pty as the controlling terminal, run, leave."""
    code = 1
    try:
        os.setsid()
        fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(tty, fd)
        os.close(tty)
        # keys typed before the app starts are neither echoed nor held for a newline
        attrs = termios.tcgetattr(0)
        attrs[0] &= ~(termios.ICRNL | termios.IXON)
        attrs[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
        _name(f"tracker {request['argv'][0]}")
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["tracker", *request["argv"]]
        code = cli.main(list(request["argv"]))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: B036 - whatever happens, the process ends here
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _name(name: str) -> None:
    """The process's name as ps and /proc show it (``tracker open``, ``tracker watch``)."""
    try:
        ctypes.CDLL(None).prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def serve(sock: socket.socket) -> None:
    """Fork on request; tell each exit."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when to stop
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is sock:
                packet, fds, _, _ = socket.recv_fds(sock, 65536, 1)
                if not packet:
                    return
                request = json.loads(packet)
                if not fds:
                    sock.send(json.dumps({"error": "no terminal given"}).encode())
                    continue
                try:
                    pid = os.fork()
                except OSError as exc:
                    os.close(fds[0])
                    sock.send(json.dumps({"error": exc.strerror or str(exc)}).encode())
                    continue
                if pid == 0:
                    selector.close()
                    sock.close()
                    signal.set_wakeup_fd(-1)
                    os.close(wake_r)
                    os.close(wake_w)
                    for sig in (signal.SIGCHLD, signal.SIGINT):
                        signal.signal(sig, signal.SIG_DFL if sig == signal.SIGCHLD
                                      else signal.default_int_handler)
                    _child(request, fds[0])
                os.close(fds[0])
                sock.send(json.dumps({"pid": pid}).encode())
            else:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
        _reap(sock)


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        sock.send(json.dumps({"exit": pid, "status": code if code >= 0 else 128 - code})
                  .encode())


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    preload()
    startup.preloaded()
    serve(sock)


if __name__ == "__main__":
    main()
