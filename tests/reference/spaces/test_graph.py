"""Graph: node/edge sampling, membership and seeding."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import Box, Discrete, Graph, GraphInstance


def test_sample_shapes() -> None:
    space = Graph(Box(-1, 1, (3,)), Discrete(4), seed=0)
    graph = space.sample(num_nodes=5, num_edges=7)
    assert isinstance(graph, GraphInstance)
    assert graph.nodes.shape == (5, 3) and graph.edges is not None and graph.edges.shape == (7,)
    assert graph.edge_links is not None and graph.edge_links.shape == (7, 2) and graph.edge_links.dtype == np.int32
    assert space.contains(graph)
    no_edges = Graph(Discrete(3), None, seed=0).sample()
    assert no_edges.edges is None and no_edges.edge_links is None


def test_contains_rejects_malformed_graphs() -> None:
    space = Graph(Box(-1, 1, (2,)), Discrete(3))
    nodes = np.zeros((3, 2), dtype=np.float32)
    assert space.contains(GraphInstance(nodes, None, None))
    assert not space.contains(GraphInstance(nodes, np.array([0]), None))
    assert not space.contains(GraphInstance(nodes, np.array([0]), np.array([[0, 5]])))
    assert not space.contains(GraphInstance(nodes + 5, None, None))
    assert not space.contains(GraphInstance(3, None, None))
    assert not space.contains((nodes, None, None))


def test_arguments() -> None:
    space = Graph(Discrete(3), Discrete(2))
    with pytest.raises(ValueError):
        space.sample(num_nodes=0)
    with pytest.raises(ValueError):
        space.sample(num_edges=-1)
    assert len(space.seed(4)) == 3 and space.seed((1, 2, 3)) == (1, 2, 3)
    with pytest.warns(UserWarning, match="edge space is None"):
        Graph(Discrete(3), None).sample(num_edges=2)
