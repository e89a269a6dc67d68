"""Outages for the tests: a Redis and Celery workers (with beat) of a test's own, on a free
port, started and stopped by the test; a cache on a port nobody listens on. Nothing here
touches the machine's shared Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection

from homegame.celery import app as celery_app
from tests.workers import worker_spawn, worker_stop

# The sweeps run with their defaults (20 s apart, a job silent 60 s is stale): what is
# checked is that things finish; the deadline only stops a test that would hang.
DEADLINE = 240


def wait_for(predicate, timeout: float, what: str) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        time.sleep(0.25)
    pytest.fail(f"gave up after {timeout}s waiting for {what}")


def free_port() -> int:
    """A port nobody listens on (until a test starts something there)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    """A redis-server and celery workers (each with beat) that the test starts and stops."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.port = free_port()
        self.workers: list[subprocess.Popen] = []
        self.url = f"redis://127.0.0.1:{self.port}"

    def ping(self) -> bool:
        done = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
        )
        return done.stdout.strip() == "PONG"

    def redis_start(self) -> None:
        redis_server_start(self.port, self.tmp)
        wait_for(self.ping, 30, "our redis-server to start")

    def redis_stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True
        )
        wait_for(lambda: not self.ping(), 30, "our redis-server to stop")

    def worker_start(self, name: str, **env: str) -> subprocess.Popen:
        """A worker with beat on our Redis, its log in the test's folder; ``env`` on top."""
        log = self.tmp / f"{name}.log"
        process = worker_spawn(
            name,
            log,
            options=["-B", "--schedule", str(self.tmp / f"{name}-beat"), "--concurrency=1"],
            env={
                "CELERY_BROKER_URL": f"{self.url}/0",
                "CELERY_RESULT_BACKEND": f"{self.url}/1",
                **env,
            },
        )
        self.workers.append(process)
        wait_for(lambda: "ready" in log.read_text(), 60, f"worker {name} to start")
        return process

    def kill(self, process: subprocess.Popen) -> None:
        worker_stop(process, kill=True)

    def close(self) -> None:
        for process in self.workers:
            worker_stop(process)
        if self.ping():
            self.redis_stop()


@pytest.fixture
def stack(transactional_db, tmp_path):
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server is not installed")
    if connection.vendor != "postgresql":
        pytest.skip("the workers need the PostgreSQL test database")
    own = Stack(tmp_path)
    conf = celery_app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_always_eager)

    def repoint(broker, backend, eager):
        conf.broker_url, conf.result_backend, conf.task_always_eager = broker, backend, eager
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        celery_app._backend_cache = None
        celery_app._local.__dict__.pop("backend", None)

    repoint(f"{own.url}/0", f"{own.url}/1", False)  # this process sends to our Redis too
    try:
        yield own
    finally:
        own.close()  # the workers stop before the test database is flushed
        repoint(*saved)


def redis_cache(port: int) -> dict:
    """Django's cache settings for a Redis on ``port`` that gives up after a second."""
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def redis_server_start(port: int, folder: Path | None = None) -> None:
    """A redis-server of the test's own on ``port``, in the background, storing nothing; its
    log and pid file in ``folder`` if given."""
    files = []
    if folder is not None:
        files = [
            "--dir",
            str(folder),
            "--logfile",
            str(folder / "redis.log"),
            "--pidfile",
            str(folder / "redis.pid"),
        ]
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            *files,
        ],
        check=True,
        capture_output=folder is None,
    )
