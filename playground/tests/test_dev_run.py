"""`./dev run` takes a port or an address, and never reinstalls under a server already running."""

import socket
import subprocess

from playground.tests.helpers import ROOT


def run_dev(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "dev"), "run", *args], capture_output=True, text=True, timeout=60)


def test_a_port_already_served_stops_before_installing():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        for target in (str(port), f"127.0.0.1:{port}"):
            done = run_dev(target)
            assert done.returncode == 1
            assert f"something already serves 127.0.0.1:{port}" in done.stderr
            assert "installing" not in done.stdout + done.stderr


def test_the_usage_names_the_port_and_the_address():
    done = subprocess.run([str(ROOT / "dev")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "./dev run [PORT|ADDRESS:PORT]" in done.stderr
