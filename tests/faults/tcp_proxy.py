"""A loopback TCP proxy the fault tests put between a server and the shared PostgreSQL, to cut the database away
from that server alone (the shared PostgreSQL is never stopped)."""

import contextlib
import socket
import threading

from tests.server_env import free_port


class TcpProxy:
    """Forwards 127.0.0.1:`port` to `upstream`. `cut()` drops every open connection and answers new ones by closing
    them at once (as a PostgreSQL that is shutting down or starting does); `restore()` forwards again."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.port = free_port()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._cut = False
        self._running = True
        self._acceptor = threading.Thread(target=self._accept, daemon=True)
        self._acceptor.start()

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            doomed, self._open = self._open, set()
        for sock in doomed:
            _close(sock)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def stop(self) -> None:
        self._running = False
        self.cut()
        self._acceptor.join(timeout=5)
        self._listener.close()

    def _accept(self) -> None:
        while self._running:
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                refused = self._cut
            if refused:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(target)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
