"""The health task, through a real worker in CI's second pass, and eagerly otherwise."""

import os
import uuid

import pytest

from tracker.core.tasks import health_ping


def test_health_ping_runs_eagerly_in_process():
    token = uuid.uuid4().hex
    result = health_ping.delay(token).get(timeout=5)
    assert result["token"] == token
    assert result["pid"] == os.getpid()


@pytest.mark.worker
def test_health_ping_runs_in_a_real_worker_process():
    token = uuid.uuid4().hex
    result = health_ping.delay(token).get(timeout=30)
    assert result["token"] == token
    assert result["pid"] != os.getpid(), "the task ran in the test process, not in a worker"
