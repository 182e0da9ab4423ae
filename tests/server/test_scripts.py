"""test_scripts.py - the server test scripts' own guarantees: crash.py's one deadline for the whole run, and no server left behind by crash.py, load.py, restart.py, players.py, logins.py or a pytest run on any way out."""
import os
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def servers_under(directory):
    """Pids of the ttt-server processes whose command line names directory."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"ttt-server") and \
                any(str(directory).encode() in a for a in argv):
            found.append(int(pid))
    return found


def wait_for(condition, bound):
    """Polls condition until it holds or bound seconds pass; its last value."""
    until = time.monotonic() + bound
    while True:
        value = condition()
        if value or time.monotonic() >= until:
            return value
        time.sleep(0.1)


def run_script(name, tmp_path, *extra):
    return subprocess.Popen([sys.executable, os.path.join(HERE, name), "--dir",
                             str(tmp_path), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def run_crash(tmp_path, *extra):
    return run_script("crash.py", tmp_path, *extra)


def cleanup(proc, tmp_path):
    """Whatever the test found, nothing it started outlives it."""
    if proc.poll() is None:
        proc.kill()
        proc.wait(30)
    for pid in servers_under(tmp_path):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_crash_test_stops_its_server(tmp_path, sig):
    proc = run_crash(tmp_path, "--ci", "--kills", "1000")
    try:
        assert wait_for(lambda: servers_under(tmp_path), 120), "no server was started"
        time.sleep(1.0)  # under load, with the killer restarting it
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 1, out
        assert "stopped by " + sig.name in out
        assert servers_under(tmp_path) == []
    finally:
        cleanup(proc, tmp_path)


def test_the_crash_test_ends_by_its_deadline_with_its_server(tmp_path):
    # Far more kills than 10 s hold: the run must end at its deadline,
    # report the shortfall and leave no server.
    proc = run_crash(tmp_path, "--kills", "100000", "--clients", "2", "--games", "1",
                     "--deadline", "10")
    try:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 1, out
        assert "kills of 100000 by the kill phase's deadline" in out, out
        assert servers_under(tmp_path) == []
    finally:
        cleanup(proc, tmp_path)


# The signal goes as soon as a server is seen, and on any machine each run
# has far more work left after its first server than that takes: five
# minutes of load, a second start on 100,000 games, a million page
# requests, 100,000 Argon2id logins. (A wait before the signal let a fast
# machine finish the players run first.)
@pytest.mark.parametrize("script,args,sig", [
    ("load.py", ["--games", "50", "--connections", "8", "--seconds", "300"], signal.SIGTERM),
    ("load.py", ["--games", "50", "--connections", "8", "--seconds", "300"], signal.SIGINT),
    ("restart.py", ["--games", "100000"], signal.SIGTERM),
    ("players.py", ["--games", "2000", "--requests", "1000000"], signal.SIGTERM),
    ("logins.py", ["--logins", "100000"], signal.SIGTERM),
])
def test_a_signal_to_a_benchmark_script_stops_its_server(tmp_path, script, args, sig):
    proc = run_script(script, tmp_path, *args)
    try:
        assert wait_for(lambda: servers_under(tmp_path), 120), "no server was started"
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 1, out
        assert f"{script[:-3]}: stopped by {sig.name}" in out, out
        assert servers_under(tmp_path) == []
    finally:
        cleanup(proc, tmp_path)


def test_sigterm_to_pytest_stops_the_fixtures_server(tmp_path):
    # A test that waits on the server fixture; SIGTERM (meson's time-out)
    # must still run the fixture's teardown, as Ctrl-C does.
    (tmp_path / "test_waits.py").write_text(
        "import time\n\n"
        "def test_waits(server):\n"
        "    time.sleep(300)\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
         "--rootdir", str(tmp_path), "--basetemp", str(tmp_path / "inner"),
         str(tmp_path / "test_waits.py")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=HERE))
    try:
        assert wait_for(lambda: servers_under(tmp_path), 120), "no server was started"
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode not in (0, None), out
        assert "stopped by SIGTERM" in out, out
        assert servers_under(tmp_path) == []
    finally:
        cleanup(proc, tmp_path)
