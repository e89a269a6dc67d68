"""The engine against the brute-force oracle on random showdowns of every variant and
announcement combination (category, ranks and winners must agree exactly)."""

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.engine.showdowns import compare_with_oracle


def test_oracle_agrees_300():
    problems = compare_with_oracle(seed=1, count=300)
    assert not problems, problems[:3]


@pytest.mark.slow
def test_oracle_agrees_10000():
    chunks = [(1000 + i, 500) for i in range(20)]  # 10,000 showdowns
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(compare_with_oracle, *zip(*chunks, strict=True)))
    problems = [p for r in results for p in r]
    assert not problems, problems[:3]
