"""A server on its own event loop in a thread of this process: the start screen's Host serves its room from the
window's process (whose own loop is Panda3D's), and tests use it the same way."""
from __future__ import annotations

import asyncio
import threading

from towerworld.net.server import Server


class ServerThread:
    """`Server(data)` listening on `host`:`port` (0: any free port; a taken port falls back to a free one) in a
    daemon thread. `call(coro)` runs a coroutine on its loop and waits for the result; `stop()` ends it."""

    def __init__(self, data: str | None = None, host: str = "127.0.0.1", port: int = 0, **options):
        self.loop = asyncio.new_event_loop()
        self.server = Server(data, **options)
        self.failed: BaseException | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(host, port), name="towerworld-server", daemon=True)
        self.thread.start()
        if not self.ready.wait(30) or self.failed is not None:
            raise OSError(f"the server could not start: {self.failed}")
        self.port = self.server.port
        self.url = f"ws://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{self.port}"

    def _run(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            try:
                self.loop.run_until_complete(self.server.start(host, port))
            except OSError:
                if port == 0:
                    raise
                self.loop.run_until_complete(self.server.start(host, 0))
        except BaseException as e:
            self.failed = e
            self.ready.set()
            return
        self.ready.set()
        self.loop.run_forever()

    def call(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.call(self.server.stop())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
