"""A throwaway redis-server on a free loopback port, for the tests that stop Redis (the shared one is never touched)."""

import os
import signal
import socket
import subprocess
import tempfile
import time

from tests.server_env import free_port, stop


class OwnRedis:
    """`kill()` stops it dead (connections refused), `freeze()` stops it answering while its port still accepts
    connections (a hung server or a network that drops packets), `start()` brings a fresh, empty one back on the
    same port."""

    def __init__(self):
        self.port = free_port()
        self.directory = tempfile.TemporaryDirectory(prefix="own-redis-")
        self.proc = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        cmd += ["--dir", self.directory.name]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def freeze(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.thaw()
            stop(self.proc)
        self.directory.cleanup()
