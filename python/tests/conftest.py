"""Shared fixtures of the Python tests.

`cluster`: a real local Ray cluster for one test module (a head without CPUs and two worker nodes of one CPU each,
started on this machine by `ray.cluster_utils.Cluster`), as `(cluster, [worker nodes])`; shut down after the module.
The modules that use it skip themselves first when ray is missing (`pytest.importorskip`).
"""

from typing import Any, Iterator, List, Tuple

import pytest


@pytest.fixture(scope="module")
def cluster() -> Iterator[Tuple[Any, List[Any]]]:
    from ray import cluster_utils

    c = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    yield c, workers
    c.shutdown()
