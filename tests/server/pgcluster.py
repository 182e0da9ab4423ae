"""pgcluster.py - a private PostgreSQL cluster for the tests: initdb and pg_ctl under a temporary folder, on 127.0.0.1 only, stopped by pg_ctl on every exit path; and a relay to it that can fall silent."""
import os
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading

from serverproc import free_port

# Debian's postgresql-15 keeps its programs here; TTT_PG_BIN overrides it.
PG_BIN = os.environ.get("TTT_PG_BIN", "/usr/lib/postgresql/15/bin")
USER = "ttt"            # the cluster's superuser (a role, not a system account)
PASSWORD = "s3cret-Pw-7f1c"  # checked with scram-sha-256 over TCP; no message may show it
RUN_AS = "nobody"       # PostgreSQL refuses to run as root: under root it runs as this


def missing():
    """Why no cluster can be started here, or None."""
    for tool in ("initdb", "pg_ctl", "psql"):
        if not os.access(os.path.join(PG_BIN, tool), os.X_OK):
            return "no %s in %s (apt-get install postgresql-15)" % (tool, PG_BIN)
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root and no runuser to start PostgreSQL as %s" % RUN_AS
    return None


class Cluster:
    """initdb + pg_ctl start in a fresh folder of /tmp (not the tests' own
    temporary folder, which an unprivileged user may not enter)."""

    def __init__(self, fsync=False):
        self.fsync = fsync  # off for the tests: they kill servers, never the machine
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="ttt-pg-")
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "postgres.log")
        self.started = False
        if os.geteuid() == 0:
            import pwd
            pw = pwd.getpwnam(RUN_AS)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o700)

    def _run(self, *argv, timeout=60):
        prefix = ["runuser", "-u", RUN_AS, "--"] if os.geteuid() == 0 else []
        return subprocess.run(prefix + list(argv), capture_output=True, text=True,
                              timeout=timeout, cwd=self.dir)

    def start(self):
        pwfile = os.path.join(self.dir, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if os.geteuid() == 0:
            import pwd
            pw = pwd.getpwnam(RUN_AS)
            os.chown(pwfile, pw.pw_uid, pw.pw_gid)
        r = self._run(os.path.join(PG_BIN, "initdb"), "-D", self.data, "-U", USER,
                      "--pwfile", pwfile, "--auth-host=scram-sha-256", "--auth-local=trust",
                      "-E", "UTF8", "--no-sync", timeout=120)
        os.unlink(pwfile)
        if r.returncode != 0:
            raise RuntimeError("initdb failed: " + r.stdout + r.stderr)
        return self.start_server()

    def start_server(self):
        """pg_ctl start on the cluster's folder (again after stop_server)."""
        opts = "-c listen_addresses=127.0.0.1 -p %d -k %s" % (self.port, self.dir)
        if not self.fsync:
            opts += " -c fsync=off"
        r = self._run(os.path.join(PG_BIN, "pg_ctl"), "start", "-w", "-t", "60", "-D", self.data,
                      "-l", self.log, "-o", opts, timeout=90)
        self.started = True  # stop() even if start failed half-way
        if r.returncode != 0:
            raise RuntimeError("pg_ctl start failed: " + r.stdout + r.stderr + self.server_log())
        return self

    def stop_server(self):
        """pg_ctl stop -m immediate, as a crash: the folder stays."""
        r = self._run(os.path.join(PG_BIN, "pg_ctl"), "stop", "-m", "immediate", "-w", "-t", "30",
                      "-D", self.data, timeout=60)
        if r.returncode != 0:
            raise RuntimeError("pg_ctl stop failed: " + r.stdout + r.stderr)

    def server_log(self):
        try:
            with open(self.log) as f:
                return f.read()
        except OSError:
            return ""

    def postmaster_pid(self):
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def url(self, db="postgres", password=PASSWORD):
        return "postgresql://%s:%s@127.0.0.1:%d/%s" % (USER, password, self.port, db)

    def psql(self, db, sql):
        env = dict(os.environ, PGPASSWORD=PASSWORD)
        r = subprocess.run([os.path.join(PG_BIN, "psql"), "-h", "127.0.0.1", "-p", str(self.port),
                            "-U", USER, "-d", db, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql],
                           capture_output=True, text=True, timeout=60, env=env)
        if r.returncode != 0:
            raise RuntimeError("psql: " + r.stderr)
        return r.stdout

    def create_db(self, name):
        self.psql("postgres", "CREATE DATABASE %s" % name)
        return self.url(name)

    def stop(self):
        if self.started:
            try:
                self._run(os.path.join(PG_BIN, "pg_ctl"), "stop", "-m", "immediate", "-w",
                          "-t", "30", "-D", self.data, timeout=60)
            finally:
                # If pg_ctl could not, the postmaster goes by its pid.
                try:
                    with open(os.path.join(self.data, "postmaster.pid")) as f:
                        os.kill(int(f.readline()), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)


class Relay:
    """A TCP relay on 127.0.0.1 to the cluster's port. silence() cuts every
    relayed connection, and from then on the relay accepts connections and
    never answers them: a database that does not answer (a dead host whose
    address still accepts, a full backlog behind a proxy)."""

    def __init__(self, target_port):
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.silent_accepts = 0  # connections accepted (and left unanswered) since silence()
        self._silence = threading.Event()
        self._silenced = threading.Event()
        self._stop = threading.Event()
        self._held = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        sel = selectors.DefaultSelector()
        sel.register(self.listener, selectors.EVENT_READ)
        while not self._stop.is_set():
            if self._silence.is_set() and not self._silenced.is_set():
                for key in list(sel.get_map().values()):
                    if key.fileobj is not self.listener:
                        sel.unregister(key.fileobj)
                        key.fileobj.close()
                self._silenced.set()
            for key, _ in sel.select(0.1):
                if key.fileobj is self.listener:
                    conn, _ = self.listener.accept()
                    if self._silenced.is_set():
                        self._held.append(conn)
                        self.silent_accepts += 1
                        continue
                    up = socket.create_connection(("127.0.0.1", self.target), timeout=10)
                    sel.register(conn, selectors.EVENT_READ, up)
                    sel.register(up, selectors.EVENT_READ, conn)
                    continue
                try:
                    data = key.fileobj.recv(65536)
                    if data:
                        key.data.sendall(data)
                except OSError:
                    data = b""
                if not data:
                    for s in (key.fileobj, key.data):
                        if s.fileno() >= 0:
                            sel.unregister(s)
                            s.close()
        for key in list(sel.get_map().values()):
            key.fileobj.close()
        for conn in self._held:
            conn.close()

    def silence(self):
        self._silence.set()
        if not self._silenced.wait(30):
            raise RuntimeError("the relay did not fall silent")

    def close(self):
        self._stop.set()
        self._thread.join(30)
