"""rawhttp.py - a small keep-alive HTTP/1.1 client over asyncio streams, for the load and crash tests."""
import asyncio
import json


class Connection:
    """One connection to 127.0.0.1:port; request() reconnects if it was closed."""

    def __init__(self, port, timeout=10.0):
        self.port = port
        self.timeout = timeout
        self.reader = self.writer = None

    async def close(self):
        if self.writer:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None

    async def request(self, method, path, body=None, token=None):
        """(status, parsed JSON body); raises OSError or asyncio.TimeoutError
        when the connection fails (the caller decides whether to retry)."""
        try:
            return await asyncio.wait_for(self._request(method, path, body, token), self.timeout)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            await self.close()
            raise ConnectionError("request failed")

    async def _request(self, method, path, body, token):
        if not self.writer:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append("Authorization: Bearer " + token)
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split(b" ", 2)[1])
        length, close = 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        payload = await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, (json.loads(payload) if payload else None)
